/**
 * The package as npm would publish it: `npm pack` into a temp folder, unpacked, then n8n's own scanner
 * (`@n8n/scan-community-package`, its exported analyzePackage()) over the source and the tarball, exactly the two
 * legs n8n's verification lints (scripts/scan-package.js). Any finding fails. The tarball holds dist/ and the
 * files npm always adds, nothing else, and the package has no runtime dependencies.
 *
 * A negative case proves the scan can fail: a copy of the unpacked package with a console.log in a node file.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const SCRIPT = path.join(REPO, 'scripts', 'scan-package.js');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const { packRepository } = require(SCRIPT) as {
	packRepository(): { dir: string; files: string[]; cleanup(): void };
};

interface Leg {
	passed: boolean;
	message?: string;
	details?: string;
}
interface ScanOutput {
	files?: string[];
	dependencies?: Record<string, string>;
	source?: Leg;
	tarball: Leg;
	passed: boolean;
}

jest.setTimeout(180_000);

/** The scanner is ESM: it runs in its own node process (jest's module loader does not load .mjs). */
function runScan(args: string[]): { code: number | null; out: ScanOutput; stderr: string } {
	const r = spawnSync(process.execPath, [SCRIPT, '--json', ...args], {
		cwd: REPO,
		encoding: 'utf8',
	});
	let out: ScanOutput;
	try {
		out = JSON.parse(r.stdout) as ScanOutput;
	} catch {
		throw new Error(
			`scan-package.js printed no JSON (exit ${r.status}):\n${r.stdout}\n${r.stderr}`,
		);
	}
	return { code: r.status, out, stderr: r.stderr };
}

beforeAll(() => {
	if (!existsSync(path.join(REPO, 'dist', 'nodes', 'FinVerify', 'FinVerify.node.js')))
		throw new Error(
			'dist/ is missing: run `npm run build` first (npm test builds before this step)',
		);
});

describe('the packed package under n8n’s scanner', () => {
	let scan: ReturnType<typeof runScan>;
	beforeAll(() => {
		scan = runScan([]);
	});

	test('source and tarball legs pass without findings', () => {
		expect({
			code: scan.code,
			source: scan.out.source,
			tarball: scan.out.tarball,
		}).toEqual({ code: 0, source: { passed: true }, tarball: { passed: true } });
	});

	test('the tarball holds dist/, package.json, README.md, LICENSE and index.js only', () => {
		const files = scan.out.files ?? [];
		const outside = files.filter(
			(f) =>
				!f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE', 'index.js'].includes(f),
		);
		expect(outside).toEqual([]);
		expect(files).toEqual(
			expect.arrayContaining([
				'package.json',
				'README.md',
				'LICENSE',
				'index.js',
				'dist/nodes/FinVerify/FinVerify.node.js',
				'dist/nodes/FinVerifyTrigger/FinVerifyTrigger.node.js',
				'dist/credentials/FinVerifyApi.credentials.js',
			]),
		);
		// nothing of the development code travels along
		expect(files.filter((f) => /(^|\/)(test|sandbox|bench|scripts)\//.test(f))).toEqual([]);
		expect(files.filter((f) => /\.(cts|ts)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
	});

	test('zero runtime dependencies', () => {
		expect(scan.out.dependencies).toEqual({});
	});
});

test('the scan fails on a finding (console.log added to a node file of the unpacked package)', () => {
	const packed = packRepository();
	const copy = mkdtempSync(path.join(tmpdir(), 'finverify-scan-negative-'));
	try {
		cpSync(packed.dir, copy, { recursive: true });
		appendFileSync(
			path.join(copy, 'dist', 'nodes', 'FinVerify', 'FinVerify.node.js'),
			'\nconsole.log("leak");\n',
		);
		const bad = runScan(['--tarball-dir', copy]);
		expect(bad.code).toBe(1);
		expect(bad.out.tarball.passed).toBe(false);
		expect(bad.out.tarball.details).toMatch(/no-console/);

		// the untouched copy passes: the failure above comes from the added line alone
		const good = runScan(['--tarball-dir', packed.dir]);
		expect(good.code).toBe(0);
	} finally {
		packed.cleanup();
		rmSync(copy, { recursive: true, force: true });
	}
});
