/**
 * Free ports for the processes the suites start (scripts/lib/ports.js): below the kernel's ephemeral range
 * (where outgoing connections take their local ports), and never one another live process on this machine
 * holds, so two runs starting stacks at the same moment do not collide.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const PORTS_JS = path.join(REPO, 'scripts', 'lib', 'ports.js');

/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS script without types */
const ports = require(PORTS_JS) as {
	freePort(): Promise<number>;
	freePorts(n: number): Promise<number[]>;
	reserve(port: number): boolean;
	ephemeralStart(): number;
	LOCKS: string;
};
const { RESERVED_PORTS } = require(path.join(REPO, 'scripts', 'lib', 'places.js')) as {
	RESERVED_PORTS: readonly number[];
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Another process that reserves `n` ports, prints them and stays alive until its stdin closes. */
async function otherRun(n: number) {
	const child = spawn(
		process.execPath,
		[
			'-e',
			`require(${JSON.stringify(PORTS_JS)}).freePorts(${n}).then((p) => {` +
				`process.stdout.write(JSON.stringify(p) + '\\n'); process.stdin.resume();` +
				`process.stdin.on('end', () => process.exit(0)); })`,
		],
		{ stdio: ['pipe', 'pipe', 'inherit'] },
	);
	let out = '';
	const held = await new Promise<number[]>((resolve, reject) => {
		child.stdout.on('data', (chunk) => {
			out += String(chunk);
			if (out.includes('\n')) resolve(JSON.parse(out));
		});
		child.once('exit', (code) =>
			reject(new Error(`the other run exited (${code}) before printing`)),
		);
	});
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	return {
		held,
		stop: async () => {
			child.stdin.end();
			await exited;
		},
	};
}

describe('free ports for the processes a suite starts', () => {
	it('are different, below the ephemeral range, never npm start’s, and bindable on 127.0.0.1', async () => {
		const picked = await ports.freePorts(200);
		expect(new Set(picked).size).toBe(200);
		const high = ports.ephemeralStart();
		expect(high).toBeGreaterThan(10_000);
		for (const port of picked) {
			expect(port).toBeGreaterThanOrEqual(10_000);
			expect(port).toBeLessThan(high);
			expect(RESERVED_PORTS).not.toContain(port);
		}
		const [port] = picked;
		const server = net.createServer();
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, '127.0.0.1', resolve);
		});
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	it('never hands out a port another live run holds, and takes its ports over once it is gone', async () => {
		// 400 of about 22,000 ports held elsewhere: 2,000 unreserved picks would meet about 36 of them
		const other = await otherRun(400);
		const held = new Set(other.held);
		for (const port of other.held)
			expect(fs.readFileSync(path.join(ports.LOCKS, String(port)), 'utf8')).not.toBe('');
		const mine = await ports.freePorts(2000);
		expect(mine.filter((port) => held.has(port))).toEqual([]);
		await other.stop();
		// the other run removed its reservations when it exited
		expect(
			other.held.filter((port) => fs.existsSync(path.join(ports.LOCKS, String(port)))),
		).toEqual([]);
	});

	it('takes over a reservation left by a process that died without removing it', async () => {
		const other = await otherRun(1);
		const [port] = other.held;
		// held by a live process: not ours
		expect(ports.reserve(port)).toBe(false);
		await other.stop();
		// a reservation whose process is gone (a pid above the kernel's limit is never alive)
		fs.writeFileSync(path.join(ports.LOCKS, String(port)), '4194305');
		expect(ports.reserve(port)).toBe(true);
		expect(fs.readFileSync(path.join(ports.LOCKS, String(port)), 'utf8')).toBe(String(process.pid));
		// and never twice to the same process
		expect(ports.reserve(port)).toBe(false);
	});
});
