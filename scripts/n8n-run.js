#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `node scripts/n8n-run.js <path to n8n/bin/n8n> <command> [args…]`: runs the n8n CLI, and for `start` and
 * `worker` in external task-runner mode also n8n's JavaScript task runner next to it (what n8n's task runner
 * launcher does in a container set-up).
 *
 * Why: n8n 2.41 deprecates its internal runner mode (a warning on every start) and, in internal mode, always
 * tries to start a Python runner as well ("Python 3 is missing" on machines without it). In external mode n8n
 * starts neither; this wrapper starts the JavaScript runner only (the Code node's JavaScript works, Python is
 * not offered), and restarts it when it exits. Environment as set by n8nEnv() (scripts/lib/n8n-process.js): N8N_RUNNERS_MODE=external,
 * N8N_RUNNERS_AUTH_TOKEN, N8N_RUNNERS_BROKER_PORT.
 *
 * Signals: a signal for the whole process group reaches n8n and the runner by itself; one for this process alone
 * (it is not its group's leader) is passed on. The wrapper exits with n8n's exit code once both are gone. Plain CommonJS, run with the runtime's Node 24 (the same binary n8n runs on).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { PORTS } = require('./lib/places');

const [n8nBin, ...args] = process.argv.slice(2);
if (!n8nBin) {
	console.error('usage: node scripts/n8n-run.js <n8n/bin/n8n> <command> [args…]');
	process.exit(2);
}
const env = process.env;
const withRunner =
	['start', 'worker'].includes(args[0]) &&
	env.N8N_RUNNERS_MODE === 'external' &&
	Boolean(env.N8N_RUNNERS_AUTH_TOKEN);

let stopping = false;
/** @type {import('node:child_process').ChildProcess | null} */
let runner = null;
const n8n = spawn(process.execPath, [n8nBin, ...args], { stdio: 'inherit', env });

/**
 * Is this process the leader of its process group? Then a signal for it is a signal for the whole group (stopGroup
 * in scripts/lib/processes.js, a terminal's Ctrl-C): n8n and the runner got it too. Passing it on as well would hand
 * n8n a second SIGTERM, and n8n listens for the first one only (`process.once`): the second would kill it
 * mid-shutdown. Linux: /proc/self/stat, fields after the command name: state, ppid, pgrp.
 */
function isGroupLeader() {
	try {
		const stat = fs.readFileSync('/proc/self/stat', 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === process.pid;
	} catch {
		return false;
	}
}
const LEADER = isGroupLeader();

/** @param {NodeJS.Signals} signal */
function forward(signal) {
	stopping = true;
	if (LEADER) return;
	for (const child of [n8n, runner]) {
		if (child && child.exitCode === null && child.signalCode === null) {
			try {
				child.kill(signal);
			} catch {
				/* already gone */
			}
		}
	}
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']))
	process.on(signal, () => forward(signal));

n8n.on('exit', (code, signal) => {
	stopping = true;
	const done = () => process.exit(code ?? (signal ? 1 : 0));
	const last = runner;
	if (last && last.exitCode === null && last.signalCode === null) {
		last.once('exit', done);
		last.kill('SIGTERM');
		setTimeout(() => {
			try {
				last.kill('SIGKILL');
			} catch {
				/* gone */
			}
		}, 10000).unref();
	} else done();
});

/**
 * POST <broker>/runners/auth {token} -> a one-time grant token (the broker answers { data: { token } }).
 * @returns {Promise<string>}
 */
function grantToken() {
	const body = JSON.stringify({ token: env.N8N_RUNNERS_AUTH_TOKEN });
	const base = (env.N8N_RUNNERS_PATH || '/runners').replace(/^\/?/, '/');
	return new Promise((resolve, reject) => {
		const req = http.request(
			{
				host: '127.0.0.1',
				port: Number(env.N8N_RUNNERS_BROKER_PORT || PORTS.broker),
				path: `${base}/auth`,
				method: 'POST',
				headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
				timeout: 5000,
			},
			(res) => {
				let text = '';
				res.on('data', (c) => (text += c));
				res.on('end', () => {
					try {
						const token = JSON.parse(text).data.token;
						if (res.statusCode === 200 && token) return resolve(token);
					} catch {
						/* fall through */
					}
					reject(new Error(`task broker auth: HTTP ${res.statusCode}`));
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error('task broker auth: timeout')));
		req.on('error', reject);
		req.end(body);
	});
}

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

async function runRunners() {
	const start = require.resolve('@n8n/task-runner/start', {
		paths: [path.resolve(n8nBin, '..', '..')],
	});
	let failures = 0;
	while (!stopping) {
		let token;
		try {
			token = await grantToken();
		} catch {
			await sleep(500); // the broker is not listening yet
			continue;
		}
		if (stopping) return;
		const started = Date.now();
		const child = spawn(
			process.execPath,
			['--disallow-code-generation-from-strings', '--disable-proto=delete', start],
			{
				stdio: 'inherit',
				env: {
					PATH: env.PATH,
					HOME: env.HOME,
					GENERIC_TIMEZONE: env.GENERIC_TIMEZONE,
					N8N_RUNNERS_GRANT_TOKEN: token,
					N8N_RUNNERS_TASK_BROKER_URI: `http://127.0.0.1:${env.N8N_RUNNERS_BROKER_PORT || PORTS.broker}`,
					N8N_RUNNERS_MAX_CONCURRENCY: env.N8N_RUNNERS_MAX_CONCURRENCY || '5',
					N8N_RUNNERS_TASK_TIMEOUT: env.N8N_RUNNERS_TASK_TIMEOUT || '300',
					...(env.N8N_RUNNERS_MAX_PAYLOAD
						? { N8N_RUNNERS_MAX_PAYLOAD: env.N8N_RUNNERS_MAX_PAYLOAD }
						: {}),
				},
			},
		);
		runner = child;
		await new Promise((resolve) => child.once('exit', resolve));
		if (stopping) return;
		// A runner that dies at once again and again (a broken install) is not restarted forever.
		failures = Date.now() - started < 5000 ? failures + 1 : 0;
		if (failures >= 5) {
			console.error('[n8n-run] the JavaScript task runner keeps exiting; not restarting it again');
			return;
		}
		await sleep(1000);
	}
}

if (withRunner) runRunners().catch((e) => console.error(`[n8n-run] task runner: ${e.message}`));
