import type { RunningSandbox } from '../../sandbox/server.cjs';
import {
	DEFAULT_RETRY_POLICY,
	executionFinished,
	retryAfterMs,
	retryDelayMs,
} from '../../sandbox/webhooks.cjs';
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

describe('retry schedule (a real service: backoff over minutes)', () => {
	it('doubles from the first delay up to the longest, spreading 12 attempts over about 20 minutes', () => {
		const delays = Array.from({ length: DEFAULT_RETRY_POLICY.maxAttempts - 1 }, (_, i) =>
			retryDelayMs(DEFAULT_RETRY_POLICY, i + 1, 0, 0),
		);
		expect(delays).toEqual([
			1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000,
		]);
		const minutes = delays.reduce((a, b) => a + b, 0) / 60_000;
		expect(minutes).toBeGreaterThan(15);
		expect(minutes).toBeLessThan(30);
	});

	it('adds at most 25% jitter and waits out a longer Retry-After, never longer than the longest delay', () => {
		const policy = { backoffMs: 1000, maxBackoffMs: 60_000 };
		expect(retryDelayMs(policy, 1, 0, 1)).toBe(1250);
		expect(retryDelayMs(policy, 1, 0, 0.5)).toBe(1125);
		expect(retryDelayMs(policy, 2, 30_000, 0)).toBe(30_000);
		expect(retryDelayMs(policy, 3, 1000, 0)).toBe(4000);
		expect(retryDelayMs(policy, 1, 3_600_000, 0)).toBe(60_000);
	});

	it('reads Retry-After in seconds or as a date', () => {
		expect(retryAfterMs('7')).toBe(7000);
		expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
		expect(retryAfterMs(null)).toBe(0);
		expect(retryAfterMs('soon')).toBe(0);
	});
});

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
					outcome: 'accepted',
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

	it('withholds every attempt while held (the event stays pending) and delivers it late once released', async () => {
		const hooks = await receiver();
		try {
			await call(sandbox, 'POST', '/__sandbox/webhooks/hold', { auth: false });
			const clientId = await journeyTo(hooks.url);
			const pending = async () =>
				(
					(await call(sandbox, 'GET', '/__sandbox/webhooks', { auth: false })).json.deliveries as {
						subject: string;
						status: string;
						attempts: unknown[];
					}[]
				).find((d) => d.subject === clientId);
			// held: the event is queued, no attempt made, nothing received
			expect(await pending()).toEqual(expect.objectContaining({ status: 'pending', attempts: [] }));
			expect(hooks.received).toHaveLength(0);
			const released = await call(sandbox, 'POST', '/__sandbox/webhooks/release', { auth: false });
			expect(released.json).toEqual({ holding: false });
			const received = await hooks.waitFor(1);
			expect(JSON.parse(received[0].raw).client_id).toBe(clientId);
			const delivered = await eventually(async () => {
				const d = await pending();
				return d?.status === 'delivered' && d;
			});
			expect(delivered.attempts).toHaveLength(1);
		} finally {
			await call(sandbox, 'POST', '/__sandbox/webhooks/release', { auth: false });
			await hooks.close();
		}
	});

	it('gives up after its last attempt (webhookMaxAttempts: 5 here)', async () => {
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
			expect(delivery.outcome).toBeUndefined();
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

/** n8n's 409 answers on a resume URL (n8n 2.41.1 dist/webhooks/waiting-webhooks.js, its missing quote included). */
const n8n409 = (message: string) => ({ status: 409, json: { code: 409, message } });
const FINISHED = n8n409('The execution "41 has finished already.');
const FINISHED_WITH_ERROR = n8n409('The execution "41" has finished with error.');
const RUNNING = n8n409('The execution "41" is running already.');

describe("n8n's 409 for an execution that has finished (the callback's execution no longer waits)", () => {
	it('knows the finished answers of n8n, and nothing else', () => {
		expect(executionFinished(409, FINISHED.json.message)).toBe(true);
		expect(executionFinished(409, FINISHED_WITH_ERROR.json.message)).toBe(true);
		expect(executionFinished(409, RUNNING.json.message)).toBe(false);
		expect(executionFinished(409, 'Conflict')).toBe(false);
		expect(executionFinished(409, undefined)).toBe(false);
		expect(executionFinished(503, FINISHED.json.message)).toBe(false);
		expect(executionFinished(null, FINISHED.json.message)).toBe(false);
	});

	/** The delivery of `clientId` once the sender is done with it. */
	const settledDelivery = (clientId: string) =>
		eventually(async () => {
			const list = (await call(sandbox, 'GET', '/__sandbox/webhooks', { auth: false })).json
				.deliveries;
			const d = list.find((x: { subject: string }) => x.subject === clientId);
			return d && d.status !== 'pending' && d;
		});

	it.each([
		['has finished already', FINISHED],
		['has finished with error', FINISHED_WITH_ERROR],
	])(
		'"%s" ends the delivery at its first attempt: delivered, outcome finished, no retry',
		async (_name, answer) => {
			const hooks = await receiver([answer, 200]);
			try {
				const clientId = await journeyTo(hooks.url);
				const delivery = await settledDelivery(clientId);
				expect(delivery).toMatchObject({ status: 'delivered', outcome: 'finished' });
				expect(delivery.attempts).toHaveLength(1);
				expect(delivery.attempts[0]).toMatchObject({ status: 409, message: answer.json.message });
				// the sender returned without scheduling another attempt
				expect(delivery.attempts[0].nextInMs).toBeUndefined();
				expect(hooks.received).toHaveLength(1);
			} finally {
				await hooks.close();
			}
		},
	);

	it('"is running already" is retried with backoff, like any failure, until n8n says finished', async () => {
		const hooks = await receiver([RUNNING, RUNNING, FINISHED]);
		try {
			const clientId = await journeyTo(hooks.url);
			const delivery = await settledDelivery(clientId);
			expect(delivery).toMatchObject({ status: 'delivered', outcome: 'finished' });
			expect(delivery.attempts.map((a: { status: number }) => a.status)).toEqual([409, 409, 409]);
			expect(delivery.attempts[0].message).toBe(RUNNING.json.message);
			expect(delivery.attempts[0].nextInMs).toBeGreaterThanOrEqual(30);
			expect(delivery.attempts[1].nextInMs).toBeGreaterThanOrEqual(60);
			expect(hooks.received).toHaveLength(3);
		} finally {
			await hooks.close();
		}
	});

	it("another receiver's 409 is a failure: retried, and the answer's message is recorded", async () => {
		const hooks = await receiver([
			{ status: 409, json: { message: 'Conflict' } },
			{ status: 503, json: { code: 503, message: 'Database is not ready!' } },
			409,
		]);
		try {
			const clientId = await journeyTo(hooks.url);
			const delivery = await settledDelivery(clientId);
			expect(delivery).toMatchObject({ status: 'delivered', outcome: 'accepted' });
			expect(
				delivery.attempts.map((a: { status: number; message?: string }) => [a.status, a.message]),
			).toEqual([
				[409, 'Conflict'],
				[503, 'Database is not ready!'],
				[409, 'ok'],
				[200, undefined],
			]);
		} finally {
			await hooks.close();
		}
	});
});
