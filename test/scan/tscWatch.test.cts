/**
 * `npm run dev`'s watch loop (scripts/lib/watch.js, `watchBuild`) over a real `tsc --watch` on a small project in a
 * temporary folder: a change under nodes/ rebuilds dist/ and reloads once (the reload sees the new build); a type
 * error reloads nothing and is named. Each compile is seconds of tsc, so it is in the scan step with the other
 * tool runs; the loop's decisions alone are test/unit/watch.test.cts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

interface Watcher {
	idle(): Promise<void>;
	stop(): void;
	reloads: number;
	compiles: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const { watchBuild } = require(path.join(REPO, 'scripts', 'lib', 'watch.js')) as {
	watchBuild(o: {
		cwd: string;
		reload: () => Promise<void>;
		say: (m: string) => void;
		debounceMs?: number;
	}): { child: import('node:child_process').ChildProcess; watcher: Watcher };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const { stopGroup } = require(path.join(REPO, 'scripts', 'lib', 'processes.js')) as {
	stopGroup(child: { pid?: number }, o?: { graceMs?: number }): Promise<boolean>;
};

jest.setTimeout(120_000);

/** Polls `condition` until it holds (or fails the test with `what` after a generous deadline). */
async function until(what: string, condition: () => boolean, timeoutMs = 100_000) {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe('watchBuild with a real tsc --watch', () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(path.join(tmpdir(), 'finverify-watch-'));
		mkdirSync(path.join(dir, 'nodes'));
		writeFileSync(
			path.join(dir, 'tsconfig.json'),
			JSON.stringify({
				compilerOptions: {
					strict: true,
					module: 'commonjs',
					target: 'es2021',
					outDir: './dist/',
					types: [],
				},
				include: ['nodes/**/*.ts', 'credentials/**/*.ts'],
			}),
		);
		writeFileSync(path.join(dir, 'nodes', 'a.ts'), 'export const version: number = 1;\n');
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	test('a change under nodes/ rebuilds dist/ and reloads once; a type error reloads nothing', async () => {
		const said: string[] = [];
		const built: string[] = [];
		const { child, watcher } = watchBuild({
			cwd: dir,
			debounceMs: 200,
			say: (m) => said.push(m),
			reload: async () => {
				built.push(readFileSync(path.join(dir, 'dist', 'a.js'), 'utf8'));
			},
		});
		try {
			await until('the first compile', () => watcher.compiles === 1);
			expect(readFileSync(path.join(dir, 'dist', 'a.js'), 'utf8')).toContain('exports.version = 1');

			writeFileSync(path.join(dir, 'nodes', 'a.ts'), 'export const version: number = 2;\n');
			await until('the rebuild', () => watcher.compiles === 2);
			await watcher.idle();
			expect(watcher.reloads).toBe(1);
			expect(built[0]).toContain('exports.version = 2'); // the reload saw the new build

			writeFileSync(path.join(dir, 'nodes', 'a.ts'), "export const version: number = 'three';\n");
			await until('the failing compile', () => watcher.compiles === 3);
			await watcher.idle();
			expect(watcher.reloads).toBe(1);
			expect(said.join('\n')).toMatch(/TypeScript error.*\n.*a\.ts.*TS2322/);
		} finally {
			watcher.stop();
			await stopGroup(child, { graceMs: 2000 });
		}
	});
});
