/**
 * Duplicates across a restart of n8n are kept out, in the real app (SQLite). The trigger's duplicate record is in
 * memory (n8n does not save static data that a webhook call starting an execution changed; docs/trigger.md), so
 * the durable record is n8n's Remove Duplicates node on `deliveryKey`. Asserted: deliveries start one execution
 * each; the same bytes replayed right away are answered "duplicate" and start nothing; after a restart the
 * same bytes again are accepted (the in-memory record is gone, as documented) and start executions, and not one
 * of them gets past Remove Duplicates.
 */

import {
	postDelivery,
	signedJourneyDelivery,
	type SignedDelivery as Delivery,
} from './helpers/deliveries.cjs';
import { N8nStack, waitFor, waitForWebhook, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(1_200_000);

const COUNT = 20;
let stack: N8nStack;
let wf: Workflow;

const url = () => stack.triggerUrl(wf);

/** Sends the exact bytes again (a replay of a captured request, or a sender's retry). */
const send = async (d: Delivery) => {
	const { status, text } = await postDelivery(url(), d);
	return { status, body: JSON.parse(text) as Record<string, unknown> };
};

/** Items that reached the node after Remove Duplicates, over every stored execution of the workflow. */
const processedItems = async () => {
	const list = await stack.executions(wf.id);
	let items = 0;
	for (const e of list) {
		const { run } = await stack.execution(String(e.id));
		if (run.nodesRun.includes('Processed')) items += run.json('Processed').length;
	}
	return { executions: list.length, items };
};

const allSucceeded = async (count: number) =>
	await waitFor(
		async () => ((await stack.executionCount(wf.id, ['success'])) === count ? true : undefined),
		{ timeoutMs: 300_000, intervalMs: 1000, what: `${count} executions stored` },
	);

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'restart-dedupe' });
	wf = stack.fixture('restart-dedupe.workflow.json');
	await stack.importAll([wf]);
	await stack.publish(wf.id);
	await stack.start();
	await waitForWebhook(url(), 'the trigger to be active');
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

test(`${COUNT} deliveries, replayed before and after a restart of n8n: each processed once (Remove Duplicates on deliveryKey)`, async () => {
	const deliveries = Array.from({ length: COUNT }, signedJourneyDelivery);
	for (const d of deliveries)
		expect(await send(d)).toEqual({ status: 200, body: { received: true } });
	await allSucceeded(COUNT);

	// replayed at once: the trigger's in-memory record answers "duplicate" and starts nothing
	for (const d of deliveries)
		expect((await send(d)).body).toMatchObject({ received: true, duplicate: true });
	await new Promise((resolve) => setTimeout(resolve, 3000));
	expect(await stack.executionCount(wf.id)).toBe(COUNT);

	await stack.restartN8n();
	await waitForWebhook(url(), 'the trigger to be active after the restart');

	// replayed after the restart: the in-memory record is gone (documented), so each starts an execution …
	for (const d of deliveries)
		expect(await send(d)).toEqual({ status: 200, body: { received: true } });
	await allSucceeded(2 * COUNT);
	// … which stops at Remove Duplicates: every delivery was processed exactly once
	expect(await processedItems()).toEqual({ executions: 2 * COUNT, items: COUNT });
});
