/**
 * Waiting in two steps a builder can see, through n8n-core's real engine with waiting executions served as
 * the n8n app serves them (test/harness/waiting.cts): Start Journey / Create (Don't Wait) is given
 * `{{ $execution.resumeUrl }}` as the service's callback and outputs the consent or hosted link at once;
 * the test reads that link from the node's output while the execution waits (what a Send Email node placed
 * in between would send), the customer completes it on the sandbox page, and Wait for Journey / Wait for
 * Session resumes the execution once, on the service's signed final callback.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import { CREDENTIAL_REF, FINVERIFY_NODE, sandboxCredentials } from '../harness/index.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import type { WaitingStack } from './support.cjs';
import { signedCallback, withWaitingExecutions } from './support.cjs';

let engine: WaitingStack['engine'];
let sandbox: WaitingStack['sandbox'];
let waiting: WaitingStack['waiting'];
withWaitingExecutions((started) => ({ engine, sandbox, waiting } = started));

const RESUME_URL = '={{ $execution.resumeUrl }}';

/** Start (manual) → `first` → `second`, each a FinVerify node with the given parameters. */
function twoSteps(
	first: { name: string; parameters: IDataObject },
	second: { name: string; parameters: IDataObject },
	items: IDataObject[] = [{}],
): WorkflowJson {
	const node = (name: string, parameters: IDataObject, x: number): INode => ({
		id: name,
		name,
		type: FINVERIFY_NODE,
		typeVersion: 2,
		position: [x, 0],
		parameters: parameters as INode['parameters'],
		credentials: CREDENTIAL_REF,
	});
	return {
		name: 'two steps',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			node(first.name, first.parameters, 200),
			node(second.name, second.parameters, 400),
		],
		connections: {
			Start: { main: [[{ node: first.name, type: 'main', index: 0 }]] },
			[first.name]: { main: [[{ node: second.name, type: 'main', index: 0 }]] },
		},
		pinData: { Start: items.map((json) => ({ json })) },
	};
}

const journeyInTwoSteps = (wait: IDataObject = {}, items?: IDataObject[]) =>
	twoSteps(
		{
			name: 'Start Journey',
			parameters: {
				resource: 'bankStatementJourney',
				operation: 'start',
				mobileNumber: '9876543210',
				consentType: 'loanUnderwriting',
				additionalFields: { webhookUrl: RESUME_URL },
			},
		},
		{
			name: 'Wait for Journey',
			parameters: {
				resource: 'bankStatementJourney',
				operation: 'wait',
				clientId: '={{ $json.clientId }}',
				...wait,
			},
		},
		items,
	);

const sessionInTwoSteps = (items?: IDataObject[]) =>
	twoSteps(
		{
			name: 'Create Session',
			parameters: {
				resource: 'collectionSession',
				operation: 'create',
				flow: 'itr',
				recipientEmail: 'priya.sharma@example.com',
				redirectUrl: 'https://example.com/thank-you',
				callbackUrl: RESUME_URL,
			},
		},
		{
			name: 'Wait for Session',
			parameters: {
				resource: 'collectionSession',
				operation: 'wait',
				sessionId: '={{ $json.sessionId }}',
			},
		},
		items,
	);

/**
 * The output of a Wait node against the schema shipped for its operation (the same items on versions 1
 * and 2: the operation has no Output choice).
 */
function checkSchema(wf: WorkflowJson, name: string, items: IDataObject[]) {
	const node = wf.nodes.find((n) => n.name === name) as INode;
	checkNodeOutput(node, items);
	checkNodeOutput({ ...node, typeVersion: 1 }, items);
}

/** What the customer does on a sandbox page: reads the form and submits it. */
async function submitForm(
	pageUrl: string,
	buttonAction: RegExp,
	fields: Record<string, string> = {},
) {
	const page = await (await fetch(pageUrl)).text();
	const forms = [...page.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
	const form = forms.find(([, action]) => buttonAction.test(action));
	if (!form) throw new Error(`no form ${buttonAction} on ${pageUrl}`);
	const hidden = Object.fromEntries(
		[...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
			m[1],
			m[2],
		]),
	);
	const response = await fetch(new URL(form[1], pageUrl), {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ ...hidden, ...fields }).toString(),
		redirect: 'manual',
	});
	expect(response.status).toBeLessThan(400);
}

describe('Start Journey → (send the link) → Wait for Journey', () => {
	test('the link is in the output before the wait; the customer consents on the page; the execution resumes once', async () => {
		const wf = journeyInTwoSteps();
		const first = await waiting.run(wf);
		expect(first.error).toBeUndefined();
		const id = first.executionId;
		expect(waiting.status(id)).toBe('waiting');

		// what the builder sees (and a node in between can send) while the execution waits
		const [started] = first.json('Start Journey');
		const clientId = String(started.clientId);
		expect(started.journeyUrl).toEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//));
		expect(started.status).toBe('initiated');
		// the service was given this execution's resume URL, n8n's token included
		const [init] = await sandbox.control.requests('aa-bsa-journey/init');
		expect((init.body as IDataObject).webhook_url).toBe(waiting.resumeUrl(id));
		// Wait for Journey looked the journey up once and waits for it; nothing polls
		expect(await sandbox.control.requests('aa-bsa-journey/status')).toHaveLength(1);

		// the customer opens the link (consent pending) and approves; the sandbox then walks the journey
		// to the end
		await submitForm(String(started.journeyUrl), /\/approve$/);
		const list = await sandbox.control.settledDeliveries(4, clientId);
		expect(list.map((d) => d.payload.status)).toEqual([
			'consent_pending',
			'consent_granted',
			'data_fetched',
			'analysis_complete',
		]);
		for (const d of list) {
			expect(d.url).toBe(waiting.resumeUrl(id));
			expect(d.attempts.map((a) => a.status)).toEqual([200]);
		}

		const last = await waiting.finished(id);
		expect(last.error).toBeUndefined();
		expect(waiting.legs(id)).toHaveLength(2);
		expect(waiting.calls.filter((c) => c.executionId === id && c.resumed)).toHaveLength(1);
		const [done] = last.json('Wait for Journey');
		expect(done).toMatchObject({
			clientId,
			status: 'analysis_complete',
			previousStatus: 'data_fetched',
			isFinal: true,
			isSuccessful: true,
			timedOut: false,
		});
		expect((done.callback as IDataObject).client_id).toBe(clientId);
		checkSchema(wf, 'Wait for Journey', [done]);
		expect(await sandbox.control.requests('aa-bsa-journey/status')).toHaveLength(1);
	});

	test('a signed final callback about another journey leaves it waiting', async () => {
		const first = await waiting.run(journeyInTwoSteps());
		const id = first.executionId;
		const response = await fetch(
			waiting.resumeUrl(id),
			signedCallback({
				id: 'evt_other',
				event: 'aa_bsa_journey.status_changed',
				client_id: 'aa_not_this_one',
				status: 'analysis_complete',
				previous_status: 'data_fetched',
				updated_at: new Date().toISOString(),
				data: {},
			}),
		);
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ ignored: true });
		expect(waiting.status(id)).toBe('waiting');
		await waiting.timeOut(id);
	});

	test('a journey already final when the wait starts is output at once, without waiting', async () => {
		const first = await waiting.run(journeyInTwoSteps());
		const id = first.executionId;
		const clientId = String(first.json('Start Journey')[0].clientId);
		await waiting.timeOut(id);
		// a second execution waits for the same journey after it ended: one lookup, no wait
		await sandbox.control.advanceJourney(clientId, 'consent_denied');
		const statusThenWait = twoSteps(
			{
				name: 'Start Journey',
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'getStatus',
					clientId,
				},
			},
			{
				name: 'Wait for Journey',
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'wait',
					clientId: '={{ $json.clientId }}',
				},
			},
		);
		const again = await waiting.run(statusThenWait);
		expect(again.error).toBeUndefined();
		expect(waiting.status(again.executionId)).toBe('success');
		expect(again.json('Wait for Journey')[0]).toMatchObject({
			clientId,
			status: 'consent_denied',
			isFinal: true,
			isSuccessful: false,
			timedOut: false,
		});
		checkSchema(statusThenWait, 'Wait for Journey', again.json('Wait for Journey'));
	});
});

describe('Create Session → (send the link) → Wait for Session', () => {
	test('the hosted link is in the output before the wait; the recipient submits; the execution resumes once', async () => {
		const wf = sessionInTwoSteps();
		const first = await waiting.run(wf);
		expect(first.error).toBeUndefined();
		const id = first.executionId;
		expect(waiting.status(id)).toBe('waiting');
		const [created] = first.json('Create Session');
		const sessionId = String(created.sessionId);
		expect(created.hostedUrl).toEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//));
		const [create] = await sandbox.control.requests('collection/session/create');
		expect((create.body as IDataObject).callback_url).toBe(waiting.resumeUrl(id));

		await submitForm(String(created.hostedUrl), /\/submit$/, {
			pan: 'ABCDE1234F',
			date_of_birth: '1990-01-31',
			assessment_year: '2024-25',
		});
		const last = await waiting.finished(id);
		expect(last.error).toBeUndefined();
		expect(waiting.legs(id)).toHaveLength(2);
		const [done] = last.json('Wait for Session');
		expect(done).toMatchObject({
			sessionId,
			status: 'completed',
			isFinal: true,
			isSuccessful: true,
			timedOut: false,
		});
		// Personal Data in Output defaults to Masked: the submitted PAN is there, to its last 4 characters
		expect(JSON.stringify(done.callback)).toContain('XXXXXX234F');
		expect(JSON.stringify(done.callback)).not.toContain('ABCDE1234F');
		checkSchema(wf, 'Wait for Session', [done]);
	});

	test('the time limit passes: the session is output as an error item naming it', async () => {
		const first = await waiting.run(sessionInTwoSteps());
		const id = first.executionId;
		const sessionId = String(first.json('Create Session')[0].sessionId);
		const last = await waiting.timeOut(id);
		const [item] = last.json('Wait for Session');
		expect(item.message).toBe(
			`Session ${sessionId} did not reach a final status within 1 day (last known status: unknown)`,
		);
		expect(item.error).toMatchObject({ code: 'WAIT_TIMED_OUT', details: { sessionId } });
	});

	test('the time limit passes with Return Last Status: the session is output with timedOut', async () => {
		const wf = sessionInTwoSteps();
		const waitNode = wf.nodes.find((n) => n.name === 'Wait for Session') as INode;
		waitNode.parameters.waitOptions = {
			onTimeout: 'returnLastStatus',
			waitAmount: 2,
			waitUnit: 'hours',
		};
		const first = await waiting.run(wf);
		const id = first.executionId;
		const untilMs = waiting.waitTill(id)!.getTime() - Date.now();
		expect(untilMs).toBeGreaterThan(1.9 * 3600_000);
		const sessionId = String(first.json('Create Session')[0].sessionId);
		const [item] = (await waiting.timeOut(id)).json('Wait for Session');
		expect(item).toMatchObject({ sessionId, status: null, isFinal: false, timedOut: true });
		checkSchema(wf, 'Wait for Session', [item]);
	});
});

/** The workflow with `change` applied to the node `name`'s parameters. */
function withNode(wf: WorkflowJson, name: string, change: (parameters: IDataObject) => void) {
	change((wf.nodes.find((n) => n.name === name) as INode).parameters as IDataObject);
	return wf;
}

describe('who calls this execution back: checked before anything is created or waited for', () => {
	const WITHOUT_SECRET = () =>
		engine.setCredentials(sandboxCredentials(sandbox.url, { webhookSecret: '' }));

	test.each([
		['the resume URL', RESUME_URL],
		["the resume URL without n8n's token", "={{ $execution.resumeUrl.split('?')[0] }}"],
	])(
		'Start Journey with %s as Webhook URL and no Webhook Signing Secret: refused before the journey is created',
		async (_, webhookUrl) => {
			WITHOUT_SECRET();
			const wf = withNode(journeyInTwoSteps(), 'Start Journey', (p) => {
				p.additionalFields = { webhookUrl };
			});
			const result = await waiting.run(wf);
			expect(result.error?.message).toBe(
				"Start Journey sends this execution's resume URL as its Webhook URL, so a later Wait for " +
					"Journey must verify the service's callback: enter the Webhook Signing Secret in the " +
					'FinVerify API credential',
			);
			expect(result.error?.description).toMatch(/Nothing was created\.$/);
			expect(result.run.data.resultData.lastNodeExecuted).toBe('Start Journey');
			expect(waiting.status(result.executionId)).toBe('error');
			// the sandbox's request log: nothing was sent
			expect(await sandbox.control.requests()).toEqual([]);
		},
	);

	test('Create Session with the resume URL as Callback URL and no Webhook Signing Secret: refused before the session is created', async () => {
		WITHOUT_SECRET();
		const result = await waiting.run(sessionInTwoSteps());
		expect(result.error?.message).toBe(
			"Create Session sends this execution's resume URL as its Callback URL, so a later Wait for " +
				"Session must verify the service's callback: enter the Webhook Signing Secret in the " +
				'FinVerify API credential',
		);
		expect(result.run.data.resultData.lastNodeExecuted).toBe('Create Session');
		expect(await sandbox.control.requests()).toEqual([]);
	});

	test.each([
		['no Webhook URL', {}, 'sends no Webhook URL'],
		[
			'a Webhook URL elsewhere',
			{ webhookUrl: 'http://127.0.0.1:9/elsewhere' },
			"sends another Webhook URL than this execution's resume URL",
		],
	])(
		'Start Journey with %s before Wait for Journey: refused before the journey is created',
		async (_, additionalFields, reason) => {
			const wf = withNode(journeyInTwoSteps(), 'Start Journey', (p) => {
				p.additionalFields = additionalFields;
			});
			const result = await waiting.run(wf);
			expect(result.error?.message).toBe(
				`Start Journey ${reason}, so Wait for Journey ("Wait for Journey") after it would never be called back`,
			);
			expect(result.error?.description).toMatch(
				/set Additional Fields → Webhook URL to the expression \{\{ \$execution\.resumeUrl \}\}\. Nothing was created\.$/,
			);
			expect(waiting.status(result.executionId)).toBe('error');
			expect(await sandbox.control.requests()).toEqual([]);
		},
	);

	test('Create Session with a Callback URL elsewhere before Wait for Session: refused before the session is created', async () => {
		const wf = withNode(sessionInTwoSteps(), 'Create Session', (p) => {
			p.callbackUrl = 'https://example.com/finverify-callback';
		});
		const result = await waiting.run(wf);
		expect(result.error?.message).toBe(
			`Create Session sends another Callback URL than this execution's resume URL, so Wait for Session ("Wait for Session") after it would never be called back`,
		);
		expect(await sandbox.control.requests()).toEqual([]);
	});

	test('Start Journey with a Webhook URL elsewhere and no wait after it: the journey is started', async () => {
		const wf = journeyInTwoSteps();
		wf.nodes = wf.nodes.filter((n) => n.name !== 'Wait for Journey');
		wf.connections = { Start: wf.connections.Start };
		withNode(wf, 'Start Journey', (p) => {
			p.additionalFields = { webhookUrl: 'http://127.0.0.1:9/elsewhere' };
		});
		const result = await waiting.run(wf);
		expect(result.error).toBeUndefined();
		expect(result.json('Start Journey')[0].status).toBe('initiated');
		// the request log sees what these tests say was not sent
		expect((await sandbox.control.requests()).map((r) => r.path)).toEqual([
			expect.stringContaining('aa-bsa-journey/init'),
		]);
	});

	test('Wait for Journey after a pinned Start Journey without Webhook URL: refuses to wait, before any lookup, naming what to set', async () => {
		const wf = withNode(journeyInTwoSteps(), 'Start Journey', (p) => {
			p.additionalFields = {};
		});
		wf.pinData = {
			...wf.pinData,
			'Start Journey': [{ json: { clientId: 'aa_0123456789abcdef01234567' } }],
		};
		const result = await waiting.run(wf);
		expect(result.error?.message).toBe(
			'Wait for Journey would never be called back: Start Journey ("Start Journey") sends no Webhook URL',
		);
		expect(result.error?.description).toMatch(
			/In "Start Journey", set Additional Fields → Webhook URL to the expression \{\{ \$execution\.resumeUrl \}\}/,
		);
		expect(result.run.data.resultData.lastNodeExecuted).toBe('Wait for Journey');
		expect(waiting.status(result.executionId)).toBe('error');
		expect(await sandbox.control.requests()).toEqual([]);
	});

	test('Wait for Journey / Wait for Session without the signing secret name themselves', async () => {
		WITHOUT_SECRET();
		const journey = journeyInTwoSteps();
		journey.pinData = {
			...journey.pinData,
			'Start Journey': [{ json: { clientId: 'aa_0123456789abcdef01234567' } }],
		};
		const result = await waiting.run(journey);
		expect(result.error?.message).toBe(
			'Wait for Journey needs the Webhook Signing Secret of the FinVerify API credential',
		);
		expect(result.error?.description).toMatch(/Nothing was looked up or waited for\.$/);

		const session = sessionInTwoSteps();
		session.pinData = {
			...session.pinData,
			'Create Session': [{ json: { sessionId: 'cs_5f2c0b7e9a1d4c3b' } }],
		};
		const other = await waiting.run(session);
		expect(other.error?.message).toBe(
			'Wait for Session needs the Webhook Signing Secret of the FinVerify API credential',
		);
		expect(await sandbox.control.requests()).toEqual([]);
	});

	test('Wait for Session with two items names itself', async () => {
		const session = sessionInTwoSteps();
		session.pinData = {
			...session.pinData,
			'Create Session': [
				{ json: { sessionId: 'cs_5f2c0b7e9a1d4c3b' } },
				{ json: { sessionId: 'cs_5f2c0b7e9a1d4c3c' } },
			],
		};
		const result = await waiting.run(session);
		expect(result.error?.message).toBe(
			'Wait for Session waits for one collection session per execution, and this node received 2 items',
		);
	});
});
