/**
 * FinVerify Trigger served over real HTTP by the harness (n8n-core's WebhookContext, executions through
 * WorkflowExecute). Here the test itself plays the sender, so every way a delivery can be wrong is
 * exercised: each must get the right status code and start no execution.
 */
import {
	Engine,
	loadWorkflow,
	sandboxCredentials,
	startStubServer,
	withParameters,
} from '../harness/index.cjs';
import type { StubServer, WebhookServer, WorkflowJson } from '../harness/index.cjs';
import { ExecutionLifecycleHooks, HookContext } from 'n8n-core';
import type { IWebhookData, IWorkflowBase } from 'n8n-workflow';
import { deliver, journeyEvent, sessionEvent, sign } from './trigger/deliver.cjs';

const NODE = 'FinVerify Trigger';
const hmacWorkflow = loadWorkflow('integration/workflows/trigger/trigger.hmac.workflow.json');

let engine: Engine;
let hooks: WebhookServer | undefined;

beforeAll(async () => {
	engine = await Engine.create();
});
beforeEach(() => engine.setCredentials(sandboxCredentials('http://127.0.0.1:9')));
afterEach(async () => {
	await hooks?.close();
	hooks = undefined;
});

const serve = async (wf: WorkflowJson = hmacWorkflow) => {
	hooks = await engine.serveWebhooks(wf);
	return { url: hooks.urlFor(NODE), hooks };
};

/**
 * Publishing without serving: runs the trigger's checkExists/create in n8n-core's HookContext as n8n
 * does on activation (used where activation is expected to fail, so no HTTP server is left behind).
 */
const activate = async (wf: WorkflowJson) => {
	const workflow = engine.buildWorkflow(wf);
	const node = workflow.getNode(NODE)!;
	const nodeType = engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const description = nodeType.description.webhooks![0];
	const additionalData = engine.additionalData(
		new ExecutionLifecycleHooks('trigger', 'activation', {} as IWorkflowBase),
		'activation',
	);
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: NODE,
		path: `${node.webhookId}/finverify`,
		webhookDescription: description,
		workflowId: workflow.id!,
		workflowExecuteAdditionalData: additionalData,
	};
	const context = new HookContext(
		workflow,
		node,
		additionalData,
		'trigger',
		'activate',
		webhookData,
	);
	const methods = nodeType.webhookMethods!.default!;
	if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	return workflow.staticData;
};

/** Items of the trigger node in every execution started so far. */
const triggerItems = async (server: WebhookServer) =>
	(await server.executions()).map((run) => {
		expect(run.error).toBeUndefined();
		return run.json(NODE);
	});

describe('HMAC Signature (default)', () => {
	test('a correctly signed journey event: 200 {received:true} and exactly one execution with the normalized item', async () => {
		const { url, hooks } = await serve();
		const body = journeyEvent('completed', {
			previous_status: 'data_fetched',
			updated_at: '2025-06-15T10:00:00.000Z',
		});
		const answer = await deliver(url, body, {
			id: 'wh_valid_1',
			event: 'aa_bsa_journey.status_changed',
		});
		expect(answer).toMatchObject({ status: 200, body: { received: true } });
		const [items] = await hooks.waitForExecutions(1);
		expect(hooks.startedCount()).toBe(1);
		expect(items.json(NODE)).toEqual([
			{
				type: 'journey',
				id: 'aa_0123456789abcdef01234567',
				clientId: 'aa_0123456789abcdef01234567',
				sessionId: null,
				event: 'aa_bsa_journey.status_changed',
				status: 'analysis_complete',
				previousStatus: 'data_fetched',
				isFinal: true,
				occurredAt: '2025-06-15T10:00:00.000Z',
				deliveryId: 'wh_valid_1',
				deliveryKey: expect.stringMatching(/^fields:/),
				flow: null,
				raw: body,
			},
		]);
	});

	test('a correctly signed session event', async () => {
		const { url, hooks } = await serve();
		expect((await deliver(url, sessionEvent('completed'))).status).toBe(200);
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0]).toMatchObject({
			type: 'session',
			id: 'cs_0123456789abcdef',
			status: 'completed',
			flow: 'itr',
			isFinal: true,
		});
	});

	test.each([
		['wrong secret', { secret: 'not-the-secret' }, 'signature_mismatch'],
		['missing signature', { signature: false as const }, 'missing_signature'],
		['garbage signature', { signature: 'sha256=nothex' }, 'malformed_signature'],
		['signature without sha256= prefix', { signature: 'ab'.repeat(32) }, 'malformed_signature'],
		[
			'stale timestamp (10 minutes old)',
			{ timestamp: Math.floor(Date.now() / 1000) - 600 },
			'stale_timestamp',
		],
		[
			'future timestamp (10 minutes ahead)',
			{ timestamp: Math.floor(Date.now() / 1000) + 600 },
			'future_timestamp',
		],
		['non-numeric timestamp', { timestamp: 'yesterday' }, 'malformed_timestamp'],
	])('%s → 401 with a short JSON body, no execution', async (_name, options, reason) => {
		const { url, hooks } = await serve();
		const answer = await deliver(url, journeyEvent('consent_granted'), options);
		expect(answer.status).toBe(401);
		expect(answer.body).toMatchObject({ error: 'unauthorized', reason });
		expect(hooks.startedCount()).toBe(0);
	});

	test('tampered body (signed one body, sent another) → 401, no execution', async () => {
		const { url, hooks } = await serve();
		const timestamp = Math.floor(Date.now() / 1000);
		const signed = JSON.stringify(journeyEvent('consent_denied'));
		const sent = JSON.stringify(journeyEvent('analysis_complete'));
		const answer = await deliver(url, undefined, {
			raw: sent,
			timestamp,
			signature: sign(signed, timestamp),
		});
		expect(answer).toMatchObject({ status: 401, body: { reason: 'signature_mismatch' } });
		expect(hooks.startedCount()).toBe(0);
	});

	test('the signature covers the raw bytes: pretty-printed JSON signed as sent is accepted', async () => {
		const { url, hooks } = await serve();
		const raw = JSON.stringify(journeyEvent('failed'), null, 2);
		expect((await deliver(url, undefined, { raw })).status).toBe(200);
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0]).toMatchObject({ status: 'failed' });
	});

	test('malformed JSON with a valid signature → 400, no execution', async () => {
		const { url, hooks } = await serve();
		const answer = await deliver(url, undefined, { raw: '{"client_id": "aa_1", "status": ' });
		expect(answer).toMatchObject({
			status: 400,
			body: { error: 'bad_request', reason: 'malformed_json' },
		});
		expect(hooks.startedCount()).toBe(0);
	});

	test('a signed body that is not a journey or session event → 400, no execution', async () => {
		const { url, hooks } = await serve();
		for (const body of [
			{ hello: 'world' },
			{ event: 'aa_bsa_journey.status_changed' },
			[1, 2, 3],
		]) {
			const answer = await deliver(url, body);
			expect(answer).toMatchObject({ status: 400, body: { error: 'bad_request' } });
		}
		expect(hooks.startedCount()).toBe(0);
	});

	test('the same event twice → second answered 200 "duplicate, ignored", one execution', async () => {
		const { url, hooks } = await serve();
		const body = journeyEvent('consent_granted', { id: 'evt_dup_1' });
		const first = await deliver(url, body, { id: 'wh_dup_1' });
		const second = await deliver(url, body, { id: 'wh_dup_1' });
		expect(first).toMatchObject({ status: 200, body: { received: true } });
		expect(second).toMatchObject({
			status: 200,
			body: { received: true, duplicate: true, message: 'duplicate, ignored' },
		});
		// the unsigned header does not make a new delivery: a replay with another id is still a duplicate
		expect((await deliver(url, body, { id: 'wh_dup_2' })).body).toMatchObject({ duplicate: true });
		expect(hooks.startedCount()).toBe(1);
		// a new event id is a new delivery
		const next = journeyEvent('consent_granted', { id: 'evt_dup_2' });
		expect((await deliver(url, next, { id: 'wh_dup_1' })).body).toEqual({ received: true });
		await hooks.waitForExecutions(2);
		// remembered in the process, not in the workflow's static data (n8n would not save it for an
		// accepted delivery; docs/trigger.md)
		const nodeData = hooks.staticData[`node:${NODE}`] as Record<string, unknown> | undefined;
		expect(nodeData?.recentDeliveries).toBeUndefined();
	});

	test('the signing secret is reused between deliveries, and a changed one is picked up at once', async () => {
		const { url, hooks } = await serve();
		expect((await deliver(url, journeyEvent('consent_granted'))).status).toBe(200);
		// the secret is changed in n8n (the service signs with the new one from now on)
		engine.setCredentials(
			sandboxCredentials('http://127.0.0.1:9', { webhookSecret: 'rotated-webhook-secret' }),
		);
		const rotated = await deliver(url, journeyEvent('consent_granted'), {
			secret: 'rotated-webhook-secret',
		});
		expect(rotated.status).toBe(200);
		// once the new secret was read, the old one is refused
		expect((await deliver(url, journeyEvent('consent_granted'))).status).toBe(401);
		await hooks.waitForExecutions(2);
		expect(hooks.startedCount()).toBe(2);
	});

	test('a failed check does not poison dedupe: the genuine delivery with that id still gets through', async () => {
		const { url, hooks } = await serve();
		const body = journeyEvent('consent_granted');
		expect((await deliver(url, body, { id: 'wh_x', secret: 'forged' })).status).toBe(401);
		expect((await deliver(url, body, { id: 'wh_x' })).status).toBe(200);
		await hooks.waitForExecutions(1);
	});

	test('deduplication can be turned off (window 0)', async () => {
		const wf = withParameters(hmacWorkflow, NODE, { options: { dedupeWindowMinutes: 0 } });
		const { url, hooks } = await serve(wf);
		await deliver(url, journeyEvent('consent_granted'), { id: 'same' });
		await deliver(url, journeyEvent('consent_granted'), { id: 'same' });
		await hooks.waitForExecutions(2);
	});

	test('custom header names and tolerance are honoured', async () => {
		const wf = withParameters(hmacWorkflow, NODE, {
			options: {
				signatureHeader: 'X-FV-Signature',
				timestampHeader: 'X-FV-Time',
				idHeader: 'X-FV-Delivery',
				toleranceSeconds: 3600,
			},
		});
		const { url, hooks } = await serve(wf);
		const raw = JSON.stringify(journeyEvent('expired'));
		const timestamp = Math.floor(Date.now() / 1000) - 1800; // stale for the default, fine for 1 hour
		const answer = await deliver(url, undefined, {
			raw,
			signature: false,
			headers: {
				'x-fv-signature': sign(raw, timestamp),
				'x-fv-time': String(timestamp),
				'x-fv-delivery': 'custom-1',
			},
		});
		expect(answer.status).toBe(200);
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0]).toMatchObject({ status: 'expired', deliveryId: 'custom-1' });
		// the default header is now ignored
		expect((await deliver(url, journeyEvent('expired'))).body).toMatchObject({
			reason: 'missing_signature',
		});
	});

	test('publishing is refused when the credential has no Webhook Signing Secret', async () => {
		engine.setCredentials(sandboxCredentials('http://127.0.0.1:9', { webhookSecret: '' }));
		await expect(activate(hmacWorkflow)).rejects.toThrow('no Webhook Signing Secret');
	});
});

describe('filters that let nothing through', () => {
	test('publishing is refused when no event is selected', async () => {
		await expect(activate(withParameters(hmacWorkflow, NODE, { events: [] }))).rejects.toThrow(
			'No Events are selected',
		);
	});

	test('publishing is refused when Selected Statuses has no status chosen', async () => {
		const selected = withParameters(hmacWorkflow, NODE, { statusFilter: 'selected', statuses: [] });
		await expect(activate(selected)).rejects.toThrow('Selected Statuses needs at least one status');
		await expect(
			activate(withParameters(selected, NODE, { statuses: ['journey:expired'] })),
		).resolves.toBeDefined();
	});
});

describe('webhook lifecycle (no registration API: local state only)', () => {
	test('publishing remembers the URL, a second activation finds it, unpublishing forgets it', async () => {
		const { url, hooks } = await serve();
		const nodeData = hooks.staticData[`node:${NODE}`] as Record<string, unknown>;
		expect(nodeData.webhookUrl).toBe(url);
		await hooks.close();
		expect(nodeData.webhookUrl).toBeUndefined();
	});
});

describe('filters', () => {
	test('events not selected → 200 ignored, no execution; selected ones run', async () => {
		const { url, hooks } = await serve(
			loadWorkflow('integration/workflows/trigger/trigger.sessionsSelected.workflow.json'),
		);
		expect((await deliver(url, journeyEvent('failed'))).body).toEqual({
			received: true,
			ignored: true,
			reason: 'event_not_selected',
		});
		expect((await deliver(url, sessionEvent('abandoned'))).body).toEqual({
			received: true,
			ignored: true,
			reason: 'status_not_selected',
		});
		expect((await deliver(url, sessionEvent('completed'))).body).toEqual({ received: true });
		expect(hooks.startedCount()).toBe(1);
		const [[item]] = await triggerItems(hooks);
		expect(item).toMatchObject({ type: 'session', status: 'completed' });
	});

	test('only final states: intermediate journey states are ignored', async () => {
		const wf = withParameters(hmacWorkflow, NODE, { statusFilter: 'finalOnly' });
		const { url, hooks } = await serve(wf);
		for (const status of ['initiated', 'consent_pending', 'consent_granted', 'data_fetched']) {
			expect((await deliver(url, journeyEvent(status))).body).toMatchObject({
				ignored: true,
				reason: 'status_not_selected',
			});
		}
		expect((await deliver(url, sessionEvent('created'))).body).toMatchObject({ ignored: true });
		for (const status of ['consent_denied', 'completed'])
			expect((await deliver(url, journeyEvent(status))).body).toEqual({ received: true });
		expect((await deliver(url, sessionEvent('expired'))).body).toEqual({ received: true });
		expect(hooks.startedCount()).toBe(3);
		const statuses = (await triggerItems(hooks)).map((items) => items[0].status).sort();
		expect(statuses).toEqual(['analysis_complete', 'consent_denied', 'expired']);
	});
});

describe('Secret Token in URL', () => {
	const tokenWorkflow = loadWorkflow(
		'integration/workflows/trigger/trigger.urlToken.workflow.json',
	);

	test('right token → accepted without any signature headers', async () => {
		const { url, hooks } = await serve(tokenWorkflow);
		const answer = await deliver(
			`${url}?token=tok_8f2e6c1d9a7b4e3f`,
			{ session_id: 'cs_plain', status: 'completed' },
			{ signature: false },
		);
		expect(answer).toMatchObject({ status: 200, body: { received: true } });
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0]).toMatchObject({
			type: 'session',
			id: 'cs_plain',
			event: 'collection_session.status_changed',
		});
	});

	test.each([
		['wrong token', '?token=tok_8f2e6c1d9a7b4e3X'],
		['shorter token', '?token=tok_8f2e'],
		['missing token', ''],
		['empty token', '?token='],
	])('%s → 401, no execution', async (_name, query) => {
		const { url, hooks } = await serve(tokenWorkflow);
		const answer = await deliver(`${url}${query}`, journeyEvent('failed'), { signature: false });
		expect(answer).toMatchObject({
			status: 401,
			body: { error: 'unauthorized', reason: 'invalid_token' },
		});
		expect(hooks.startedCount()).toBe(0);
	});

	test('publishing is refused without a token', async () => {
		await expect(activate(withParameters(tokenWorkflow, NODE, { token: '' }))).rejects.toThrow(
			'needs a Token',
		);
		await expect(activate(tokenWorkflow)).resolves.toBeDefined();
	});
});

describe('None', () => {
	test('accepts unsigned senders (still validates the body)', async () => {
		const { url, hooks } = await serve(
			loadWorkflow('integration/workflows/trigger/trigger.noVerification.workflow.json'),
		);
		expect(
			(
				await deliver(
					url,
					{ client_id: 'aa_plain01', status: 'consent_pending' },
					{ signature: false },
				)
			).status,
		).toBe(200);
		expect((await deliver(url, { nope: true }, { signature: false })).status).toBe(400);
		expect(hooks.startedCount()).toBe(1);
	});
});

describe('Fetch Results When Complete (against a scripted server)', () => {
	let stub: StubServer;
	const fetchWorkflow = loadWorkflow(
		'integration/workflows/trigger/trigger.finalOnly.fetchResults.workflow.json',
	);

	beforeAll(async () => {
		stub = await startStubServer();
	});
	afterAll(async () => await stub.close());
	beforeEach(() => {
		stub.requests.splice(0);
		engine.setCredentials(sandboxCredentials(stub.url));
	});

	test('one document fails: the item still arrives, with the other document and a fetchError', async () => {
		stub.respond('/api/v1/services/aa-bsa-journey/statement-result', {
			body: {
				status_code: 200,
				data: {
					client_id: 'aa_0123456789abcdef01234567',
					accounts: [{ account_index: 0, bank_name: 'HDFC Bank', transactions: [] }],
				},
			},
		});
		stub.respond('/api/v1/services/aa-bsa-journey/analysis-json', {
			status: 409,
			body: {
				success: false,
				message: 'Journey is not complete',
				error_code: 'JOURNEY_INCOMPLETE',
			},
		});
		const { url, hooks } = await serve(fetchWorkflow);
		expect((await deliver(url, journeyEvent('analysis_complete'))).body).toEqual({
			received: true,
		});
		const [run] = await hooks.waitForExecutions(1);
		const [item] = run.json(NODE);
		expect(item).toMatchObject({
			status: 'analysis_complete',
			statementResult: { status_code: 200, data: { client_id: 'aa_0123456789abcdef01234567' } },
			fetchError: { code: 'JOURNEY_INCOMPLETE', httpCode: '409', documents: ['analysis'] },
		});
		expect(item.analysis).toBeUndefined();
		expect(String((item.fetchError as { message: string }).message)).toMatch(/not complete/i);
		// the credential's headers went to the service, with the client_id
		const paths = stub.requests.map((r) => `${r.path}?client_id=${r.query.client_id}`).sort();
		expect(paths).toEqual([
			'/api/v1/services/aa-bsa-journey/analysis-json?client_id=aa_0123456789abcdef01234567',
			'/api/v1/services/aa-bsa-journey/statement-result?client_id=aa_0123456789abcdef01234567',
		]);
		expect(stub.requests.every((r) => r.headers['x-api-key'] === 'sandbox-key')).toBe(true);
	});

	test('answers that say nothing (no account, an empty summary) are a fetchError, not empty results (issue 33)', async () => {
		stub.respond('/api/v1/services/aa-bsa-journey/statement-result', {
			body: {
				status_code: 200,
				data: { client_id: 'aa_0123456789abcdef01234567', accounts: [''] },
			},
		});
		stub.respond('/api/v1/services/aa-bsa-journey/analysis-json', {
			body: { success: true, data: { client_id: 'aa_0123456789abcdef01234567', summary: {} } },
		});
		const { url, hooks } = await serve(fetchWorkflow);
		expect((await deliver(url, journeyEvent('analysis_complete'))).status).toBe(200);
		const [run] = await hooks.waitForExecutions(1);
		const [item] = run.json(NODE);
		expect(item.statementResult).toBeUndefined();
		expect(item.analysis).toBeUndefined();
		expect(item.fetchError).toMatchObject({
			code: 'INCOMPLETE_RESPONSE',
			httpCode: '200',
			documents: ['statementResult', 'analysis'],
		});
		expect(String((item.fetchError as { message: string }).message)).toMatch(
			/without an account with its number, bank or transactions/,
		);
	});

	test('service unreachable: the event is not lost, fetchError says why', async () => {
		engine.setCredentials(sandboxCredentials('http://127.0.0.1:9'));
		const { url, hooks } = await serve(fetchWorkflow);
		// n8n answers once the execution exists, after the downloads: both refused, and the event still started it
		expect((await deliver(url, journeyEvent('completed'))).status).toBe(200);
		const [run] = await hooks.waitForExecutions(1);
		const [item] = run.json(NODE);
		expect(item).toMatchObject({
			status: 'analysis_complete',
			fetchError: { code: 'ECONNREFUSED', documents: ['statementResult', 'analysis'] },
		});
	});

	test('no download for other statuses', async () => {
		const { url, hooks } = await serve(fetchWorkflow);
		expect((await deliver(url, journeyEvent('consent_denied'))).status).toBe(200);
		const [run] = await hooks.waitForExecutions(1);
		expect(run.json(NODE)[0]).not.toHaveProperty('fetchError');
		expect(stub.requests).toHaveLength(0);
	});
});
