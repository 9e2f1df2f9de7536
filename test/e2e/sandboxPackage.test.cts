/**
 * The simulator for users who installed from npm: the sandbox is its own small package
 * (sandbox/package.json, n8n-nodes-finverify-sandbox, built to JavaScript by scripts/build-sandbox.js).
 * Packed with `npm pack`, installed from the tarball into a fresh temporary folder the way npm installs
 * it for `npx`, and started with `npx`, it serves the API on another loopback address (127.0.0.2) chosen
 * with --host, or with SANDBOX_HOST. Offline: the install takes the dependencies from npm's cache, pinned
 * by a lockfile written from the repository's own (the versions the repository tests with).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO } from './helpers/stack.cjs';

jest.setTimeout(300_000);

type LockEntry = Record<string, unknown> & {
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

const SANDBOX_PACKAGE = JSON.parse(
	readFileSync(path.join(REPO, 'sandbox', 'package.json'), 'utf8'),
) as {
	name: string;
	version: string;
	bin: Record<string, string>;
	dependencies: Record<string, string>;
	engines: Record<string, string>;
	files: string[];
};

/**
 * A package-lock for a folder that depends on the tarball alone: the tarball's entry plus every package
 * its dependencies need, taken (path and all) from the repository's lockfile, so `npm ci --offline`
 * finds each tarball in npm's cache by its integrity.
 */
function lockfileFor(tarball: string): object {
	const locked = (
		JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
			packages: Record<string, LockEntry>;
		}
	).packages;
	const find = (name: string, from: string): string => {
		for (let at = from; ; ) {
			const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
			if (locked[candidate]) return candidate;
			if (!at)
				throw new Error(`${name} (needed by ${from || 'the sandbox'}) is not in package-lock.json`);
			const parent = at.lastIndexOf('/node_modules/');
			at = parent >= 0 ? at.slice(0, parent) : '';
		}
	};
	const packages: Record<string, LockEntry> = {};
	const add = (name: string, from: string) => {
		const at = find(name, from);
		if (packages[at]) return;
		// the repository has them as development dependencies; here they are the package's own
		const { dev: _dev, devOptional: _devOptional, ...entry } = locked[at];
		packages[at] = entry;
		const optionalPeers = entry.peerDependenciesMeta ?? {};
		for (const dependency of [
			...Object.keys(entry.dependencies ?? {}),
			...Object.keys(entry.optionalDependencies ?? {}),
			...Object.keys(entry.peerDependencies ?? {}).filter((d) => !optionalPeers[d]?.optional),
		])
			add(dependency, at);
	};
	for (const dependency of Object.keys(SANDBOX_PACKAGE.dependencies)) add(dependency, '');
	const spec = `file:${tarball}`;
	return {
		name: 'fresh-folder',
		lockfileVersion: 3,
		requires: true,
		packages: {
			'': { name: 'fresh-folder', dependencies: { [SANDBOX_PACKAGE.name]: spec } },
			[`node_modules/${SANDBOX_PACKAGE.name}`]: {
				version: SANDBOX_PACKAGE.version,
				resolved: spec,
				license: 'MIT',
				dependencies: SANDBOX_PACKAGE.dependencies,
				bin: SANDBOX_PACKAGE.bin,
				engines: SANDBOX_PACKAGE.engines,
			},
			...packages,
		},
	};
}

function run(command: string, args: string[], cwd: string): { stdout: string; stderr: string } {
	const r = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, NODE_ENV: '' },
	});
	if (r.status !== 0)
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`,
		);
	return { stdout: r.stdout, stderr: r.stderr };
}

/**
 * Whether `version` is in a package.json `engines.node` range. The forms the npm registry's packages use:
 * `*`, `x`, comparators (`>=20`, `>= 0.6`, `<23`), `^`, `~`, a bare version, a space for "and", `||`.
 */
function nodeSatisfies(version: string, range: string): boolean {
	const parse = (v: string) => {
		const [major = 0, minor = 0, patch = 0] = v
			.replace(/^v/, '')
			.split('.')
			.map((n) => (n === 'x' || n === '*' ? 0 : Number(n)));
		return [major, minor, patch];
	};
	const compare = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
	const have = parse(version);
	const comparator = (c: string): boolean => {
		if (c === '' || c === '*' || c === 'x') return true;
		const m = /^(>=|<=|>|<|=|\^|~)?\s*v?([0-9x*]+(?:\.[0-9x*]+){0,2})$/.exec(c);
		if (!m) throw new Error(`engines range not understood: ${range}`);
		const [op = '=', text] = [m[1], m[2]];
		const want = parse(text);
		const parts = text.split('.').length;
		const d = compare(have, want);
		if (op === '>=') return d >= 0;
		if (op === '>') return d > 0;
		if (op === '<=') return d <= 0;
		if (op === '<') return d < 0;
		if (op === '^') return d >= 0 && have[0] === want[0];
		if (op === '~') return d >= 0 && have[0] === want[0] && (parts < 2 || have[1] === want[1]);
		// a bare version: equal on the parts it gives
		return want.slice(0, parts).every((n, i) => n === have[i]);
	};
	return range.split('||').some((alternative) =>
		alternative
			.trim()
			.replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
			.split(/\s+/)
			.every(comparator),
	);
}

let work: string;
let app: string;
let tarballFiles: string[];
let lockfile: { packages: Record<string, LockEntry> };
let installOutput: string;
/** What the last `npx` run printed until the simulator was listening. */
let npxOutput = '';
const started: ChildProcess[] = [];

beforeAll(() => {
	work = mkdtempSync(path.join(tmpdir(), 'finverify-sandbox-pkg-'));
	run(process.execPath, [path.join(REPO, 'scripts', 'build-sandbox.js')], REPO);
	const [packed] = JSON.parse(
		run('npm', ['pack', './sandbox', '--json', '--pack-destination', work], REPO).stdout,
	) as Array<{ filename: string; files: Array<{ path: string }> }>;
	tarballFiles = packed.files.map((f) => f.path);
	app = path.join(work, 'fresh-folder');
	spawnSync('mkdir', [app]);
	const tarball = path.join(work, packed.filename);
	writeFileSync(
		path.join(app, 'package.json'),
		JSON.stringify({
			name: 'fresh-folder',
			private: true,
			dependencies: { [SANDBOX_PACKAGE.name]: `file:${tarball}` },
		}),
	);
	lockfile = lockfileFor(tarball) as typeof lockfile;
	writeFileSync(path.join(app, 'package-lock.json'), JSON.stringify(lockfile));
	// npm's warnings shown, as npx shows them to a user (engine checks against this process's Node)
	const installed = run(
		'npm',
		['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=warn'],
		app,
	);
	installOutput = `${installed.stdout}\n${installed.stderr}`;
});

afterAll(async () => {
	for (const child of started) {
		if (child.exitCode === null && child.pid) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			process.kill(-child.pid, 'SIGTERM');
			await exited;
		}
	}
	rmSync(work, { recursive: true, force: true });
});

/** `npx n8n-nodes-finverify-sandbox <args>` in the fresh folder; resolves with the URL it prints. */
function startWithNpx(args: string[], env: Record<string, string> = {}): Promise<string> {
	const child = spawn('npx', ['--offline', SANDBOX_PACKAGE.name, ...args], {
		cwd: app,
		detached: true,
		env: { ...process.env, NODE_ENV: '', SANDBOX_QUIET: '1', ...env },
	});
	started.push(child);
	let output = '';
	return new Promise((resolve, reject) => {
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
			if (url) {
				npxOutput = output;
				resolve(url);
			}
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		child.once('exit', (code) =>
			reject(new Error(`npx exited (${code}) before listening:\n${output}`)),
		);
	});
}

async function expectServesApi(url: string) {
	const health = await fetch(`${url}/__sandbox/health`);
	expect(health.status).toBe(200);
	expect(await health.json()).toMatchObject({ status: 'ok' });
	const lookup = await fetch(`${url}/api/v1/services/corporate/cin-lookup`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'X-API-KEY': 'sandbox-key',
			'X-API-SECRET': 'sandbox-secret',
		},
		body: JSON.stringify({ cin: 'L17110MH1973PLC019786' }),
	});
	expect(lookup.status).toBe(200);
	const body = (await lookup.json()) as { success: boolean; data: { cin: string } };
	expect(body.success).toBe(true);
	expect(body.data.cin).toBe('L17110MH1973PLC019786');
}

test('the tarball holds the built simulator and its contract, no sources; the node package stays dist-only with no dependencies', () => {
	expect(tarballFiles).toEqual(
		expect.arrayContaining([
			'package.json',
			'dist/main.cjs',
			'dist/server.cjs',
			'openapi/finverify.openapi.yaml',
		]),
	);
	expect(tarballFiles.filter((f) => f.endsWith('.cts'))).toEqual([]);
	const main = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
		files: string[];
		dependencies?: object;
	};
	expect(main.files).toEqual(['dist']);
	expect(main.dependencies).toBeUndefined();
});

test('the engine check: what npm compares', () => {
	expect(nodeSatisfies('20.19.0', '>=20.19')).toBe(true);
	expect(nodeSatisfies('20.19.0', '>=22')).toBe(false);
	expect(nodeSatisfies('20.19.0', '>= 0.6')).toBe(true);
	expect(nodeSatisfies('20.19.0', '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
	expect(nodeSatisfies('22.0.0', '^18 || ^20')).toBe(false);
	expect(nodeSatisfies('24.1.0', '>=14.17 <25')).toBe(true);
});

/** The Node versions the README names for the simulator: the first release of each line it runs on. */
const NODES = ['20.19.0', '22.13.0', '24.0.0'];

test('every package the simulator installs runs on every Node the README names (20.19+, 22.13+, 24)', () => {
	for (const node of NODES) expect(nodeSatisfies(node, SANDBOX_PACKAGE.engines.node)).toBe(true);
	expect(nodeSatisfies('22.12.0', SANDBOX_PACKAGE.engines.node)).toBe(false);
	const tooNew = Object.entries(lockfile.packages)
		.filter(([at]) => at !== '')
		.flatMap(([at, entry]) => {
			const range = (entry.engines as { node?: string } | undefined)?.node;
			if (!range) return [];
			return NODES.filter((node) => !nodeSatisfies(node, range)).map(
				(node) =>
					`${at.replace(/^.*node_modules\//, '')} ${String(entry.version)} wants node ${range} (not ${node})`,
			);
		});
	expect(tooNew).toEqual([]);
	expect(Object.keys(lockfile.packages).length).toBeGreaterThan(30);
});

test(`the install on this machine's Node (${process.version}) is quiet: no engine warning`, () => {
	expect(installOutput).not.toMatch(/EBADENGINE/);
	expect(installOutput).not.toMatch(/npm warn/i);
});

test('npx n8n-nodes-finverify-sandbox --host 127.0.0.2 serves the API there with the default keys', async () => {
	const url = await startWithNpx(['--host', '127.0.0.2', '--port', '0']);
	expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
	expect(npxOutput).not.toMatch(/npm warn|EBADENGINE/i);
	// it says what to enter in n8n, with its own address
	expect(npxOutput).toContain(`Simulator URL ${url},`);
	await expectServesApi(url);
	// only there: the same port on 127.0.0.1 has nobody listening
	await expect(fetch(url.replace('127.0.0.2', '127.0.0.1'))).rejects.toThrow();
});

test('SANDBOX_HOST chooses the address too', async () => {
	const url = await startWithNpx(['--port', '0'], { SANDBOX_HOST: '127.0.0.2' });
	expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
	await expectServesApi(url);
});
