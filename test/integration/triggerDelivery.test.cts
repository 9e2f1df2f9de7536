/**
 * Trigger Delivery · Process Once through n8n-core's real engine: deliveries reach it through the FinVerify
 * Trigger over real HTTP (the trigger's own in-memory record switched off, so every copy and replay starts an
 * execution, as after a restart of n8n), and its keys go through n8n-core's real deduplication helper into a
 * store that behaves like n8n's `processed_data` table (test/harness/processedData.cts: read, modify, write,
 * no transaction). Concurrent executions through the operation's lock: each delivery processed once, no
 * execution failing on the record; the same store called concurrently without the lock loses keys and
 * fails creating the record (so these tests can fail); an item without a deliveryKey is a failed item naming
 * the field; the remembered keys are bounded, oldest forgotten first.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { DataDeduplicationService } from 'n8n-core';

import { Engine, nodeWorkflow, sandboxCredentials } from '../harness/index.cjs';
import type { RunResult, WebhookServer, WorkflowJson } from '../harness/index.cjs';
import { processedDataStore } from '../harness/processedData.cjs';
import type { ProcessedDataStore } from '../harness/processedData.cjs';
import { exclusiveKeysInUse } from '../../nodes/FinVerify/helpers/exclusive';
import { MAX_HISTORY_SIZE } from '../../nodes/FinVerify/actions/triggerDelivery/processOnce.operation';
import { fixtures, NODE, NOTHING_SENT } from './support.cjs';
import { deliver, journeyEvent } from './trigger/deliver.cjs';

const fixture = fixtures('triggerDelivery');
let engine: Engine;
let store: ProcessedDataStore;
let hooks: WebhookServer | undefined;

beforeAll(async () => {
	engine = await Engine.create();
	// the trigger reads its signing secret from the credential; nothing is sent to the service
	engine.setCredentials(sandboxCredentials('http://127.0.0.1:9'));
});
beforeEach(async () => {
	store = await processedDataStore();
});
afterEach(async () => {
	await hooks?.close();
	hooks = undefined;
});

/** Runs `tasks` with at most `inFlight` at a time, in order; resolves their results in order. */
async function inFlight<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
	const results: T[] = new Array(tasks.length);
	let next = 0;
	const worker = async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await tasks[index]();
		}
	};
	await Promise.all(Array.from({ length: limit }, worker));
	return results;
}

/** The event ids that came out of Process Once in each execution, and the executions that failed. */
const outcome = (runs: RunResult[]) => {
	const processed = new Map<string, number>();
	let failed = 0;
	for (const run of runs) {
		if (run.error) failed++;
		const out = run.run.data.resultData.runData[NODE]?.[0]?.data?.main?.[0] ?? [];
		for (const item of out) {
			// the event id the sender signed (the item's own id is the journey's)
			const id = String((item.json.raw as IDataObject).id);
			processed.set(id, (processed.get(id) ?? 0) + 1);
		}
	}
	return { processed, failed };
};

const journeyDelivery = () => {
	const id = `wh_${randomUUID()}`;
	return { id, body: journeyEvent('analysis_complete', { id }) };
};

describe('concurrent deliveries through the FinVerify Trigger', () => {
	test('40 deliveries 10 in flight, each with a copy in flight beside it, then all replayed 10 in flight: each processed once, no execution failed', async () => {
		hooks = await engine.serveWebhooks(fixture('processOnce'), { perCallStaticData: true });
		const url = hooks.urlFor('FinVerify Trigger');
		const deliveries = Array.from({ length: 40 }, journeyDelivery);
		// each delivery and an exact copy of it (the sender's retry) in flight together: 20 requests at a time
		const first = await inFlight(
			10,
			deliveries.map((d) => async () => {
				const answers = await Promise.all([
					deliver(url, d.body, { id: d.id }),
					deliver(url, d.body, { id: d.id }),
				]);
				return answers.map((a) => a.status);
			}),
		);
		expect(first.flat().every((status) => status === 200)).toBe(true);
		// every accepted delivery was counted before its answer: 80 executions, all finished here
		const firstRuns = await hooks.waitForExecutions(80);
		const afterFirst = outcome(firstRuns);
		expect(afterFirst.failed).toBe(0);
		expect(store.uniqueViolations).toBe(0);
		expect([...afterFirst.processed.keys()].sort()).toEqual(deliveries.map((d) => d.id).sort());
		expect([...afterFirst.processed.values()].every((n) => n === 1)).toBe(true);

		// the replays: every one is answered 200 and starts an execution that stops at Process Once
		const replays = await inFlight(
			10,
			deliveries.map((d) => async () => (await deliver(url, d.body, { id: d.id })).status),
		);
		expect(replays.every((status) => status === 200)).toBe(true);
		const all = outcome(await hooks.waitForExecutions(120));
		expect(all.failed).toBe(0);
		expect(all.processed.size).toBe(40);
		expect([...all.processed.values()].every((n) => n === 1)).toBe(true);
		expect(store.calls).toBe(120);
		expect([...store.rows.values()].map((row) => row.data.length)).toEqual([40]);
		// nothing of the lock is left once no delivery is in flight
		expect(exclusiveKeysInUse()).toBe(0);
	});
});

describe('a body without an event id, signed anew on every attempt (issue 43)', () => {
	test('three attempts of each of 5 events, new timestamps and signatures, copies in flight together: 15 executions, each event through Process Once once', async () => {
		hooks = await engine.serveWebhooks(fixture('processOnce'), { perCallStaticData: true });
		const url = hooks.urlFor('FinVerify Trigger');
		const events = Array.from({ length: 5 }, (_, n) =>
			journeyEvent('analysis_complete', {
				client_id: `aa_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
				previous_status: 'data_fetched',
				updated_at: new Date(Date.UTC(2026, 10, 29, 10, n)).toISOString(),
			}),
		);
		const now = Math.floor(Date.now() / 1000);
		const answers = await Promise.all(
			events.flatMap((body) =>
				[0, 30, 60].map(
					async (later) => (await deliver(url, body, { timestamp: now + later })).status,
				),
			),
		);
		expect(answers.every((status) => status === 200)).toBe(true);
		const runs = await hooks.waitForExecutions(15);
		expect(runs.filter((run) => run.error)).toHaveLength(0);
		const passed = runs.flatMap(
			(run) => run.run.data.resultData.runData[NODE]?.[0]?.data?.main?.[0] ?? [],
		);
		expect(passed.map((item) => item.json.id).sort()).toEqual(
			events.map((body) => body.client_id).sort(),
		);
		expect(new Set(passed.map((item) => item.json.deliveryKey)).size).toBe(5);
	});
});

describe("n8n's record without the lock (what Remove Duplicates does under concurrency)", () => {
	test('10 calls at once on a new record: one creates it, the others fail on the unique index; 10 more at once keep one key of ten', async () => {
		const service = DataDeduplicationService.getInstance();
		const context = { workflow: { id: 'wf-race', active: true }, node: { id: 'node-race' } };
		const call = (key: string) =>
			service.checkProcessedAndRecord([key], 'node', context as never, { mode: 'entries' });
		const created = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => call(`a${i}`)));
		expect(created.filter((r) => r.status === 'rejected')).toHaveLength(9);
		expect(store.uniqueViolations).toBe(9);
		const updates = await Promise.all(Array.from({ length: 10 }, (_, i) => call(`b${i}`)));
		expect(updates.every((r) => r.new.length === 1)).toBe(true);
		// ten keys reported new, one kept: a replay of the other nine would pass again
		expect(store.rows.get('wf-race\nn:node-race')?.data).toHaveLength(2);
	});
});

/** Start (pinned items) → FinVerify version 3, Trigger Delivery · Process Once. */
const processOnceWorkflow = (items: IDataObject[], parameters: IDataObject = {}): WorkflowJson => {
	const wf = nodeWorkflow({
		parameters: { resource: 'triggerDelivery', operation: 'processOnce', ...parameters },
		items,
	});
	return {
		...wf,
		nodes: wf.nodes.map((n) => (n.name === NODE ? { ...n, typeVersion: 3 } : n)),
	};
};

const keysOut = (result: RunResult, output = 0) =>
	result.json(NODE, output).map((json) => json.deliveryKey);

describe('one execution', () => {
	test('items without a deliveryKey go to the Failed output naming the field; the others are processed', async () => {
		const result = await engine.run(
			processOnceWorkflow([
				{ deliveryKey: 'event:one', status: 'analysis_complete' },
				{ status: 'analysis_complete' },
				{ deliveryKey: '  ' },
				{ deliveryKey: 42 },
			]),
		);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE, 0)).toEqual([
			{ deliveryKey: 'event:one', status: 'analysis_complete' },
		]);
		const failed = result.json(NODE, 1);
		expect(failed).toHaveLength(3);
		for (const [index, item] of failed.entries()) {
			expect(item.message).toBe(
				`Invalid deliveryKey in item ${index + 1} (got ${['an empty value', '"  "', '"42"'][index]})`,
			);
			expect(item.error).toMatchObject({ code: 'INVALID_INPUT' });
			expect(String((item.error as IDataObject).description)).toContain('FinVerify Trigger');
			expect(String((item.error as IDataObject).description)).toContain(NOTHING_SENT);
		}
		// only the valid item's key was recorded
		expect([...store.rows.values()].map((row) => row.data.length)).toEqual([1]);
	});

	test('two items with the same key in one execution: the first goes on, the second is dropped', async () => {
		const result = await engine.run(
			processOnceWorkflow([
				{ deliveryKey: 'event:same', n: 1 },
				{ deliveryKey: 'event:other', n: 2 },
				{ deliveryKey: 'event:same', n: 3 },
			]),
		);
		expect(result.json(NODE).map((json) => json.n)).toEqual([1, 2]);
	});

	test('Deliveries Remembered bounds the record: past it the oldest key is forgotten', async () => {
		const remember = (items: IDataObject[]) =>
			engine.run(processOnceWorkflow(items, { historySize: 3 }));
		const keys = ['event:a', 'event:b', 'event:c', 'event:d'];
		expect(keysOut(await remember(keys.map((deliveryKey) => ({ deliveryKey }))))).toEqual(keys);
		expect([...store.rows.values()][0].data).toHaveLength(3);
		// d is still remembered; a, the oldest, was forgotten and passes again
		expect(
			keysOut(await remember([{ deliveryKey: 'event:d' }, { deliveryKey: 'event:a' }])),
		).toEqual(['event:a']);
		expect(keysOut(await remember([{ deliveryKey: 'event:a' }]))).toEqual([]);
		expect([...store.rows.values()][0].data).toHaveLength(3);
	});

	test('Deliveries Remembered above the ceiling (a workflow saved with 1,000,000) keeps running with 20,000 keys', async () => {
		const remember = async (keys: string[]) =>
			await engine.run(
				processOnceWorkflow(
					keys.map((deliveryKey) => ({ deliveryKey })),
					{ historySize: 1_000_000 },
				),
			);
		expect(keysOut(await remember(['event:first']))).toEqual(['event:first']);
		// the record already full: 20,000 keys, 'event:first' the oldest
		const [row] = [...store.rows.values()];
		row.data.push(...Array.from({ length: MAX_HISTORY_SIZE - 1 }, (_, i) => `filler-${i}`));
		expect(keysOut(await remember(['event:new']))).toEqual(['event:new']);
		expect(MAX_HISTORY_SIZE).toBe(20_000);
		const [after] = [...store.rows.values()];
		expect(after.data).toHaveLength(MAX_HISTORY_SIZE);
		// the oldest was forgotten to make room: it passes again
		expect(keysOut(await remember(['event:first', 'event:new']))).toEqual(['event:first']);
	});

	test('an invalid Deliveries Remembered stops the node before any key is recorded', async () => {
		const result = await engine.run(
			processOnceWorkflow([{ deliveryKey: 'event:x' }], { historySize: 0 }),
		);
		// its one item failed: the node stops (Fail the Node When Items Fail: When All Items Fail)
		expect(result.error?.message).toBe(
			'1 of 1 items failed (Fail the Node When Items Fail: all items failed)',
		);
		expect(JSON.stringify(result.run.data.resultData.error)).toContain(
			'Invalid Deliveries Remembered in item 0',
		);
		expect(store.calls).toBe(0);
	});
});
