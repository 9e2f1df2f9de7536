/**
 * Wait for Completion through n8n-core's real engine, with waiting executions served the way the n8n app
 * serves them (test/harness/waiting.cts): the sandbox's own signed callbacks call the execution's resume
 * URL. Covers the webhook() decisions (intermediate → 200 and keep waiting, final → resume once, forged
 * or stale → 401 and no resume), the time limit, several items, and the polling mode.
 */
import type { IDataObject } from 'n8n-workflow';
import { WorkflowExpression } from 'n8n-workflow';

import {
	RESUME_RETRY_AFTER_S,
	resumeRecordCount,
} from '../../nodes/FinVerify/completion/resumesUnderWay';
import { CREDENTIAL_CHECK } from '../../nodes/shared/constants';
import { nodeWorkflow, sandboxCredentials } from '../harness/index.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import type { WaitingStack } from './support.cjs';
import { advanceClockAfterRequest, signedCallback, withWaitingExecutions } from './support.cjs';

let engine: WaitingStack['engine'];
let sandbox: WaitingStack['sandbox'];
let waiting: WaitingStack['waiting'];
withWaitingExecutions((started) => ({ engine, sandbox, waiting } = started));

const journeyStart = (
	parameters: IDataObject = {},
	items: IDataObject[] = [{}],
	onError?: 'continueErrorOutput',
) =>
	nodeWorkflow({
		parameters: {
			resource: 'bankStatementJourney',
			operation: 'start',
			mobileNumber: '9876543210',
			consentType: 'loanUnderwriting',
			waitForCompletion: 'callback',
			...parameters,
		},
		items,
		onError,
	});

const sessionCreate = (parameters: IDataObject = {}, items: IDataObject[] = [{}]) =>
	nodeWorkflow({
		parameters: {
			resource: 'collectionSession',
			operation: 'create',
			flow: 'itr',
			recipientEmail: 'priya.sharma@example.com',
			redirectUrl: 'https://example.com/thank-you',
			waitForCompletion: 'callback',
			...parameters,
		},
		items,
	});

const startWaiting = async (wf: WorkflowJson) => {
	const first = await waiting.run(wf);
	expect(first.error).toBeUndefined();
	expect(waiting.status(first.executionId)).toBe('waiting');
	return first;
};

/** A Start Journey execution waiting on its callback: its id, journey, final callback body and resume URL. */
const waitingJourney = async () => {
	const first = await startWaiting(journeyStart());
	const id = first.executionId;
	const clientId = String(first.json('FinVerify')[0].clientId);
	const final = {
		event: 'aa_bsa_journey.status_changed',
		client_id: clientId,
		status: 'analysis_complete',
	};
	return { id, clientId, final, url: waiting.resumeUrl(id) };
};

describe('Start Journey, Wait for Completion until the service calls back', () => {
	test('waits while the journey walks through intermediate states, then resumes once with the final result; no polling', async () => {
		const first = await startWaiting(journeyStart());
		const id = first.executionId;
		const [shown] = first.json('FinVerify');
		const clientId = String(shown.clientId);
		expect(shown.status).toBe('initiated');
		// about 24 hours by default
		const waitMs = waiting.waitTill(id)!.getTime() - Date.now();
		expect(waitMs).toBeGreaterThan(23.9 * 3600_000);
		expect(waitMs).toBeLessThanOrEqual(24 * 3600_000);

		// the service was given the resume URL, n8n's token included
		const init = (await sandbox.control.requests('aa-bsa-journey/init'))[0];
		expect(JSON.stringify(init)).toContain(`signature=`);

		await sandbox.control.advanceJourney(clientId, 'consent_pending');
		const [pending] = await sandbox.control.settledDeliveries(1, clientId);
		expect(pending.url).toBe(waiting.resumeUrl(id));
		expect(pending.attempts.map((a) => a.status)).toEqual([200]);
		expect(waiting.status(id)).toBe('waiting');
		// after consent the sandbox walks on by itself: data_fetched, then analysis_complete
		await sandbox.control.advanceJourney(clientId, 'consent_granted');
		const list = await sandbox.control.settledDeliveries(4, clientId);
		expect(list.map((d) => [d.payload.status, d.attempts.map((a) => a.status)])).toEqual([
			['consent_pending', [200]],
			['consent_granted', [200]],
			['data_fetched', [200]],
			['analysis_complete', [200]],
		]);
		const done = await waiting.finished(id);
		expect(done.error).toBeUndefined();
		expect(done.json('FinVerify')).toEqual([
			expect.objectContaining({
				clientId,
				status: 'analysis_complete',
				previousStatus: 'data_fetched',
				isFinal: true,
				isSuccessful: true,
				timedOut: false,
				journeyUrl: shown.journeyUrl,
			}),
		]);
		expect(done.output('FinVerify')[0].pairedItem).toEqual({ item: 0 });
		expect(
			waiting.calls.filter((c) => c.executionId === id).map((c) => [c.status, c.resumed]),
		).toEqual([
			[200, false],
			[200, false],
			[200, false],
			[200, true],
		]);
		expect(await sandbox.control.requests('aa-bsa-journey/status')).toHaveLength(0);
		expect(waiting.legs(id)).toHaveLength(2);
	});

	test('a final status other than success resumes too (consent denied)', async () => {
		const first = await startWaiting(journeyStart());
		const clientId = String(first.json('FinVerify')[0].clientId);
		await sandbox.control.advanceJourney(clientId, 'consent_pending');
		await sandbox.control.advanceJourney(clientId, 'consent_denied');
		const done = await waiting.finished(first.executionId);
		expect(done.json('FinVerify')[0]).toMatchObject({
			status: 'consent_denied',
			isFinal: true,
			isSuccessful: false,
		});
	});

	test('forged, stale and token-less callbacks do not resume; the real final callback still does', async () => {
		const { id, clientId, final, url } = await waitingJourney();

		const forged = await fetch(url, signedCallback(final, 'not-the-secret'));
		expect(forged.status).toBe(401);
		expect(await forged.json()).toMatchObject({ reason: 'signature_mismatch' });

		const stale = await fetch(
			url,
			signedCallback(final, undefined, Math.floor(Date.now() / 1000) - 301),
		);
		expect(stale.status).toBe(401);
		expect(await stale.json()).toMatchObject({ reason: 'stale_timestamp' });

		const unsigned = await fetch(url, {
			...signedCallback(final),
			headers: { 'content-type': 'application/json' },
		});
		expect(unsigned.status).toBe(401);

		const noToken = await fetch(url.split('?')[0], signedCallback(final));
		expect(noToken.status).toBe(401);
		const wrongToken = await fetch(
			url.replace(/signature=[^&]+/, 'signature=forged'),
			signedCallback(final),
		);
		expect(wrongToken.status).toBe(401);

		expect(waiting.status(id)).toBe('waiting');
		expect(waiting.legs(id)).toHaveLength(1);

		const otherJourney = await fetch(
			url,
			signedCallback({ ...final, client_id: 'aa_someone_else' }),
		);
		expect(otherJourney.status).toBe(200);
		expect(await otherJourney.json()).toMatchObject({ ignored: true });
		expect(waiting.status(id)).toBe('waiting');

		await sandbox.control.advanceJourney(clientId, 'analysis_complete');
		const done = await waiting.finished(id);
		expect(done.json('FinVerify')[0]).toMatchObject({ clientId, status: 'analysis_complete' });
	});

	test('a callback while the resume of its execution waits in the concurrency queue is answered 503 with Retry-After, not queued again; the execution resumes once', async () => {
		const { id, clientId, final, url } = await waitingJourney();
		const release = waiting.holdResumes();
		const resuming = fetch(url, signedCallback(final));
		// the first callback's resume is queued: the execution still waits, its caller has no answer yet
		while (resumeRecordCount() === 0) await new Promise((r) => setTimeout(r, 20));
		expect(waiting.status(id)).toBe('waiting');
		const again = await fetch(url, signedCallback(final));
		expect(again.status).toBe(503);
		expect(again.headers.get('retry-after')).toBe(String(RESUME_RETRY_AFTER_S));
		expect(await again.json()).toMatchObject({ error: 'resume_under_way' });
		release();
		expect((await resuming).status).toBe(200);
		const done = await waiting.finished(id);
		expect(done.json('FinVerify')).toHaveLength(1);
		expect(done.json('FinVerify')[0]).toMatchObject({ clientId, status: 'analysis_complete' });
		expect(waiting.legs(id)).toHaveLength(2); // waiting, then resumed once
		// later retries get n8n's 409 for a finished execution
		const late = await fetch(url, signedCallback(final));
		expect(late.status).toBe(409);
	});

	test('Fetch Results When Complete adds the statement result and the analysis', async () => {
		const first = await startWaiting(journeyStart({ waitOptions: { fetchResults: true } }));
		const clientId = String(first.json('FinVerify')[0].clientId);
		await sandbox.control.advanceJourney(clientId, 'analysis_complete');
		const done = await waiting.finished(first.executionId);
		const [json] = done.json('FinVerify');
		expect(json.statementResult).toBeDefined();
		expect(json.analysis).toBeDefined();
		expect(json.fetchError).toBeUndefined();
	});

	test('version 2: the results it resumes with have their personal data masked (Masked default), or not (Full)', async () => {
		const atVersion2 = (parameters: IDataObject) => {
			const wf = journeyStart({ waitOptions: { fetchResults: true }, ...parameters });
			wf.nodes[1].typeVersion = 2;
			return wf;
		};
		/** The account holder's phone numbers and e-mail addresses in the resumed output. */
		const contacts = async (wf: WorkflowJson) => {
			const first = await startWaiting(wf);
			const clientId = String(first.json('FinVerify')[0].clientId);
			await sandbox.control.advanceJourney(clientId, 'analysis_complete');
			const done = await waiting.finished(first.executionId);
			const text = JSON.stringify(done.json('FinVerify'));
			const values = (key: string) =>
				[...text.matchAll(new RegExp(`"${key}":"([^"]*)"`, 'g'))].map((m) => m[1]);
			return { phones: values('phone'), emails: values('email') };
		};
		const masked = await contacts(atVersion2({}));
		expect(masked.phones).toContain('XXXXXX3210');
		expect(masked.emails.length).toBeGreaterThan(0);
		for (const email of masked.emails) expect(email).toMatch(/^[a-z]X+@/i);
		const full = await contacts(atVersion2({ personalData: 'full' }));
		expect(full.phones).toContain('9876543210');
		for (const email of full.emails) expect(email).not.toMatch(/X{3}/);
	});

	test('time limit, Return Last Status: the item says timedOut and the last known status', async () => {
		const first = await startWaiting(
			journeyStart({
				waitOptions: { waitAmount: 2, waitUnit: 'minutes', onTimeout: 'returnLastStatus' },
			}),
		);
		const waitMs = waiting.waitTill(first.executionId)!.getTime() - Date.now();
		expect(waitMs).toBeGreaterThan(110_000);
		expect(waitMs).toBeLessThanOrEqual(120_000);
		const done = await waiting.timeOut(first.executionId);
		expect(done.error).toBeUndefined();
		const [json] = done.json('FinVerify');
		expect(json).toMatchObject({
			clientId: first.json('FinVerify')[0].clientId,
			status: 'initiated',
			isFinal: false,
			timedOut: true,
		});
		expect(done.output('FinVerify')[0].pairedItem).toEqual({ item: 0 });
		expect(waiting.status(first.executionId)).toBe('success');
	});

	test('time limit, Fail: an error item naming the last known status (error output)', async () => {
		const first = await startWaiting(
			journeyStart(
				{ waitOptions: { waitAmount: 1, waitUnit: 'hours' } },
				[{}],
				'continueErrorOutput',
			),
		);
		const clientId = first.json('FinVerify')[0].clientId;
		const done = await waiting.timeOut(first.executionId);
		expect(done.json('FinVerify', 0)).toEqual([]);
		const [errorItem] = done.json('FinVerify', 1);
		expect(errorItem.message).toBe(
			`Journey ${clientId} did not reach a final status within 1 hour (last known status: initiated)`,
		);
		expect(errorItem.error).toMatchObject({
			code: 'WAIT_TIMED_OUT',
			details: { timedOut: true, status: 'initiated' },
		});
	});

	test('two items: each waits for its own journey; the execution resumes once, when both are final', async () => {
		const first = await startWaiting(
			journeyStart({ mobileNumber: '={{ $json.mobile }}' }, [
				{ mobile: '9876543210' },
				{ mobile: '9876543211' },
			]),
		);
		const id = first.executionId;
		const [a, b] = first.json('FinVerify').map((j) => String(j.clientId));
		expect(a).not.toBe(b);

		await sandbox.control.advanceJourney(b, 'analysis_complete');
		const [bFinal] = await sandbox.control.settledDeliveries(1, b);
		expect(bFinal.attempts.map((x) => x.status)).toEqual([200]);
		expect(waiting.status(id)).toBe('waiting');

		await sandbox.control.advanceJourney(a, 'consent_pending');
		await sandbox.control.settledDeliveries(1, a);
		expect(waiting.status(id)).toBe('waiting');
		await sandbox.control.advanceJourney(a, 'expired');
		const done = await waiting.finished(id);
		const output = done.output('FinVerify');
		expect(output.map((item) => [item.json.clientId, item.json.status, item.pairedItem])).toEqual([
			[a, 'expired', { item: 0 }],
			[b, 'analysis_complete', { item: 1 }],
		]);
		// one status lookup per other journey, when a journey finished: b finished first (a not final), then a
		// (not counting the node's credential check, sent when the first start took over half a second)
		const lookups = (await sandbox.control.requests('aa-bsa-journey/status')).filter(
			(r) => (r.query as IDataObject | undefined)?.client_id !== CREDENTIAL_CHECK.clientId,
		);
		expect(lookups).toHaveLength(2);
		expect(waiting.legs(id)).toHaveLength(2);
	});

	test('callbacks evaluate no expression: the waiting items are read as n8n stored them (also under Binary Mode: combined)', async () => {
		const wf = journeyStart({ mobileNumber: '={{ $json.mobile }}' }, [
			{ mobile: '9876543210' },
			{ mobile: '9876543211' },
		]);
		// `$input.all()` gives the json of each item without its pairedItem in this mode
		wf.settings = { ...wf.settings, binaryMode: 'combined' };
		const first = await startWaiting(wf);
		const id = first.executionId;
		const [a, b] = first.json('FinVerify').map((j) => String(j.clientId));

		// every expression n8n evaluates goes through here (a plain value passes through unevaluated)
		const resolve = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
		const expressions = () =>
			resolve.mock.calls.filter(([value]) => typeof value === 'string' && value.startsWith('='));
		try {
			// an intermediate status, a callback about another journey, a final status while the other
			// journey still runs: three answers from webhook(), none resumes
			await sandbox.control.advanceJourney(a, 'consent_pending');
			expect(
				(await sandbox.control.settledDeliveries(1, a))[0].attempts.map((x) => x.status),
			).toEqual([200]);
			const other = await fetch(
				waiting.resumeUrl(id),
				signedCallback({
					event: 'aa_bsa_journey.status_changed',
					client_id: 'aa_other',
					status: 'expired',
				}),
			);
			expect(await other.json()).toMatchObject({ ignored: true });
			await sandbox.control.advanceJourney(b, 'analysis_complete');
			expect(
				(await sandbox.control.settledDeliveries(1, b))[0].attempts.map((x) => x.status),
			).toEqual([200]);
			expect(waiting.status(id)).toBe('waiting');
			expect(expressions()).toEqual([]);
		} finally {
			resolve.mockRestore();
		}

		await sandbox.control.advanceJourney(a, 'expired');
		const done = await waiting.finished(id);
		expect(done.error).toBeUndefined();
		expect(
			done
				.output('FinVerify')
				.map((item) => [item.json.clientId, item.json.status, item.pairedItem]),
		).toEqual([
			[a, 'expired', { item: 0 }],
			[b, 'analysis_complete', { item: 1 }],
		]);
	});

	test('an item with its own Webhook URL does not wait: its journey reports there, the other item waits for its own', async () => {
		// the own URL is on loopback and closed: nothing leaves the machine if the sandbox calls it
		const ownHook = 'http://127.0.0.1:9/own-hook';
		const first = await startWaiting(
			journeyStart(
				{
					mobileNumber: '={{ $json.mobile }}',
					additionalFields: { webhookUrl: '={{ $json.hook }}' },
				},
				[
					{ mobile: '9876543210', hook: ownHook },
					{ mobile: '9876543211', hook: '' },
				],
			),
		);
		const id = first.executionId;
		const [a, b] = first.json('FinVerify').map((j) => String(j.clientId));
		const sent = (await sandbox.control.requests('aa-bsa-journey/init')).map(
			(r) => (r.body as IDataObject).webhook_url,
		);
		expect(sent[0]).toBe(ownHook);
		expect(String(sent[1])).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
		expect(sent[1]).not.toBe(ownHook);

		await sandbox.control.advanceJourney(b, 'analysis_complete');
		const done = await waiting.finished(id);
		expect(done.output('FinVerify').map((item) => [item.json.clientId, item.json.status])).toEqual([
			[a, 'initiated'],
			[b, 'analysis_complete'],
		]);
	});

	test('a status lookup that fails is answered 503 and the execution keeps waiting; the redelivery is handled', async () => {
		const first = await startWaiting(
			journeyStart({ mobileNumber: '={{ $json.mobile }}' }, [
				{ mobile: '9876543210' },
				{ mobile: '9876543211' },
			]),
		);
		const id = first.executionId;
		const [a, b] = first.json('FinVerify').map((j) => String(j.clientId));
		await sandbox.control.fault({ path: 'aa-bsa-journey/status', status: 500, times: 3 });
		await sandbox.control.advanceJourney(a, 'analysis_complete');
		// first delivery: the lookup of b fails (500 three times) → 503; the sandbox delivers again → 200
		const [delivery] = await sandbox.control.settledDeliveries(1, a);
		expect(delivery.attempts.map((x) => x.status)).toEqual([503, 200]);
		expect(waiting.status(id)).toBe('waiting');
		await sandbox.control.advanceJourney(b, 'analysis_complete');
		const done = await waiting.finished(id);
		expect(done.error).toBeUndefined();
		expect(done.json('FinVerify').map((j) => j.status)).toEqual([
			'analysis_complete',
			'analysis_complete',
		]);
	});

	test('an item with its own Webhook URL does not wait', async () => {
		const result = await waiting.run(
			journeyStart({ additionalFields: { webhookUrl: 'http://127.0.0.1:9/elsewhere' } }),
		);
		expect(waiting.status(result.executionId)).toBe('success');
		expect(result.json('FinVerify')[0].status).toBe('initiated');
	});

	test('without the webhook signing secret nothing is started', async () => {
		engine.setCredentials(sandboxCredentials(sandbox.url, { webhookSecret: '' }));
		const result = await waiting.run(journeyStart());
		expect(result.error?.message).toBe(
			'Start Journey with Wait for Completion "Until the Service Calls Back" needs the Webhook Signing Secret of the FinVerify API credential',
		);
		expect(await sandbox.control.requests('aa-bsa-journey/init')).toHaveLength(0);
	});
});

describe('Create Session, Wait for Completion until the service calls back', () => {
	test('resumes when the recipient completes, with the session data from the callback', async () => {
		const first = await startWaiting(sessionCreate());
		const sessionId = String(first.json('FinVerify')[0].sessionId);
		await sandbox.control.setSessionStatus(sessionId, 'completed');
		const done = await waiting.finished(first.executionId);
		expect(done.json('FinVerify')[0]).toMatchObject({
			sessionId,
			status: 'completed',
			previousStatus: 'created',
			isFinal: true,
			isSuccessful: true,
		});
	});

	test('several items are refused before any session is created', async () => {
		const result = await waiting.run(sessionCreate({}, [{}, {}]));
		expect(result.error?.message).toMatch(/one collection session per execution.*2 items/);
		expect(await sandbox.control.requests('collection/session/create')).toHaveLength(0);
	});
});

describe('Start Journey, Wait for Completion by polling', () => {
	test('keeps the execution running and polls until final', async () => {
		// the sandbox's clock walks the journey to its end once the first status request found it unfinished
		const result = await advanceClockAfterRequest(
			sandbox.control,
			'aa-bsa-journey/status',
			3 * 50,
			engine.run(
				journeyStart({
					waitForCompletion: 'poll',
					additionalFields: { extraBody: '{"auto_consent": true}' },
					waitOptions: { pollInterval: 5, timeLimit: 30 },
				}),
			),
		);
		expect(result.error).toBeUndefined();
		expect(result.run.waitTill).toBeUndefined();
		expect(result.json('FinVerify')[0]).toMatchObject({
			status: 'analysis_complete',
			isFinal: true,
			timedOut: false,
		});
		expect((await sandbox.control.requests('aa-bsa-journey/status')).length).toBeGreaterThanOrEqual(
			1,
		);
	}, 30_000);
});
