/**
 * FinVerify Trigger fed by the SANDBOX's own webhook dispatcher: journeys and sessions started against the
 * sandbox with the trigger's production URL as webhook_url / callback_url. Every signed delivery must
 * start exactly one execution; filtered ones are acknowledged (200) and start none; "fetch results"
 * downloads both documents from the sandbox with the credential.
 */
import {
	Engine,
	loadWorkflow,
	PATIENCE_MS,
	sandboxCredentials,
	startTestSandbox,
	withParameters,
} from '../harness/index.cjs';
import type { RunResult, WebhookDelivery, WebhookServer, WorkflowJson } from '../harness/index.cjs';

const NODE = 'FinVerify Trigger';
const API = '/api/v1/services';
const AUTH = {
	'x-api-key': 'sandbox-key',
	'x-api-secret': 'sandbox-secret',
	'content-type': 'application/json',
};
const fixture = (name: string) =>
	loadWorkflow(`integration/workflows/trigger/${name}.workflow.json`);

type Sandbox = Awaited<ReturnType<typeof startTestSandbox>>;

let engine: Engine;
let sandbox: Sandbox;
let hooks: WebhookServer | undefined;

beforeAll(async () => {
	engine = await Engine.create();
	sandbox = await startTestSandbox({ stepMs: 60 });
});
afterAll(async () => await sandbox.close());
beforeEach(async () => {
	await sandbox.control.reset();
	engine.setCredentials(sandboxCredentials(sandbox.url));
});
afterEach(async () => {
	await hooks?.close();
	hooks = undefined;
});

const serve = async (wf: WorkflowJson) => {
	hooks = await engine.serveWebhooks(wf);
	return { url: hooks.urlFor(NODE), hooks };
};

async function api(
	path: string,
	init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
	const response = await fetch(`${sandbox.url}${path}`, {
		method: init.method ?? 'POST',
		headers: { ...AUTH, ...(init.headers ?? {}) },
		body: init.body === undefined ? undefined : JSON.stringify(init.body),
	});
	const body = (await response.json()) as { data: Record<string, string> };
	if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
	return body.data;
}

const startJourney = async (
	webhookUrl: string,
	extra: Record<string, unknown> = {},
	shape: 'sample' | 'reference' = 'sample',
) =>
	await api(`${API}/aa-bsa-journey/init`, {
		body: { mobile_number: '9876543210', webhook_url: webhookUrl, auto_consent: true, ...extra },
		headers: { 'x-sandbox-shape': shape },
	});

const createSession = async (callbackUrl: string, flow: 'itr' | 'gst' = 'gst') =>
	await api(`${API}/collection/session/create`, {
		headers: { cookie: 'refresh_token=sandbox-refresh-token' },
		body: {
			flow,
			redirect_url: 'https://example.com/done',
			callback_url: callbackUrl,
			recipient_email: 'asha.verma@example.com',
			recipient_name: 'Asha Verma',
		},
	});

const triggerItem = (run: RunResult) => {
	expect(run.error).toBeUndefined();
	const items = run.json(NODE);
	expect(items).toHaveLength(1);
	return items[0];
};

describe.each(['sample', 'reference'] as const)('journey deliveries (%s shape)', (shape) => {
	test('auto-consent journey: each signed status change starts exactly one execution, in order', async () => {
		const { url, hooks } = await serve(fixture('trigger.hmac'));
		const journey = await startJourney(url, {}, shape);
		const list = await sandbox.control.settledDeliveries(3);
		// the sandbox got 200 on the first attempt of every delivery
		expect(list).toHaveLength(3);
		for (const delivery of list) {
			expect(delivery).toMatchObject({
				status: 'delivered',
				url,
				subject: journey.client_id,
				event: 'aa_bsa_journey.status_changed',
			});
			expect(delivery.attempts.map((a) => a.status)).toEqual([200]);
		}
		const runs = await hooks.waitForExecutions(3);
		expect(hooks.startedCount()).toBe(3);
		const items = runs.map(triggerItem);
		expect(items.map((i) => [i.previousStatus, i.status, i.isFinal])).toEqual([
			['initiated', 'consent_granted', false],
			['consent_granted', 'data_fetched', false],
			['data_fetched', 'analysis_complete', true],
		]);
		for (const [index, item] of items.entries()) {
			expect(item).toMatchObject({
				type: 'journey',
				id: journey.client_id,
				event: 'aa_bsa_journey.status_changed',
				deliveryId: list[index].id,
				flow: null,
				raw: list[index].payload,
			});
			expect(Date.parse(item.occurredAt as string)).not.toBeNaN();
		}
	});
});

describe('journey with Only Final Statuses + Fetch Results When Complete', () => {
	test('one execution at analysis_complete, carrying the statement result and the analysis', async () => {
		const { url, hooks } = await serve(fixture('trigger.finalOnly.fetchResults'));
		const journey = await startJourney(url);
		const list = await sandbox.control.settledDeliveries(3);
		expect(list.every((d) => d.status === 'delivered' && d.attempts[0].status === 200)).toBe(true);
		const [run] = await hooks.waitForExecutions(1);
		expect(hooks.startedCount()).toBe(1);
		const item = triggerItem(run);
		expect(item).toMatchObject({
			type: 'journey',
			id: journey.client_id,
			status: 'analysis_complete',
			isFinal: true,
		});
		expect(item.fetchError).toBeUndefined();
		// both documents, as the sandbox serves them (sample shape), for this journey
		expect(item.statementResult).toMatchObject({ data: { client_id: journey.client_id } });
		expect(item.analysis).toMatchObject({ data: { client_id: journey.client_id } });
		expect(JSON.stringify(item.statementResult)).toContain('transactions');
		// fetched with the credential through the transport
		const fetched = await sandbox.control.requests('aa-bsa-journey/');
		const gets = fetched.filter((r) => r.method === 'GET').map((r) => `${r.path} ${r.status}`);
		expect(gets.sort()).toEqual([
			`${API}/aa-bsa-journey/analysis-json 200`,
			`${API}/aa-bsa-journey/statement-result 200`,
		]);
	});

	test('a journey that fails: one execution (failed), nothing downloaded', async () => {
		const { url, hooks } = await serve(fixture('trigger.finalOnly.fetchResults'));
		await startJourney(url, { mobile_number: '9000000500' });
		const list = await sandbox.control.settledDeliveries(2);
		expect(list.map((d) => d.payload.status)).toEqual(['consent_granted', 'failed']);
		const [run] = await hooks.waitForExecutions(1);
		expect(hooks.startedCount()).toBe(1);
		expect(triggerItem(run)).toMatchObject({
			status: 'failed',
			previousStatus: 'consent_granted',
			isFinal: true,
		});
		expect(triggerItem(run)).not.toHaveProperty('statementResult');
		expect((await sandbox.control.requests('statement-result')).length).toBe(0);
	});
});

/** Every value under `key` anywhere in `value` (a statement's account_info.phone, …). */
function valuesOf(value: unknown, key: string): unknown[] {
	if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value).flatMap(([k, v]) => [
		...(k === key ? [v] : []),
		...valuesOf(v, key),
	]);
}

/** The fetch-results fixture as a trigger of `typeVersion`, with `personalData` when given. */
const fetchingTrigger = (typeVersion: number, personalData?: 'masked' | 'full') => {
	const wf = fixture('trigger.finalOnly.fetchResults');
	return {
		...wf,
		nodes: wf.nodes.map((node) => ({
			...node,
			typeVersion,
			parameters: personalData ? { ...node.parameters, personalData } : node.parameters,
		})),
	};
};

describe('Personal Data in Output (version 1.2)', () => {
	async function fetchedItem(wf: WorkflowJson) {
		const { url, hooks } = await serve(wf);
		await startJourney(url);
		await sandbox.control.settledDeliveries(3);
		const [run] = await hooks.waitForExecutions(1);
		return triggerItem(run);
	}

	test('masked by default: the fetched statement’s phone and e-mail show only what identifies nothing', async () => {
		const masked = await fetchedItem(fetchingTrigger(1.2));
		const phones = valuesOf(masked.statementResult, 'phone') as string[];
		const emails = valuesOf(masked.statementResult, 'email') as string[];
		expect(phones.length).toBeGreaterThan(0);
		expect(emails.length).toBeGreaterThan(0);
		for (const phone of phones) expect(phone).toMatch(/^X+\d{4}$/);
		for (const email of emails) expect(email).toMatch(/^[^X]X*@/);
		// what a decision needs is untouched
		expect(masked).toMatchObject({ type: 'journey', status: 'analysis_complete', isFinal: true });
		expect(JSON.stringify(masked.statementResult)).toContain('transactions');
	});

	test('Full: as the service sent them; version 1.1 (and 1) output what they received', async () => {
		for (const wf of [fetchingTrigger(1.2, 'full'), fetchingTrigger(1.1)]) {
			await sandbox.control.reset();
			const item = await fetchedItem(wf);
			const phones = valuesOf(item.statementResult, 'phone') as string[];
			expect(phones.length).toBeGreaterThan(0);
			for (const phone of phones) expect(phone).toMatch(/^\d{10}$/);
			await hooks?.close();
			hooks = undefined;
		}
	});
});

describe('consent page and control API', () => {
	test('customer opens the consent page and denies: consent_pending then consent_denied', async () => {
		const { url, hooks } = await serve(fixture('trigger.hmac'));
		const journey = await startJourney(url, { auto_consent: false });
		expect((await fetch(journey.journey_url)).status).toBe(200);
		expect(
			(await fetch(`${journey.journey_url}/deny`, { method: 'POST', redirect: 'manual' })).status,
		).toBeLessThan(400);
		await sandbox.control.settledDeliveries(2);
		const runs = await hooks.waitForExecutions(2);
		expect(runs.map(triggerItem).map((i) => i.status)).toEqual([
			'consent_pending',
			'consent_denied',
		]);
	});

	test('journey driven through the control API', async () => {
		const { url, hooks } = await serve(fixture('trigger.hmac'));
		const journey = await startJourney(url, { auto_consent: false });
		await sandbox.control.advanceJourney(journey.client_id, 'expired');
		await sandbox.control.settledDeliveries(1);
		const [run] = await hooks.waitForExecutions(1);
		expect(triggerItem(run)).toMatchObject({
			id: journey.client_id,
			status: 'expired',
			previousStatus: 'initiated',
			isFinal: true,
		});
	});
});

describe('session deliveries', () => {
	test('recipient completes the hosted page: one execution with the session event', async () => {
		const { url, hooks } = await serve(fixture('trigger.hmac'));
		const session = await createSession(url, 'gst');
		const token = new URL(session.hosted_url).searchParams.get('token') ?? session.token;
		const submit = await fetch(`${sandbox.url}/collect/${session.session_id}/submit`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				token,
				gstin: '27ABCDE1234F1Z5',
				gst_username: 'asha_gst',
			}).toString(),
			redirect: 'manual',
		});
		expect(submit.status).toBe(303);
		const [delivery] = await sandbox.control.settledDeliveries(1);
		expect(delivery).toMatchObject({
			status: 'delivered',
			event: 'collection_session.status_changed',
		});
		const [run] = await hooks.waitForExecutions(1);
		expect(hooks.startedCount()).toBe(1);
		expect(triggerItem(run)).toMatchObject({
			type: 'session',
			id: session.session_id,
			event: 'collection_session.status_changed',
			status: 'completed',
			previousStatus: 'created',
			isFinal: true,
			flow: 'gst',
			deliveryId: delivery.id,
		});
	});

	test('status set through the control API (abandoned)', async () => {
		const { url, hooks } = await serve(fixture('trigger.hmac'));
		const session = await createSession(url, 'itr');
		await sandbox.control.setSessionStatus(session.session_id, 'abandoned');
		await sandbox.control.settledDeliveries(1);
		const [run] = await hooks.waitForExecutions(1);
		expect(triggerItem(run)).toMatchObject({ type: 'session', status: 'abandoned', flow: 'itr' });
	});
});

describe('filters with real deliveries', () => {
	test('"completed sessions only": journey events and abandoned sessions are acknowledged (200) but start nothing', async () => {
		const { url, hooks } = await serve(fixture('trigger.sessionsSelected'));
		await startJourney(url);
		const abandoned = await createSession(url);
		await sandbox.control.setSessionStatus(abandoned.session_id, 'abandoned');
		const completed = await createSession(url);
		await sandbox.control.setSessionStatus(completed.session_id, 'completed');
		const list = await sandbox.control.settledDeliveries(5);
		// all acknowledged on the first attempt, so the sandbox does not retry them
		expect(list.map((d) => [d.event, d.status, d.attempts.length])).toEqual(
			expect.arrayContaining([['collection_session.status_changed', 'delivered', 1]]),
		);
		expect(
			list.every(
				(d) => d.status === 'delivered' && d.attempts.length === 1 && d.attempts[0].status === 200,
			),
		).toBe(true);
		expect(hooks.startedCount()).toBe(1);
		const [run] = await hooks.executions();
		expect(triggerItem(run)).toMatchObject({ id: completed.session_id, status: 'completed' });
	});
});

describe('refused deliveries', () => {
	test('a credential with another signing secret: the sandbox gets 401 and no execution starts', async () => {
		engine.setCredentials(
			sandboxCredentials(sandbox.url, { webhookSecret: 'not-the-sandbox-secret' }),
		);
		const { url, hooks } = await serve(fixture('trigger.hmac'));
		const journey = await startJourney(url, { auto_consent: false });
		await sandbox.control.advanceJourney(journey.client_id, 'consent_denied');
		// wait for the first attempt only; the sandbox then backs off and retries
		const deadline = Date.now() + PATIENCE_MS;
		let attempts: Array<{ status: number | null }> = [];
		while (attempts.length === 0 && Date.now() < deadline) {
			const [delivery] = (await sandbox.control.webhooks()) as unknown as WebhookDelivery[];
			attempts = delivery?.attempts ?? [];
			if (attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 40));
		}
		expect(attempts[0].status).toBe(401);
		expect(hooks.startedCount()).toBe(0);
		await sandbox.control.reset(); // stop the retries
	});

	test('URL-token trigger fed by the sandbox: deliveries to the URL with the token are accepted, without it refused', async () => {
		const tokenWorkflow = withParameters(fixture('trigger.urlToken'), NODE, {
			statusFilter: 'finalOnly',
		});
		const { url, hooks } = await serve(tokenWorkflow);
		await startJourney(`${url}?token=tok_8f2e6c1d9a7b4e3f`);
		const list = await sandbox.control.settledDeliveries(3);
		expect(list.every((d) => d.attempts[0].status === 200)).toBe(true);
		const [run] = await hooks.waitForExecutions(1);
		expect(triggerItem(run)).toMatchObject({ status: 'analysis_complete' });

		const other = await startJourney(url, { auto_consent: false }); // token forgotten
		await sandbox.control.advanceJourney(other.client_id, 'expired');
		const deadline = Date.now() + PATIENCE_MS;
		let delivery: WebhookDelivery | undefined;
		while (!delivery?.attempts.length && Date.now() < deadline) {
			delivery = ((await sandbox.control.webhooks()) as unknown as WebhookDelivery[]).find(
				(d) => d.subject === other.client_id,
			);
			await new Promise((resolve) => setTimeout(resolve, 40));
		}
		expect(delivery?.attempts[0].status).toBe(401);
		expect(hooks.startedCount()).toBe(1);
		await sandbox.control.reset();
	});
});
