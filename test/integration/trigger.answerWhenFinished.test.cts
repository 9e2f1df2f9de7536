/**
 * The FinVerify Trigger at version 1.3 answers an accepted delivery when its workflow has finished (n8n's `lastNode`
 * answer), through n8n-core's real engine over HTTP (the harness answers like n8n 2.41's webhook-helpers.js: 200
 * with no body once the run ended, 500 "Error in workflow" when it failed). The workflow: Trigger 1.3 → Process Once
 * (When Marked Processed) → Step (Get Journey Status against a scripted loopback service) → Mark Processed.
 * Asserted: the 200 comes only after Step answered; a copy arriving before that is told to come back (503,
 * Retry-After) and starts nothing; after the 200 a copy is a duplicate (200); a workflow that failed is answered
 * 500, and the sender's re-send is processed (the trigger's key and Process Once's claim freed) and completes once.
 */
import { randomUUID } from 'node:crypto';

import type { INode } from 'n8n-workflow';

import { Engine, sandboxCredentials } from '../harness/index.cjs';
import type { WebhookServer, WorkflowJson } from '../harness/index.cjs';
import { processedDataStore } from '../harness/processedData.cjs';
import { startStubServer, type StubServer } from '../harness/stub-server.cjs';
import {
	claimedKeys,
	forgetClaims,
} from '../../nodes/FinVerify/actions/triggerDelivery/completion';
import { unansweredCount } from '../../nodes/shared/unanswered';
import { deliver, journeyEvent } from './trigger/deliver.cjs';

const TRIGGER = 'FinVerify Trigger';
const STATUS_PATH = '/api/v1/services/aa-bsa-journey/status';
const CLIENT_ID = 'aa_0123456789abcdef01234567';
const credentials = { finVerifyApi: { id: 'cred-1', name: 'FinVerify sandbox' } };

let engine: Engine;
let stub: StubServer;
let hooks: WebhookServer | undefined;

beforeAll(async () => {
	engine = await Engine.create();
	stub = await startStubServer();
	engine.setCredentials(sandboxCredentials(stub.url));
});
beforeEach(async () => {
	await processedDataStore();
	forgetClaims();
	stub.requests.splice(0);
});
afterEach(async () => {
	await hooks?.close();
	hooks = undefined;
});
afterAll(async () => await stub.close());

const finverify = (name: string, x: number, parameters: INode['parameters']): INode => ({
	id: name.toLowerCase().replace(/\W+/g, '-'),
	name,
	type: 'n8n-nodes-finverify.finVerify',
	typeVersion: 3,
	position: [x, 0],
	parameters,
	credentials,
});

function workflow(triggerVersion: number): WorkflowJson {
	return {
		name: `Trigger ${triggerVersion}: claim until finished`,
		nodes: [
			{
				id: 'finverify-trigger',
				name: TRIGGER,
				type: 'n8n-nodes-finverify.finVerifyTrigger',
				typeVersion: triggerVersion,
				position: [0, 0],
				webhookId: '3b9d6a52-0c1e-4f7a-9d2b-0000000000a3',
				parameters: { events: ['journey'], statusFilter: 'all', verification: 'hmacSignature' },
				credentials,
			},
			finverify('Process Once', 200, {
				resource: 'triggerDelivery',
				operation: 'processOnce',
				markProcessed: 'whenMarked',
			}),
			finverify('Step', 400, {
				resource: 'bankStatementJourney',
				operation: 'getStatus',
				clientId: `={{ $json.clientId }}`,
				requestOptions: { maxRetries: 0 },
			}),
			finverify('Mark Processed', 600, {
				resource: 'triggerDelivery',
				operation: 'markProcessed',
				deliveryKey: "={{ $('Process Once').item.json.deliveryKey }}",
			}),
		],
		connections: {
			[TRIGGER]: { main: [[{ node: 'Process Once', type: 'main', index: 0 }]] },
			'Process Once': { main: [[{ node: 'Step', type: 'main', index: 0 }]] },
			Step: { main: [[{ node: 'Mark Processed', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

const statusAnswer = {
	body: {
		success: true,
		data: { client_id: CLIENT_ID, status: 'analysis_complete', updated_at: '2026-11-29T10:00:00Z' },
	},
};

const event = () => {
	const id = `wh_${randomUUID()}`;
	return { id, body: journeyEvent('analysis_complete', { id, client_id: CLIENT_ID }) };
};

/** Resolves once `done()` holds (checked every 20 ms; no deadline: jest's own timeout ends a test that hangs). */
const until = async (done: () => boolean) => {
	while (!done()) await new Promise((r) => setTimeout(r, 20));
};
/** Resolves once the stub has received `count` requests in all. */
const stubReached = async (count: number) => await until(() => stub.requests.length >= count);

test('the 200 comes once the workflow has finished; a copy before it is told to come back (503) and starts nothing; a copy after it is a duplicate', async () => {
	// Step's request is held until a second request reaches the stub (the test's own, below)
	stub.respond(STATUS_PATH, { ...statusAnswer, holdUntil: 2 });
	stub.respond('/release', { body: { released: true } });
	hooks = await engine.serveWebhooks(workflow(1.3), { perCallStaticData: true });
	const url = hooks.urlFor(TRIGGER);
	const { id, body } = event();

	let firstAnswered = false;
	const first = deliver(url, body, { id }).then((answer) => {
		firstAnswered = true;
		return answer;
	});
	await stubReached(1); // the workflow is inside Step
	expect(unansweredCount()).toBe(1);
	const copy = await deliver(url, body, { id });
	expect(copy.status).toBe(503);
	expect(copy.body).toMatchObject({ received: false, inProgress: true });
	expect(firstAnswered).toBe(false);
	expect(hooks.startedCount()).toBe(1);

	await fetch(`${stub.url}/release`);
	const answer = await first;
	expect(answer).toMatchObject({ status: 200, text: '' });
	const [run] = await hooks.executions();
	expect(run.error).toBeUndefined();
	expect(run.json('Mark Processed')).toHaveLength(1);
	// the entry ends when the server has sent the answer ('close'), which may come just after the client has it
	await until(() => unansweredCount() === 0);

	const after = await deliver(url, body, { id });
	expect(after).toMatchObject({ status: 200, body: { duplicate: true } });
	expect(hooks.startedCount()).toBe(1);
});

test('a sender that hung up before the answer: copies are told to come back until the workflow marked the delivery processed, then they are duplicates', async () => {
	stub.respond(STATUS_PATH, { ...statusAnswer, holdUntil: 2 });
	stub.respond('/release', { body: { released: true } });
	hooks = await engine.serveWebhooks(workflow(1.3), { perCallStaticData: true });
	const url = hooks.urlFor(TRIGGER);
	const { id, body } = event();

	const hangUp = new AbortController();
	const first = deliver(url, body, { id, signal: hangUp.signal }).catch((e: Error) => e.name);
	await stubReached(1);
	hangUp.abort();
	expect(await first).toBe('AbortError');
	expect((await deliver(url, body, { id })).status).toBe(503);

	await fetch(`${stub.url}/release`);
	const [run] = await hooks.executions();
	expect(run.json('Mark Processed')).toHaveLength(1);
	// n8n's answer never reached the sender; Mark Processed told the trigger the delivery is done
	expect(unansweredCount()).toBe(0);
	expect((await deliver(url, body, { id })).body).toMatchObject({ duplicate: true });
	expect(hooks.startedCount()).toBe(1);
});

test('a workflow that failed is answered 500; the re-send is accepted, passes Process Once (its claim freed) and completes once', async () => {
	stub.respond(
		STATUS_PATH,
		{ status: 500, body: { success: false, message: 'upstream down', error_code: 'INTERNAL' } },
		statusAnswer,
	);
	hooks = await engine.serveWebhooks(workflow(1.3), { perCallStaticData: true });
	const url = hooks.urlFor(TRIGGER);
	const { id, body } = event();

	const failed = await deliver(url, body, { id });
	expect(failed).toMatchObject({ status: 500, body: { message: 'Error in workflow' } });
	await until(() => claimedKeys() === 0);
	const resent = await deliver(url, body, { id });
	expect(resent).toMatchObject({ status: 200, text: '' });
	const [firstRun, secondRun] = await hooks.executions();
	expect(firstRun.error).toBeDefined();
	expect(secondRun.error).toBeUndefined();
	expect(secondRun.json('Mark Processed')).toHaveLength(1);
	expect(stub.requests.filter((r) => r.path === STATUS_PATH)).toHaveLength(2);

	// done: a later copy is a duplicate, and were the trigger's record gone (a restart), Process Once drops it
	expect((await deliver(url, body, { id })).body).toMatchObject({ duplicate: true });
	await hooks.close();
	hooks = await engine.serveWebhooks(workflow(1.3), { perCallStaticData: true });
	const again = await deliver(hooks.urlFor(TRIGGER), body, { id });
	expect(again.status).toBe(200);
	const [run] = await hooks.executions();
	expect(run.output('Process Once')).toEqual([]);
	expect(stub.requests.filter((r) => r.path === STATUS_PATH)).toHaveLength(2);
});

test('the control, version 1.2: answered on receipt (before Step), and a copy meanwhile is acknowledged as a duplicate', async () => {
	stub.respond(STATUS_PATH, { ...statusAnswer, holdUntil: 2 });
	stub.respond('/release', { body: { released: true } });
	hooks = await engine.serveWebhooks(workflow(1.2), { perCallStaticData: true });
	const url = hooks.urlFor(TRIGGER);
	const { id, body } = event();
	const first = await deliver(url, body, { id });
	expect(first).toMatchObject({ status: 200, body: { received: true } });
	await stubReached(1);
	expect((await deliver(url, body, { id })).body).toMatchObject({ duplicate: true });
	expect(unansweredCount()).toBe(0);
	await fetch(`${stub.url}/release`);
	const [run] = await hooks.executions();
	expect(run.json('Mark Processed')).toHaveLength(1);
});
