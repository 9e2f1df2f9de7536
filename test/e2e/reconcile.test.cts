/**
 * The reconciler in the real n8n app (issue 44): examples/reconcile-waiting-executions.json lists the waiting
 * executions through n8n's public API (n8n's own n8n node, an API key), posts `X-FinVerify-Reconcile: true` to the
 * resume URL each FinVerify node stored, and sorts the answers; it also reports executions `running` longer than
 * its limit. Journeys are made final at the sandbox while it withholds its callbacks (lost): the reconciler resumes
 * each execution once with the statuses the node looked up; the callbacks, sent late, get n8n's 409 and resume
 * nothing again; a journey not final keeps its execution waiting, and its own callback still resumes it. On n8n 1.x,
 * whose public API lists no waiting execution, the reconcile requests are sent directly (the node's side).
 */
import { log, N8nStack, waitFor, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(600_000);

const NODE = 'Start journey and wait';
const EXAMPLE = 'reconcile-waiting-executions.json';
let stack: N8nStack;
let journey: Workflow;
let longRun: Workflow;
let reconciler: Workflow;

type Delivery = {
	subject: string;
	status: string;
	outcome?: string;
	payload: { status: string };
	attempts: { status: number | null }[];
};

/** A workflow that stays `running` for a minute (n8n's Wait node sleeps in the process under 65 s). */
function longRunning(): Workflow {
	return {
		id: 'e2eReconcileLong1',
		name: 'e2e: a long run',
		nodes: [
			{
				parameters: {},
				id: 'a1000000-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { amount: 60, unit: 'seconds' },
				id: 'a1000000-0000-4000-8000-000000000002',
				name: 'A minute',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: [220, 0],
				webhookId: 'a1000000-0000-4000-8000-000000000003',
			},
		],
		connections: { Start: { main: [[{ node: 'A minute', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'reconcile', stepMs: 300 });
	// started by a published Webhook node, as production executions are
	journey = stack.fixture('waiting-scale.workflow.json');
	longRun = longRunning();
	// the shipped example as it is, but reporting any execution running when it looks (its limit 0 minutes)
	reconciler = JSON.parse(JSON.stringify(stack.example(EXAMPLE))) as Workflow;
	reconciler.id = 'e2eReconciler0001';
	reconciler.name = 'e2e: the reconciler example, stuck after 0 minutes';
	const settings = reconciler.nodes.find((n) => n.name === 'Settings')!;
	const limit = settings.parameters.assignments.assignments.find(
		(a: { name: string }) => a.name === 'stuckAfterMinutes',
	);
	limit.value = 0;
	await stack.importAll([journey, longRun, reconciler]);
	await stack.publish(journey.id);
	await stack.start();
	await waitFor(
		async () => {
			const r = await fetch(`${stack.url}/webhook/e2e-waiting-scale`);
			return (await r.text()).includes('POST') ? true : undefined;
		},
		{ timeoutMs: 180_000, what: 'the start webhook to be active' },
	);
	// an n8n API key for the example's n8n API credential, as a user creates one in Settings → n8n API
	const created = await stack.rest<{ data: { rawApiKey?: string; apiKey?: string } }>(
		'POST',
		'/rest/api-keys',
		{ label: 'reconciler', expiresAt: null, scopes: ['execution:list', 'execution:read'] },
	);
	const apiKey = created.data.rawApiKey ?? created.data.apiKey;
	expect(apiKey).toMatch(/\S{20,}/);
	await stack.importCredential({
		id: 'n8nApiLocal',
		name: 'n8n API',
		type: 'n8nApi',
		data: { apiKey, baseUrl: `${stack.url}/api/v1` },
	});
}, 900_000);

afterAll(async () => {
	await stack?.control.releaseWebhooks().catch(() => undefined);
	await stack?.stop();
});

/** Running on n8n 1.x (`FINVERIFY_N8N_LINE=1`)? */
const n8n1 = () => stack.runtime.n8nVersion.startsWith('1.');

const reconcileRequest = (url: string) =>
	fetch(url, { method: 'POST', headers: { 'x-finverify-reconcile': 'true' } });

let mobile = 0;
const startWaiting = async (): Promise<{ id: string; clientId: string; url: string }> => {
	const res = await fetch(`${stack.url}/webhook/e2e-waiting-scale`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ mobile: `98765${String(43210 + mobile++)}` }),
	});
	expect(res.status).toBe(200);
	// the execution the journey calls back: its id in the resume URL the service was given
	const journeys = await waitFor(
		async () => {
			const body = (await (await fetch(`${stack.sandbox.url}/__sandbox/journeys`)).json()) as {
				journeys: { client_id: string; webhook_url: string | null }[];
			};
			return body.journeys.length === mobile ? body.journeys : undefined;
		},
		{ timeoutMs: 120_000, what: `journey ${mobile} to be started` },
	);
	const latest = journeys[journeys.length - 1];
	const id = /\/webhook-waiting\/(\d+)/.exec(latest.webhook_url ?? '')?.[1];
	expect(id).toBeDefined();
	const waiting = await stack.waitForExecution(id!, {
		until: ['waiting', 'success', 'error', 'crashed'],
	});
	expect(waiting.status).toBe('waiting');
	return { id: id!, clientId: latest.client_id, url: String(latest.webhook_url) };
};

const deliveriesOf = async (clientId: string): Promise<Delivery[]> =>
	((await stack.control.webhooks()) as unknown as Delivery[]).filter((d) => d.subject === clientId);

test('journeys final at the service with their callbacks lost are resumed once by the reconciler; the late callbacks resume nothing; a journey not final keeps waiting; a long run is reported', async () => {
	await stack.control.holdWebhooks();
	const approved = await startWaiting();
	const denied = await startWaiting();
	const notYet = await startWaiting();
	await stack.control.advanceJourney(approved.clientId, 'analysis_complete');
	await stack.control.advanceJourney(denied.clientId, 'consent_denied');
	for (const { id } of [approved, denied, notYet])
		expect((await stack.execution(id)).status).toBe('waiting');

	if (n8n1()) {
		// n8n 1.123.81's public API listed no waiting execution in three runs of this test (GET
		// /api/v1/executions?status=waiting answered {"data":[]} with these three waiting; why is not established),
		// so the shipped reconciler finds none there (docs/long-waits.md). The node's side is the same on both lines:
		// the reconcile request on each resume URL, sent here directly.
		for (const { url } of [approved, denied]) {
			const res = await reconcileRequest(url);
			expect(res.status).toBe(200);
		}
		const still = await reconcileRequest(notYet.url);
		expect(still.status).toBe(200);
		expect(await still.json()).toMatchObject({
			reconciled: false,
			reason: 'not_final',
			pending: [expect.objectContaining({ clientId: notYet.clientId })],
		});
	} else {
		const long = await stack.runManually(longRun);
		await stack.waitForExecution(long, { until: ['running'] });

		const run = await stack.waitForExecution(await stack.runManually(reconciler), {
			timeoutMs: 180_000,
		});
		expect(run.status).toBe('success');
		// an output that got no item leaves the node after it not run
		const jsonOf = (node: string) => (run.run.runData[node] ? run.run.json(node) : []);
		const ids = (node: string) =>
			jsonOf(node)
				.map((j) => String(j.executionId))
				.sort();
		expect(ids('Resumed')).toEqual([approved.id, denied.id].sort());
		expect(jsonOf('Still waiting')).toEqual([
			expect.objectContaining({
				executionId: notYet.id,
				outcome: 'still waiting',
				reason: 'not_final',
				pending: [expect.objectContaining({ clientId: notYet.clientId })],
			}),
		]);
		expect(jsonOf('No longer waiting')).toEqual([]);
		expect(jsonOf('Not checked')).toEqual([]);
		expect(ids('Stuck in running')).toContain(long);
	}

	// resumed once each, with the status the node looked up at the service
	for (const [{ id, clientId }, status] of [
		[approved, 'analysis_complete'],
		[denied, 'consent_denied'],
	] as const) {
		const done = await stack.waitForExecution(id);
		expect(done.status).toBe('success');
		expect(done.run.json(NODE)).toEqual([
			expect.objectContaining({ clientId, status, isFinal: true, statusLookup: expect.anything() }),
		]);
		expect(done.run.runData.Done).toHaveLength(1);
	}
	expect((await stack.execution(notYet.id)).status).toBe('waiting');

	// the service's callbacks arrive late: n8n answers 409 "has finished already", nothing runs again
	await stack.control.releaseWebhooks();
	for (const { id, clientId } of [approved, denied]) {
		const finals = await waitFor(
			async () => {
				const list = await deliveriesOf(clientId);
				return list.length > 0 && list.every((d) => d.status !== 'pending') ? list : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 300, what: `the late callbacks of ${clientId}` },
		);
		const final = finals.filter((d) => d.payload.status !== 'initiated').at(-1)!;
		expect(final).toMatchObject({ status: 'delivered', outcome: 'finished' });
		expect(final.attempts.map((a) => a.status)).toEqual([409]);
		const after = await stack.execution(id);
		expect(after.status).toBe('success');
		expect(after.run.runData.Done).toHaveLength(1);
	}

	// the journey that was not final finishes: its own callback resumes it, as always
	await stack.control.advanceJourney(notYet.clientId, 'analysis_complete');
	const last = await stack.waitForExecution(notYet.id, { timeoutMs: 120_000 });
	expect(last.status).toBe('success');
	expect(last.run.json(NODE)[0]).toMatchObject({
		clientId: notYet.clientId,
		status: 'analysis_complete',
	});
	log(`reconcile e2e on n8n ${stack.runtime.n8nVersion}: resumed ${approved.id}, ${denied.id}`);
});
