// @ts-check
'use strict';
/**
 * What `npm start` (scripts/start.js) and `npm run start:queue` (scripts/start-queue.js) both do around n8n:
 *
 *   Supervisor          the children it started, stopped as whole process groups on Ctrl-C, on a crash of one of
 *                       them, or at the end; n8n CLI commands still running are stopped too
 *   buildPackage(say)   npm run build (or FINVERIFY_SKIP_BUILD=1: dist/ as it is)
 *   assertPortsFree     every port it is about to use is free, or a clear error
 *   startSandbox(opts)  the sandbox (sandbox/main.cts, with tsx) on its port, waited until healthy
 *
 * Plain CommonJS, Node's standard library only (the sandbox itself runs with the project's tsx).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const places = require('./places');
const {
	groupAlive,
	killGroupNow,
	portInUse,
	spawnGroup,
	stopGroup,
	waitForHttp,
} = require('./processes');
const { killCliCommandsNow, stopCliCommands } = require('./n8n-process');

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */
/** @typedef {(message: string) => void} Say */

/**
 * The long-running children of a start script: `track()` them, and the first one that exits unexpectedly, a
 * signal (SIGINT, SIGTERM, SIGHUP) or `shutdown()` stops them all and exits.
 */
class Supervisor {
	/**
	 * @param {object} o
	 * @param {Say} o.say
	 * @param {string} o.userFolder   where the logs are (named in the "exited unexpectedly" message)
	 * @param {number} o.graceMs      how long each process group gets between SIGTERM and SIGKILL
	 * @param {() => Promise<string[]>} [o.stopAfter]  stops what must go after the children (PostgreSQL, Redis);
	 *                                resolves the names of what is still running
	 * @param {() => void} [o.killAfterNow]  its synchronous last resort
	 */
	constructor({ say, userFolder, graceMs, stopAfter, killAfterNow }) {
		this.say = say;
		this.userFolder = userFolder;
		this.graceMs = graceMs;
		this.stopAfter = stopAfter;
		this.killAfterNow = killAfterNow;
		/** @type {{ name: string, child: ChildProcess }[]} */
		this.children = [];
		this.shuttingDown = false;
		/** @type {Set<ChildProcess>} children stopped on purpose by replace() */
		this.replaced = new Set();
	}

	/**
	 * Stop the tracked `child` (its exit is expected, nothing shuts down) and track what `start()` starts in its
	 * place, e.g. n8n restarted with a new build (`npm run dev`).
	 * @param {string} name
	 * @param {ChildProcess} child
	 * @param {() => Promise<unknown>} start  starts and track()s the replacement
	 */
	async replace(name, child, start) {
		this.replaced.add(child);
		this.children = this.children.filter((c) => c.child !== child);
		const gone = await stopGroup(child, { graceMs: this.graceMs });
		if (!gone) throw new Error(`${name} (pid ${child.pid}) did not stop`);
		if (this.shuttingDown) return;
		await start();
	}

	/** Handle SIGINT/SIGTERM/SIGHUP (shutdown with 130/143) and, on exit, SIGKILL whatever is left. */
	handleSignals() {
		for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
			process.on(sig, () => {
				if (this.shuttingDown) return;
				console.log('');
				this.shutdown(sig === 'SIGINT' ? 130 : 143, `${sig} received`);
			});
		}
		process.on('exit', () => {
			// last resort, e.g. after a crash, or a CLI command started while the shutdown was under way
			killCliCommandsNow();
			this.children.forEach((c) => killGroupNow(c.child));
			if (this.killAfterNow) this.killAfterNow();
		});
		return this;
	}

	/**
	 * A child stopped (as a process group) by shutdown(); its unexpected exit shuts everything down.
	 * @param {string} name  also its log's name
	 * @param {ChildProcess} child
	 */
	track(name, child) {
		this.children.push({ name, child });
		return this.watch(name, child);
	}

	/**
	 * Only shut everything down when `child` exits unexpectedly (stopping it is someone else's job: stopAfter).
	 * @param {string} name
	 * @param {ChildProcess} child
	 */
	watch(name, child) {
		child.on('exit', (code, signal) => {
			if (this.shuttingDown || this.replaced.has(child)) return;
			this.shutdown(
				1,
				`${name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); see ${places.logPath(this.userFolder, name)}`,
			);
		});
		return child;
	}

	/**
	 * Stop everything (n8n CLI commands and the tracked children together, then stopAfter) and exit with `code`.
	 * @param {number} code
	 * @param {string} [why]
	 * @returns {Promise<void>}
	 */
	async shutdown(code, why) {
		if (this.shuttingDown) return;
		this.shuttingDown = true;
		const say = this.say;
		if (why) say(why);
		const running = this.children.filter((c) => c.child.pid && groupAlive(c.child.pid));
		if (running.length)
			say(`stopping ${running.map((c) => `${c.name} (pid ${c.child.pid})`).join(', ')} …`);
		const [results, cli] = await Promise.all([
			Promise.all(
				running.map(async (c) => [c.name, await stopGroup(c.child, { graceMs: this.graceMs })]),
			),
			stopCliCommands(), // an n8n import still running (Ctrl-C during the set-up)
		]);
		if (cli) say(`stopped ${cli} running n8n CLI command(s)`);
		const left = results.filter(([, ok]) => !ok).map(([n]) => String(n));
		if (this.stopAfter) left.push(...(await this.stopAfter()));
		if (left.length) say(`WARNING: still running after SIGKILL: ${left.join(', ')}`);
		else if (running.length || this.stopAfter) say('everything stopped; nothing left running.');
		process.exit(code);
	}
}

/**
 * `npm run build`, or with FINVERIFY_SKIP_BUILD=1 the existing dist/.
 * @param {Say} say
 */
function buildPackage(say) {
	if (process.env[places.ENV.SKIP_BUILD] === '1') {
		if (!fs.existsSync(places.FOLDERS.dist))
			throw new Error(`${places.ENV.SKIP_BUILD}=1 but dist/ does not exist`);
		return say(`build: skipped (${places.ENV.SKIP_BUILD}=1), using the existing dist/`);
	}
	say('build: npm run build …');
	const t = Date.now();
	const r = spawnSync(
		process.platform === 'win32' ? 'npm.cmd' : 'npm',
		['run', '--silent', 'build'],
		{
			cwd: places.REPO_ROOT,
			stdio: 'inherit',
		},
	);
	if (r.error) throw r.error;
	if (r.status !== 0) throw new Error('npm run build failed (see above)');
	say(`build: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/**
 * Every [name, port] free on 127.0.0.1, or an error listing the busy ones.
 * @param {[string, number][]} wanted
 * @param {string} hint  what may be running, and how to choose other ports
 */
async function assertPortsFree(wanted, hint) {
	const busy = [];
	for (const [name, port] of wanted)
		if (await portInUse(port)) busy.push(`${name}: 127.0.0.1:${port}`);
	if (busy.length) throw new Error(`port(s) already in use — ${hint}:\n  ${busy.join('\n  ')}`);
}

/**
 * The sandbox (sandbox/main.cts) on 127.0.0.1:port, tracked by the supervisor, waited until healthy.
 * @param {object} o
 * @param {Supervisor} o.supervisor
 * @param {number} o.port
 * @param {string} o.logFile
 * @param {(line: string) => void} [o.onLine]  its output lines, besides the log file
 * @returns {Promise<ChildProcess>}
 */
async function startSandbox({ supervisor, port, logFile, onLine }) {
	/** @type {NodeJS.ProcessEnv} */
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
	const child = spawnGroup(process.execPath, ['--require', 'tsx/cjs', places.FOLDERS.sandboxMain], {
		cwd: places.REPO_ROOT,
		env: {
			...env,
			[places.ENV.SANDBOX_PORT]: String(port),
			NODE_ENV: env.NODE_ENV === 'test' ? 'development' : env.NODE_ENV || 'development',
		},
		logFile,
		onLine,
	});
	supervisor.track('sandbox', child);
	await waitForHttp(`http://127.0.0.1:${port}/__sandbox/health`, {
		timeoutMs: 60000,
		proc: child,
		what: 'sandbox',
	});
	return child;
}

module.exports = { Supervisor, buildPackage, assertPortsFree, startSandbox };
