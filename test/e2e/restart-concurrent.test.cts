/**
 * Restart-safe deliveries under concurrency, in the real app (n8n 2.41.1, SQLite, one n8n in regular mode).
 * Two published workflows, each FinVerify Trigger → a record on `deliveryKey` → No Op "Processed":
 * - FinVerify's Trigger Delivery · Process Once (n8n's deduplication store behind the node's in-process lock);
 * - n8n's Remove Duplicates ("previous executions"), the same store without a lock.
 * Schedule for each: 40 signed deliveries sent 10 in flight; n8n restarted (the trigger's in-memory record is
 * gone, as documented); the 40 replayed 10 in flight, mixed with 10 new deliveries. Asserted for Process Once:
 * every delivery answered 200, no execution failed, every delivery processed exactly once (0 twice). For Remove
 * Duplicates the same figures are printed, not asserted: it is n8n's behaviour (docs/trigger.md, Deduplication).
 */

import {
	postDelivery,
	signedJourneyDelivery,
	type SignedDelivery as Delivery,
} from './helpers/deliveries.cjs';
import { log, N8nStack, waitFor, waitForWebhook, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(1_800_000);

const FIRST = 40;
const NEW_AFTER_RESTART = 10;
const IN_FLIGHT = 10;

let stack: N8nStack;
let processOnce: Workflow;
let removeDuplicates: Workflow;

/** Sends the exact bytes (a first delivery, or a replay of a captured request); resolves the HTTP status. */
const send = async (wf: Workflow, d: Delivery) =>
	(await postDelivery(stack.triggerUrl(wf), d)).status;

/** Sends every delivery, `IN_FLIGHT` at a time; resolves the statuses. */
async function sendInFlight(wf: Workflow, deliveries: Delivery[]): Promise<number[]> {
	const statuses: number[] = new Array(deliveries.length);
	let next = 0;
	const worker = async () => {
		while (next < deliveries.length) {
			const index = next++;
			statuses[index] = await send(wf, deliveries[index]);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
	return statuses;
}

/** Waits until `count` executions of the workflow are stored and finished. */
const allFinished = async (wf: Workflow, count: number) =>
	await waitFor(
		async () =>
			(await stack.executionCount(wf.id, ['success', 'error', 'crashed'])) === count
				? true
				: undefined,
		{ timeoutMs: 600_000, intervalMs: 1000, what: `${count} finished executions of ${wf.name}` },
	);

interface Outcome {
	executions: number;
	failed: number;
	/** event id → executions in which it reached "Processed" */
	processed: Map<string, number>;
	/** event ids whose execution failed, and the errors */
	failedIds: string[];
	errors: string[];
}

/** Every stored execution of the workflow: which delivery it carried, whether it failed, whether it reached "Processed". */
async function outcome(wf: Workflow): Promise<Outcome> {
	const list = await stack.executions(wf.id);
	const result: Outcome = {
		executions: list.length,
		failed: 0,
		processed: new Map(),
		failedIds: [],
		errors: [],
	};
	for (const e of list) {
		const { run, status } = await stack.execution(String(e.id));
		const id = String(run.json('FinVerify Trigger')[0]?.raw?.id);
		if (status !== 'success') {
			result.failed++;
			result.failedIds.push(id);
			result.errors.push(String(run.error?.message ?? status));
		}
		if (run.nodesRun.includes('Processed'))
			for (const item of run.json('Processed')) {
				const processedId = String(item.raw?.id);
				result.processed.set(processedId, (result.processed.get(processedId) ?? 0) + 1);
			}
	}
	return result;
}

const figures = (name: string, o: Outcome, firsts: Delivery[]) => {
	const twice = [...o.processed.values()].filter((n) => n > 1).length;
	const firstFailed = firsts.filter((d) => o.failedIds.includes(d.id)).length;
	const notProcessed = firsts.filter((d) => !o.processed.has(d.id)).length;
	const line = {
		name,
		executions: o.executions,
		failed: o.failed,
		processedTwice: twice,
		firstFailed,
		firstNotProcessed: notProcessed,
	};
	log(
		`restart-concurrent figures: ${JSON.stringify(line)}${o.errors.length ? ` errors: ${JSON.stringify([...new Set(o.errors)])}` : ''}`,
	);
	return line;
};

/** The first round of one workflow: FIRST deliveries, IN_FLIGHT at a time. */
async function firstRound(wf: Workflow) {
	const deliveries = Array.from({ length: FIRST }, signedJourneyDelivery);
	const statuses = await sendInFlight(wf, deliveries);
	await allFinished(wf, FIRST);
	return { deliveries, statuses };
}

/** After the restart: every first delivery replayed, mixed with NEW_AFTER_RESTART new ones, IN_FLIGHT at a time. */
async function replayRound(wf: Workflow, firsts: Delivery[]) {
	const fresh = Array.from({ length: NEW_AFTER_RESTART }, signedJourneyDelivery);
	// a new delivery after every fourth replay: first deliveries in flight beside replays
	const mixed = firsts.flatMap((d, i) => (i % 4 === 3 ? [d, fresh[(i - 3) / 4]] : [d]));
	const statuses = await sendInFlight(wf, mixed);
	await allFinished(wf, FIRST + mixed.length);
	return { fresh, statuses };
}

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'restart-concurrent' });
	processOnce = stack.fixture('restart-process-once.workflow.json');
	removeDuplicates = stack.fixture('restart-remove-duplicates-concurrent.workflow.json');
	await stack.importAll([processOnce, removeDuplicates]);
	await stack.publish(processOnce.id);
	await stack.publish(removeDuplicates.id);
	await stack.start();
	await waitForWebhook(stack.triggerUrl(processOnce), 'the Process Once trigger to be active');
	await waitForWebhook(
		stack.triggerUrl(removeDuplicates),
		'the Remove Duplicates trigger to be active',
	);
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

test(`${FIRST} deliveries ${IN_FLIGHT} in flight, a restart of n8n, all replayed ${IN_FLIGHT} in flight with ${NEW_AFTER_RESTART} new ones: Process Once processes each once and fails none (Remove Duplicates measured beside it)`, async () => {
	const once = await firstRound(processOnce);
	const dup = await firstRound(removeDuplicates);
	expect(once.statuses.every((s) => s === 200)).toBe(true);

	await stack.restartN8n();
	await waitForWebhook(
		stack.triggerUrl(processOnce),
		'the Process Once trigger to be active after the restart',
	);
	await waitForWebhook(
		stack.triggerUrl(removeDuplicates),
		'the Remove Duplicates trigger after the restart',
	);

	const onceReplay = await replayRound(processOnce, once.deliveries);
	const dupReplay = await replayRound(removeDuplicates, dup.deliveries);
	expect(onceReplay.statuses.every((s) => s === 200)).toBe(true);

	const dupFigures = figures('Remove Duplicates', await outcome(removeDuplicates), [
		...dup.deliveries,
		...dupReplay.fresh,
	]);
	expect(dupFigures.executions).toBe(2 * FIRST + NEW_AFTER_RESTART);

	const o = await outcome(processOnce);
	const onceFigures = figures('Process Once', o, [...once.deliveries, ...onceReplay.fresh]);
	expect(onceFigures).toEqual({
		name: 'Process Once',
		executions: 2 * FIRST + NEW_AFTER_RESTART,
		failed: 0,
		processedTwice: 0,
		firstFailed: 0,
		firstNotProcessed: 0,
	});
	// exactly the deliveries sent, each once
	expect([...o.processed.keys()].sort()).toEqual(
		[...once.deliveries, ...onceReplay.fresh].map((d) => d.id).sort(),
	);
});
