/**
 * The release set-up: the GitHub Actions workflows say what n8n's publishing rules need: CI runs `npm test`;
 * publishing happens on a version tag from GitHub Actions with `id-token: write` (npm provenance), after the fast
 * checks and the package scan, through `npm run release`, public, with provenance. (actionlint checks the files in
 * `npm run lint`; test/scan/actionlint.test.cts shows it catches a broken workflow.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

const REPO = path.join(__dirname, '..', '..');
const WORKFLOWS = path.join(REPO, '.github', 'workflows');

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
}
interface Workflow {
	on: Record<string, unknown>;
	permissions?: Record<string, string>;
	jobs: Record<string, { 'runs-on': string; permissions?: Record<string, string>; steps: Step[] }>;
}
const workflow = (name: string) =>
	parse(readFileSync(path.join(WORKFLOWS, name), 'utf8')) as Workflow;
const steps = (wf: Workflow) => Object.values(wf.jobs).flatMap((job) => job.steps);

describe('ci.yml', () => {
	const wf = workflow('ci.yml');

	test('runs on pushes to main and on pull requests', () => {
		expect(wf.on.push).toEqual({ branches: ['main'] });
		expect(wf.on).toHaveProperty('pull_request');
	});

	test('runs `npm test` on ubuntu-latest with Node 20, the n8n runtime cached by n8n version', () => {
		const job = Object.values(wf.jobs)[0];
		expect(job['runs-on']).toBe('ubuntu-latest');
		const all = steps(wf);
		expect(all.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toMatchObject({
			'node-version': 20,
		});
		const cache = all.find((s) => s.uses?.startsWith('actions/cache@'));
		expect(cache?.with?.path).toBe('.cache/runtime');
		expect(String(cache?.with?.key)).toContain('steps.versions.outputs.n8n');
		expect(all.map((s) => s.run?.trim())).toContain('npm test');
	});
});

describe('publish.yml and package.json', () => {
	const wf = workflow('publish.yml');
	const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
		publishConfig?: Record<string, unknown>;
	};

	test('publishes on a version tag, with id-token: write and contents: read', () => {
		expect(wf.on).toEqual({ push: { tags: ['*.*.*'] } });
		const job = Object.values(wf.jobs)[0];
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	test('runs the fast checks and the package scan before `npm run release`', () => {
		const runs = steps(wf).map((s) => s.run?.trim() ?? '');
		const release = runs.findIndex((r) =>
			r.split('\n').some((l) => l.trim() === 'npm run release'),
		);
		expect(runs.indexOf('npm run test:fast')).toBeGreaterThan(-1);
		expect(runs.indexOf('npm run test:fast')).toBeLessThan(release);
		expect(runs.indexOf('npm run test:scan')).toBeGreaterThan(-1);
		expect(runs.indexOf('npm run test:scan')).toBeLessThan(release);
		expect(pkg.scripts['test:scan']).toBe('jest --selectProjects scan');
	});

	test('publishes through `npm run release` (n8n-node release), public and with provenance', () => {
		const runs = steps(wf).map((s) => s.run ?? '');
		expect(runs.some((r) => r.split('\n').some((l) => l.trim() === 'npm run release'))).toBe(true);
		expect(pkg.scripts.release).toBe('n8n-node release');
		expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease'); // a bare `npm publish` is refused
		expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true });
	});

	test('then publishes the simulator the README runs with npx: built, with provenance, once per version', () => {
		const runs = steps(wf).map((s) => s.run ?? '');
		const release = runs.findIndex((r) =>
			r.split('\n').some((l) => l.trim() === 'npm run release'),
		);
		const simulator = runs.findIndex((r) => r.includes('npm publish ./sandbox'));
		expect(simulator).toBeGreaterThan(release);
		const lines = runs[simulator].split('\n').map((l) => l.trim());
		expect(lines.indexOf('npm run build:sandbox')).toBeLessThan(
			lines.findIndex((l) => l.startsWith('npm publish ./sandbox')),
		);
		expect(lines).toContain('npm publish ./sandbox --provenance --access public');
		// skipped when that version is on npm already (the simulator is versioned on its own)
		expect(runs[simulator]).toMatch(/npm view "\$name@\$version" version/);
		const sandboxPkg = JSON.parse(readFileSync(path.join(REPO, 'sandbox', 'package.json'), 'utf8'));
		expect(sandboxPkg.name).toBe('n8n-nodes-finverify-sandbox');
		expect(sandboxPkg.bin['n8n-nodes-finverify-sandbox']).toBe('dist/main.cjs');
		expect(pkg.scripts['build:sandbox']).toBe('node scripts/build-sandbox.js');
	});
});
