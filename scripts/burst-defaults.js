#!/usr/bin/env node
// @ts-check
'use strict';
// `npm run test:burst-defaults [-- never retry3 backoff]`: the burst of issue 44 on n8n's own defaults (no production
// concurrency limit, SQLite's default pool, no lazy isolates), once per sender: 1,000 executions waiting on Start
// Journey (node version 3), their final callbacks over 50 s, then the reconciler; each run asserts every execution
// resumed exactly once (0 in error, 0 stuck `running`, none waiting) and prints its figures line. Each run takes 10-20
// minutes on 2 cores: heavier than `npm test`, run it under load with
//   npm run test:loaded -- npm run test:burst-defaults
// Senders (test/scale/reconcile-flush.test.cts): backoff (2 s doubling to 1 min, 12 attempts), retry3 (3 retries 5 s
// apart), never (one attempt). The order given is the order run (default: backoff, retry3, never); the exit code is
// the first failure's.
//
// Plain CommonJS without dependencies, like the other scripts.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const SENDERS = ['backoff', 'retry3', 'never'];
const given = process.argv.slice(2);
const senders = given.length ? given : SENDERS;
for (const sender of senders)
	if (!SENDERS.includes(sender)) {
		console.error(`unknown sender ${sender}: one of ${SENDERS.join(', ')}`);
		process.exit(2);
	}

let exitCode = 0;
const results = [];
for (const sender of senders) {
	console.log(`=== burst on n8n's defaults, sender ${sender}`);
	const started = Date.now();
	const run = spawnSync(
		'npx',
		['jest', 'test/scale/reconcile-flush.test.cts', '--selectProjects', 'scale', '--runInBand'],
		{
			cwd: path.join(__dirname, '..'),
			stdio: 'inherit',
			env: {
				...process.env,
				FINVERIFY_N8N_SETTINGS: 'defaults',
				FINVERIFY_FLUSH_LOAD: process.env.FINVERIFY_FLUSH_LOAD || '1000',
				FINVERIFY_FLUSH_SPREAD_MS: process.env.FINVERIFY_FLUSH_SPREAD_MS || '50000',
				FINVERIFY_SENDER: sender,
			},
		},
	);
	const status = run.status ?? 1;
	results.push(
		`${sender}: ${status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
	);
	if (status !== 0 && exitCode === 0) exitCode = status;
}
console.log(`=== burst on n8n's defaults: ${results.join('; ')}`);
process.exit(exitCode);
