#!/usr/bin/env node
// @ts-check
'use strict';
// `npm test`: the whole suite — typecheck, format, lint, build, unit and integration (all six at the same time),
// then scan (the slow tool runs of test/scan/: n8n's package scanner, actionlint, …), e2e (real n8n app and
// browser), scale (the real n8n app under load), burst (a burst of callbacks on n8n's own defaults).
// It works as the first command on a fresh clone: before any step it installs what is missing
// (scripts/bootstrap.js: `npm ci` when node_modules is missing or older than package-lock.json; for the e2e step
// the cached n8n runtime, scripts/runtime.js, and Debian's Chromium when running as root).
// Each step prints its own output (the steps run together print theirs as each ends: see TOGETHER); the first
// failing step fails the run and stops the steps running beside it. The last line sums the jest steps as
// "tests: N passed, N failed".
//
//   npm test                 every step
//   npm run test:fast        typecheck, format, lint, build, unit, integration (no scan, no real app, no browser)
//   TEST_STEPS=lint,unit npm test    only the named steps (in the order above)
//   --dry-run                prints the steps it would run (and those it leaves out), runs nothing
//
// Plain CommonJS without dependencies: it runs before node_modules exists.
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const bootstrap = require('./bootstrap');
const { ENV } = require('./lib/places');

/** @typedef {[name: string, command: string, args: string[]]} Step */

const root = path.join(__dirname, '..');
const reports = mkdtempSync(path.join(os.tmpdir(), 'finverify-test-'));
/** @param {string} project @param {string[]} [extra] @returns {[string, string[]]} */
const jest = (project, extra = []) => [
	'npx',
	[
		'--no-install',
		'jest',
		'--selectProjects',
		project,
		...extra,
		'--json',
		'--outputFile',
		path.join(reports, `${project}.json`),
	],
];
/** @type {Step[]} */
const steps = [
	['typecheck', 'npm', ['run', 'typecheck']], // tsconfig.test.json (TypeScript) + tsconfig.scripts.json (scripts/)
	['format', 'npm', ['run', 'format:check']],
	['lint', 'npm', ['run', 'lint']],
	['build', 'npm', ['run', 'build']],
	// every core (jest's default, cores - 1, is one worker on 2 cores): the unit files are CPU work
	['unit', ...jest('unit', ['--maxWorkers=100%'])],
	// 4 workers even on 2 cores: the integration tests mostly wait (the node's 5-second polls, retries, webhooks),
	// so their files overlap well; jest's default (cores - 1) runs them one at a time on 2 cores
	['integration', ...jest('integration', ['--maxWorkers=4'])],
	// the slow tool runs, once (after the build: it packs dist/): n8n's scanner over the packed package,
	// actionlint, the OpenAPI linter, a real tsc --watch, the documented commands
	['scan', ...jest('scan')],
	['e2e', ...jest('e2e', ['--runInBand'])],
	// the real n8n app under load (test/scale/): 1,000 executions waiting for callbacks, all resumed, on one n8n with
	// SQLite, and the same on queue mode with PostgreSQL
	['scale', ...jest('scale', ['--runInBand'])],
	// bursts of final callbacks, then the reconciler (issue 44): on n8n's own defaults 1,000 executions waiting, their
	// callbacks over 50 s, once per sender (test/scale/defaults/: backs off, retries 3 times, never retries), and 2,000
	// flushed within seconds on `npm start`'s settings (reconcile-flush); the four n8n at the same time, so each runs
	// on a machine the others keep busy
	['burst', ...jest('burst', ['--maxWorkers=4'])],
];
// Steps that run at the same time when selected one after another: none needs another's result (the tests load
// the package from its TypeScript sources, not from dist/), each of the checks is single-threaded, and the
// integration tests mostly wait (polls, retries, webhooks), so together they use the cores that one alone leaves
// idle: the integration step's waiting is no longer added to the checks' time. Their output is printed as each
// finishes; the first failure stops the others.
const TOGETHER = [['typecheck', 'format', 'lint', 'build', 'unit', 'integration']];
// The inner loop: no scan (a minute of npm pack and n8n's scanner) and no real n8n app. `npm test` (CI) runs both.
const FAST = ['typecheck', 'format', 'lint', 'build', 'unit', 'integration'];
const DRY_RUN = process.argv.includes('--dry-run');
const only = process.env[ENV.TEST_STEPS]
	? String(process.env[ENV.TEST_STEPS])
			.split(',')
			.map((s) => s.trim())
	: process.argv.includes('--fast')
		? FAST
		: undefined;
const unknown = (only || []).filter((s) => !steps.some(([name]) => name === s));
if (unknown.length) {
	console.error(
		`unknown step(s): ${unknown.join(', ')} (steps: ${steps.map(([n]) => n).join(', ')})`,
	);
	process.exit(2);
}
const selected = steps.filter(([name]) => !only || only.includes(name));
const left = steps
	.filter(([name]) => !selected.some(([picked]) => picked === name))
	.map(([n]) => n);
const T0 = Date.now();
const totals = { passed: 0, failed: 0, skipped: 0 };
/** @type {string[]} */
const notes = []; // said again at the very end, next to the counts

/** Add a jest step's counts from its JSON report. @param {string} name */
function count(name) {
	try {
		const report = JSON.parse(readFileSync(path.join(reports, `${name}.json`), 'utf8'));
		totals.passed += report.numPassedTests;
		totals.failed += report.numFailedTests;
		totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
	} catch {
		// not a jest step, or jest failed before writing its report
	}
}

function summary() {
	rmSync(reports, { recursive: true, force: true });
	for (const note of notes) console.log(`\n${note}`);
	console.log(
		`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (${((Date.now() - T0) / 1000).toFixed(0)} s)`,
	);
}

/** @param {string} name @param {string} seconds @param {number | null} [status] @returns {never} */
function fail(name, seconds, status) {
	console.error(`=== ${name} FAILED (${seconds} s)`);
	if (totals.failed === 0) totals.failed = 1; // a failing non-jest step still fails the count
	summary();
	process.exit(status ?? 1);
}

async function prepare() {
	const say = (/** @type {string} */ m) => console.log(`=== setup: ${m}`);
	const started = Date.now();
	try {
		await bootstrap.ensureDependencies({ log: say });
	} catch (e) {
		console.error(`=== setup: ${e.message}`);
		fail('setup (npm ci)', ((Date.now() - started) / 1000).toFixed(1), 1);
	}
	if (!selected.some(([name]) => ['e2e', 'scale', 'burst'].includes(name))) return;
	try {
		const { ensureRuntime } = require('./runtime');
		const runtime = await ensureRuntime({ log: say });
		say(`n8n ${runtime.n8nVersion} runtime ready (${runtime.dir})`);
	} catch (e) {
		console.error(`=== setup: the n8n runtime could not be installed: ${e.message}`);
		fail('setup (n8n runtime)', ((Date.now() - started) / 1000).toFixed(1), 1);
	}
	if (!selected.some(([name]) => name === 'e2e')) return; // the browser suite is in the e2e step
	const chromium = bootstrap.ensureChromium({ log: say });
	if (chromium.ok) say(`chromium: ${chromium.path}`);
	else {
		// Not a reason to stop: every other e2e suite still runs. The browser suite fails loudly on its own.
		const note = `!!! BROWSER SUITE FAILS: ${chromium.message}`;
		console.error(`\n${note}\n`);
		notes.push(note);
	}
}

async function main() {
	if (left.length)
		notes.push(
			`not run: ${left.join(', ')}${left.includes('scan') ? ' (the package scan and actionlint run in `npm test` and CI; alone: TEST_STEPS=build,scan npm test)' : ''}`,
		);
	const batches = batch(selected);
	if (DRY_RUN) {
		for (const group of batches)
			for (const [name, cmd, args] of group)
				console.log(
					`${name}: ${cmd} ${args.filter((a) => !a.startsWith(reports)).join(' ')}${
						group.length > 1
							? `   (together with ${group
									.filter(([n]) => n !== name)
									.map(([n]) => n)
									.join(', ')})`
							: ''
					}`,
				);
		for (const note of notes) console.log(note);
		rmSync(reports, { recursive: true, force: true });
		return;
	}
	await prepare();
	for (const group of batches) {
		if (group.length > 1)
			console.log(
				`\n=== ${group.map(([n]) => n).join(', ')}: together (each one's output when it ends)`,
			);
		const running = group.map((step) => runStep(step, group.length > 1));
		const failed = await firstFailure(running);
		if (failed) {
			// the steps still running beside it are stopped: their result no longer decides anything
			const others = running.filter(
				(r) => r.child.exitCode === null && r.child.signalCode === null,
			);
			for (const other of others) signalGroup(other.child, 'SIGTERM');
			await Promise.all(others.map((r) => r.done));
			fail(failed.name, failed.seconds, failed.status);
		}
	}
	summary();
}

/**
 * The selected steps in order, consecutive members of one TOGETHER group in one batch.
 * @param {Step[]} list @returns {Step[][]}
 */
function batch(list) {
	/** @type {Step[][]} */
	const batches = [];
	for (const step of list) {
		const last = batches[batches.length - 1];
		const group = TOGETHER.find((g) => g.includes(step[0]));
		if (last && group && last.every(([n]) => group.includes(n))) last.push(step);
		else batches.push([step]);
	}
	return batches;
}

/** @typedef {{ name: string, status: number | null, seconds: string }} StepResult */

/**
 * Steps running beside others have their own process group (npm and npx do not pass a signal on to jest, nor jest
 * to its workers), so a failure beside them stops each as a whole, and Ctrl-C, which the terminal sends to this
 * process's group only, is passed on to theirs.
 * @type {Set<import('node:child_process').ChildProcess>}
 */
const groups = new Set();
/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal */
function signalGroup(child, signal) {
	try {
		if (child.pid) process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}
for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM']))
	process.on(signal, () => {
		for (const child of groups) signalGroup(child, signal);
		process.exit(130);
	});

/**
 * The first step of a group to fail, as soon as it fails; undefined once all passed.
 * @param {Array<{ done: Promise<StepResult> }>} running @returns {Promise<StepResult | undefined>}
 */
function firstFailure(running) {
	return new Promise((resolve) => {
		let left = running.length;
		for (const { done } of running)
			void done.then((result) => {
				if (result.status !== 0) resolve(result);
				else if (--left === 0) resolve(undefined);
			});
	});
}

/**
 * One step; alone its output goes straight to the terminal, together with others it is printed when it ends.
 * @param {Step} step @param {boolean} buffered
 * @returns {{ child: import('node:child_process').ChildProcess, done: Promise<StepResult> }}
 */
function runStep([name, cmd, args], buffered) {
	const started = Date.now();
	const header = `=== ${name}: ${cmd} ${args.filter((a) => !a.startsWith(reports)).join(' ')}`;
	if (!buffered) console.log(`\n${header}`);
	const child = spawn(cmd, args, {
		cwd: root,
		env: process.env,
		stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
		detached: buffered,
	});
	if (buffered) groups.add(child);
	/** @type {Buffer[]} */
	const output = [];
	child.stdout?.on('data', (c) => output.push(c));
	child.stderr?.on('data', (c) => output.push(c));
	const done = new Promise((resolve) => {
		child.on('close', (status, signal) => {
			groups.delete(child);
			count(name);
			const seconds = ((Date.now() - started) / 1000).toFixed(1);
			if (buffered) process.stdout.write(`\n${header}\n${Buffer.concat(output).toString()}`);
			if (status === 0) console.log(`=== ${name} passed (${seconds} s)`);
			else if (signal) console.log(`=== ${name} stopped (${seconds} s): another step failed`);
			resolve({ name, status, seconds });
		});
	});
	return { child, done: /** @type {Promise<StepResult>} */ (done) };
}

main().catch((e) => {
	console.error(e && e.stack ? e.stack : e);
	process.exit(1);
});
