/**
 * The service's contract, openapi/finverify.openapi.yaml, passes the OpenAPI linter (redocly, recommended rules)
 * with no errors or warnings, and the linter can fail: a copy where two operations share an operationId is refused.
 * A tool run (a process of its own), so it is in the scan step; test/sandbox/contract.test.cts checks the sandbox's
 * answers against the document.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const CONTRACT = path.join(REPO, 'openapi', 'finverify.openapi.yaml');

jest.setTimeout(120_000);

function lint(file: string) {
	const result = spawnSync(
		process.execPath,
		[require.resolve('@redocly/cli/bin/cli.js', { paths: [REPO] }), 'lint', file, '--format=json'],
		{ cwd: REPO, encoding: 'utf8' },
	);
	const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
		totals: { errors: number; warnings: number };
	};
	return { status: result.status, totals: report.totals };
}

test('the contract passes with no errors or warnings', () => {
	const { status, totals } = lint(CONTRACT);
	expect(totals).toEqual(expect.objectContaining({ errors: 0, warnings: 0 }));
	expect(status).toBe(0);
});

test('a broken copy fails (the negative case)', () => {
	const dir = mkdtempSync(path.join(tmpdir(), 'finverify-openapi-'));
	try {
		const broken = path.join(dir, 'broken.openapi.yaml');
		const text = readFileSync(CONTRACT, 'utf8');
		const [first, second] = [...text.matchAll(/^(\s+operationId: )(\S+)$/gm)];
		expect(second).toBeDefined();
		writeFileSync(
			broken,
			text.slice(0, second.index) +
				`${second[1]}${first[2]}` +
				text.slice(second.index! + second[0].length),
		);
		const { status, totals } = lint(broken);
		expect(totals.errors + totals.warnings).toBeGreaterThan(0);
		expect(status).not.toBe(0);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
