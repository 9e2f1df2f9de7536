#!/usr/bin/env node
// @ts-check
'use strict';
// `npm test`: the whole suite in order — typecheck, format, lint, build, unit, integration, e2e (real n8n app and
// browser), scale (the real n8n app under load). It works as the first command on a fresh clone: before any step it installs what is missing
// (scripts/bootstrap.js: `npm ci` when node_modules is missing or older than package-lock.json; for the e2e step
// the cached n8n runtime, scripts/runtime.js, and Debian's Chromium when running as root).
// Each step prints its own output; the first failing step fails the run. The last line sums the jest steps as
// "tests: N passed, N failed".
//
//   npm test                 every step
//   npm run test:fast        typecheck, format, lint, build, unit, integration (no real app, no browser)
//   TEST_STEPS=lint,unit npm test    only the named steps (in the order above)
//
// Plain CommonJS without dependencies: it runs before node_modules exists.
const { spawnSync } = require('node:child_process');
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
	['unit', ...jest('unit')],
	['integration', ...jest('integration')],
	['e2e', ...jest('e2e', ['--runInBand'])],
	// the real n8n app under load (test/scale/): 500 executions waiting for callbacks, all resumed
	['scale', ...jest('scale', ['--runInBand'])],
];
const FAST = ['typecheck', 'format', 'lint', 'build', 'unit', 'integration'];
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
	if (!selected.some(([name]) => name === 'e2e' || name === 'scale')) return;
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
	await prepare();
	for (const [name, cmd, args] of selected) {
		const started = Date.now();
		console.log(`\n=== ${name}: ${cmd} ${args.filter((a) => !a.startsWith(reports)).join(' ')}`);
		const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
		count(name);
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		if (result.status !== 0) fail(name, seconds, result.status);
		console.log(`=== ${name} passed (${seconds} s)`);
	}
	summary();
}

main().catch((e) => {
	console.error(e && e.stack ? e.stack : e);
	process.exit(1);
});
