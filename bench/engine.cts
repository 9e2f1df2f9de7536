/**
 * Scenarios in n8n-core's real engine (test/harness, the built dist/ as n8n loads it) against the stub service:
 * throughput and CPU per item (node, floor node, axios loops), a CPU profile, per-item cost at several sizes.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';

import axios from 'axios';

import { Engine, nodeWorkflow } from '../test/harness/index.cjs';
import type { WorkflowJson } from '../test/harness/index.cjs';
import { FLOOR_NODE, writeFloorPackage } from './floor.cjs';
import type { StubProcess } from './lib.cjs';
import { cins, log, REPO, rotated, settings } from './lib.cjs';

const CIN_PATH = '/api/v1/services/corporate/cin-lookup';
export const KEYS = { apiKey: 'bench-key', apiSecret: 'bench-secret' };

export interface Timing extends Record<string, number> {
	ms: number;
	cpuMs: number;
}

export async function createEngine(stub: StubProcess): Promise<Engine> {
	const engine = await Engine.create({ fromSource: false });
	const floor = writeFloorPackage();
	await engine.nodeTypes.loadPackage(floor, { fromSource: false });
	fs.rmSync(floor, { recursive: true, force: true }); // loaded: the temporary package is not needed any more
	engine.setCredentials({ finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...KEYS } });
	return engine;
}

export const nodeLookups = (n: number): WorkflowJson =>
	nodeWorkflow({
		items: cins(n).map((cin) => ({ cin })),
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
			requestOptions: { concurrency: settings.concurrency, maxRetries: 0 },
		},
	});

export const floorLookups = (n: number, stub: StubProcess): WorkflowJson =>
	nodeWorkflow({
		nodeType: FLOOR_NODE,
		items: cins(n).map((cin) => ({ cin })),
		parameters: {
			url: `${stub.url}${CIN_PATH}`,
			cin: '={{ $json.cin }}',
			concurrency: settings.concurrency,
		},
	});

/** Wall time and CPU time of this process (the stub runs in another) for one call. */
async function timed(fn: () => Promise<void>): Promise<Timing> {
	const cpu = process.cpuUsage();
	const started = performance.now();
	await fn();
	const ms = performance.now() - started;
	const used = process.cpuUsage(cpu);
	return { ms, cpuMs: (used.user + used.system) / 1000 };
}

async function runChecked(engine: Engine, wf: WorkflowJson, node: string, n: number) {
	const result = await engine.run(wf);
	if (result.error) throw new Error(`${node}: ${result.error.message}`);
	if (result.output(node).length !== n) throw new Error(`${node}: not ${n} items`);
}

/** The same requests as a plain axios loop, `concurrency` in flight, the same headers and body. */
async function axiosLoop(stub: StubProcess, n: number, keepAlive: boolean) {
	const agent = new http.Agent({ keepAlive, maxSockets: settings.concurrency });
	const client = axios.create({ httpAgent: agent });
	const list = cins(n);
	let next = 0;
	const worker = async () => {
		while (next < list.length) {
			const cin = list[next++];
			const response = await client.post(
				`${stub.url}${CIN_PATH}`,
				{ cin },
				{
					headers: {
						Accept: 'application/json',
						'X-API-KEY': KEYS.apiKey,
						'X-API-SECRET': KEYS.apiSecret,
					},
				},
			);
			if (response.status !== 200) throw new Error(`axios: HTTP ${response.status}`);
		}
	};
	await Promise.all(Array.from({ length: settings.concurrency }, worker));
	agent.destroy();
}

export async function throughput(engine: Engine, stub: StubProcess) {
	const n = settings.items;
	log(`engine throughput: ${n} items, ${settings.concurrency} in flight, ${settings.latencyMs} ms`);
	const results = await rotated<Timing>([
		{ name: 'axiosKeepAlive', run: async () => await timed(() => axiosLoop(stub, n, true)) },
		{ name: 'axiosNoKeepAlive', run: async () => await timed(() => axiosLoop(stub, n, false)) },
		{
			name: 'floor',
			run: async () => await timed(() => runChecked(engine, floorLookups(n, stub), 'FinVerify', n)),
		},
		{
			name: 'node',
			run: async () => await timed(() => runChecked(engine, nodeLookups(n), 'FinVerify', n)),
		},
	]);
	return { items: n, idealMs: (n / settings.concurrency) * settings.latencyMs, results };
}

export async function scaling(engine: Engine) {
	const variants = settings.scaling.map((n) => ({
		name: String(n),
		run: async () => {
			const t = await timed(() => runChecked(engine, nodeLookups(n), 'FinVerify', n));
			return { ...t, msPerItem: t.ms / n, cpuMsPerItem: t.cpuMs / n };
		},
	}));
	log(`scaling: ${settings.scaling.join(' / ')} items`);
	return await rotated(variants, { warmUp: false });
}

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
}

/** Where the node's CPU goes: a CPU profile of one run, as the top self-time entries and shares by origin. */
export async function profile(engine: Engine) {
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) =>
			session.post(method, params ?? {}, (error, result) =>
				error ? reject(error) : resolve(result),
			),
		);
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 200 });
	await post('Profiler.start');
	await runChecked(engine, nodeLookups(settings.items), 'FinVerify', settings.items);
	const { profile: p } = (await post('Profiler.stop')) as {
		profile: { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };
	};
	session.disconnect();
	const totalHits = p.nodes.reduce((s, node) => s + (node.hitCount ?? 0), 0);
	const msPerHit = (p.endTime - p.startTime) / 1000 / Math.max(1, totalHits);
	const shorten = (url: string) => {
		const plain = url.replace(/^file:\/\//, '');
		const at = plain.lastIndexOf('node_modules/');
		if (at >= 0) return plain.slice(at + 'node_modules/'.length);
		if (plain.startsWith(REPO)) return plain.slice(REPO.length + 1);
		return plain;
	};
	const origin = (url: string, fn: string) => {
		if (fn === '(idle)' || fn === '(program)' || fn === '(garbage collector)') return fn;
		if (/\/dist\/(nodes|credentials)\//.test(url) && !url.includes('node_modules'))
			return 'this package';
		const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
		if (m) return m[1];
		if (url.startsWith('node:') || url === '') return 'Node.js internals';
		return 'bench/harness';
	};
	const byEntry = new Map<string, number>();
	const byOrigin = new Map<string, number>();
	for (const node of p.nodes) {
		const hits = node.hitCount ?? 0;
		if (!hits) continue;
		const { functionName, url, lineNumber } = node.callFrame;
		const key =
			`${functionName || '(anonymous)'} ${url ? `${shorten(url)}:${lineNumber + 1}` : ''}`.trim();
		byEntry.set(key, (byEntry.get(key) ?? 0) + hits);
		const o = origin(url, functionName);
		byOrigin.set(o, (byOrigin.get(o) ?? 0) + hits);
	}
	const busy = totalHits - (byOrigin.get('(idle)') ?? 0);
	const top = [...byEntry]
		.filter(([key]) => !key.startsWith('(idle)'))
		.sort((a, b) => b[1] - a[1])
		.slice(0, 10)
		.map(([entry, hits]) => ({
			entry,
			selfMs: Math.round(hits * msPerHit),
			shareOfBusy: hits / busy,
		}));
	const origins = [...byOrigin]
		.filter(([o]) => o !== '(idle)')
		.sort((a, b) => b[1] - a[1])
		.map(([name, hits]) => ({ origin: name, shareOfBusy: hits / busy }));
	return { items: settings.items, busyMs: Math.round(busy * msPerHit), top, origins };
}
