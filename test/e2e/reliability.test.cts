/**
 * The FinVerify Trigger loses no delivery and runs none twice, in the real n8n app (SQLite, one main): a
 * published trigger under load — 1,000 valid + 1,000 forged deliveries, 20 in flight — stores exactly 1,000
 * executions; simultaneous copies and replays after the load start nothing; and the documented at-least-once
 * pattern for queue mode (Remove Duplicates on `deliveryKey`) keeps one of two copies that got past the
 * trigger. Slow on 2 cores: the figures table at the end says how slow.
 */
import { randomUUID } from 'node:crypto';

import { Figures } from '../integration/reliability/figures.cjs';
import {
	postDelivery,
	SIGNING_SECRET,
	signedJourneyDelivery,
	type SignedDelivery as Delivery,
} from './helpers/deliveries.cjs';
import { N8nStack, waitFor, waitForWebhook, type Workflow } from './helpers/stack.cjs';

// 1,000 + 1,000 by default (the load); FINVERIFY_RELIABILITY_LOAD=n sends n + n for a quicker run
const LOAD = Number(process.env.FINVERIFY_RELIABILITY_LOAD) || 1000;
jest.setTimeout(2_700_000);

const VALID = LOAD;
const FORGED = LOAD;
const IN_FLIGHT = 20;

let stack: N8nStack;
let load: Workflow;
let pattern: Workflow;
const figures = new Figures('Real n8n app (SQLite, one main)');

const journeyDelivery = (secret?: string): Delivery =>
	signedJourneyDelivery({ status: 'consent_granted', previousStatus: 'consent_pending', secret });

const post = async (url: string, d: Delivery, headerId = d.id) =>
	await postDelivery(url, d, {
		'x-webhook-event': 'aa_bsa_journey.status_changed',
		'x-webhook-id': headerId,
	});

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'reliability', stepMs: 1000 });
	load = stack.fixture('reliability-load.workflow.json');
	pattern = stack.fixture('reliability-remove-duplicates.workflow.json');
	await stack.importAll([load, pattern]);
	await stack.publish(load.id);
	await stack.publish(pattern.id);
	await stack.start();
	for (const wf of [load, pattern])
		await waitForWebhook(stack.triggerUrl(wf), `the webhook of "${wf.name}" to be active`);
});
afterAll(async () => {
	figures.print();
	await stack?.stop();
});

test(`${VALID} valid + ${FORGED} forged deliveries, ${IN_FLIGHT} in flight: exactly ${VALID} executions stored`, async () => {
	const url = stack.triggerUrl(load);
	const queue = [
		...Array.from({ length: VALID }, () => true),
		...Array.from({ length: FORGED }, () => false),
	].sort(() => Math.random() - 0.5);
	const valid: Delivery[] = [];
	const answers = { ok: 0, unauthorized: 0, other: [] as string[] };
	const started = Date.now();
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			for (let isValid = queue.shift(); isValid !== undefined; isValid = queue.shift()) {
				// signed when sent, as a sender does (a slow run must not turn deliveries stale)
				const job = { valid: isValid, d: journeyDelivery(isValid ? SIGNING_SECRET : 'forged') };
				if (job.valid) valid.push(job.d);
				const { status, text } = await post(url, job.d);
				if (job.valid && status === 200 && text.includes('"received":true')) answers.ok++;
				else if (!job.valid && status === 401) answers.unauthorized++;
				else
					answers.other.push(`${job.valid ? 'valid' : 'forged'} → ${status} ${text.slice(0, 80)}`);
			}
		}),
	);
	const sendMs = Date.now() - started;
	expect(answers.other).toEqual([]);
	expect(answers.ok).toBe(VALID);
	expect(answers.unauthorized).toBe(FORGED);

	// every 200 was given after n8n created the execution: all of them are stored
	const stored = await waitFor(
		async () => {
			const n = await stack.executionCount(load.id);
			return n >= VALID ? n : undefined;
		},
		{ timeoutMs: 1_200_000, what: `${VALID} executions stored` },
	);
	const storedMs = Date.now() - started;

	// 20 simultaneous copies of one delivery, then 50 exact replays (new header ids) right after the load
	const copy = journeyDelivery();
	const copies = await Promise.all(
		Array.from({ length: 20 }, async () => await post(url, copy, `wh_${randomUUID()}`)),
	);
	expect(copies.every((c) => c.status === 200)).toBe(true);
	// exact replays of the last 50 (still inside the 5-minute timestamp tolerance), under new header ids
	let replaysAccepted = 0;
	for (const d of valid.slice(-50)) {
		const { status, text } = await post(url, d, `wh_${randomUUID()}`);
		if (status === 200 && !text.includes('duplicate')) replaysAccepted++;
	}
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const final = await stack.executionCount(load.id);

	figures.add('valid deliveries answered 200', answers.ok, VALID);
	figures.add('forged deliveries answered 401', answers.unauthorized, FORGED);
	figures.add('executions stored after the load', stored, VALID);
	figures.add('executions from 20 simultaneous copies', final - stored - replaysAccepted, 1);
	figures.add('exact replays accepted after the load (of 50)', replaysAccepted, 0);
	figures.add(`load: seconds to answer all ${VALID + FORGED}`, Math.round(sendMs / 100) / 10, '-');
	figures.add('load: seconds until all stored', Math.round(storedMs / 100) / 10, '-');
	figures.add('load: valid deliveries per second', Math.round((VALID * 1000) / sendMs), '-');

	expect(stored).toBe(VALID);
	expect(replaysAccepted).toBe(0);
	expect(final).toBe(VALID + 1);
});

test('queue mode pattern: a copy that gets past the trigger (dedupe off) is dropped by Remove Duplicates on deliveryKey', async () => {
	const url = stack.triggerUrl(pattern);
	const d = journeyDelivery();
	expect((await post(url, d)).status).toBe(200);
	expect((await post(url, d, 'another-process-got-it-too')).status).toBe(200);
	const executions = await waitFor(
		async () => {
			const list = await stack.executions(pattern.id);
			return list.length >= 2 && list.every((e) => e.status === 'success') ? list : undefined;
		},
		{ timeoutMs: 60_000, what: 'two executions of the pattern workflow' },
	);
	const processed = await Promise.all(
		executions.map(async (e) => {
			const { run } = await stack.execution(String(e.id));
			return run.nodesRun.includes('Processed') ? run.json('Processed').length : 0;
		}),
	);
	figures.add(
		'at-least-once copies processed after Remove Duplicates',
		processed.reduce((a, b) => a + b, 0),
		1,
	);
	expect(processed.reduce((a, b) => a + b, 0)).toBe(1);
});
