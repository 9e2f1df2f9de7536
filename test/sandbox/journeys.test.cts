import type { RunningSandbox } from '../../sandbox/server.cjs';
import {
	api,
	call,
	eventually,
	expectContract,
	expectSchema,
	formActions,
	receiver,
	start,
	verifySignature,
	WEBHOOK_SECRET,
} from './helpers.cjs';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await start();
});
afterAll(() => sandbox.close());

const status = async (clientId: string, shape: 'sample' | 'reference' = 'reference') => {
	const reply = await call(sandbox, 'GET', api(`aa-bsa-journey/status?client_id=${clientId}`), {
		shape,
	});
	return shape === 'reference' ? reply.json.data.status : reply.json.status;
};

describe('AA-BSA journey driven over HTTP only', () => {
	it('init → open the consent page → Approve → analysis_complete, with a signed webhook on every change', async () => {
		const hooks = await receiver();
		try {
			const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
				shape: 'reference',
				body: { mobile_number: '9876543210', webhook_url: hooks.url },
			});
			expectContract('journeyInit', init);
			const { client_id: clientId, journey_url: journeyUrl } = init.json.data;
			expect(journeyUrl).toBe(`${sandbox.url}/journey/${clientId}`);
			expect(await status(clientId)).toBe('initiated');

			const page = await fetch(journeyUrl);
			const html = await page.text();
			expect(page.headers.get('content-type')).toMatch(/text\/html/);
			expect(html).toMatch(/<button[^>]*id="approve"[^>]*>Approve<\/button>/);
			expect(formActions(html)).toEqual([
				`/journey/${clientId}/approve`,
				`/journey/${clientId}/deny`,
			]);
			expect(await status(clientId)).toBe('consent_pending');

			const approve = await fetch(`${sandbox.url}${formActions(html)[0]}`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: '',
			});
			expect(approve.status).toBe(200);
			expect(await approve.text()).toMatch(/consent given/i);

			await eventually(async () => (await status(clientId)) === 'analysis_complete');
			const received = await hooks.waitFor(4);
			expect(received.map((r) => [r.body.previous_status, r.body.status])).toEqual([
				['initiated', 'consent_pending'],
				['consent_pending', 'consent_granted'],
				['consent_granted', 'data_fetched'],
				['data_fetched', 'analysis_complete'],
			]);
			for (const r of received) {
				expectSchema('JourneyEvent', r.body);
				expect(verifySignature(WEBHOOK_SECRET, r.headers, r.raw)).toBe(true);
				expect(r.headers['x-webhook-event']).toBe('aa_bsa_journey.status_changed');
				expect(Math.abs(Number(r.headers['x-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
					30,
				);
				// the event id is in the signed body, repeated in the unsigned header
				expect(r.body.id).toBe(r.headers['x-webhook-id']);
				expect(r.body).toEqual({
					id: expect.stringMatching(/^wh_/),
					event: 'aa_bsa_journey.status_changed',
					client_id: clientId,
					status: r.body.status,
					previous_status: expect.any(String),
					updated_at: expect.any(String),
					data: expect.objectContaining({
						client_id: clientId,
						status: r.body.status,
						consent_type: 'loan_underwriting',
					}),
				});
			}
			expect(new Set(received.map((r) => r.headers['x-webhook-id'])).size).toBe(4);
			expect(verifySignature('some-other-secret', received[0].headers, received[0].raw)).toBe(
				false,
			);

			const statement = await call(
				sandbox,
				'GET',
				api(`aa-bsa-journey/statement-result?client_id=${clientId}`),
				{ shape: 'reference' },
			);
			expect(statement.status).toBe(200);
			const account = statement.json.data.accounts[0];
			let balance = account.opening_balance;
			for (const t of account.transactions) {
				balance = Math.round((balance + (t.type === 'CREDIT' ? t.amount : -t.amount)) * 100) / 100;
				expect(t.balance).toBeCloseTo(balance, 2);
			}
			expect(account.closing_balance).toBeCloseTo(balance, 2);
			expect(
				new Set(account.transactions.map((t: { date: string }) => t.date.slice(0, 7))).size,
			).toBeGreaterThanOrEqual(3);
		} finally {
			await hooks.close();
		}
	});

	it('Deny on the consent page ends in consent_denied (webhook in the sample shape) and redirects to redirect_url', async () => {
		const hooks = await receiver();
		try {
			const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
				shape: 'sample',
				body: {
					mobile_number: '9876500000',
					webhook_url: hooks.url,
					redirect_url: 'https://lender.example/after-consent?ref=7',
				},
			});
			const { client_id: clientId, journey_url: journeyUrl } = init.json.data;
			const html = await (await fetch(journeyUrl)).text();
			const deny = await fetch(`${sandbox.url}${formActions(html)[1]}`, {
				method: 'POST',
				redirect: 'manual',
			});
			expect(deny.status).toBe(303);
			const location = new URL(deny.headers.get('location') ?? '');
			expect(`${location.origin}${location.pathname}`).toBe('https://lender.example/after-consent');
			expect(Object.fromEntries(location.searchParams)).toEqual({
				ref: '7',
				client_id: clientId,
				status: 'consent_denied',
			});
			expect(await status(clientId, 'sample')).toBe('consent_denied');

			const received = await hooks.waitFor(2);
			expect(received.map((r) => r.body.status)).toEqual(['consent_pending', 'consent_denied']);
			expect(received[1].body.data).toEqual(
				expect.objectContaining({
					client_id: clientId,
					status: 'consent_denied',
					accounts: [],
					total_accounts: 0,
				}),
			);
			expect(received.every((r) => verifySignature(WEBHOOK_SECRET, r.headers, r.raw))).toBe(true);
			for (const r of received) expectSchema('JourneyEvent', r.body);

			const again = await fetch(`${sandbox.url}/journey/${clientId}/approve`, { method: 'POST' });
			expect(again.status).toBe(409);
			const results = await call(
				sandbox,
				'GET',
				api(`aa-bsa-journey/analysis-json?client_id=${clientId}`),
			);
			expect(results.json.error_code).toBe('JOURNEY_INCOMPLETE');
		} finally {
			await hooks.close();
		}
	});

	it('auto_consent skips the page; the sample shape reports analysis_complete as completed with per-account bsa_status', async () => {
		const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			body: { mobile_number: '9876511111', auto_consent: true },
		});
		const clientId = init.json.data.client_id;
		const done = await eventually(async () => {
			const reply = await call(sandbox, 'GET', api(`aa-bsa-journey/status?client_id=${clientId}`), {
				shape: 'sample',
			});
			return reply.json.status === 'completed' && reply.json;
		});
		expect(done.total_accounts).toBeGreaterThan(0);
		expect(done.completed_accounts).toBe(done.total_accounts);
		expect(done.accounts.every((a: { bsa_status: string }) => a.bsa_status === 'completed')).toBe(
			true,
		);
		const analysis = await call(
			sandbox,
			'GET',
			api(`aa-bsa-journey/analysis-json?client_id=${clientId}`),
			{ shape: 'sample' },
		);
		const card = analysis.json.data.accounts[0].analysis_json;
		expect(card.health_score.score).toBeGreaterThanOrEqual(0);
		expect(Object.keys(card.summary_card.mode_breakdown)).toEqual(
			expect.arrayContaining(['UPI', 'NEFT', 'NACH']),
		);
		const jsonLink = (
			await call(sandbox, 'GET', api(`aa-bsa-journey/statement-result?client_id=${clientId}`))
		).json.data.accounts[0].analysis_json_url;
		const fromLink = await (await fetch(jsonLink)).json();
		expect(fromLink).toEqual(card);
	});

	it('mobile 9000000500 fails while fetching bank data (failed, failed_at_stage data_fetch)', async () => {
		const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			body: { mobile_number: '9000000500', auto_consent: true },
		});
		const clientId = init.json.data.client_id;
		const failed = await eventually(async () => {
			const reply = await call(sandbox, 'GET', api(`aa-bsa-journey/status?client_id=${clientId}`), {
				shape: 'sample',
			});
			return reply.json.status === 'failed' && reply.json;
		});
		expect(failed).toEqual(
			expect.objectContaining({ failed_at_stage: 'data_fetch', error_message: expect.any(String) }),
		);
		expect(failed.failed_accounts).toBe(failed.total_accounts);
	});

	it('the control API advances a journey step by step and rejects advancing a finished one', async () => {
		const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			body: { mobile_number: '9876522222' },
		});
		const clientId = init.json.data.client_id;
		const advance = (body: object = {}) =>
			call(sandbox, 'POST', `/__sandbox/journeys/${clientId}/advance`, { auth: false, body });
		expect((await advance()).json).toEqual({ client_id: clientId, status: 'consent_pending' });
		expect((await advance({ to: 'completed' })).json.status).toBe('analysis_complete');
		expect((await advance()).status).toBe(409);
		expect((await advance({ to: 'nonsense' })).status).toBe(400);
		expect(
			(
				await call(sandbox, 'POST', '/__sandbox/journeys/aa_nope/advance', {
					auth: false,
					body: {},
				})
			).status,
		).toBe(404);
	});

	it('a journey that is not consented in time expires', async () => {
		const short = await start({ journeyTtlMs: 100 });
		try {
			const init = await call(short, 'POST', api('aa-bsa-journey/init'), {
				body: { mobile_number: '9876533333' },
			});
			const clientId = init.json.data.client_id;
			await eventually(
				async () =>
					(
						await call(short, 'GET', api(`aa-bsa-journey/status?client_id=${clientId}`), {
							shape: 'reference',
						})
					).json.data.status === 'expired',
			);
			const page = await fetch(`${short.url}/journey/${clientId}`);
			expect(page.status).toBe(410);
			expect(await page.text()).not.toMatch(/id="approve"/);
		} finally {
			await short.close();
		}
	});
});
