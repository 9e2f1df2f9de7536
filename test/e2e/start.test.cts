/**
 * `npm start`, the main job, as a user runs it: scripts/start.js on free ports with a fresh n8n user folder.
 * --exit-when-ready makes it start everything, verify, print the summary and stop again, so the test also
 * proves that stopping leaves nothing listening.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ensureBuilt, freePort, NODE_TYPES, OWNER, REPO } from './helpers/stack.cjs';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script without types
const lib = require('../../scripts/n8n-env.js') as { portInUse(port: number): Promise<boolean> };

jest.setTimeout(300_000);

async function ports(n: number) {
	const out: number[] = [];
	while (out.length < n) {
		const port = await freePort();
		if (![5678, 5679, 4010].includes(port) && !out.includes(port)) out.push(port);
	}
	return out;
}

test('npm start reaches a ready editor with the package, credential and examples, then stops cleanly', async () => {
	ensureBuilt();
	const [n8nPort, brokerPort, sandboxPort] = await ports(3);
	const userFolder = mkdtempSync(path.join(tmpdir(), 'finverify-start-'));
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
		expect(await lib.portInUse(sandboxPort)).toBe(false);
	} finally {
		rmSync(userFolder, { recursive: true, force: true });
	}
});
