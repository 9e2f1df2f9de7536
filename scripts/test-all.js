#!/usr/bin/env node
// `npm test`: the whole suite in order — typecheck, lint, build, unit, integration, e2e (real n8n app and
// browser). Each step prints its own output; the first failing step fails the run. The last line sums the
// jest steps as "tests: N passed, N failed".
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const reports = mkdtempSync(path.join(os.tmpdir(), 'finverify-test-'));
const jest = (project, extra = []) => [
	'npx',
	[
		'jest',
		'--selectProjects',
		project,
		...extra,
		'--json',
		'--outputFile',
		path.join(reports, `${project}.json`),
	],
];
const steps = [
	['typecheck', 'npx', ['tsc', '-p', 'tsconfig.test.json', '--noEmit']],
	['format', 'npm', ['run', 'format:check']],
	['lint', 'npm', ['run', 'lint']],
	['build', 'npm', ['run', 'build']],
	['unit', ...jest('unit')],
	['integration', ...jest('integration')],
	['e2e', ...jest('e2e', ['--runInBand'])],
];
const only = process.env.TEST_STEPS ? process.env.TEST_STEPS.split(',') : undefined;
const totals = { passed: 0, failed: 0, skipped: 0 };

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
	console.log(
		`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`,
	);
}

for (const [name, cmd, args] of steps) {
	if (only && !only.includes(name)) continue;
	const started = Date.now();
	console.log(`\n=== ${name}: ${cmd} ${args.filter((a) => !a.startsWith(reports)).join(' ')}`);
	const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
	count(name);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.status !== 0) {
		console.error(`=== ${name} FAILED (${seconds} s)`);
		if (totals.failed === 0) totals.failed = 1; // a failing non-jest step still fails the count
		summary();
		process.exit(result.status ?? 1);
	}
	console.log(`=== ${name} passed (${seconds} s)`);
}
summary();
