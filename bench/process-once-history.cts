/**
 * Per-delivery cost of Trigger Delivery · Process Once against Deliveries Remembered (issue 43), in its own
 * process: for each size, n8n's deduplication record of the node is filled with that many keys, then
 * BENCH_PROCESS_ONCE_RUNS new deliveries each go through a Process Once execution (n8n-core's real
 * WorkflowExecute and its real deduplication helper). The record is held as n8n's database holds it: one row
 * whose value is JSON text, parsed when read and serialised when written (the JSON column of `processed_data`),
 * with what n8n's `DeduplicationHelper.handleHashedItems` does in between (MD5 of the key, a Set of the stored
 * hashes, the new one pushed, the list cut to Deliveries Remembered). SQLite's own reading and writing of the
 * row, which also grows with it, is not in these figures: they are a lower bound of what size costs in the app.
 * Prints one JSON line: CPU and wall milliseconds per delivery for each size, and the ratio to the default's.
 */
import './lib.cjs';

import { performance } from 'node:perf_hooks';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

import { Engine, nodeWorkflow, sandboxCredentials } from '../test/harness/index.cjs';
import { hash, recordEntries } from '../test/harness/processedData.cjs';
import type { WorkflowJson } from '../test/harness/index.cjs';
import { QUICK } from './lib.cjs';

const NODE = 'FinVerify';
const DEFAULT_SIZE = 10_000;
const SIZES = (process.env.BENCH_PROCESS_ONCE_SIZES ?? '10000,20000,50000,100000,1000000')
	.split(',')
	.map(Number);
const RUNS = Number(process.env.BENCH_PROCESS_ONCE_RUNS ?? (QUICK ? 5 : 20));

/** n8n's record in mode `entries`, its row kept as the JSON text the database column holds. */
class JsonRowStore implements IDataDeduplicator {
	readonly rows = new Map<string, string>();

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const key = `${contextData.workflow.id}\n${scope === 'node' ? contextData.node?.id : ''}`;
		const text = this.rows.get(key);
		const hashed = items.map(hash);
		if (text === undefined) {
			this.rows.set(key, JSON.stringify({ mode: options.mode, data: hashed }));
			return { new: items, processed: [] };
		}
		const row = JSON.parse(text) as { mode: string; data: string[] };
		const output = recordEntries(row, items, hashed, options.maxEntries);
		this.rows.set(key, JSON.stringify(row));
		return output;
	}

	async removeProcessed(): Promise<void> {}

	async clearAllProcessedItems(): Promise<void> {
		this.rows.clear();
	}

	async getProcessedDataCount(): Promise<number> {
		return 0;
	}
}

const workflow = (deliveryKey: string, historySize: number): WorkflowJson => {
	const wf = nodeWorkflow({
		parameters: { resource: 'triggerDelivery', operation: 'processOnce', historySize },
		items: [{ deliveryKey, status: 'analysis_complete' }],
	});
	return { ...wf, nodes: wf.nodes.map((n) => (n.name === NODE ? { ...n, typeVersion: 3 } : n)) };
};

async function main() {
	const store = new JsonRowStore();
	await DataDeduplicationService.init(store);
	const engine = await Engine.create({ fromSource: false });
	engine.setCredentials(sandboxCredentials('http://127.0.0.1:9'));
	// the row's key: one warm-up run creates it
	const first = await engine.run(workflow('event:warm-up', DEFAULT_SIZE));
	if (first.json(NODE).length !== 1) throw new Error('the warm-up delivery did not pass');
	const [rowKey] = [...store.rows.keys()];
	const sizes: Array<{
		size: number;
		cpuMsPerDelivery: number;
		wallMsPerDelivery: number;
		rowBytes: number;
	}> = [];
	for (const size of SIZES) {
		const data = Array.from({ length: size }, (_, i) => hash(`event:filler-${size}-${i}`));
		store.rows.set(rowKey, JSON.stringify({ mode: 'entries', data }));
		// one run outside the measurement (the row read once, code paths warm)
		await engine.run(workflow(`event:warm-${size}`, size));
		global.gc?.();
		const cpu = process.cpuUsage();
		const wall = performance.now();
		for (let n = 0; n < RUNS; n++) {
			const run = await engine.run(workflow(`event:new-${size}-${n}`, size));
			if (run.json(NODE).length !== 1) throw new Error(`size ${size}: a new delivery was dropped`);
		}
		const used = process.cpuUsage(cpu);
		sizes.push({
			size,
			cpuMsPerDelivery: (used.user + used.system) / 1000 / RUNS,
			wallMsPerDelivery: (performance.now() - wall) / RUNS,
			rowBytes: Buffer.byteLength(store.rows.get(rowKey) ?? ''),
		});
	}
	const base = sizes.find((s) => s.size === DEFAULT_SIZE) ?? sizes[0];
	process.stdout.write(
		`${JSON.stringify({
			runs: RUNS,
			defaultSize: DEFAULT_SIZE,
			sizes: sizes.map((s) => ({
				...s,
				cpuRatioToDefault: Math.round((s.cpuMsPerDelivery / base.cpuMsPerDelivery) * 100) / 100,
			})),
		})}\n`,
	);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
		process.exit(1);
	},
);
