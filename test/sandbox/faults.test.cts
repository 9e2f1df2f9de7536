import { request } from 'node:http';
import type { RunningSandbox } from '../../sandbox/server.cjs';
import { PATIENCE_MS } from '../harness/patience.cjs';
import { api, call, expectContract, start } from './helpers.cjs';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await start();
});
afterAll(() => sandbox.close());
afterEach(() => call(sandbox, 'DELETE', '/__sandbox/faults', { auth: false }));

const CIN = api('corporate/cin-lookup');
const lookup = () => call(sandbox, 'POST', CIN, { body: { cin: 'L17110MH1973PLC019786' } });
const fault = (body: object) => call(sandbox, 'POST', '/__sandbox/faults', { auth: false, body });

/** Raw request that reports how the connection ended (fetch hides dropped sockets behind a generic error). */
function rawPost(
	path: string,
	timeoutMs: number,
): Promise<{ outcome: 'response' | 'reset' | 'timeout'; status?: number }> {
	return new Promise((resolve) => {
		const url = new URL(path, sandbox.url);
		const req = request(
			url,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-api-key': 'sandbox-key',
					'x-api-secret': 'sandbox-secret',
				},
			},
			(res) => {
				res.resume();
				resolve({ outcome: 'response', status: res.statusCode });
			},
		);
		req.setTimeout(timeoutMs, () => {
			req.destroy();
			resolve({ outcome: 'timeout' });
		});
		req.on('error', () => resolve({ outcome: 'reset' }));
		req.end(JSON.stringify({ cin: 'L17110MH1973PLC019786' }));
	});
}

describe('fault injection', () => {
	it('429 with Retry-After answers in the operation envelope, then clears itself after `times`', async () => {
		expect(
			(await fault({ path: CIN, method: 'post', status: 429, retryAfter: 2, times: 2 })).status,
		).toBe(201);
		for (let i = 0; i < 2; i++) {
			const reply = await lookup();
			expect(reply.status).toBe(429);
			expect(reply.headers.get('retry-after')).toBe('2');
			expect(reply.json).toEqual({
				success: false,
				message: expect.any(String),
				error_code: 'RATE_LIMITED',
			});
			expectContract('cinLookup', reply);
		}
		expect((await lookup()).status).toBe(200);
		expect((await call(sandbox, 'GET', '/__sandbox/faults', { auth: false })).json.faults).toEqual(
			[],
		);
	});

	it('502 with an HTML body', async () => {
		await fault({ path: 'cin-lookup', html: true, times: 1 });
		const reply = await lookup();
		expect(reply.status).toBe(502);
		expect(reply.headers.get('content-type')).toMatch(/text\/html/);
		expect(reply.text).toMatch(/<h1>502 Bad Gateway<\/h1>/);
	});

	it('a malformed JSON body', async () => {
		await fault({ path: CIN, malformed: true, times: 1 });
		const reply = await lookup();
		expect(reply.status).toBe(200);
		expect(reply.headers.get('content-type')).toMatch(/application\/json/);
		expect(() => JSON.parse(reply.text)).toThrow();
	});

	it('a custom body and status', async () => {
		await fault({ path: CIN, status: 200, body: { custom: true }, times: 1 });
		expect((await lookup()).json).toEqual({ custom: true });
	});

	it('drop destroys the connection; the request is still logged', async () => {
		await fault({ path: CIN, drop: true, times: 1 });
		expect(await rawPost(CIN, PATIENCE_MS)).toEqual({ outcome: 'reset' });
		const logged = (
			await call(sandbox, 'GET', `/__sandbox/requests?path=cin-lookup`, { auth: false })
		).json.requests.at(-1);
		expect(logged).toEqual(expect.objectContaining({ path: CIN, fault: 'drop', status: null }));
	});

	it('timeout never answers until the client gives up', async () => {
		await fault({ path: CIN, timeout: true, times: 1 });
		const started = Date.now();
		expect(await rawPost(CIN, 300)).toEqual({ outcome: 'timeout' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		expect((await lookup()).status).toBe(200);
	});

	it('latency delays a normal answer; faults apply per method and before authentication', async () => {
		await fault({ path: CIN, latencyMs: 200, times: 1 });
		const started = Date.now();
		expect((await lookup()).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(190);

		await fault({ path: '/api/v1/services/corporate/*', method: 'GET', status: 503 });
		expect((await lookup()).status).toBe(200);
		await fault({ path: '/api/v1/services/corporate/*', status: 503 });
		const unauthenticated = await call(sandbox, 'POST', CIN, {
			auth: false,
			body: { cin: 'L17110MH1973PLC019786' },
		});
		expect(unauthenticated.status).toBe(503);
		expect(unauthenticated.json.error_code).toBe('UPSTREAM_UNAVAILABLE');
	});

	it('also applies to pages, and unknown paths are logged and answered with 404 variant A', async () => {
		await fault({ path: '/journey/*', status: 503, times: 1 });
		const page = await fetch(`${sandbox.url}/journey/aa_000000000000000000000000`);
		expect(page.status).toBe(503);
		expect((await fetch(`${sandbox.url}/journey/aa_000000000000000000000000`)).status).toBe(404);
		const unknown = await call(sandbox, 'POST', api('gst-analyser/analyze'), { body: {} });
		expect([unknown.status, unknown.json.error_code]).toEqual([404, 'NOT_FOUND']);
		const logged = (
			await call(sandbox, 'GET', '/__sandbox/requests?path=gst-analyser', { auth: false })
		).json.requests;
		expect(logged).toEqual([expect.objectContaining({ method: 'POST', status: 404 })]);
	});

	it('rejects malformed fault definitions', async () => {
		expect((await fault({ status: 500 })).status).toBe(400);
		expect((await fault({ path: CIN })).status).toBe(400);
		expect((await fault({ path: CIN, drop: true, html: true })).status).toBe(400);
		expect((await fault({ path: CIN, status: 'x' })).status).toBe(400);
	});

	it('reset clears faults, state and logs', async () => {
		await fault({ path: CIN, status: 500 });
		await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			body: { mobile_number: '9876543210' },
		});
		expect((await call(sandbox, 'POST', '/__sandbox/reset', { auth: false })).json).toEqual({
			reset: true,
		});
		expect(
			(await call(sandbox, 'GET', '/__sandbox/requests', { auth: false })).json.requests,
		).toEqual([]);
		expect((await lookup()).status).toBe(200);
	});
});
