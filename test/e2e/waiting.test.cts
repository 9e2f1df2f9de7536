/**
 * Wait for Completion in the real n8n app (`n8n start`): Start Journey with "Until the Service Calls Back"
 * puts the execution to wait in n8n's database; the sandbox's signed callbacks on `$execution.resumeUrl`
 * keep it waiting until a final status, which resumes it once. Also: n8n restarted while waiting, forged
 * and token-less callbacks, the time limit (n8n's wait tracker), two items in one waiting node, and every
 * runnable example (the waiting ones included) run to a green end with the credential the README's quick
 * start builds.
 */
import { createHash, createHmac } from 'node:crypto';
import * as fs from 'node:fs';

import { executionFinished } from '../../sandbox/webhooks.cjs';
import { readmeCredential } from '../harness/readmeTour.cjs';
import {
	log,
	N8nStack,
	NODE_TYPES,
	waitFor,
	waitForWebhook,
	type Example,
	type StoredExecution,
	type Workflow,
} from './helpers/stack.cjs';

jest.setTimeout(300_000);

const NODE = 'Start journey and wait';
let stack: N8nStack;
let single: Workflow;
let twoItems: Workflow;
let timeLimitLast: Workflow;
let timeLimitFail: Workflow;
/** The examples bound to the quick start's credential (all but the one that needs a chat model). */
let quickStart: Example[];
const t0 = Date.now();
const timings: Record<string, number> = {};

type Delivery = {
	url: string;
	subject: string;
	status: string;
	payload: { status: string };
	attempts: { status: number | null }[];
};
const deliveriesFor = async (subject: string): Promise<Delivery[]> =>
	((await stack.control.webhooks()) as unknown as Delivery[]).filter((d) => d.subject === subject);

/** Waits until the sandbox delivered (or gave up on) `count` callbacks for the journey. */
async function delivered(subject: string, count: number): Promise<Delivery[]> {
	return await waitFor(
		async () => {
			const list = await deliveriesFor(subject);
			return list.length >= count && list.every((d) => d.status !== 'pending') ? list : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 200, what: `${count} deliveries for ${subject}` },
	);
}

const variant = (base: Workflow, id: string, name: string, change: (wf: Workflow) => void) => {
	const wf = JSON.parse(JSON.stringify(base)) as Workflow;
	wf.id = id;
	wf.name = name;
	change(wf);
	return wf;
};
const waitNode = (wf: Workflow) => wf.nodes.find((n) => n.name === NODE)!;
/** The credential a user builds from the README's quick start (step 2), nothing more. */
const QUICK_START = {
	id: 'finVerifyQuickSt',
	name: 'FinVerify (quick start)',
	type: 'finVerifyApi',
};

/** An example with its FinVerify nodes (and the HTTP Request node's credential) on the quick start's credential. */
function onQuickStartCredential(example: Workflow, file: string): Workflow {
	const wf = JSON.parse(JSON.stringify(example)) as Workflow;
	wf.id = `e2eQuick${createHash('sha256').update(file).digest('hex').slice(0, 8)}`;
	wf.name = `${example.name} (quick-start credential)`;
	for (const node of wf.nodes)
		if (node.credentials?.finVerifyApi)
			node.credentials.finVerifyApi = { id: QUICK_START.id, name: QUICK_START.name };
	return wf;
}

/** Started by a call from outside (published): the FinVerify Trigger, or n8n's Webhook node. */
const startedByWebhook = (wf: Workflow) =>
	wf.nodes.some((n) => n.type === NODE_TYPES.trigger || n.type === 'n8n-nodes-base.webhook');

/** Running on n8n 1.x (`npm run test:n8n1`)? */
const n8n1 = () => stack.runtime.n8nVersion.startsWith('1.');

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'waiting', stepMs: 300 });
	single = stack.fixture('wait-journey.workflow.json');
	twoItems = variant(single, 'e2eWaitJourney02', 'e2e: two journeys, one waiting node', (wf) => {
		wf.pinData = {
			Start: [{ json: { mobile: '9876543210' } }, { json: { mobile: '9876543211' } }],
		};
	});
	timeLimitLast = variant(single, 'e2eWaitJourney03', 'e2e: time limit, last status', (wf) => {
		waitNode(wf).parameters.waitOptions = {
			waitAmount: 5,
			waitUnit: 'seconds',
			onTimeout: 'returnLastStatus',
		};
	});
	timeLimitFail = variant(single, 'e2eWaitJourney04', 'e2e: time limit, error output', (wf) => {
		waitNode(wf).parameters.waitOptions = { waitAmount: 5, waitUnit: 'seconds' };
		waitNode(wf).onError = 'continueErrorOutput';
	});
	// not here: the AI agent example (a model), the examples that keep a queue or a record in an n8n Data
	// Table the user creates first (their own real-app tests: decisionRecord, noItemLost), and the reconciler,
	// which needs an n8n API key (its own real-app test: reconcile)
	quickStart = stack.examples
		.filter(
			({ workflow }) =>
				!workflow.nodes.some((n) => /langchain|dataTable/.test(n.type) || n.credentials?.n8nApi),
		)
		.map(({ file, workflow }) => ({ file, workflow: onQuickStartCredential(workflow, file) }));
	await stack.importCredential({ ...QUICK_START, data: readmeCredential().data });
	await stack.importAll([
		single,
		twoItems,
		timeLimitLast,
		timeLimitFail,
		...quickStart.map((e) => e.workflow),
	]);
	for (const { workflow } of quickStart)
		if (startedByWebhook(workflow)) await stack.publish(workflow.id);
	await stack.start();
	timings.startMs = Date.now() - t0;
}, 900_000);

afterAll(async () => {
	log(`waiting e2e timings (ms): ${JSON.stringify(timings)}`);
	await stack?.stop();
});

const startWaiting = async (wf: Workflow) => {
	const id = await stack.runManually(wf);
	const waiting = await stack.waitForExecution(id, {
		until: ['waiting', 'success', 'error', 'crashed'],
	});
	expect(waiting.status).toBe('waiting');
	return { id, waiting };
};

test('a journey waits through intermediate callbacks (200 each), survives an n8n restart, and resumes once on the final status; no polling', async () => {
	const { id, waiting } = await startWaiting(single);
	const [shown] = waiting.run.json(NODE);
	const clientId = String(shown.clientId);
	expect(shown.status).toBe('initiated');

	// the service got this execution's resume URL, n8n's token query intact (n8n 1.x signs no resume URL)
	const [init] = (await stack.control.requests('aa-bsa-journey/init')).slice(-1);
	const resumeUrl = String((init.body as { webhook_url: string }).webhook_url);
	expect(resumeUrl).toMatch(
		n8n1()
			? new RegExp(`^${stack.url}/webhook-waiting/${id}$`)
			: new RegExp(`^${stack.url}/webhook-waiting/${id}\\?signature=[^&]+$`),
	);

	// forged, stale, unsigned and token-less callbacks: 401, nothing resumes
	const final = JSON.stringify({
		event: 'aa_bsa_journey.status_changed',
		client_id: clientId,
		status: 'analysis_complete',
	});
	const now = Math.floor(Date.now() / 1000);
	const headers = (secret: string, ts: number): Record<string, string> => ({
		'content-type': 'application/json',
		'x-webhook-timestamp': String(ts),
		'x-webhook-signature': `sha256=${createHmac('sha256', secret).update(`${ts}.${final}`).digest('hex')}`,
	});
	const post = async (url: string, h: Record<string, string>) =>
		(await fetch(url, { method: 'POST', headers: h, body: final })).status;
	expect(await post(resumeUrl, headers('not-the-secret', now))).toBe(401);
	expect(await post(resumeUrl, headers('sandbox-webhook-secret', now - 301))).toBe(401);
	expect(await post(resumeUrl, { 'content-type': 'application/json' })).toBe(401);
	if (!n8n1()) {
		// n8n's own token: a signed callback without it, or with a forged one, is refused before the node
		expect(await post(resumeUrl.split('?')[0], headers('sandbox-webhook-secret', now))).toBe(401);
		expect(
			await post(
				resumeUrl.replace(/signature=[^&]+/, 'signature=forged'),
				headers('sandbox-webhook-secret', now),
			),
		).toBe(401);
	}
	expect((await stack.execution(id)).status).toBe('waiting');

	// an intermediate status: answered 200, still waiting
	await stack.control.advanceJourney(clientId, 'consent_pending');
	const [pending] = await delivered(clientId, 1);
	expect(pending.attempts.map((a) => a.status)).toEqual([200]);
	expect((await stack.execution(id)).status).toBe('waiting');

	// n8n restarts while the execution waits. Not on n8n 1.x: its crash recovery reads the event log at start-up
	// and can mark a waiting execution `crashed` (seen in 3 of 27 test:n8n1 runs of 1.123.81; 2.41.1 never did);
	// docs/long-waits.md says so
	if (!n8n1()) {
		const restartStarted = Date.now();
		await stack.restartN8n();
		timings.restartMs = Date.now() - restartStarted;
		expect((await stack.execution(id)).status).toBe('waiting');
	}

	// consent: the sandbox walks on by itself (consent_granted, data_fetched, analysis_complete)
	const walkStarted = Date.now();
	await stack.control.advanceJourney(clientId, 'consent_granted');
	const done = await stack.waitForExecution(id, { timeoutMs: 60_000 });
	timings.finalCallbackToSuccessMs = Date.now() - walkStarted;
	expect(done.status).toBe('success');
	const list = await delivered(clientId, 4);
	expect(list.map((d) => [d.payload.status, d.attempts.map((a) => a.status)])).toEqual([
		['consent_pending', [200]],
		['consent_granted', [200]],
		['data_fetched', [200]],
		['analysis_complete', [200]],
	]);
	expect(done.run.json(NODE)).toEqual([
		expect.objectContaining({
			clientId,
			status: 'analysis_complete',
			previousStatus: 'data_fetched',
			isFinal: true,
			timedOut: false,
			journeyUrl: shown.journeyUrl,
		}),
	]);
	expect(done.run.json('Done')).toHaveLength(1);
	// no polling: not one status request
	expect(await stack.control.requests('aa-bsa-journey/status')).toHaveLength(0);
	// a callback after the execution finished is refused by n8n (409), it never runs twice; the sandbox's sender
	// reads that answer as "the execution has finished" and does not retry it
	const late = await fetch(resumeUrl, {
		method: 'POST',
		headers: headers('sandbox-webhook-secret', Math.floor(Date.now() / 1000)),
		body: final,
	});
	const lateBody = (await late.json()) as { message?: string };
	expect(late.status).toBe(409);
	expect(executionFinished(late.status, lateBody.message)).toBe(true);
});

test('n8n runs with the settings for bursts of callbacks (docs/scaling.md)', async () => {
	const environ = fs.readFileSync(`/proc/${stack.n8nPid()}/environ`, 'utf8').split('\0');
	const expected = [
		'N8N_CONCURRENCY_PRODUCTION_LIMIT=10',
		'DB_SQLITE_POOL_SIZE=4',
		...(n8n1() ? [] : ['N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true']),
	];
	expect(environ).toEqual(expect.arrayContaining(expected));
	if (!n8n1()) {
		// n8n applies a production concurrency limit: it counts concurrent executions (-1 without a limit)
		const list = await stack.rest<{ data: { concurrentExecutionsCount: number } }>(
			'GET',
			'/rest/executions?limit=1',
		);
		expect(list.data.concurrentExecutionsCount).toBeGreaterThanOrEqual(0);
	}
});

test('two items: each waits for its own journey; one resume when both are final', async () => {
	const { id, waiting } = await startWaiting(twoItems);
	const [a, b] = waiting.run.json(NODE).map((j) => String(j.clientId));
	expect(a).not.toBe(b);
	await stack.control.advanceJourney(a, 'consent_denied');
	await delivered(a, 1);
	expect((await stack.execution(id)).status).toBe('waiting');
	await stack.control.advanceJourney(b, 'expired');
	const done = await stack.waitForExecution(id, { timeoutMs: 60_000 });
	expect(done.status).toBe('success');
	expect(done.run.items(NODE).map((i) => [i.json.clientId, i.json.status, i.pairedItem])).toEqual([
		[a, 'consent_denied', { item: 0 }],
		[b, 'expired', { item: 1 }],
	]);
});

test('the time limit: n8n resumes the execution with the chosen outcome (last status / error output)', async () => {
	const started = Date.now();
	const last = await startWaiting(timeLimitLast);
	const fail = await startWaiting(timeLimitFail);
	const [lastDone, failDone] = await Promise.all(
		[last, fail].map(async ({ id }) => await stack.waitForExecution(id, { timeoutMs: 150_000 })),
	);
	timings.timeLimitResumeMs = Date.now() - started;
	expect(lastDone.status).toBe('success');
	expect(lastDone.run.json(NODE)[0]).toMatchObject({
		status: 'initiated',
		isFinal: false,
		timedOut: true,
	});
	expect(failDone.status).toBe('success');
	// the node's error item ({ error: {...}, message }) reaches the error output on n8n 1.x and 2.x alike
	expect(failDone.run.json(NODE, 0)).toEqual([]);
	expect(failDone.run.json(NODE, 1)[0]).toMatchObject({
		message: expect.stringMatching(
			/^Journey aa_\w+ did not reach a final status within 5 seconds \(last known status: initiated\)$/,
		),
		error: { code: 'WAIT_TIMED_OUT', details: { status: 'initiated', timedOut: true } },
	});
});

/** The first item of any node of a run that holds `key` (the journey or session a node started). */
function firstWith(e: StoredExecution, key: string): Record<string, unknown> | undefined {
	for (const runs of Object.values(e.run.runData))
		for (const run of runs)
			for (const output of run.data?.main ?? [])
				for (const item of output ?? []) if (item?.json?.[key] !== undefined) return item.json;
	return undefined;
}

/** What the customer does on the sandbox's consent page: opens it, then approves. */
async function approve(journeyUrl: string, clientId: string) {
	expect((await fetch(journeyUrl)).status).toBe(200);
	const r = await fetch(`${stack.sandbox.url}/journey/${clientId}/approve`, {
		method: 'POST',
		redirect: 'manual',
	});
	expect(r.status).toBeLessThan(400);
}

/** Runs `drive`; its outcome in words: "success", or what went wrong (so one failing example names all). */
async function outcomeOf(drive: () => Promise<StoredExecution>): Promise<string> {
	try {
		const e = await drive();
		return e.status === 'success' ? 'success' : `${e.status}: ${e.run.error?.message ?? '?'}`;
	} catch (error) {
		return `failed: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 300)}`;
	}
}

test("every runnable example ends green with the credential the README's quick start builds", async () => {
	const started = Date.now();
	// the credential holds exactly the README's fields (the Simulator URL is the field's default, which
	// n8n fills with this sandbox's address as under npm start)
	expect(Object.keys(readmeCredential().data).sort()).toEqual([
		'apiKey',
		'apiSecret',
		'environment',
		'refreshToken',
		'webhookSecret',
	]);
	const file = (name: string) => quickStart.find((e) => e.file === name)!.workflow;
	expect(quickStart.map((e) => e.file)).toEqual([
		'bank-statement-journey-send-link.json',
		'bank-statement-journey-start.json',
		'bank-statement-journey-trigger.json',
		'bank-statement-journey-wait.json',
		'collection-session-wait.json',
		'company-onboarding.json',
		'credit-decision.json',
		'crm-webhook-respond-then-wait.json',
		'error-handling.json',
		'http-request-with-credential.json',
		'individual-underwriting.json',
		'kyb-decision.json',
	]);
	const outcomes: Record<string, string> = {};
	// the trigger example is published: it receives the events of the journey the start example starts
	const trigger = file('bank-statement-journey-trigger.json');
	const triggerNode = trigger.nodes.find((n) => n.type === NODE_TYPES.trigger)!;
	const triggerActive = await outcomeOf(async () => {
		await waitForWebhook(
			`${stack.url}/webhook/${triggerNode.webhookId}/finverify`,
			'the trigger example to be active',
		);
		return { status: 'success' } as StoredExecution;
	});
	/** Journeys an example started without waiting for them. */
	const toTrigger: string[] = [];

	// the examples with a Manual Trigger: run as the editor's Execute workflow button does; the ones that wait
	// are completed by the customer (consent page) or the recipient (hosted form), and resume
	for (const { file: name, workflow } of quickStart.filter((e) => !startedByWebhook(e.workflow))) {
		outcomes[name] = await outcomeOf(async () => {
			const id = await stack.runManually(workflow);
			const e = await stack.waitForExecution(id, {
				until: ['waiting', 'success', 'error', 'crashed'],
			});
			const journey = firstWith(e, 'journeyUrl');
			if (e.status === 'success' && journey) {
				toTrigger.push(String(journey.clientId));
				await approve(String(journey.journeyUrl), String(journey.clientId));
			}
			if (e.status !== 'waiting') return e;
			const session = firstWith(e, 'hostedUrl');
			if (journey) await approve(String(journey.journeyUrl), String(journey.clientId));
			else if (session)
				await stack.control.setSessionStatus(String(session.sessionId), 'completed');
			else throw new Error('it waits with no journey or session in its output');
			const done = await stack.waitForExecution(id, { timeoutMs: 60_000 });
			// the waiting node resumed on the final callback, not at its time limit
			expect(firstWith(done, 'timedOut')).toMatchObject({ isFinal: true, timedOut: false });
			return done;
		});
	}

	// the CRM calls its webhook: answered with the consent link, then the execution waits and resumes on consent
	const crm = file('crm-webhook-respond-then-wait.json');
	outcomes['crm-webhook-respond-then-wait.json'] = await outcomeOf(async () => {
		const url = `${stack.url}/webhook/finverify-bank-statements`;
		const answer = await waitFor(
			async () => {
				const r = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ crmId: 'crm-1', mobile: '9876543210', name: 'Priya Sharma' }),
				});
				return r.status === 404 ? undefined : r; // 404: n8n still activating the published workflow
			},
			{ timeoutMs: 60_000, what: `the webhook ${url} to be active` },
		);
		expect(answer.status).toBe(200);
		const link = (await answer.json()) as { clientId: string; journeyUrl: string };
		const [waiting] = await waitFor(
			async () => {
				const list = await stack.executions(crm.id);
				return ['waiting', 'error', 'success'].includes(list[0]?.status) ? list : undefined;
			},
			{ timeoutMs: 30_000, what: 'the CRM example to wait at Wait for Journey' },
		);
		if (waiting.status !== 'waiting') return await stack.execution(String(waiting.id));
		await approve(link.journeyUrl, link.clientId);
		const done = await stack.waitForExecution(String(waiting.id), { timeoutMs: 60_000 });
		expect(done.run.json('Update the CRM')[0]).toMatchObject({
			clientId: link.clientId,
			status: 'analysis_complete',
			timedOut: false,
		});
		return done;
	});

	// the trigger example: the journey the start example started (and the customer approved) reaches it
	outcomes['bank-statement-journey-trigger.json'] =
		triggerActive !== 'success'
			? triggerActive
			: await outcomeOf(async () => {
					expect(toTrigger).toHaveLength(1);
					const ended = ['success', 'error', 'crashed', 'canceled'];
					const [triggered] = await waitFor(
						async () => {
							const list = await stack.executions(trigger.id);
							return list.length >= 1 && list.every((x) => ended.includes(x.status))
								? list
								: undefined;
						},
						{ timeoutMs: 60_000, what: 'the trigger example to run' },
					);
					const run = await stack.execution(String(triggered.id));
					expect(run.run.json('Get analysis')[0]).toMatchObject({
						clientId: toTrigger[0],
						status: 'analysis_complete',
					});
					return run;
				});

	timings.quickStartExamplesMs = Date.now() - started;
	expect(outcomes).toEqual(Object.fromEntries(quickStart.map((e) => [e.file, 'success'])));
});
