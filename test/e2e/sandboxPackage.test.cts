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

function run(command: string, args: string[], cwd: string): string {
	const r = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		env: { ...process.env, NODE_ENV: '' },
	});
	if (r.status !== 0)
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`,
		);
	return r.stdout;
}

let work: string;
let app: string;
let tarballFiles: string[];
const started: ChildProcess[] = [];

beforeAll(() => {
	work = mkdtempSync(path.join(tmpdir(), 'finverify-sandbox-pkg-'));
	run(process.execPath, [path.join(REPO, 'scripts', 'build-sandbox.js')], REPO);
	const [packed] = JSON.parse(
		run('npm', ['pack', './sandbox', '--json', '--pack-destination', work], REPO),
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
	writeFileSync(path.join(app, 'package-lock.json'), JSON.stringify(lockfileFor(tarball)));
	run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
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
			if (url) resolve(url);
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

test('npx n8n-nodes-finverify-sandbox --host 127.0.0.2 serves the API there with the default keys', async () => {
	const url = await startWithNpx(['--host', '127.0.0.2', '--port', '0']);
	expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
	await expectServesApi(url);
	// only there: the same port on 127.0.0.1 has nobody listening
	await expect(fetch(url.replace('127.0.0.2', '127.0.0.1'))).rejects.toThrow();
});

test('SANDBOX_HOST chooses the address too', async () => {
	const url = await startWithNpx(['--port', '0'], { SANDBOX_HOST: '127.0.0.2' });
	expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
	await expectServesApi(url);
});
