/**
 * `npm start`, the main job, as a user runs it: scripts/start.js on free ports with a fresh n8n user folder.
 * --exit-when-ready makes it start everything, verify, print the summary and stop again, so the test also
 * proves that stopping leaves nothing listening. Its log is clean: no n8n deprecation warning, no Python
 * task-runner error, no stack trace. Ctrl-C right after n8n is ready stops everything without a trace.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ensureBuilt, freePorts, NODE_TYPES, OWNER, REPO } from './helpers/stack.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const lib = require('../../scripts/n8n-env.js') as {
	portInUse(port: number): Promise<boolean>;
	groupAlive(pgid: number): boolean;
};

jest.setTimeout(300_000);

/**
 * The items of n8n's deprecation warning ("There are deprecations related to your n8n setup: - VAR -> …").
 * "Running n8n outside a container" is left out: n8n says it on every machine that is not a container, whatever
 * the configuration (this machine is one; a CI runner or a laptop is not).
 */
function deprecations(log: string): string[] {
	const items: string[] = [];
	let inside = false;
	for (const line of log.split('\n')) {
		if (/There (are deprecations|is a deprecation) related to your n8n setup/.test(line))
			inside = true;
		else if (inside && /^\s*(\[n8n\]\s*)?- /.test(line)) items.push(line.replace(/^.*?- /, ''));
		else inside = false;
	}
	return items.filter((d) => !d.startsWith('Running n8n outside a container'));
}

/** Lines of a JavaScript stack trace ("    at fn (file.js:1:2)") or an unhandled error. */
const isStackLine = (l: string) => /^\s*(\[n8n\]\s*)?at .+:\d+:\d+\)?$|Unhandled|uncaught/i.test(l);
const stackLines = (text: string) => text.split('\n').filter(isStackLine);

/**
 * The stack lines of a log, less n8n's own trace of closing its database while a read of it was still waiting
 * for a connection (n8n 2.41.1's SQLite pool aborts the waiting read and n8n logs the abort with its stack):
 * a block of consecutive frames that passes through n8n's `DbConnection.close` and runs only inside n8n's
 * installed modules. It comes when Ctrl-C lands as n8n finishes starting (seen once in CI); every other stack,
 * start.js's own or a frame of this package, still fails the test.
 */
function stackLinesBesidesN8nDbClose(text: string): string[] {
	const blocks: string[][] = [];
	const block: string[] = [];
	for (const line of text.split('\n'))
		if (isStackLine(line)) block.push(line);
		else if (block.length) blocks.push(block.splice(0));
	if (block.length) blocks.push(block);
	const n8nsOwnClose = (frames: string[]) =>
		frames.some((l) => l.includes('DbConnection.close')) &&
		frames.every((l) => /\/n8n\/node_modules\/|@n8n\/db\/src\//.test(l));
	return blocks.filter((frames) => !n8nsOwnClose(frames)).flat();
}

function startEnv(n8nPort: number, brokerPort: number, sandboxPort: number, userFolder: string) {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		N8N_PORT: String(n8nPort),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		SANDBOX_PORT: String(sandboxPort),
		N8N_USER_FOLDER: userFolder,
		FINVERIFY_SKIP_BUILD: '1', // npm test built dist/ just before
	};
	delete env.NODE_ENV; // as a user's shell: jest sets NODE_ENV=test
	delete env.JEST_WORKER_ID;
	return env;
}

test('npm start reaches a ready editor with the package, credential and examples, then stops cleanly', async () => {
	ensureBuilt();
	const [n8nPort, brokerPort, sandboxPort] = await freePorts(3);
	const userFolder = mkdtempSync(path.join(tmpdir(), 'finverify-start-'));
	const env = startEnv(n8nPort, brokerPort, sandboxPort, userFolder);

	try {
		const child = spawn(
			process.execPath,
			[path.join(REPO, 'scripts/start.js'), '--exit-when-ready', '--quiet'],
			{
				cwd: REPO,
				env,
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		let output = '';
		child.stdout.on('data', (chunk) => (output += chunk));
		child.stderr.on('data', (chunk) => (output += chunk));
		const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

		expect({ code, tail: code === 0 ? '' : output.slice(-3000) }).toEqual({ code: 0, tail: '' });
		expect(output).toContain(`n8n editor   http://127.0.0.1:${n8nPort}/`);
		expect(output).toContain(`login        ${OWNER.email}  /  ${OWNER.password}`);
		expect(output).toMatch(/owner: login OK/);
		expect(output).toContain(`sandbox      http://127.0.0.1:${sandboxPort}`);
		const nodesLine = output.split('\n').find((l) => l.trim().startsWith('nodes')) ?? '';
		expect(nodesLine).toContain(NODE_TYPES.action);
		expect(nodesLine).toContain(NODE_TYPES.trigger);
		const examples = readdirSync(path.join(REPO, 'examples')).filter((f) => f.endsWith('.json'));
		const workflowLinks =
			output.match(new RegExp(`http://127\\.0\\.0\\.1:${n8nPort}/workflow/`, 'g')) ?? [];
		expect(workflowLinks).toHaveLength(examples.length);

		// stopped again: nothing of it is left listening
		expect(await lib.portInUse(n8nPort)).toBe(false);
		expect(await lib.portInUse(brokerPort)).toBe(false);
		expect(await lib.portInUse(sandboxPort)).toBe(false);

		// a clean log: n8n's own (logs/n8n.log, the console shows it without --quiet) and start.js's
		const n8nLog = readFileSync(path.join(userFolder, 'logs', 'n8n.log'), 'utf8');
		expect(n8nLog).toContain('Editor is now accessible via');
		expect(deprecations(n8nLog)).toEqual([]);
		expect(n8nLog).not.toMatch(/python/i);
		expect(stackLines(n8nLog + output)).toEqual([]);
		// the Code node's JavaScript runner is there (external mode, started by scripts/n8n-run.js)
		expect(n8nLog).toMatch(/Registered runner "JS Task Runner"/);
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
});

test.each([
	['while the n8n CLI imports the credential', /import: credential/],
	['right after n8n is ready', /n8n: ready/],
])(
	'Ctrl-C %s stops everything cleanly: no stack trace, nothing left running',
	async (_when, moment) => {
		ensureBuilt();
		const [n8nPort, brokerPort, sandboxPort] = await freePorts(3);
		const userFolder = mkdtempSync(path.join(tmpdir(), 'finverify-start-int-'));
		try {
			// its own process group, like a terminal's foreground job: Ctrl-C sends SIGINT to the whole group
			const child = spawn(process.execPath, [path.join(REPO, 'scripts/start.js'), '--quiet'], {
				cwd: REPO,
				env: startEnv(n8nPort, brokerPort, sandboxPort, userFolder),
				stdio: ['ignore', 'pipe', 'pipe'],
				detached: true,
			});
			let output = '';
			let interrupted = false;
			const onData = (chunk: Buffer) => {
				output += chunk;
				if (!interrupted && moment.test(output)) {
					interrupted = true;
					process.kill(-child.pid!, 'SIGINT');
				}
			};
			child.stdout.on('data', onData);
			child.stderr.on('data', onData);
			const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

			expect({ interrupted, code }).toEqual({ interrupted: true, code: 130 });
			expect(output).toContain('SIGINT received');
			expect(output).toContain('everything stopped; nothing left running.');
			expect(output).not.toContain('ERROR');
			expect(stackLinesBesidesN8nDbClose(output)).toEqual([]);
			const n8nLog = path.join(userFolder, 'logs', 'n8n.log');
			expect(
				stackLinesBesidesN8nDbClose(existsSync(n8nLog) ? readFileSync(n8nLog, 'utf8') : ''),
			).toEqual([]);
			// every process group it started (sandbox; n8n with its task runner) is gone, nothing listens
			const pids = [...output.matchAll(/\(pid (\d+)\)/g)].map((m) => Number(m[1]));
			expect(pids.length).toBeGreaterThanOrEqual(1);
			expect(pids.filter((pid) => lib.groupAlive(pid))).toEqual([]);
			expect(lib.groupAlive(child.pid!)).toBe(false);
			for (const port of [n8nPort, brokerPort, sandboxPort])
				expect({ port, inUse: await lib.portInUse(port) }).toEqual({ port, inUse: false });
		} finally {
			rmSync(userFolder, { recursive: true, force: true });
		}
	},
);
