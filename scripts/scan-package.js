#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * n8n's own scan of this package, run locally over what npm would publish.
 *
 * n8n's verification runs `@n8n/scan-community-package` on the published package: it checks the npm provenance,
 * then lints the attested source (package.json + nodes/ + credentials/) and the tarball's compiled `.js` +
 * package.json with its own ESLint configuration. Its CLI only takes registry names, so this script calls the
 * same exported functions on local input:
 *   1. `npm pack` into a temporary folder, unpacked there (the exact file list npm would publish);
 *   2. `analyzePackage(<repository>, SOURCE_FILE_PATTERNS)`  (the source leg);
 *   3. `analyzePackage(<unpacked tarball>, ['**\/*.js', 'package.json'])`  (the tarball leg).
 * The provenance check needs a published version and is not repeated here (the publish workflow provides it).
 *
 * Usage: node scripts/scan-package.js [--json] [--tarball-dir <dir>]
 *   --json              print { files, dependencies, source, tarball, passed } as JSON
 *   --tarball-dir <dir> scan an already unpacked package instead of packing this repository (tarball leg only)
 * Exit code 0 when every leg passed, 1 on any finding. Requires dist/ (npm run build) and node_modules.
 * No network: npm pack and the scanner's ESLint work on local files only.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { REPO_ROOT: REPO } = require('./lib/places');

/** @typedef {{ passed: boolean, message?: string, details?: string, error?: unknown }} Leg  one analyzePackage() result */
/** @typedef {{ source?: Leg, tarball: Leg, passed: boolean }} ScanResult */
/** @typedef {ScanResult & { files?: string[], dependencies?: Record<string, string>, packageDir?: string }} ScanOutput */
const SCANNER = '@n8n/scan-community-package/scanner/scanner.mjs';

/**
 * `npm pack` the repository into a fresh temp folder and unpack it: { dir, tarball, files, cleanup }.
 * @returns {{ dir: string, tarball: string, files: string[], cleanup: () => void }}
 */
function packRepository(root = REPO) {
	if (!fs.existsSync(path.join(root, 'dist')))
		throw new Error('dist/ is missing: run `npm run build` first');
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'finverify-pack-'));
	const cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });
	try {
		const packed = spawnSync(
			'npm',
			['pack', '--json', '--pack-destination', tmp, '--loglevel=error'],
			{ cwd: root, encoding: 'utf8' },
		);
		if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
		const [info] = JSON.parse(packed.stdout);
		const tarball = path.join(tmp, info.filename);
		const dir = path.join(tmp, 'package');
		fs.mkdirSync(dir);
		const untar = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], {
			encoding: 'utf8',
		});
		if (untar.status !== 0) throw new Error(`tar -xzf failed:\n${untar.stderr}`);
		return {
			dir,
			tarball,
			files: info.files.map((/** @type {{ path: string }} */ f) => f.path).sort(),
			cleanup,
		};
	} catch (e) {
		cleanup();
		throw e;
	}
}

/**
 * The scanner's exported functions (ESM; loaded with a native import from CommonJS).
 * @returns {Promise<{ analyzePackage(dir: string, patterns: string[]): Promise<Leg>, SOURCE_FILE_PATTERNS: string[] }>}
 */
async function loadScanner() {
	// eslint-plugin-n8n-nodes-base switches to its rule-test mode (fake file names, "-Trigger" checks on every
	// node) when NODE_ENV is "test", which jest sets: the scan must run as n8n runs it.
	if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
	return import(require.resolve(SCANNER, { paths: [REPO] }));
}

/**
 * Both legs as n8n runs them; `sourceDir` null = tarball leg only.
 * @param {{ sourceDir: string | null, packageDir: string }} dirs
 * @returns {Promise<ScanResult>}
 */
async function scan({ sourceDir, packageDir }) {
	const scanner = await loadScanner();
	const source = sourceDir
		? await scanner.analyzePackage(sourceDir, scanner.SOURCE_FILE_PATTERNS)
		: undefined;
	const tarball = await scanner.analyzePackage(packageDir, ['**/*.js', 'package.json']);
	const legs = source ? [source, tarball] : [tarball];
	for (const leg of legs) delete leg.error; // not serialisable; message says it
	return {
		...(source ? { source } : {}),
		tarball,
		passed: legs.every((leg) => leg.passed),
	};
}

/** @param {string[]} argv @returns {Promise<number>} the exit code */
async function main(argv) {
	const json = argv.includes('--json');
	const i = argv.indexOf('--tarball-dir');
	/** @type {ReturnType<typeof packRepository> | undefined} */
	let packed;
	/** @type {ScanOutput} */
	let out;
	try {
		if (i >= 0) {
			const packageDir = path.resolve(argv[i + 1] || '');
			out = { packageDir, ...(await scan({ sourceDir: null, packageDir })) };
		} else {
			packed = packRepository();
			const pkg = JSON.parse(fs.readFileSync(path.join(packed.dir, 'package.json'), 'utf8'));
			out = {
				files: packed.files,
				dependencies: pkg.dependencies || {},
				...(await scan({ sourceDir: REPO, packageDir: packed.dir })),
			};
		}
	} finally {
		if (packed) packed.cleanup();
	}
	if (json) console.log(JSON.stringify(out, null, 2));
	else {
		if (out.files) console.log(`npm pack: ${out.files.length} files`);
		for (const name of /** @type {const} */ (['source', 'tarball'])) {
			const leg = out[name];
			if (!leg) continue;
			console.log(
				`${name === 'source' ? 'source leg  (package.json, nodes/, credentials/)' : 'tarball leg (*.js, package.json)'}: ${leg.passed ? 'passed' : `FAILED: ${leg.message}`}`,
			);
			if (leg.details) console.log(leg.details);
		}
		console.log(out.passed ? 'n8n scanner: no findings' : 'n8n scanner: FINDINGS (see above)');
	}
	return out.passed ? 0 : 1;
}

module.exports = { packRepository, scan };

if (require.main === module) {
	main(process.argv.slice(2)).then(
		(code) => process.exit(code),
		(e) => {
			console.error(`scan-package: ${e && e.stack ? e.stack : e}`);
			process.exit(1);
		},
	);
}
