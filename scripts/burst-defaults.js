#!/usr/bin/env node
// @ts-check
'use strict';
// `npm run test:burst-defaults [-- never retry3 backoff]`: the burst of issue 44 on n8n's own defaults (no production
// concurrency limit, SQLite's default pool, no lazy isolates), once per sender (test/scale/defaults/): 1,000
// executions waiting on Start Journey (node version 3), their final callbacks evenly over 50 s, then the reconciler;
// each run asserts every execution resumed exactly once (0 in error, 0 stuck `running`, none waiting) and logs its
// figures line (`burst-defaults-<sender>: {…}`).
//
//   npm run test:burst-defaults                 the three senders at the same time, each n8n loaded by the other
//                                               two (20 minutes on 2 cores; `npm test`'s burst step runs them
//                                               with the 2,000-callback flush of test/scale/reconcile-flush.test.cts)
//   npm run test:burst-defaults -- retry3 never the named senders one after another (10-20 minutes each); under
//                                               load: npm run test:loaded -- npm run test:burst-defaults -- backoff
//
// Senders: backoff (2 s doubling to 1 min, 12 attempts), retry3 (3 retries 5 s apart), never (one attempt). The exit
// code is the first failure's.
//
// Plain CommonJS without dependencies, like the other scripts.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const SENDERS = ['backoff', 'retry3', 'never'];
const given = process.argv.slice(2);
for (const sender of given)
	if (!SENDERS.includes(sender)) {
		console.error(`unknown sender ${sender}: one of ${SENDERS.join(', ')}`);
		process.exit(2);
	}

/** @param {string[]} args @returns {number} */
const jest = (args) =>
	spawnSync('npx', ['--no-install', 'jest', '--selectProjects', 'burst', ...args], {
		cwd: path.join(__dirname, '..'),
		stdio: 'inherit',
	}).status ?? 1;

let exitCode = 0;
const results = [];
for (const run of given.length ? given.map((s) => [s]) : [SENDERS]) {
	const label = run.length > 1 ? 'the three senders at the same time' : `sender ${run[0]}`;
	console.log(`=== burst on n8n's defaults, ${label}`);
	const started = Date.now();
	const files = run.map((s) => `test/scale/defaults/${s}.test.cts`); // not the flush: `npm test`'s burst step adds it
	const status = jest(
		run.length > 1 ? [`--maxWorkers=${run.length}`, ...files] : ['--runInBand', ...files],
	);
	results.push(
		`${label}: ${status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
	);
	if (status !== 0 && exitCode === 0) exitCode = status;
}
console.log(`=== burst on n8n's defaults: ${results.join('; ')}`);
process.exit(exitCode);
