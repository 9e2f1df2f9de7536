/**
 * What the benchmark scenarios share: settings from the environment, free ports, medians over rotated repetitions,
 * child processes (the stub service) and peak-RSS readings from /proc.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '..');

/** BENCH_QUICK=1: small sizes and one repetition, to check the instrument; the full run gives the figures. */
export const QUICK = process.env.BENCH_QUICK === '1';

export const settings = {
	quick: QUICK,
	repetitions: Number(process.env.BENCH_REPETITIONS ?? (QUICK ? 1 : 3)),
	items: Number(process.env.BENCH_ITEMS ?? (QUICK ? 400 : 2000)),
	concurrency: 10,
	latencyMs: Number(process.env.BENCH_LATENCY_MS ?? 20),
	bodyBytes: 2048,
	statementTransactions: Number(process.env.BENCH_TRANSACTIONS ?? (QUICK ? 20_000 : 100_000)),
	scaling: QUICK ? [200, 400, 800] : [500, 2000, 8000],
	/** BENCH_APP=0 skips the scenarios in the real n8n app. */
	app: process.env.BENCH_APP !== '0',
};

/** Free ports below the ephemeral range, reserved across the runs on this machine. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS script (JSDoc-typed)
const { freePort } = require('../scripts/lib/ports.js') as { freePort: () => Promise<number> };

/**
 * A port from BENCH_<NAME>_PORT, or a free one on 127.0.0.1 reserved for this run (never one of
 * RESERVED_PORTS, never in the ephemeral range: scripts/lib/ports.js).
 */
export async function portFor(name: string): Promise<number> {
	const fixed = process.env[`BENCH_${name.toUpperCase()}_PORT`];
	if (fixed) return Number(fixed);
	return await freePort();
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/**
 * Runs every variant `repetitions` times, the order rotated each round (round r starts at variant r), after one
 * untimed warm-up round; returns every variant's samples and their median.
 */
export async function rotated<T extends Record<string, number>>(
	variants: Array<{ name: string; run: () => Promise<T> }>,
	{ repetitions = settings.repetitions, warmUp = true } = {},
): Promise<Record<string, { samples: T[]; median: T }>> {
	if (warmUp) for (const v of variants) await v.run();
	const samples: Record<string, T[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
	for (let round = 0; round < repetitions; round++) {
		for (let k = 0; k < variants.length; k++) {
			const v = variants[(round + k) % variants.length];
			samples[v.name].push(await v.run());
			log(`${v.name} #${round + 1}: ${JSON.stringify(samples[v.name].at(-1))}`);
		}
	}
	return Object.fromEntries(
		variants.map((v) => {
			const list = samples[v.name];
			const keys = Object.keys(list[0]);
			const med = Object.fromEntries(keys.map((k) => [k, median(list.map((s) => s[k]))])) as T;
			return [v.name, { samples: list, median: med }];
		}),
	);
}

/** A child process running a .cts file with tsx; resolves the first JSON line it prints. */
export function childJson<T>(
	file: string,
	env: Record<string, string> = {},
	nodeArgs: string[] = [],
): Promise<T> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...nodeArgs, '--require', 'tsx/cjs', file], {
			cwd: REPO,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (c: Buffer) => (out += c.toString()));
		child.on('error', reject);
		child.on('exit', (code) => {
			const line = out.split('\n').find((l) => l.startsWith('{'));
			if (code !== 0 || !line) reject(new Error(`${file} exited ${code}: ${out.slice(-2000)}`));
			else resolve(JSON.parse(line) as T);
		});
	});
}

export interface StubProcess {
	url: string;
	pid: number;
	close(): Promise<void>;
}

/** The stub service (bench/stub.cts) in its own process, so its CPU is not counted in the bench process. */
export async function startStub(env: Record<string, string> = {}): Promise<StubProcess> {
	const port = await portFor('stub');
	const child: ChildProcess = spawn(
		process.execPath,
		['--require', 'tsx/cjs', path.join(__dirname, 'stub.cts')],
		{
			cwd: REPO,
			env: {
				...process.env,
				STUB_PORT: String(port),
				STUB_LATENCY_MS: String(settings.latencyMs),
				STUB_BODY_BYTES: String(settings.bodyBytes),
				...env,
			},
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	await new Promise<void>((resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`the stub exited (${code})`)));
		child.stdout!.on('data', (c: Buffer) => {
			if (c.toString().includes('listening')) resolve();
		});
	});
	return {
		url: `http://127.0.0.1:${port}`,
		pid: child.pid!,
		close: async () => {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/** Peak resident set size of a process since the last reset (VmHWM), in bytes. */
export function peakRss(pid: number | 'self' = 'self'): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
	return kb * 1024;
}

/** Current resident set size of a process, in bytes. */
export function currentRss(pid: number | 'self' = 'self'): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Resets a process's peak RSS to its current RSS (Linux: "5" to /proc/<pid>/clear_refs); false if not allowed. */
export function resetPeakRss(pid: number | 'self' = 'self'): boolean {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/** CIN-like identifiers, one per item. */
export const cins = (n: number) =>
	Array.from(
		{ length: n },
		(_, i) =>
			`U${String(72200 + (i % 1000)).padStart(5, '0')}KA20${String(10 + (i % 10))}PTC${String(100000 + i)}`,
	);

export const MB = 1024 * 1024;
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
