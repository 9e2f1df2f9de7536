/**
 * The real n8n app running (`n8n start`), once for this file: published FinVerify Trigger workflows receive the
 * sandbox's signed webhooks through n8n's own webhook server, forged deliveries are refused, the credential test
 * of the REST API works (and sends nothing for a Base URL it refuses), a collection session created with Wait for
 * Completion resumes its waiting execution through `$execution.resumeUrl`, a CRM's webhook call is answered with
 * the consent link before Wait for Journey waits, and
 * no credential secret ends up in stored executions.
 */
import { createHmac } from 'node:crypto';

import {
	log,
	N8nStack,
	NODE_TYPES,
	SECRETS,
	sandboxApi,
	sleep,
	waitFor,
	waitForWebhook,
	type Workflow,
} from './helpers/stack.cjs';

jest.setTimeout(120_000);

let stack: N8nStack;
let allStatuses: Workflow; // fixture: FinVerify Trigger, every journey/session status → NoOp
let journeyStart: Workflow;
let journeyTrigger: Workflow;
let crmRespondThenWait: Workflow;

type Delivery = {
	id: string;
	url: string;
	status: string;
	event: string;
	payload: { status: string; client_id?: string };
	attempts: { status: number | null }[];
};
const deliveriesTo = async (url: string): Promise<Delivery[]> =>
	((await stack.control.webhooks()) as unknown as Delivery[]).filter((d) => d.url === url);

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'server', stepMs: 1000 });
	allStatuses = stack.fixture('trigger-all-statuses.workflow.json');
	journeyStart = stack.example('bank-statement-journey-start.json');
	journeyTrigger = stack.example('bank-statement-journey-trigger.json');
	crmRespondThenWait = stack.example('crm-webhook-respond-then-wait.json');
	await stack.importAll([allStatuses]);
	await stack.publish(journeyTrigger.id);
	await stack.publish(crmRespondThenWait.id);
	await stack.publish(allStatuses.id);
	await stack.start();
	// published workflows are activated in the background after start: wait until both webhooks answer
	// (401: the trigger ran and refused the unsigned request; 404 while the webhook is not registered yet)
	for (const wf of [allStatuses, journeyTrigger])
		await waitForWebhook(
			stack.triggerUrl(wf),
			() => `the webhook of "${wf.name}" to be active\n${stack.logTail()}`,
		);
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

test('the running editor knows both node types (GET /types/nodes.json)', async () => {
	const res = await fetch(`${stack.url}/types/nodes.json`, { headers: { cookie: stack.cookie } });
	const types = ((await res.json()) as { name: string }[]).map((t) => t.name);
	expect(types).toEqual(expect.arrayContaining([NODE_TYPES.action, NODE_TYPES.trigger]));
});

test("the editor offers the credential under the HTTP Request node's Predefined Credential Type (function authenticate)", async () => {
	const get = async (file: string) => {
		const res = await fetch(`${stack.url}/types/${file}`, { headers: { cookie: stack.cookie } });
		expect(res.status).toBe(200);
		return (await res.json()) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
	};
	// the HTTP Request node lists credential types matching its "has:authenticate" filter …
	const httpRequest = (await get('nodes.json')).filter(
		(t) => t.name === 'n8n-nodes-base.httpRequest',
	);
	const filters = httpRequest
		.flatMap((t) => t.properties)
		.filter((p) => p.name === 'nodeCredentialType')
		.flatMap((p) => p.credentialTypes ?? []);
	expect(filters).toContain('has:authenticate');
	// … and the function form reaches the editor as an (empty) authenticate object, so it matches
	const credential = (await get('credentials.json')).find((c) => c.name === 'finVerifyApi');
	expect(credential).toBeDefined();
	expect(credential?.authenticate).toEqual({});
});

test("a published trigger gets every signed webhook of a journey through n8n's webhook server: one execution per delivery", async () => {
	const url = stack.triggerUrl(allStatuses);
	const { status, json } = await sandboxApi(stack.sandbox.url, 'aa-bsa-journey/init', {
		mobile_number: '9812345678',
		webhook_url: url,
		auto_consent: true,
	});
	expect(status).toBe(200);
	const clientId: string = json.data.client_id;

	// auto_consent: initiated → consent_granted → data_fetched → analysis_complete, one signed POST per change
	const deliveries = await waitFor(
		async () => {
			const ds = await deliveriesTo(url);
			const done =
				ds.some((d) => d.payload.status === 'analysis_complete') &&
				ds.every((d) => d.status !== 'pending');
			return done ? ds : undefined;
		},
		{
			timeoutMs: 60_000,
			what: 'the journey to reach analysis_complete and its webhooks to be delivered',
		},
	);
	expect(deliveries.map((d) => d.payload.status)).toEqual([
		'consent_granted',
		'data_fetched',
		'analysis_complete',
	]);
	for (const d of deliveries) {
		expect(d.status).toBe('delivered');
		expect(d.attempts.map((a) => a.status)).toEqual([200]); // accepted on the first attempt
	}

	const executions = await waitFor(
		async () => {
			const list = await stack.executions(allStatuses.id);
			return list.length >= deliveries.length && list.every((e) => e.status === 'success')
				? list
				: undefined;
		},
		{
			timeoutMs: 30_000,
			what: `${deliveries.length} successful executions of "${allStatuses.name}"`,
		},
	);
	expect(executions).toHaveLength(deliveries.length);
	expect(executions.every((e) => e.mode === 'webhook')).toBe(true);

	const events = await Promise.all(
		executions.map(async (e) => (await stack.execution(e.id)).run.json('FinVerify Trigger')[0]),
	);
	expect(events.map((ev) => ev.deliveryId).sort()).toEqual(deliveries.map((d) => d.id).sort());
	for (const ev of events)
		expect(ev).toMatchObject({
			type: 'journey',
			id: clientId,
			event: 'aa_bsa_journey.status_changed',
		});
	expect(events.map((ev) => ev.status).sort()).toEqual([
		'analysis_complete',
		'consent_granted',
		'data_fetched',
	]);
});

test('the two-workflow journey example: start → the customer consents → the trigger workflow fetches the analysis once', async () => {
	const url = stack.triggerUrl(journeyTrigger);
	const execId = await stack.runManually(journeyStart);
	const started = await stack.waitForExecution(execId);
	expect(started.status).toBe('success');
	const [journey] = started.run.json('Start journey');
	expect(journey.status).toBe('initiated');

	// the customer opens the consent link and approves (the sandbox's consent page)
	const page = await fetch(journey.journeyUrl);
	expect(page.status).toBe(200);
	expect(await page.text()).toContain(`/journey/${journey.clientId}/approve`);
	const approve = await fetch(`${stack.sandbox.url}/journey/${journey.clientId}/approve`, {
		method: 'POST',
		redirect: 'manual',
	});
	expect(approve.status).toBeLessThan(400);

	const deliveries = await waitFor(
		async () => {
			const ds = (await deliveriesTo(url)).filter((d) => d.payload.client_id === journey.clientId);
			return ds.some((d) => d.payload.status === 'analysis_complete') &&
				ds.every((d) => d.status !== 'pending')
				? ds
				: undefined;
		},
		{ timeoutMs: 60_000, what: 'the example journey to complete' },
	);
	expect(deliveries.map((d) => d.payload.status)).toEqual([
		'consent_pending',
		'consent_granted',
		'data_fetched',
		'analysis_complete',
	]);
	expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);

	// the trigger filters on analysis_complete: the three other deliveries are acknowledged without an execution
	const [execution] = await waitFor(
		async () => {
			const list = await stack.executions(journeyTrigger.id);
			return list.length >= 1 && list.every((e) => e.status === 'success') ? list : undefined;
		},
		{ timeoutMs: 30_000, what: `an execution of "${journeyTrigger.name}"` },
	);
	await sleep(1000);
	expect(await stack.executions(journeyTrigger.id)).toHaveLength(1);

	const run = (await stack.execution(execution.id)).run;
	expect(run.json('Journey analysis complete')[0]).toMatchObject({
		id: journey.clientId,
		status: 'analysis_complete',
		isFinal: true,
	});
	const [analysis] = run.json('Get analysis');
	expect(analysis).toMatchObject({ clientId: journey.clientId, status: 'analysis_complete' });
	expect(analysis.accounts.length).toBeGreaterThan(0);
	const [summary] = run.json('Cash-flow summary');
	expect(summary).toMatchObject({
		clientId: journey.clientId,
		accounts: analysis.accounts.length,
		totalCredits: analysis.totalCredits,
		totalDebits: analysis.totalDebits,
	});
	expect(summary.totalCredits).toBeGreaterThan(0);
	expect(summary.period).toBe(`${analysis.periodFrom} to ${analysis.periodTo}`);
});

test('a forged delivery (wrong signature, or a signed body that was altered) gets 401 and starts nothing', async () => {
	const url = stack.triggerUrl(allStatuses);
	const before = (await stack.executions(allStatuses.id)).length;
	const body = JSON.stringify({
		event: 'aa_bsa_journey.status_changed',
		client_id: 'aa_0123456789abcdef01234567',
		status: 'analysis_complete',
		previous_status: 'data_fetched',
	});
	const ts = String(Math.floor(Date.now() / 1000));
	const sign = (secret: string, raw: string) =>
		`sha256=${createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')}`;
	const post = (raw: string, signature: string, id: string) =>
		fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-webhook-event': 'aa_bsa_journey.status_changed',
				'x-webhook-id': id,
				'x-webhook-timestamp': ts,
				'x-webhook-signature': signature,
			},
			body: raw,
		});

	const wrongSecret = await post(body, sign('not-the-secret', body), 'forged-1');
	expect(wrongSecret.status).toBe(401);
	expect(await wrongSecret.json()).toMatchObject({ error: 'unauthorized' });

	const altered = await post(
		body.replace('analysis_complete', 'consent_denied'),
		sign('sandbox-webhook-secret', body),
		'forged-2',
	);
	expect(altered.status).toBe(401);

	// control: the same request signed with the real secret is accepted (so the 401s above are about the signature)
	const genuine = await post(body, sign('sandbox-webhook-secret', body), 'genuine-1');
	expect(genuine.status).toBe(200);

	const after = await waitFor(
		async () => {
			const list = await stack.executions(allStatuses.id);
			return list.length > before ? list : undefined;
		},
		{ timeoutMs: 20_000, what: 'the genuine delivery’s execution' },
	);
	await sleep(1500);
	expect((await stack.executions(allStatuses.id)).length).toBe(before + 1); // the genuine one only
	const newest = await stack.execution(after[0].id);
	expect(newest.run.json('FinVerify Trigger')[0]).toMatchObject({ deliveryId: 'genuine-1' });
});

test('credential test (POST /rest/credentials/test): OK for the sandbox credential, an error message for a wrong secret', async () => {
	// what the editor's "Retry"/"Test" does: the stored data (secrets redacted as placeholders) is sent back
	const stored = await stack.rest<{
		data: { data: Record<string, string>; type: string; name: string };
	}>('GET', '/rest/credentials/finVerifySandbox?includeData=true');
	expect(stored.data.type).toBe('finVerifyApi');
	expect(JSON.stringify(stored.data)).not.toMatch(
		/sandbox-secret|sandbox-refresh-token|sandbox-webhook-secret/,
	);
	const ok = await stack.rest('POST', '/rest/credentials/test', {
		credentials: {
			id: 'finVerifySandbox',
			name: stored.data.name,
			type: 'finVerifyApi',
			data: stored.data.data,
		},
	});
	expect(ok.data).toEqual({ status: 'OK', message: expect.any(String) });

	const bad = await stack.rest('POST', '/rest/credentials/test', {
		credentials: {
			id: 'finVerifySandbox',
			name: stored.data.name,
			type: 'finVerifyApi',
			data: { ...stored.data.data, apiSecret: 'a-wrong-secret' },
		},
	});
	expect(bad.data.status).toBe('Error');
	expect(bad.data.message).toMatch(/API key or API secret is wrong/);

	// both tests reached the sandbox: one accepted (404 for the made-up journey), one refused (401)
	const checks = await stack.control.requests('aa-bsa-journey/status');
	expect(checks.slice(-2).map((r) => r.status)).toEqual([404, 401]);
});

test('credential test in the real app: a new Local Simulator credential reaches the sandbox n8n was started with; an answer before the key was checked says so', async () => {
	// the editor hides the overwritten Simulator URL and sends the form without it
	const types = await stack.rest<Array<{ name: string; __overwrittenProperties?: string[] }>>(
		'GET',
		'/types/credentials.json',
	);
	expect(types.find((t) => t.name === 'finVerifyApi')?.__overwrittenProperties).toEqual([
		'sandboxUrl',
	]);
	expect(new URL(stack.control.url).port).not.toBe('4010');
	// saved as the dialog saves it before its Test: without the hidden field
	const data = { environment: 'sandbox', apiKey: 'sandbox-key', apiSecret: 'sandbox-secret' };
	const created = await stack.rest<{ data: { id: string } }>('POST', '/rest/credentials', {
		name: 'My FinVerify',
		type: 'finVerifyApi',
		data,
	});
	const credentials = { id: created.data.id, name: 'My FinVerify', type: 'finVerifyApi', data };
	const before = (await stack.control.requests('aa-bsa-journey/status')).length;
	const ok = await stack.rest('POST', '/rest/credentials/test', { credentials });
	expect(ok.data).toEqual({ status: 'OK', message: expect.any(String) });
	expect((await stack.control.requests('aa-bsa-journey/status')).length).toBe(before + 1);

	await stack.control.fault({ path: 'aa-bsa-journey/status', status: 503, times: 1 });
	const busy = await stack.rest('POST', '/rest/credentials/test', { credentials });
	expect(busy.data).toEqual({
		status: 'Error',
		message:
			'The service failed on its side (UPSTREAM_UNAVAILABLE), so the key and secret were not ' +
			'checked: run Test again later',
	});
});

test('credential test in the real app: a Base URL that would send the key elsewhere or to a wrong path sends nothing and fails', async () => {
	const stored = await stack.rest<{
		data: { data: Record<string, string>; type: string; name: string };
	}>('GET', '/rest/credentials/finVerifySandbox?includeData=true');
	const sandboxHost = new URL(stack.control.url).host;
	const before = (await stack.control.requests()).length;
	for (const baseUrl of [
		`http://${sandboxHost}\r\n@127.0.0.1:9`,
		`http://user:pass@${sandboxHost}`,
		`http://${sandboxHost}?q=1`,
		`http://${sandboxHost}#frag`,
		`http://${sandboxHost}/api/v1/service`,
		`http://${sandboxHost}/api/v1.0/services`,
		// a path the simulator would answer with the "not found" Test expects (issue 33)
		`http://${sandboxHost}/finverify`,
	]) {
		const verdict = await stack.rest('POST', '/rest/credentials/test', {
			credentials: {
				id: 'finVerifySandbox',
				name: stored.data.name,
				type: 'finVerifyApi',
				data: { ...stored.data.data, environment: 'custom', baseUrl },
			},
		});
		expect({ baseUrl, ...verdict.data }).toEqual({
			baseUrl,
			status: 'Error',
			// n8n's credential tester shows the code of a request that could not be built (1.x: axios' message)
			message: stack.runtime.n8nVersion.startsWith('1.') ? 'Invalid URL' : 'ERR_INVALID_URL',
		});
	}
	expect((await stack.control.requests()).length).toBe(before);
});

test('collection-session-wait: Create Session waits and is resumed by the sandbox’s callback to $execution.resumeUrl', async () => {
	const wf = stack.example('collection-session-wait.json');
	const execId = await stack.runManually(wf);
	const waiting = await stack.waitForExecution(execId, {
		until: ['waiting', 'success', 'error', 'crashed'],
	});
	expect(waiting.status).toBe('waiting');
	const [session] = waiting.run.json('Create collection session');
	expect(session).toMatchObject({
		flow: 'itr',
		status: 'created',
		recipientEmail: 'pXXXXXXXXXXX@example.com', // masked by default (Personal Data in Output)
	});

	// the callback URL sent to the service is this execution's resume URL
	const [create] = (await stack.control.requests('collection/session/create')).slice(-1);
	expect(create.body).toMatchObject({
		callback_url: expect.stringMatching(
			new RegExp(`^${stack.url}/webhook-waiting/${execId}(\\?|$)`),
		),
	});
	// the recipient got an e-mail with the hosted link
	const mail = (await stack.control.outbox()).find((m) => m.session_id === session.sessionId);
	expect(mail?.link).toBe(session.hostedUrl);

	await sleep(1000);
	expect((await stack.execution(execId)).status).toBe('waiting'); // nothing resumes it but the callback

	// the recipient completes the session (here through the sandbox's control API; the browser test uses the form)
	await stack.control.setSessionStatus(session.sessionId, 'completed');
	const done = await stack.waitForExecution(execId, { timeoutMs: 30_000 });
	expect(done.status).toBe('success');
	const [outcome] = done.run.json('Session outcome');
	expect(outcome).toMatchObject({
		sessionId: session.sessionId,
		status: 'completed',
		previousStatus: 'created',
		recipientEmail: 'pXXXXXXXXXXX@example.com', // masked by default (Personal Data in Output)
	});
	expect(done.run.json('Continue with the ITR analysis')).toHaveLength(1);
	expect(done.run.nodesRun).not.toContain('Follow up with the recipient');
	const delivery = (await stack.control.webhooks()).find(
		(d) => (d.payload as { session_id?: string }).session_id === session.sessionId,
	);
	expect(delivery).toMatchObject({ status: 'delivered' });
});

test('crm-webhook-respond-then-wait: the CRM’s call is answered with the consent link at once, then the execution waits and resumes once on consent', async () => {
	const url = `${stack.url}/webhook/finverify-bank-statements`;
	const payload = { crmId: 'crm-4711', mobile: '9876543210', name: 'Priya Sharma' };
	// a 404 while n8n is still activating the published workflow starts nothing
	const answer = await waitFor(
		async () => {
			const t0 = Date.now();
			const r = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(payload),
			});
			return r.status === 404 ? undefined : { r, ms: Date.now() - t0 };
		},
		{ timeoutMs: 60_000, what: `the webhook ${url} to be active` },
	);
	expect(answer.r.status).toBe(200);
	const body = (await answer.r.json()) as { clientId: string; journeyUrl: string; status: string };
	expect(body).toEqual({
		clientId: expect.stringMatching(/^aa_/),
		journeyUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
		status: 'initiated',
	});
	log(`the CRM's call was answered with the consent link in ${answer.ms} ms`);

	const waiting = await waitFor(
		async () => {
			const [latest] = await stack.executions(crmRespondThenWait.id);
			return latest?.status === 'waiting' ? latest : undefined;
		},
		{ timeoutMs: 30_000, what: 'the execution to wait at Wait for Journey' },
	);
	// the customer opens the link and approves
	const page = await (await fetch(body.journeyUrl)).text();
	const action = /<form method="post" action="([^"]*\/approve)"/.exec(page)?.[1];
	expect(action).toBeDefined();
	const approve = await fetch(new URL(action!, body.journeyUrl), {
		method: 'POST',
		redirect: 'manual',
	});
	expect(approve.status).toBeLessThan(400);

	const done = await stack.waitForExecution(String(waiting.id), { timeoutMs: 60_000 });
	expect(done.status).toBe('success');
	expect(done.run.json('Update the CRM')).toEqual([
		{ crmId: 'crm-4711', clientId: body.clientId, status: 'analysis_complete', timedOut: false },
	]);
	expect(await stack.executionCount(crmRespondThenWait.id)).toBe(1);
});

test('stored executions contain none of the credential’s secrets (REST data and the files on disk)', async () => {
	// run the request-making examples once more in this instance, so their data is stored here too
	for (const file of [
		'company-onboarding.json',
		'http-request-with-credential.json',
		'error-handling.json',
	]) {
		const e = await stack.waitForExecution(await stack.runManually(stack.example(file)));
		expect(e.status).toBe('success');
	}
	const list = await stack.executions();
	expect(list.length).toBeGreaterThanOrEqual(10);
	for (const e of list) {
		const stored = await stack.execution(e.id);
		expect(stored.raw.length).toBeGreaterThan(100);
		for (const secret of SECRETS) {
			if (stored.raw.includes(secret))
				throw new Error(`execution ${e.id} (${e.workflowId}) contains the secret "${secret}"`);
		}
	}
	expect(stack.filesWithSecrets()).toEqual([]);
});
