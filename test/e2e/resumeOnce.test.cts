/**
 * One resume per waiting execution, whatever copies of its final callback the service sends (issue 43), in the
 * real n8n app: Start Journey with Wait for Completion "Until the Service Calls Back" → Get Status of the journey
 * (a request the sandbox logs: one per resume) → Done. The final callback is sent signed to the execution's resume
 * URL, copied back to back, simultaneously (10 executions, 3 copies each) and spread over minutes (0, 20, 60 and
 * 120 s). n8n 1.x answers a resume callback at once, before the execution is marked running, so its own guard
 * does not stop a copy (before issue 43 copies resumed one execution 2-4 times); the node marks a wait resumed.
 * Run on n8n 2.41.1 by `npm run test:e2e` and on 1.123.81 by `npm run test:n8n1`.
 */
import { createHmac } from 'node:crypto';

import { log, N8nStack, sleep, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(600_000);

const WAIT = 'Start journey and wait';
const AFTER = 'Status after the wait';
const SECRET = 'sandbox-webhook-secret';
let stack: N8nStack;
let workflow: Workflow;

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'resume-once', stepMs: 300 });
	const base = stack.fixture('wait-journey.workflow.json');
	workflow = JSON.parse(JSON.stringify(base)) as Workflow;
	workflow.id = 'e2eResumeOnce01';
	workflow.name = 'e2e: one resume per wait';
	const wait = workflow.nodes.find((n) => n.name === WAIT)!;
	// the step after the wait asks the sandbox for the journey's status: each resume is one logged request
	workflow.nodes.push({
		parameters: {
			resource: 'bankStatementJourney',
			operation: 'getStatus',
			clientId: '={{ $json.clientId }}',
		},
		id: 'a1b2c3d4-0000-4000-8000-e2e0once0001',
		name: AFTER,
		type: wait.type,
		typeVersion: 1,
		position: [440, 160],
		credentials: wait.credentials,
	});
	workflow.connections[WAIT] = {
		main: [
			[
				{ node: 'Done', type: 'main', index: 0 },
				{ node: AFTER, type: 'main', index: 0 },
			],
		],
	};
	await stack.importAll([workflow]);
	await stack.start();
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

interface Waiting {
	id: string;
	clientId: string;
	resumeUrl: string;
}

/** Starts `count` executions and waits until each waits for its journey's callback. */
async function startWaiting(count: number): Promise<Waiting[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) ids.push(await stack.runManually(workflow));
	const inits = async () => await stack.control.requests('aa-bsa-journey/init');
	const waiting: Waiting[] = [];
	for (const id of ids) {
		const execution = await stack.waitForExecution(id, {
			timeoutMs: 300_000,
			until: ['waiting', 'success', 'error', 'crashed'],
		});
		expect(execution.status).toBe('waiting');
		const clientId = String(execution.run.json(WAIT)[0].clientId);
		const resumeUrl = (await inits())
			.map((r) => String((r.body as { webhook_url?: string }).webhook_url))
			.find((url) => new RegExp(`/webhook-waiting/${id}(\\?|$)`).test(url));
		expect(resumeUrl).toBeDefined();
		waiting.push({ id, clientId, resumeUrl: resumeUrl! });
	}
	return waiting;
}

interface Answer {
	status: number;
	body: string;
}

/** One signed copy of the journey's final callback, as the service signs each attempt (a new timestamp). */
async function finalCallback({ clientId, resumeUrl }: Waiting): Promise<Answer> {
	const body = JSON.stringify({
		event: 'aa_bsa_journey.status_changed',
		client_id: clientId,
		status: 'analysis_complete',
		previous_status: 'data_fetched',
		updated_at: '2026-11-29T10:00:00.000Z',
	});
	const ts = Math.floor(Date.now() / 1000);
	const signature = createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex');
	const res = await fetch(resumeUrl, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-webhook-timestamp': String(ts),
			'x-webhook-signature': `sha256=${signature}`,
		},
		body,
	});
	return { status: res.status, body: await res.text() };
}

/**
 * A copy the node answered as a duplicate of a resumed wait, or n8n as running / finished already, or n8n's own
 * error for a copy racing the one that resumes (a 500 seen once among three simultaneous copies on a loaded
 * machine: the sender retries it and gets 409). Whether the wait resumed once is asserted on its own: the
 * execution's one result after the wait and one status lookup per journey.
 */
const refused = (a: Answer) => {
	if (a.status >= 500 && a.status !== 503)
		log(`a copy answered ${a.status}: ${a.body.slice(0, 300)}`);
	return (
		(a.status === 200 && /"duplicate":true/.test(a.body)) || a.status === 409 || a.status >= 500
	);
};

/**
 * Every execution ends `success` with one resume: one Get Status request for its journey, and exactly one copy
 * of its callback taken by n8n (any other copy refused).
 */
async function expectOneResumeEach(waiting: Waiting[], answers: Answer[][]): Promise<void> {
	for (const [index, w] of waiting.entries()) {
		const done = await stack.waitForExecution(w.id, { timeoutMs: 300_000 });
		expect(done.status).toBe('success');
		expect(done.run.json(AFTER)).toEqual([expect.objectContaining({ clientId: w.clientId })]);
		const taken = answers[index].filter((a) => !refused(a));
		expect({ execution: w.id, taken: taken.map((a) => a.status) }).toEqual({
			execution: w.id,
			taken: [200],
		});
	}
	const statusRequests = await stack.control.requests('aa-bsa-journey/status');
	const resumes = waiting.map(
		(w) =>
			statusRequests.filter((r) => (r.query as { client_id?: unknown }).client_id === w.clientId)
				.length,
	);
	expect(resumes).toEqual(waiting.map(() => 1));
}

test('two copies of the final callback back to back: one resume', async () => {
	const waiting = await startWaiting(3);
	const answers: Answer[][] = [];
	for (const w of waiting) answers.push([await finalCallback(w), await finalCallback(w)]);
	await expectOneResumeEach(waiting, answers);
});

test('three copies at once, 10 executions: one resume each', async () => {
	const waiting = await startWaiting(10);
	const answers = await Promise.all(
		waiting.map(
			async (w) => await Promise.all([finalCallback(w), finalCallback(w), finalCallback(w)]),
		),
	);
	await expectOneResumeEach(waiting, answers);
});

test('copies spread over minutes (0, 20, 60 and 120 s): one resume', async () => {
	const waiting = await startWaiting(2);
	const answers: Answer[][] = waiting.map(() => []);
	let at = 0;
	for (const next of [0, 20_000, 60_000, 120_000]) {
		// the spacing of the copies (a schedule, not a measurement: nothing here depends on how long it took)
		await sleep(next - at);
		at = next;
		const copies = await Promise.all(waiting.map(async (w) => await finalCallback(w)));
		copies.forEach((a, i) => answers[i].push(a));
	}
	await expectOneResumeEach(waiting, answers);
});
