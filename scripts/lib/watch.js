// @ts-check
'use strict';
/**
 * The watch loop of `npm run dev` (`npm start -- --watch`): TypeScript's own watcher (`tsc --watch`) rebuilds dist/
 * whenever a file under nodes/ or credentials/ changes. After each compile without errors, once no further compile
 * has started for `debounceMs` (an editor saving several files, a branch switch), `reload()` runs once: start.js
 * copies dist/ into the n8n user folder and restarts n8n. A compile with errors reloads nothing and says so.
 * Reloads never overlap: a compile that finishes during a reload gets one more reload after it.
 *
 *   BuildWatcher   reads tsc's watch output line by line and decides when to reload (no process of its own)
 *   watchBuild()   runs `tsc -p <tsconfig> --watch` as a process group and feeds its lines to a BuildWatcher
 *
 * Plain CommonJS, Node's standard library only.
 */
const path = require('node:path');
const { spawnGroup } = require('./processes');

/** @typedef {(message: string) => void} Say */

// tsc --watch's status lines: "[10:31:02 AM] File change detected. Starting incremental compilation..." and
// "[10:31:03 AM] Found 0 errors. Watching for file changes." (the time prefix is optional)
const STARTED =
	/(Starting compilation in watch mode|File change detected\. Starting incremental compilation)/;
const FINISHED = /Found (\d+) errors?\. Watching for file changes/;
const ERROR_LINE = /error TS\d+:/;

class BuildWatcher {
	/**
	 * @param {object} o
	 * @param {() => Promise<void>} o.reload   copy the build and restart n8n
	 * @param {Say} o.say
	 * @param {number} [o.debounceMs]         quiet time after a compile before reloading
	 */
	constructor({ reload, say, debounceMs = 500 }) {
		this.reload = reload;
		this.say = say;
		this.debounceMs = debounceMs;
		this.compiles = 0;
		this.reloads = 0;
		this.compiling = false;
		/** @type {string[]} */
		this.errors = [];
		/** @type {NodeJS.Timeout | undefined} */
		this.timer = undefined;
		/** @type {Promise<void> | undefined} */
		this.reloading = undefined;
		this.again = false;
		this.stopped = false;
	}

	/** One line of tsc's output. @param {string} text */
	line(text) {
		if (this.stopped) return;
		if (STARTED.test(text)) {
			this.compiling = true;
			this.errors = [];
			if (this.timer) clearTimeout(this.timer); // more changes: wait for this compile too
			this.timer = undefined;
			return;
		}
		if (ERROR_LINE.test(text)) {
			this.errors.push(text.trim());
			return;
		}
		const finished = FINISHED.exec(text);
		if (!finished) return;
		this.compiling = false;
		this.compiles++;
		// the first compile rebuilds what `npm run build` just built: n8n already runs it
		if (this.compiles === 1) return;
		if (Number(finished[1]) > 0) {
			this.say(
				`watch: ${finished[1]} TypeScript error(s), n8n keeps the previous build:\n  ${this.errors.join('\n  ')}`,
			);
			return;
		}
		if (this.timer) clearTimeout(this.timer);
		this.timer = setTimeout(() => this.fire(), this.debounceMs);
	}

	/** The quiet time is over: reload, or reload once more after the reload under way. */
	fire() {
		this.timer = undefined;
		if (this.stopped || this.compiling) return;
		if (this.reloading) {
			this.again = true;
			return;
		}
		this.reloads++;
		this.reloading = this.reload()
			.catch((e) => this.say(`watch: reload failed: ${e && e.message ? e.message : e}`))
			.finally(() => {
				this.reloading = undefined;
				if (this.again && !this.stopped) {
					this.again = false;
					this.fire();
				}
			});
	}

	/** Resolves when no reload is under way or waiting. */
	async idle() {
		while (this.reloading || this.timer) {
			if (this.reloading) await this.reloading;
			else await new Promise((resolve) => setTimeout(resolve, this.debounceMs));
		}
	}

	stop() {
		this.stopped = true;
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
	}
}

/**
 * `tsc -p <tsconfig> --watch` in its own process group, its output fed to a BuildWatcher.
 * @param {object} o
 * @param {string} o.cwd             the project root (tsc from its node_modules)
 * @param {string} [o.tsconfig]      default tsconfig.json
 * @param {() => Promise<void>} o.reload
 * @param {Say} o.say
 * @param {number} [o.debounceMs]
 * @param {string} [o.logFile]       tsc's output also goes here
 */
function watchBuild({ cwd, tsconfig = 'tsconfig.json', reload, say, debounceMs, logFile }) {
	const watcher = new BuildWatcher({ reload, say, debounceMs });
	const tsc = require.resolve('typescript/bin/tsc', {
		paths: [cwd, path.join(__dirname, '..', '..')],
	});
	const child = spawnGroup(
		process.execPath,
		[tsc, '-p', path.join(cwd, tsconfig), '--watch', '--preserveWatchOutput'],
		{ cwd, env: process.env, logFile, onLine: (l) => watcher.line(l) },
	);
	child.on('exit', () => watcher.stop());
	return { child, watcher };
}

module.exports = { BuildWatcher, watchBuild };
