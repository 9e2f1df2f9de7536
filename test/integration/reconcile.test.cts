/**
 * Reconciling waiting executions (issue 44) through n8n-core's real engine, with waiting executions served the
 * way the n8n app serves them (test/harness/waiting.cts): a POST on the resume URL with `X-FinVerify-Reconcile:
 * true` makes the waiting node look its journeys up at the sandbox and resume only when all are final, with the
 * service's statuses (the request's body claims nothing). The sandbox withholds its callbacks (lost), then sends
 * them late: a late callback never resumes twice. Also: a node at version 1 keeps the cap of resumes under way, a
 * node at version 3 is never refused for capacity.
 */
import type { IDataObject } from 'n8n-workflow';

import { RECONCILE_HEADER, RECONCILE_SPACING_MS } from '../../nodes/FinVerify/completion/reconcile';
import {
	recordResume,
	RESUME_CAPACITY,
	resumeRecordCount,
} from '../../nodes/FinVerify/completion/resumesUnderWay';
import { CREDENTIAL_CHECK } from '../../nodes/shared/constants';
import { nodeWorkflow } from '../harness/index.cjs';
import type { WaitingStack } from './support.cjs';
import { signedCallback, withWaitingExecutions } from './support.cjs';
let sandbox: WaitingStack['sandbox'];
let waiting: WaitingStack['waiting'];
withWaitingExecutions((started) => ({ sandbox, waiting } = started));

afterEach(async () => {
	await sandbox.control.releaseWebhooks();
});

const journeyStart = (parameters: IDataObject = {}, items: IDataObject[] = [{}]) =>
	nodeWorkflow({
		parameters: {
			resource: 'bankStatementJourney',
			operation: 'start',
			mobileNumber: '={{ $json.mobile ?? "9876543210" }}',
			consentType: 'loanUnderwriting',
			waitForCompletion: 'callback',
			...parameters,
		},
		items,
	});

const startWaiting = async (wf: ReturnType<typeof journeyStart>) => {
	const first = await waiting.run(wf);
	expect(first.error).toBeUndefined();
	expect(waiting.status(first.executionId)).toBe('waiting');
	return first;
};

/** A reconcile request: the header, and a body that claims a final status (which must be ignored). */
const reconcile = (url: string, claim: IDataObject = { status: 'analysis_complete' }) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', [RECONCILE_HEADER]: 'true' },
		body: JSON.stringify(claim),
	});

/** The journey status requests the node sent (not the credential check). */
const statusLookups = async () =>
	(await sandbox.control.requests('aa-bsa-journey/status')).filter(
		(r) => (r.query as IDataObject | undefined)?.client_id !== CREDENTIAL_CHECK.clientId,
	);

describe('a reconcile request on the resume URL', () => {
	test('journeys final at the service, callbacks lost: resumed once with the looked-up statuses; the late callbacks get 409, never a second resume', async () => {
		await sandbox.control.holdWebhooks();
		const first = await startWaiting(
			journeyStart({}, [{ mobile: '9876543210' }, { mobile: '9876543211' }]),
		);
		const id = first.executionId;
		const [a, b] = first.json('FinVerify').map((j) => String(j.clientId));
		await sandbox.control.advanceJourney(a, 'analysis_complete');
		await sandbox.control.advanceJourney(b, 'consent_denied');
		expect(waiting.status(id)).toBe('waiting'); // nothing was delivered

		const answer = await reconcile(waiting.resumeUrl(id));
		expect(answer.status).toBe(200);
		const done = await waiting.finished(id);
		expect(
			done
				.output('FinVerify')
				.map((item) => [item.json.clientId, item.json.status, item.pairedItem]),
		).toEqual([
			[a, 'analysis_complete', { item: 0 }],
			[b, 'consent_denied', { item: 1 }],
		]);
		const [json] = done.json('FinVerify');
		expect(json).toMatchObject({ isFinal: true, isSuccessful: true, timedOut: false });
		expect(json.statusLookup).toMatchObject({ status: 'analysis_complete' });
		expect(await statusLookups()).toHaveLength(2); // each journey once

		// the service's callbacks come late: n8n answers 409 "has finished already", nothing resumes again
		await sandbox.control.releaseWebhooks();
		const late = [
			...(await sandbox.control.settledDeliveries(1, a)),
			...(await sandbox.control.settledDeliveries(1, b)),
		];
		expect(late.length).toBeGreaterThanOrEqual(2);
		const finals = late.filter((d) =>
			['analysis_complete', 'consent_denied'].includes(String(d.payload.status)),
		);
		expect(finals).toHaveLength(2);
		for (const delivery of finals) {
			expect(delivery).toMatchObject({ status: 'delivered', outcome: 'finished' });
			expect(delivery.attempts.map((x) => x.status)).toEqual([409]);
		}
		expect(waiting.legs(id)).toHaveLength(2); // waiting, then resumed once
		expect((await reconcile(waiting.resumeUrl(id))).status).toBe(409);
	});

	test('a journey not final yet: answered 200 with what is pending, the body’s claim ignored; the execution keeps waiting; requests within 5 s are 429 without a lookup', async () => {
		await sandbox.control.holdWebhooks();
		const first = await startWaiting(journeyStart());
		const id = first.executionId;
		const clientId = String(first.json('FinVerify')[0].clientId);

		const t0 = Date.now();
		const answer = await reconcile(waiting.resumeUrl(id));
		expect(answer.status).toBe(200);
		expect(await answer.json()).toEqual({
			reconciled: false,
			reason: 'not_final',
			message: expect.stringContaining('not final'),
			pending: [{ clientId, status: expect.any(String) }],
		});
		expect(waiting.status(id)).toBe('waiting');
		expect(await statusLookups()).toHaveLength(1);

		// three more requests: each one either waits its turn (429, no lookup) or, when 5 s have passed on a stalled
		// machine, looks up once more
		let lookups = 1;
		const statuses: number[] = [];
		for (let i = 0; i < 3; i++) {
			const again = await reconcile(waiting.resumeUrl(id));
			statuses.push(again.status);
			if (again.status === 429) {
				const retryAfter = Number(again.headers.get('retry-after'));
				expect(retryAfter).toBeGreaterThanOrEqual(1);
				expect(retryAfter).toBeLessThanOrEqual(RECONCILE_SPACING_MS / 1000);
				expect(await again.json()).toMatchObject({ error: 'too_soon' });
			} else {
				expect(again.status).toBe(200);
				lookups++;
			}
			expect(await statusLookups()).toHaveLength(lookups);
		}
		if (Date.now() - t0 < RECONCILE_SPACING_MS) expect(statuses).toEqual([429, 429, 429]);
		expect(waiting.status(id)).toBe('waiting');
		expect(waiting.legs(id)).toHaveLength(1);
	});

	test('without the resume URL’s token n8n refuses it before the node (401): nothing looked up', async () => {
		const first = await startWaiting(journeyStart());
		const answer = await reconcile(waiting.resumeUrl(first.executionId).split('?')[0]);
		expect(answer.status).toBe(401);
		expect(await statusLookups()).toHaveLength(0);
		expect(waiting.status(first.executionId)).toBe('waiting');
	});

	test('a collection session (no status lookup at the service): answered 200 no_status_lookup, nothing sent, still waiting', async () => {
		const first = await startWaiting(
			nodeWorkflow({
				parameters: {
					resource: 'collectionSession',
					operation: 'create',
					flow: 'itr',
					recipientEmail: 'priya.sharma@example.com',
					redirectUrl: 'https://example.com/thank-you',
					waitForCompletion: 'callback',
				},
				items: [{}],
			}),
		);
		const before = (await sandbox.control.requests()).length;
		const answer = await reconcile(waiting.resumeUrl(first.executionId));
		expect(answer.status).toBe(200);
		expect(await answer.json()).toMatchObject({ reconciled: false, reason: 'no_status_lookup' });
		expect((await sandbox.control.requests()).length).toBe(before);
		expect(waiting.status(first.executionId)).toBe('waiting');
	});
});

describe('the cap of resumes under way (RESUME_CAPACITY) by node version', () => {
	test('at capacity, a final callback of a version 1 node is refused 503 busy (the reconciler resumes it later); a version 3 node resumes', async () => {
		const atVersion = async (typeVersion: number) => {
			const wf = journeyStart();
			wf.nodes[1].typeVersion = typeVersion;
			const first = await startWaiting(wf);
			const clientId = String(first.json('FinVerify')[0].clientId);
			await sandbox.control.advanceJourney(clientId, 'analysis_complete');
			return { id: first.executionId, clientId };
		};
		await sandbox.control.holdWebhooks();
		const v1 = await atVersion(1);
		const v3 = await atVersion(3);
		const final = (clientId: string) => ({
			event: 'aa_bsa_journey.status_changed',
			client_id: clientId,
			status: 'analysis_complete',
		});
		const ends = Array.from({ length: RESUME_CAPACITY }, (_, i) =>
			recordResume(`capacity-${i}`, Date.now()),
		);
		try {
			expect(resumeRecordCount()).toBeGreaterThanOrEqual(RESUME_CAPACITY);
			const refused = await fetch(waiting.resumeUrl(v1.id), signedCallback(final(v1.clientId)));
			expect(refused.status).toBe(503);
			expect(await refused.json()).toMatchObject({ error: 'busy' });
			expect(waiting.status(v1.id)).toBe('waiting');

			const taken = await fetch(waiting.resumeUrl(v3.id), signedCallback(final(v3.clientId)));
			expect(taken.status).toBe(200);
			expect((await waiting.finished(v3.id)).json('FinVerify')[0]).toMatchObject({
				clientId: v3.clientId,
				status: 'analysis_complete',
			});
		} finally {
			for (const end of ends) end();
		}
		// with places free again, the reconciler resumes the version 1 execution the sender gave up on
		expect((await reconcile(waiting.resumeUrl(v1.id))).status).toBe(200);
		expect((await waiting.finished(v1.id)).json('FinVerify')[0]).toMatchObject({
			clientId: v1.clientId,
			status: 'analysis_complete',
		});
	});
});
