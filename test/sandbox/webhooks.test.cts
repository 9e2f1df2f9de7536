import type { RunningSandbox } from '../../sandbox/server.cjs';
import {
	api,
	call,
	eventually,
	receiver,
	start,
	verifySignature,
	WEBHOOK_SECRET,
} from './helpers.cjs';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await start({ webhookBackoffMs: 30 });
});
afterAll(() => sandbox.close());

const journeyTo = async (url: string) => {
	const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
		body: { mobile_number: '9876544444', webhook_url: url },
	});
	const clientId = init.json.data.client_id;
	await call(sandbox, 'POST', `/__sandbox/journeys/${clientId}/advance`, {
		auth: false,
		body: { to: 'consent_denied' },
	});
	return clientId;
};

describe('webhook delivery', () => {
	it('retries a non-2xx answer with exponential backoff, keeping X-Webhook-Id, re-signing each attempt', async () => {
		const hooks = await receiver([500, 503, 404]);
		try {
			const clientId = await journeyTo(hooks.url);
			const received = await hooks.waitFor(4);
			const ids = new Set(received.map((r) => r.headers['x-webhook-id']));
			expect(ids.size).toBe(1);
			expect(received.every((r) => verifySignature(WEBHOOK_SECRET, r.headers, r.raw))).toBe(true);
			expect(received.every((r) => r.raw === received[0].raw)).toBe(true);

			const deliveries = (await call(sandbox, 'GET', '/__sandbox/webhooks', { auth: false })).json
				.deliveries;
			const delivery = deliveries.find((d: { subject: string }) => d.subject === clientId);
			expect(delivery).toEqual(
				expect.objectContaining({
					id: [...ids][0],
					status: 'delivered',
					event: 'aa_bsa_journey.status_changed',
					url: hooks.url,
				}),
			);
			expect(delivery.attempts.map((a: { status: number }) => a.status)).toEqual([
				500, 503, 404, 200,
			]);
			const gaps = delivery.attempts
				.slice(1)
				.map(
					(a: { at: string }, i: number) => Date.parse(a.at) - Date.parse(delivery.attempts[i].at),
				);
			expect(gaps[1]).toBeGreaterThanOrEqual(55); // 30 ms, then 60 ms, then 120 ms
			expect(gaps[2]).toBeGreaterThanOrEqual(115);
		} finally {
			await hooks.close();
		}
	});

	it('gives up after 5 attempts', async () => {
		const hooks = await receiver([500, 500, 500, 500, 500, 500]);
		try {
			const clientId = await journeyTo(hooks.url);
			await hooks.waitFor(5);
			const delivery = await eventually(async () => {
				const list = (await call(sandbox, 'GET', '/__sandbox/webhooks', { auth: false })).json
					.deliveries;
				const d = list.find((x: { subject: string }) => x.subject === clientId);
				return d?.status === 'failed' && d;
			});
			expect(delivery.attempts).toHaveLength(5);
			await new Promise((r) => setTimeout(r, 300));
			expect(hooks.received).toHaveLength(5);
		} finally {
			await hooks.close();
		}
	});

	it('records unreachable targets as failed attempts with the error', async () => {
		const closed = await receiver();
		await closed.close();
		const clientId = await journeyTo(closed.url);
		const delivery = await eventually(async () => {
			const list = (await call(sandbox, 'GET', '/__sandbox/webhooks', { auth: false })).json
				.deliveries;
			const d = list.find((x: { subject: string }) => x.subject === clientId);
			return d?.status === 'failed' && d;
		}, 8000);
		expect(delivery.attempts[0]).toEqual(
			expect.objectContaining({
				status: null,
				error: expect.stringMatching(/ECONNREFUSED|connect/i),
			}),
		);
	});
});
