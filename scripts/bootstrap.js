// @ts-check
'use strict';
/**
 * What `npm test` and `npm start` install for themselves on a fresh clone, before anything else runs:
 *
 *   ensureDependencies()  `npm ci` when node_modules is missing or older than package-lock.json
 *   ensureChromium()      Debian's Chromium for the browser suite (apt-get, only when running as root)
 *   (the n8n runtime: scripts/runtime.js, ensureRuntime())
 *
 * Plain CommonJS without dependencies: it runs before node_modules exists.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ENV, FOLDERS, REPO_ROOT: REPO } = require('./lib/places');
const { countPackages, runVisible } = require('./lib/install');

/** @typedef {(message: string) => void} Log */

/** @param {string} f */
const mtime = (f) => {
	try {
		return fs.statSync(f).mtimeMs;
	} catch {
		return -1;
	}
};

/**
 * Why dependencies must be (re)installed, or null when node_modules is current. npm writes
 * node_modules/.package-lock.json at the end of every install: missing = never (fully) installed; older than
 * package-lock.json = the lock changed since (a pull, a rebase, a new dependency).
 */
function dependenciesStale(root = REPO) {
	const hidden = path.join(root, 'node_modules', '.package-lock.json');
	const lock = path.join(root, 'package-lock.json');
	const installed = mtime(hidden);
	if (installed < 0) return 'node_modules is missing';
	if (installed >= mtime(lock)) return null;
	// Older, but npm does not always rewrite its record (an `npm install <pkg>` may only touch the lock): the same
	// packages at the same versions count as current.
	return sameTree(lock, hidden) ? null : 'node_modules is older than package-lock.json';
}

/**
 * Every package of the lock installed at its version (optional ones may be absent: other platforms).
 * @param {string} lockFile
 * @param {string} hiddenFile
 */
function sameTree(lockFile, hiddenFile) {
	try {
		const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8')).packages || {};
		const hidden = JSON.parse(fs.readFileSync(hiddenFile, 'utf8')).packages || {};
		for (const [key, entry] of Object.entries(lock)) {
			if (!key) continue; // the project itself
			const got = hidden[key];
			if (!got) {
				if (entry.optional || entry.devOptional) continue;
				return false;
			}
			if (got.version !== entry.version) return false;
		}
		return Object.keys(hidden).every((key) => key in lock);
	} catch {
		return false;
	}
}

/**
 * `npm ci` with visible progress (npm's own output, plus a line every 15 s with the packages unpacked so far).
 * Resolves true when nothing had to be done or the install succeeded; throws when it failed.
 * @param {{ log?: Log, root?: string }} [opts]
 * @returns {Promise<boolean>}
 */
function ensureDependencies({ log = console.log, root = REPO } = {}) {
	const why = dependenciesStale(root);
	if (!why) return Promise.resolve(false);
	log(`dependencies: ${why}; running npm ci (1-4 minutes on a fresh clone) …`);
	const modules = path.join(root, 'node_modules');
	return runVisible('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: root,
		log,
		label: 'npm ci',
		inherit: true,
		status: () => `${countPackages(modules)} packages so far`,
		beatMs: 15000,
	}).then(({ seconds }) => {
		log(`dependencies: installed in ${seconds.toFixed(0)} s`);
		return true;
	});
}

/** The Chromium the browser suite uses (test/e2e/helpers/browser.cts reads the same variable). */
function chromiumPath() {
	return process.env[ENV.CHROMIUM_PATH] || FOLDERS.chromium;
}

const HOW_TO_INSTALL_CHROMIUM =
	'Install it as root (Debian/Ubuntu: `sudo apt-get update && sudo apt-get install -y chromium`) or point ' +
	'CHROMIUM_PATH at a Chromium/Chrome binary, then run `npm test` again.';

/**
 * Make sure Chromium exists. As root with apt-get: install Debian's `chromium` package (visible apt output).
 * Otherwise: a clear message. Returns { ok, path, installed, message }; never throws.
 * @param {{ log?: Log }} [opts]
 * @returns {{ ok: boolean, path: string, installed: boolean, message?: string }}
 */
function ensureChromium({ log = console.log } = {}) {
	const exe = chromiumPath();
	if (fs.existsSync(exe)) return { ok: true, path: exe, installed: false };
	if (process.env[ENV.CHROMIUM_PATH]) {
		const message = `${ENV.CHROMIUM_PATH}=${exe} does not exist. ${HOW_TO_INSTALL_CHROMIUM}`;
		return { ok: false, path: exe, installed: false, message };
	}
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
	if (!isRoot || !hasApt) {
		const message = `Chromium is not installed (${exe}) and this process ${isRoot ? 'has no apt-get' : 'is not root'}, so it cannot install it. The browser suite (test/e2e/browser.test.cts) needs it and will FAIL. ${HOW_TO_INSTALL_CHROMIUM}`;
		return { ok: false, path: exe, installed: false, message };
	}
	const t0 = Date.now();
	log('chromium: not installed; apt-get update && apt-get install -y chromium (1-3 minutes) …');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const run = (/** @type {string[]} */ args) =>
		spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
	const done = run(['update', '-q']) && run(['install', '-y', '-q', 'chromium']);
	if (!done || !fs.existsSync(exe)) {
		const message = `apt-get could not install chromium (see its output above). The browser suite will FAIL. ${HOW_TO_INSTALL_CHROMIUM}`;
		return { ok: false, path: exe, installed: false, message };
	}
	log(`chromium: installed in ${Math.round((Date.now() - t0) / 1000)} s (${exe})`);
	return { ok: true, path: exe, installed: true };
}

module.exports = {
	dependenciesStale,
	ensureDependencies,
	ensureChromium,
	chromiumPath,
	HOW_TO_INSTALL_CHROMIUM,
};
