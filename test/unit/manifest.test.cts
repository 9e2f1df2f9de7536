/**
 * The manifest users install: `npm pack` of this repository, its package.json read from the tarball. It
 * carries what n8n and npm need to load the package and nothing of the development set-up: no runtime
 * dependencies, the optional n8n-workflow peer, the n8n section, and no install-script policy
 * (`allowScripts`: npm reads it from the root project only, so in a package it is noise; the repository's
 * own install runs no scripts, `.npmrc` sets `ignore-scripts=true`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

type Manifest = Record<string, unknown> & {
	files?: string[];
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
	n8n?: { nodes?: string[]; credentials?: string[] };
};

/** Keys that only set up development or installs of this repository, never a user's install. */
const DEVELOPMENT_ONLY = ['allowScripts', 'workspaces', 'overrides', 'devEngines'];

/** What in a manifest should not reach users. */
function manifestProblems(manifest: Manifest): string[] {
	const problems = DEVELOPMENT_ONLY.filter((key) => key in manifest).map(
		(key) => `${key}: for development only`,
	);
	if (Object.keys(manifest.dependencies ?? {}).length > 0)
		problems.push('dependencies: a community node has none');
	if (manifest.peerDependencies?.['n8n-workflow'] !== '*')
		problems.push('peerDependencies: n8n-workflow "*" expected');
	if (manifest.peerDependenciesMeta?.['n8n-workflow']?.optional !== true)
		problems.push('peerDependenciesMeta: the n8n-workflow peer must be optional');
	for (const file of [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])])
		if (!file.startsWith('dist/')) problems.push(`n8n: ${file} is not under dist/`);
	if ((manifest.n8n?.nodes ?? []).length === 0) problems.push('n8n: no nodes');
	return problems;
}

let packed: Manifest;
let packedFiles: string[];

beforeAll(() => {
	const tmp = mkdtempSync(path.join(tmpdir(), 'finverify-manifest-'));
	try {
		const pack = spawnSync(
			'npm',
			['pack', '--json', '--ignore-scripts', '--pack-destination', tmp, '--loglevel=error'],
			{ cwd: REPO, encoding: 'utf8', env: { ...process.env, NODE_ENV: '' } },
		);
		if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
		const [info] = JSON.parse(pack.stdout) as Array<{
			filename: string;
			files: Array<{ path: string }>;
		}>;
		packedFiles = info.files.map((f) => f.path);
		const manifest = spawnSync(
			'tar',
			['-xzOf', path.join(tmp, info.filename), 'package/package.json'],
			{ encoding: 'utf8' },
		);
		if (manifest.status !== 0) throw new Error(`tar failed:\n${manifest.stderr}`);
		packed = JSON.parse(manifest.stdout) as Manifest;
	} finally {
		rmSync(tmp, { recursive: true, force: true });
	}
});

test('the check finds what must not be published', () => {
	const good: Manifest = {
		name: 'x',
		peerDependencies: { 'n8n-workflow': '*' },
		peerDependenciesMeta: { 'n8n-workflow': { optional: true } },
		n8n: { nodes: ['dist/nodes/X.node.js'] },
	};
	expect(manifestProblems(good)).toEqual([]);
	expect(manifestProblems({ ...good, allowScripts: { 'isolated-vm': false } })).toEqual([
		'allowScripts: for development only',
	]);
	expect(manifestProblems({ ...good, dependencies: { lodash: '^4' } })).toHaveLength(1);
	expect(manifestProblems({ ...good, peerDependenciesMeta: {} })).toHaveLength(1);
});

test('the packed manifest is clean', () => {
	expect(packed.name).toBe('n8n-nodes-finverify');
	expect(manifestProblems(packed)).toEqual([]);
	expect(packedFiles).toContain('package.json');
});

test('the packed manifest is the repository’s, as npm publishes it', () => {
	const source = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Manifest;
	expect(packed.version).toBe(source.version);
	expect(packed.n8n).toEqual(source.n8n);
	expect(packed.files).toEqual(['dist']);
});
