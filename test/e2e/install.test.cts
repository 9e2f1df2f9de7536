/**
 * The README's manual install, the way a user runs it: `npm install n8n-nodes-finverify` in an empty n8n nodes
 * folder, with the machine's Node 20 and with the runtime's Node (24 for n8n 2.x, 22 for n8n 1.x under
 * `npm run test:n8n1`), then n8n started on that folder runs the quick start's example.
 *
 * The package comes from `npm pack` of this repository, served by a registry on 127.0.0.1 that knows only this
 * package: npm resolves the name and downloads the tarball from it, and any other request (the n8n-workflow peer
 * dependency, for example) is answered 404 and recorded. So an install that needs anything but the package fails
 * here, as it fails on Node 20 and 22 for a user when npm installs the peer (its chain reaches isolated-vm, which
 * does not build there). Nothing leaves the machine: npm's registry, cache and config are set for the test.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { log, N8nStack, REPO } from './helpers/stack.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const { packRepository } = require('../../scripts/scan-package.js') as {
	packRepository(): { tarball: string; cleanup(): void };
};
const { npmCli } = require('../../scripts/lib/install.js') as { npmCli(): string };
const places = require('../../scripts/lib/places.js') as {
	nodesFolder(userFolder: string): string;
};
/* eslint-enable @typescript-eslint/no-require-imports */

jest.setTimeout(180_000);

const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	peerDependencies: Record<string, string>;
	dependencies?: Record<string, string>;
};
/** The README's command, word for word. */
const README_COMMAND = `npm install ${PKG.name}`;
const EXAMPLE = 'credit-decision.json';

/** The n8n-workflow the registry offers (metadata only: its tarball is never served, so installing it fails). */
const PEER = { name: 'n8n-workflow', version: '2.41.0' };
const peerTarball = `/${PEER.name}/-/${PEER.name}-${PEER.version}.tgz`;

/**
 * A registry on 127.0.0.1 that serves this package (name → packument → tarball) and n8n-workflow's metadata,
 * as npm's registry would; every request is recorded.
 */
async function startRegistry(tarball: string) {
	const bytes = fs.readFileSync(tarball);
	const file = `${PKG.name}-${PKG.version}.tgz`;
	const manifest = JSON.parse(
		spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
	);
	const requests: string[] = [];
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent((req.url ?? '').split('?')[0]);
		requests.push(`${req.method} ${url}`);
		const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		if (req.method === 'GET' && url === `/${PKG.name}`) {
			const packument = {
				name: PKG.name,
				'dist-tags': { latest: PKG.version },
				versions: {
					[PKG.version]: {
						...manifest,
						_id: `${PKG.name}@${PKG.version}`,
						dist: {
							tarball: `${base}/${PKG.name}/-/${file}`,
							shasum: createHash('sha1').update(bytes).digest('hex'),
							integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
						},
					},
				},
			};
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(packument));
			return;
		}
		if (req.method === 'GET' && url === `/${PEER.name}`) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					name: PEER.name,
					'dist-tags': { latest: PEER.version },
					versions: {
						[PEER.version]: {
							...PEER,
							_id: `${PEER.name}@${PEER.version}`,
							dist: {
								tarball: `${base}${peerTarball}`,
								shasum: '0'.repeat(40),
								integrity: `sha512-${Buffer.alloc(64).toString('base64')}`,
							},
						},
					},
				}),
			);
			return;
		}
		if (req.method === 'GET' && url === `/${PKG.name}/-/${file}`) {
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			res.end(bytes);
			return;
		}
		res.writeHead(404, { 'content-type': 'application/json' });
		res.end('{"error":"not found"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
		requests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

let stack: N8nStack;
let registry: Awaited<ReturnType<typeof startRegistry>>;
let packed: { tarball: string; cleanup(): void };
let scratch: string;

/** What npm asked the registry for since `before`, n8n-workflow's metadata (which npm reads, then leaves) aside. */
const requestsSince = (before: number) =>
	registry.requests.slice(before).filter((r) => r !== `GET /${PEER.name}`);

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'install', installPackage: false }); // builds dist/ when stale
	packed = packRepository();
	registry = await startRegistry(packed.tarball);
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'finverify-e2e-npm-'));
	await stack.importAll();
}, 900_000);

afterAll(async () => {
	await stack?.stop();
	await registry?.close();
	packed?.cleanup();
	if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/**
 * The README's command in an empty nodes folder of the test's n8n user folder, run by `node` with the machine's
 * npm (npm 11; Node 20 ships npm 10, which treats peer dependencies the same way). Only npm's settings are set
 * from outside (registry, a fresh cache, no audit): the command itself is the README's.
 */
async function installAsReadme(
	node: string,
	folder = places.nodesFolder(stack.userFolder),
	spec = PKG.name,
): Promise<{ folder: string; output: string }> {
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(folder, { recursive: true });
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env))
		if (!/^npm_/i.test(k) && k !== 'NODE_OPTIONS') env[k] = v; // nothing of jest's `npm run`
	const cache = fs.mkdtempSync(path.join(scratch, 'cache-'));
	const userconfig = path.join(scratch, 'npmrc'); // an empty one: no ~/.npmrc settings
	fs.writeFileSync(userconfig, '');
	Object.assign(env, {
		PATH: [path.dirname(node), env.PATH].join(path.delimiter),
		npm_config_registry: registry.url,
		npm_config_cache: cache,
		npm_config_userconfig: userconfig,
		npm_config_audit: 'false',
		npm_config_fund: 'false',
		npm_config_update_notifier: 'false',
	});
	const [cmd, ...args] = README_COMMAND.replace(PKG.name, spec).split(' ');
	expect(cmd).toBe('npm');
	// asynchronously: the registry answering npm runs in this process
	const output = await new Promise<string>((resolve, reject) =>
		execFile(
			node,
			[npmCli(), ...args],
			{ cwd: folder, env, encoding: 'utf8', timeout: 120_000 },
			(error, stdout, stderr) =>
				error
					? reject(
							new Error(
								`${README_COMMAND} with ${node} failed: ${error.message}\n${`${stdout}\n${stderr}`.slice(-3000)}`,
							),
						)
					: resolve(`${stdout}\n${stderr}`),
		),
	);
	return { folder, output };
}

/** Packages in a node_modules folder (scoped ones as @scope/name), npm's own files left out. */
function packagesIn(modules: string): string[] {
	if (!fs.existsSync(modules)) return [];
	return fs
		.readdirSync(modules)
		.filter((e) => !e.startsWith('.'))
		.flatMap((e) =>
			e.startsWith('@') ? fs.readdirSync(path.join(modules, e)).map((s) => `${e}/${s}`) : [e],
		)
		.sort();
}

test('the package keeps the n8n-workflow peer dependency (what n8n requires) and declares it optional', () => {
	expect(PKG.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(PKG.dependencies ?? {}).toEqual({});
	expect(
		(PKG as { peerDependenciesMeta?: Record<string, { optional?: boolean }> })
			.peerDependenciesMeta?.['n8n-workflow']?.optional,
	).toBe(true);
});

test('the check can fail: with the peer dependency required (not optional), the same install fetches n8n-workflow', async () => {
	// the packed package with peerDependenciesMeta removed, installed by file name into a scratch folder
	const unpacked = fs.mkdtempSync(path.join(scratch, 'required-peer-'));
	spawnSync('tar', ['-xzf', packed.tarball, '-C', unpacked]);
	const pj = path.join(unpacked, 'package', 'package.json');
	const manifest = JSON.parse(fs.readFileSync(pj, 'utf8'));
	delete manifest.peerDependenciesMeta;
	fs.writeFileSync(pj, JSON.stringify(manifest, null, 2));
	const tarball = path.join(unpacked, 'required-peer.tgz'); // a tarball, as from the registry (not a link)
	spawnSync('tar', ['-czf', tarball, '-C', unpacked, 'package']);
	const before = registry.requests.length;
	await expect(
		installAsReadme(process.execPath, fs.mkdtempSync(path.join(scratch, 'nodes-')), tarball),
	).rejects.toThrow(/failed/);
	expect(registry.requests.slice(before)).toContain(`GET ${peerTarball}`);
});

/** Who runs npm: the machine's Node (20 here), or the runtime's (24 for n8n 2.x, 22 for 1.x). */
const nodeBinary = (installer: string) =>
	installer === 'the machine’s Node' ? process.execPath : stack.runtime.node;

test.each(['the machine’s Node', 'the runtime’s Node'])(
	'the README’s npm install with %s puts one package in the nodes folder, and n8n runs the quick start example on it',
	async (label) => {
		const node = nodeBinary(label);
		const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
		log(`install: ${README_COMMAND} with ${label} ${version}`);
		const before = registry.requests.length;
		const t0 = Date.now();
		const { folder, output } = await installAsReadme(node);
		const seconds = (Date.now() - t0) / 1000;

		// one package: no n8n-workflow copy (nor anything else) next to it
		const modules = path.join(folder, 'node_modules');
		expect(packagesIn(modules)).toEqual([PKG.name]);
		expect(output).toMatch(/added 1 package/);
		// npm downloaded the package and nothing else: n8n-workflow's metadata is read, its tarball never fetched
		expect(requestsSince(before)).toEqual([
			`GET /${PKG.name}`,
			`GET /${PKG.name}/-/${PKG.name}-${PKG.version}.tgz`,
		]);
		// n8n's list of installed community packages (the nodes folder's package.json) names it
		const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
		expect(Object.keys(manifest.dependencies)).toEqual([PKG.name]);
		const installed = path.join(modules, PKG.name);
		expect(
			fs.existsSync(path.join(installed, 'dist', 'nodes', 'FinVerify', 'FinVerify.node.js')),
		).toBe(true);
		// from the installed package, n8n-workflow resolves to nothing of its own: the node can only get the one
		// n8n adds to the module paths when it loads community packages (its own copy)
		const resolved = spawnSync(
			node,
			['-e', `require.resolve('n8n-workflow', { paths: [${JSON.stringify(installed)}] })`],
			{ encoding: 'utf8' },
		);
		expect(resolved.status).not.toBe(0);
		expect(resolved.stderr).toContain("Cannot find module 'n8n-workflow'");
		log(`install: 1 package in ${seconds.toFixed(1)} s with Node ${version}`);

		// n8n, started on that folder, runs the example the README's quick start imports
		const r = await stack.execute(stack.example(EXAMPLE).id);
		expect(r.status).toBe('success');
		const [report] = r.json('Credit report');
		expect(report).toMatchObject({
			decisionReady: true,
			pan: 'XXXXXX190K', // Personal Data in Output: Masked, the default
			failedBureaus: [],
		});
		expect(Object.keys(report.scores)).toEqual(['cibil', 'experian', 'crif']);
		expect(report.lowestScore).toBeGreaterThanOrEqual(300);
		const [decision] = r.json('Approve');
		expect(decision).toMatchObject({ decision: 'approve', applicationId: 'APP-2026-1127' });
	},
);
