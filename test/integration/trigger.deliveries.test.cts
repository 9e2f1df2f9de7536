/**
 * Each delivery the FinVerify Trigger accepts starts exactly one execution, and nothing else starts one: the
 * sender's 200 means the execution exists (a failed creation is answered with an error, and its retry is
 * accepted); replays with a changed, missing or altered X-Webhook-Id, simultaneous copies and exact replays
 * after a 300-delivery load are duplicates; forged, stale, future, unsigned, oversized and non-JSON deliveries
 * are refused (401/400); the delivery key is in the output for Remove Duplicates. Through the harness (n8n-core's
 * WebhookContext over real HTTP, executions through WorkflowExecute), which answers like n8n 2.41: an accepted
 * delivery is answered after the execution is created, and with `perCallStaticData` each call gets its own copy
 * of the static data, saved when it answers without error and started no execution (as the app does).
 */
import { randomUUID } from 'node:crypto';

import { Engine, loadWorkflow, sandboxCredentials } from '../harness/index.cjs';
import type { WebhookServer, WorkflowJson } from '../harness/index.cjs';
import { deliver, journeyEvent, sign } from './trigger/deliver.cjs';
import { Figures } from './reliability/figures.cjs';

const NODE = 'FinVerify Trigger';
const hmacWorkflow = loadWorkflow('integration/workflows/trigger/trigger.hmac.workflow.json');
const tokenWorkflow = loadWorkflow('integration/workflows/trigger/trigger.urlToken.workflow.json');
const TOKEN = 'tok_8f2e6c1d9a7b4e3f';

const figures = new Figures('Trigger attack set (engine harness)');
let engine: Engine;
let hooks: WebhookServer | undefined;

beforeAll(async () => {
	engine = await Engine.create();
	engine.setCredentials(sandboxCredentials('http://127.0.0.1:9'));
});
afterEach(async () => {
	await hooks?.close();
	hooks = undefined;
});
afterAll(() => figures.print());

const serve = async (
	wf: WorkflowJson = hmacWorkflow,
	options: Parameters<Engine['serveWebhooks']>[1] = {},
) => {
	hooks = await engine.serveWebhooks(wf, { perCallStaticData: true, ...options });
	return { url: hooks.urlFor(NODE), hooks };
};

/** A sandbox-style event: the event id in the body (signed) and repeated in the header. */
const event = (status = 'consent_granted') => {
	const id = `wh_${randomUUID()}`;
	return { id, body: journeyEvent(status, { id }) };
};

describe('n8n answers only once the execution exists', () => {
	test('execution creation fails: the sender gets an error, not 200, and its retry starts the execution', async () => {
		let fail = true;
		const { url, hooks } = await serve(hmacWorkflow, {
			createExecution: async () => {
				if (fail) {
					fail = false;
					throw new Error('SQLITE_BUSY: database is locked');
				}
			},
		});
		const { id, body } = event();
		const first = await deliver(url, body, { id });
		expect(first.status).toBe(500);
		const retry = await deliver(url, body, { id });
		expect(retry).toMatchObject({ status: 200, body: { received: true } });
		expect(hooks.startedCount()).toBe(1);
		figures.add('lost after a failed execution create', 1 - hooks.startedCount(), 0);
	});

	test('a slow execution creation holds the answer (the 200 means the execution exists)', async () => {
		const { url, hooks } = await serve(hmacWorkflow, {
			createExecution: async () => await new Promise((resolve) => setTimeout(resolve, 400)),
		});
		const { id, body } = event();
		const started = Date.now();
		const answer = await deliver(url, body, { id });
		expect(answer.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(380);
		expect(hooks.startedCount()).toBe(1);
	});
});

describe('replays and copies', () => {
	test('a captured delivery replayed with a changed, missing or altered X-Webhook-Id starts nothing new', async () => {
		const { url, hooks } = await serve();
		const { id, body } = event();
		const raw = JSON.stringify(body);
		const timestamp = Math.floor(Date.now() / 1000);
		expect((await deliver(url, body, { id, raw, timestamp })).status).toBe(200);
		const replays = [
			{ id: 'wh_other' },
			{ id: `${id}x` },
			{ headers: { 'x-webhook-id': '' } },
			{ id: id.toUpperCase() },
		];
		let accepted = 0;
		for (const replay of replays) {
			const answer = await deliver(url, body, { raw, timestamp, ...replay });
			if (answer.status === 200 && answer.body?.duplicate !== true) accepted++;
		}
		expect(accepted).toBe(0);
		expect(hooks.startedCount()).toBe(1);
		figures.add('replays with changed id accepted', accepted, 0);
	});

	test('a sender without body ids: a replay of the signed bytes is a duplicate, whatever the header id', async () => {
		const { url, hooks } = await serve();
		const body = journeyEvent('failed');
		const raw = JSON.stringify(body);
		const timestamp = Math.floor(Date.now() / 1000);
		expect((await deliver(url, body, { raw, timestamp, id: 'a' })).status).toBe(200);
		expect((await deliver(url, body, { raw, timestamp, id: 'b' })).body).toMatchObject({
			duplicate: true,
		});
		expect(hooks.startedCount()).toBe(1);
	});

	test('20 simultaneous copies of one delivery start exactly one execution', async () => {
		// creating an execution takes a database write: static data is saved only after it
		const { url, hooks } = await serve(hmacWorkflow, {
			createExecution: async () => await new Promise((resolve) => setTimeout(resolve, 50)),
		});
		const { id, body } = event();
		const raw = JSON.stringify(body);
		const timestamp = Math.floor(Date.now() / 1000);
		const answers = await Promise.all(
			Array.from({ length: 20 }, async () => await deliver(url, body, { id, raw, timestamp })),
		);
		expect(answers.every((a) => a.status === 200)).toBe(true);
		expect(hooks.startedCount()).toBe(1);
		figures.add('executions from 20 simultaneous copies', hooks.startedCount(), 1);
	});

	test('after 300 different deliveries in parallel, 50 exact replays are all duplicates', async () => {
		const { url, hooks } = await serve();
		const sent = Array.from({ length: 300 }, () => ({
			...event(),
			timestamp: Math.floor(Date.now() / 1000),
		}));
		const queue = [...sent];
		await Promise.all(
			Array.from({ length: 20 }, async () => {
				for (let next = queue.shift(); next; next = queue.shift()) {
					const answer = await deliver(url, next.body, next);
					expect(answer.status).toBe(200);
				}
			}),
		);
		await hooks.waitForExecutions(300);
		let accepted = 0;
		for (const replay of sent.slice(0, 50)) {
			const answer = await deliver(url, replay.body, { ...replay, id: `wh_${randomUUID()}` });
			if (answer.body?.duplicate !== true) accepted++;
		}
		expect(accepted).toBe(0);
		expect(hooks.startedCount()).toBe(300);
		figures.add('exact replays accepted after a 300-delivery load', accepted, 0);
	});
});

describe('attack set: every rejected delivery answers 401/400 and starts nothing', () => {
	test('forged, stale, future, missing headers, oversized and non-JSON bodies', async () => {
		const { url, hooks } = await serve();
		const now = Math.floor(Date.now() / 1000);
		const body = journeyEvent('consent_granted', { id: 'evt_attack' });
		const raw = JSON.stringify(body);
		const big = JSON.stringify({ id: 'evt_big', padding: 'x'.repeat(2_000_000) });
		const attacks: Array<[string, () => Promise<{ status: number }>, number]> = [
			['forged (wrong secret)', () => deliver(url, body, { secret: 'not-the-secret' }), 401],
			['stale (10 min old)', () => deliver(url, body, { timestamp: now - 600 }), 401],
			['future (10 min ahead)', () => deliver(url, body, { timestamp: now + 600 }), 401],
			['no signature header', () => deliver(url, body, { signature: false }), 401],
			[
				'no timestamp header',
				() =>
					fetch(url, {
						method: 'POST',
						headers: {
							'content-type': 'application/json',
							'x-webhook-signature': sign(raw, now),
						},
						body: raw,
					}),
				401,
			],
			['signature of another body', () => deliver(url, body, { signature: sign('{}', now) }), 401],
			['garbage signature', () => deliver(url, body, { signature: 'sha256=zz' }), 401],
			['non-JSON body (signed)', () => deliver(url, null, { raw: 'not json <xml/>' }), 400],
			['JSON array (signed)', () => deliver(url, null, { raw: '[1,2,3]' }), 400],
			['oversized signed non-event (2 MB)', () => deliver(url, null, { raw: big }), 400],
			['empty body (signed)', () => deliver(url, null, { raw: '' }), 400],
		];
		let wrong = 0;
		for (const [, attack, expected] of attacks) {
			const answer = await attack();
			if (answer.status !== expected) wrong++;
			expect(answer.status).toBe(expected);
		}
		expect(hooks.startedCount()).toBe(0);
		figures.add(`attacks answered wrongly (of ${attacks.length})`, wrong, 0);
		figures.add('executions started by attacks', hooks.startedCount(), 0);
	});

	test('URL-token mode: wrong or missing token 401; the right one 200; a replay is a duplicate', async () => {
		const { url, hooks } = await serve(tokenWorkflow);
		const { id, body } = event();
		const unsigned = { signature: false as const, id };
		expect((await deliver(url, body, unsigned)).status).toBe(401);
		expect((await deliver(`${url}?token=wrong`, body, unsigned)).status).toBe(401);
		expect((await deliver(`${url}?token=${TOKEN}x`, body, unsigned)).status).toBe(401);
		expect((await deliver(`${url}?token=${TOKEN}`, body, unsigned)).status).toBe(200);
		const replay = await deliver(`${url}?token=${TOKEN}`, body, { ...unsigned, id: 'new' });
		expect(replay.body).toMatchObject({ duplicate: true });
		expect(hooks.startedCount()).toBe(1);
	});
});

describe('a body without an event id, retried and signed anew each time (issue 43)', () => {
	test('three attempts of one event, each with a new timestamp and signature, the third re-serialised: one execution, two duplicates; the next status change is a new delivery', async () => {
		const { url, hooks } = await serve();
		const body = journeyEvent('failed', {
			client_id: `aa_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
			previous_status: 'consent_pending',
			updated_at: '2026-11-29T10:00:00.000Z',
		});
		const now = Math.floor(Date.now() / 1000);
		const answers = [
			await deliver(url, body, { timestamp: now }),
			await deliver(url, body, { timestamp: now + 30 }),
			await deliver(url, body, { timestamp: now + 90, raw: JSON.stringify(body, null, 2) }),
		];
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
		expect(answers.map((a) => a.body?.duplicate === true)).toEqual([false, true, true]);
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0].deliveryKey).toMatch(/^fields:/);
		const next = journeyEvent('expired', {
			client_id: body.client_id,
			previous_status: 'failed',
			updated_at: '2026-11-29T10:05:00.000Z',
		});
		expect((await deliver(url, next, { timestamp: now + 91 })).body?.duplicate).toBeUndefined();
		await hooks.waitForExecutions(2);
		expect(hooks.startedCount()).toBe(2);
	});
});

describe('the delivery key is in the output (for a Remove Duplicates node downstream)', () => {
	test('deliveryKey and the signed event id', async () => {
		const { url, hooks } = await serve();
		const { id, body } = event();
		await deliver(url, body, { id: 'header-says-something-else' });
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0]).toMatchObject({
			deliveryId: id,
			deliveryKey: expect.stringMatching(/^event:/),
		});
	});
});
