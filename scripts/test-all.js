#!/usr/bin/env node
// `npm test`: the whole suite in order — typecheck, lint, build, unit, integration, e2e (real n8n app and
// browser). Each step prints its own summary; the first failing step fails the run.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const steps = [
	['typecheck', 'npx', ['tsc', '-p', 'tsconfig.test.json', '--noEmit']],
	['lint', 'npx', ['eslint', 'nodes', 'credentials', 'package.json']],
	['build', 'npm', ['run', 'build']],
	['unit', 'npx', ['jest', '--selectProjects', 'unit']],
	['integration', 'npx', ['jest', '--selectProjects', 'integration']],
	['e2e', 'npx', ['jest', '--selectProjects', 'e2e', '--runInBand']],
];
const only = process.env.TEST_STEPS ? process.env.TEST_STEPS.split(',') : undefined;

for (const [name, cmd, args] of steps) {
	if (only && !only.includes(name)) continue;
	const started = Date.now();
	console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
	const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.status !== 0) {
		console.error(`=== ${name} FAILED (${seconds} s)`);
		process.exit(result.status ?? 1);
	}
	console.log(`=== ${name} passed (${seconds} s)`);
}
