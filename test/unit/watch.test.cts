/**
 * The watch loop of `npm run dev` (scripts/lib/watch.js): a change under nodes/ gives one rebuild and one reload
 * (start.js: reinstall the package, restart n8n); the first compile, a compile with errors and a burst of changes
 * do not reload more than they should, decided on tsc's own status lines; and n8n's process replaced by the
 * supervisor. The same loop over a real `tsc --watch` is test/scan/tscWatch.test.cts (seconds of tsc).
 */
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

interface Watcher {
	line(text: string): void;
	idle(): Promise<void>;
	stop(): void;
	reloads: number;
	compiles: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const { BuildWatcher } = require(path.join(REPO, 'scripts', 'lib', 'watch.js')) as {
	BuildWatcher: new (o: {
		reload: () => Promise<void>;
		say: (m: string) => void;
		debounceMs?: number;
	}) => Watcher;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const { stopGroup } = require(path.join(REPO, 'scripts', 'lib', 'processes.js')) as {
	stopGroup(child: { pid?: number }, o?: { graceMs?: number }): Promise<boolean>;
};

jest.setTimeout(90_000);

const START = '[10:00:00 AM] Starting compilation in watch mode...';
const CHANGE = '[10:00:05 AM] File change detected. Starting incremental compilation...';
const done = (errors: number) =>
	`[10:00:06 AM] Found ${errors} error${errors === 1 ? '' : 's'}. Watching for file changes.`;

/** Polls `condition` until it holds (or fails the test with `what` after a generous deadline). */
async function until(what: string, condition: () => boolean, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe('BuildWatcher (tsc --watch status lines)', () => {
	const make = (reload: () => Promise<void> = async () => {}) => {
		const said: string[] = [];
		const watcher = new BuildWatcher({ reload, say: (m) => said.push(m), debounceMs: 20 });
		return { watcher, said };
	};

	test('the first compile (what npm run build already built) reloads nothing; a change reloads once', async () => {
		const { watcher } = make();
		watcher.line(START);
		watcher.line(done(0));
		await watcher.idle();
		expect(watcher.reloads).toBe(0);
		watcher.line(CHANGE);
		watcher.line(done(0));
		await watcher.idle();
		expect(watcher.reloads).toBe(1);
		watcher.stop();
	});

	test('a burst of changes (a compile starting within the quiet time) gives one reload', async () => {
		const { watcher } = make();
		watcher.line(START);
		watcher.line(done(0));
		for (let i = 0; i < 3; i++) {
			watcher.line(CHANGE);
			watcher.line(done(0));
		}
		await watcher.idle();
		expect(watcher.compiles).toBe(4);
		expect(watcher.reloads).toBe(1);
		watcher.stop();
	});

	test('a compile with errors keeps the running build and names the error', async () => {
		const { watcher, said } = make();
		watcher.line(START);
		watcher.line(done(0));
		watcher.line(CHANGE);
		watcher.line(
			"nodes/a.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.",
		);
		watcher.line(done(1));
		await watcher.idle();
		expect(watcher.reloads).toBe(0);
		expect(said.join('\n')).toMatch(/1 TypeScript error.*\n.*nodes\/a\.ts\(1,14\): error TS2322/);
	});

	test('a change during a reload gives exactly one more reload after it, never two at once', async () => {
		let running = 0;
		let most = 0;
		let release: () => void = () => {};
		const { watcher } = make(async () => {
			running++;
			most = Math.max(most, running);
			await new Promise<void>((resolve) => (release = resolve));
			running--;
		});
		watcher.line(START);
		watcher.line(done(0));
		watcher.line(CHANGE);
		watcher.line(done(0));
		await until('the first reload', () => running === 1);
		for (let i = 0; i < 2; i++) {
			watcher.line(CHANGE);
			watcher.line(done(0));
		}
		await new Promise((resolve) => setTimeout(resolve, 100)); // past the quiet time: the reload is waiting
		expect(watcher.reloads).toBe(1);
		release();
		await until('the second reload', () => watcher.reloads === 2 && running === 1);
		release();
		await watcher.idle();
		expect({ reloads: watcher.reloads, most }).toEqual({ reloads: 2, most: 1 });
	});
});

describe('Supervisor.replace (n8n restarted with a new build)', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
	const { Supervisor } = require(path.join(REPO, 'scripts', 'lib', 'dev-stack.js')) as {
		Supervisor: new (o: { say: (m: string) => void; userFolder: string; graceMs: number }) => {
			track(name: string, child: import('node:child_process').ChildProcess): unknown;
			replace(
				name: string,
				child: import('node:child_process').ChildProcess,
				start: () => Promise<unknown>,
			): Promise<void>;
			children: Array<{ name: string; child: import('node:child_process').ChildProcess }>;
			shuttingDown: boolean;
		};
	};
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
	const { spawnGroup, groupAlive } = require(path.join(REPO, 'scripts', 'lib', 'processes.js')) as {
		spawnGroup(cmd: string, args: string[]): import('node:child_process').ChildProcess;
		groupAlive(pgid: number): boolean;
	};
	const sleeper = () => spawnGroup(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);

	test('stops the old process group without shutting down and tracks the new one', async () => {
		const supervisor = new Supervisor({ say: () => {}, userFolder: tmpdir(), graceMs: 2000 });
		const first = supervisor.track('n8n', sleeper()) as import('node:child_process').ChildProcess;
		let second: import('node:child_process').ChildProcess | undefined;
		try {
			await supervisor.replace('n8n', first, async () => {
				second = supervisor.track('n8n', sleeper()) as import('node:child_process').ChildProcess;
			});
			expect(supervisor.shuttingDown).toBe(false); // the old one's exit was expected
			expect(groupAlive(first.pid!)).toBe(false);
			expect(groupAlive(second!.pid!)).toBe(true);
			expect(supervisor.children.map((c) => c.child)).toEqual([second]);
		} finally {
			supervisor.shuttingDown = true; // what shutdown() sets: the exits below are expected
			for (const child of [first, second])
				if (child?.pid) await stopGroup(child, { graceMs: 1000 });
		}
	});
});
