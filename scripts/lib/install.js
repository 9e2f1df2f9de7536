// @ts-check
'use strict';
/**
 * Installing things visibly, for scripts/runtime.js (the cached Node + n8n) and scripts/bootstrap.js (`npm ci`):
 *
 *   runVisible(cmd, args, opts)     run an install with a heartbeat line, its interesting output and its tail
 *   withLock(dir, what, log, fn)    one installer at a time per folder (`npm start` and an e2e run may race)
 *   countPackages(dir)              how many packages a node_modules folder holds (the heartbeat's progress)
 *   npmCli() / nodeGypCli(npmCli)   the npm and node-gyp scripts, to run with an explicit Node binary
 *
 * Plain CommonJS, Node's standard library only: it runs before node_modules exists.
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const places = require('./places');

/** @typedef {(message: string) => void} Log */

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Seconds since t0, e.g. "12 s". @param {number} t0 */
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

/**
 * How many packages a node_modules folder holds (progress of an install; 0 when it is not there yet).
 * @param {string} modulesDir
 */
function countPackages(modulesDir) {
	let n = 0;
	try {
		for (const e of fs.readdirSync(modulesDir)) {
			if (e.startsWith('.')) continue;
			if (e.startsWith('@')) {
				try {
					n += fs.readdirSync(path.join(modulesDir, e)).length;
				} catch {
					/* racing with npm */
				}
			} else n++;
		}
	} catch {
		/* not there yet */
	}
	return n;
}

/** The npm CLI script, run with an explicit node binary (so the engine checks see Node 24 when it matters). */
function npmCli() {
	const candidates = [];
	if (process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath))
		candidates.push(process.env.npm_execpath);
	candidates.push(
		path.join(
			path.dirname(process.execPath),
			'..',
			'lib',
			'node_modules',
			'npm',
			'bin',
			'npm-cli.js',
		),
	);
	try {
		const which = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
		if (which) candidates.push(path.join(path.dirname(fs.realpathSync(which)), 'npm-cli.js'));
	} catch {
		/* no npm on PATH */
	}
	const found = candidates.find((c) => fs.existsSync(c));
	if (!found) throw new Error('cannot find the npm CLI (npm-cli.js); is npm installed?');
	return fs.realpathSync(found);
}

/** @param {string} npmCliPath */
function nodeGypCli(npmCliPath) {
	const candidates = [
		path.join(path.dirname(npmCliPath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
		path.join(places.REPO_ROOT, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
	];
	const found = candidates.find((c) => fs.existsSync(c));
	if (!found) throw new Error(`cannot find node-gyp (looked in ${candidates.join(', ')})`);
	return found;
}

/**
 * Run a command, keep the user informed: a heartbeat every `beatMs` with the elapsed time and `status()`,
 * interesting output lines forwarded (`filter`), the tail of the output kept for the error message.
 * `inherit`: the command writes to this process's terminal itself (npm ci); only the heartbeat is added.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, log: Log, label: string, status?: () => string, inherit?: boolean,
 *   filter?: (line: string) => boolean, showLine?: (line: string) => boolean, beatMs?: number }} opts
 * @returns {Promise<{ seconds: number, tail: string[] }>}
 */
function runVisible(
	cmd,
	args,
	{ cwd, env, log, label, status, filter, showLine = () => true, beatMs = 10000, inherit = false },
) {
	return new Promise((resolve, reject) => {
		const t0 = Date.now();
		/** @type {string[]} */
		const tail = [];
		const child = spawn(cmd, args, {
			cwd,
			env,
			stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
		});
		let lastLine = '';
		const onData = (/** @type {Buffer} */ chunk) => {
			for (const raw of chunk.toString().split(/\r?\n/)) {
				const line = raw.trimEnd();
				if (!line) continue;
				tail.push(line);
				if (tail.length > 40) tail.shift();
				if (showLine(line)) lastLine = line.trim();
				if (filter && filter(line)) log(`    ${line}`);
			}
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		const beat = setInterval(() => {
			const s = status ? status() : '';
			log(
				`  … ${label}: ${secs(t0)}${s ? `, ${s}` : ''}${lastLine ? ` | ${lastLine.slice(0, 100)}` : ''}`,
			);
		}, beatMs);
		// Ctrl-C while installing: take the child down too (the marker is not written, the next run redoes the step).
		const onSignal = () => {
			try {
				child.kill('SIGTERM');
			} catch {
				/* gone */
			}
		};
		process.once('SIGINT', onSignal);
		process.once('SIGTERM', onSignal);
		child.on('error', (e) => {
			clearInterval(beat);
			reject(e);
		});
		child.on('close', (code, signal) => {
			clearInterval(beat);
			process.removeListener('SIGINT', onSignal);
			process.removeListener('SIGTERM', onSignal);
			if (code === 0) return resolve({ seconds: (Date.now() - t0) / 1000, tail });
			reject(
				new Error(
					inherit
						? `${label} failed (${signal ? `signal ${signal}` : `exit code ${code}`}); see its output above`
						: `${label} failed (${signal ? `signal ${signal}` : `exit code ${code}`}): ${cmd} ${args.join(' ')}\n--- last output ---\n${tail.join('\n')}`,
				),
			);
		});
	});
}

/**
 * @template T
 * @param {string} dir
 * @param {string} what  named in the "waiting" message
 * @param {Log} log
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withLock(dir, what, log, fn) {
	fs.mkdirSync(path.dirname(dir), { recursive: true });
	const lock = `${dir}.lock`;
	let warned = false;
	for (;;) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			let holder = NaN;
			try {
				holder = Number(fs.readFileSync(lock, 'utf8'));
			} catch {
				continue;
			}
			let alive = false;
			try {
				process.kill(holder, 0);
				alive = holder !== process.pid;
			} catch (err) {
				alive = err.code === 'EPERM';
			}
			if (!alive) {
				fs.rmSync(lock, { force: true }); // stale lock of an interrupted install
				continue;
			}
			if (!warned)
				log(`[runtime] another process (pid ${holder}) is installing ${what}; waiting for it …`);
			warned = true;
			await sleep(2000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { force: true });
	}
}

module.exports = { sleep, secs, countPackages, npmCli, nodeGypCli, runVisible, withLock };
