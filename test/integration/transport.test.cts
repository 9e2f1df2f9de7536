/**
 * Issue #2: the transport through n8n-core's real engine against a scripted loopback server.
 * Credential headers, the five error envelope variants, retries, and secrets never leaking.
 */
import type { IDataObject } from 'n8n-workflow';

import { Engine, nodeWorkflow, startStubServer } from '../harness/index.cjs';
import type { StubServer } from '../harness/index.cjs';

const CIN = 'L17110MH1973PLC019786';
const PATH = '/api/v1/services/corporate/cin-lookup';
/** The credential check the node sends to confirm a refused answer (the credential Test's request). */
const CHECK = '/api/v1/services/aa-bsa-journey/status';
const journeyNotFound = {
	status: 404,
	body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
};
const SECRETS = {
	apiKey: 'key-7f3a9c1e5b2d',
	apiSecret: 'secret-9d8e7f6a5b4c3d2e',
	refreshToken: 'refresh-1a2b3c4d5e6f',
	webhookSecret: 'whsec-0f1e2d3c4b5a',
};
const companyBody = {
	success: true,
	message: 'ok',
	data: { cin: CIN, company_name: 'ACME LIMITED', status: 'Active' },
};

let engine: Engine;
let stub: StubServer;

const cinLookup = (extra: Record<string, unknown> = {}) =>
	nodeWorkflow({
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: CIN },
			requestOptions: { maxRetries: 3 },
			...extra,
		},
	});

const errorOf = (result: Awaited<ReturnType<Engine['run']>>) => {
	expect(result.error).toBeDefined();
	return result.error as unknown as {
		message: string;
		description?: string;
		httpCode?: string;
		errorResponse?: Record<string, unknown>;
		name: string;
	};
};

beforeAll(async () => {
	engine = await Engine.create();
	stub = await startStubServer();
	engine.setCredentials({ finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS } });
});
afterAll(async () => await stub.close());
beforeEach(() => {
	stub.requests.splice(0);
	// the key works: the credential check finds no such journey
	stub.respond(CHECK, journeyNotFound);
});
const sentTo = (path: string) => stub.requests.filter((r) => r.path === path);

test('the credential headers reach the server; the refresh token does not (not a collection call)', async () => {
	stub.respond(PATH, { body: companyBody });
	const result = await engine.run(cinLookup());
	expect(result.error).toBeUndefined();
	expect(result.json('FinVerify')[0]).toMatchObject({
		cin: CIN,
		name: 'ACME LIMITED',
		status: 'Active',
	});
	expect(stub.requests).toHaveLength(1);
	const [request] = stub.requests;
	expect(request.method).toBe('POST');
	expect(request.headers['x-api-key']).toBe(SECRETS.apiKey);
	expect(request.headers['x-api-secret']).toBe(SECRETS.apiSecret);
	expect(request.headers['content-type']).toMatch(/application\/json/);
	expect(request.headers.cookie).toBeUndefined();
	expect(request.body).toEqual({ cin: CIN });
});

test('a base URL given with a trailing /api/v1/services/ is joined once', async () => {
	engine.setCredentials({
		finVerifyApi: { environment: 'custom', baseUrl: `${stub.url}/api/v1/services/`, ...SECRETS },
	});
	try {
		stub.respond(PATH, { body: companyBody });
		const result = await engine.run(cinLookup());
		expect(result.error).toBeUndefined();
		expect(stub.requests.map((r) => r.path)).toEqual([PATH]);
	} finally {
		engine.setCredentials({
			finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS },
		});
	}
});

describe.each([
	[
		'A',
		400,
		{ success: false, message: 'Invalid CIN format', error_code: 'INVALID_INPUT' },
		'Invalid CIN format',
		'INVALID_INPUT',
	],
	[
		'B',
		422,
		{ status: 'error', status_code: 422, message: 'Unprocessable request', request_id: 'req_42' },
		'Unprocessable request',
		'ERROR',
	],
	[
		'C',
		404,
		{ success: false, error: { code: 'EPFO_RECORD_NOT_FOUND', message: 'No member profile' } },
		'No member profile',
		'EPFO_RECORD_NOT_FOUND',
	],
	[
		'D',
		401,
		{ success: false, status_code: 401, message: 'Token expired', message_code: 'unauthorized' },
		'Token expired',
		'unauthorized',
	],
	[
		'E',
		400,
		{ status: 'failed', message: 'PAN is invalid', error_code: 'INVALID_PAN' },
		'PAN is invalid',
		'INVALID_PAN',
	],
])('error variant %s', (_variant, status, body, message, code) => {
	test(`HTTP ${status} becomes a NodeApiError with the API's message and code, not retried`, async () => {
		stub.respond(PATH, { status, body });
		// a wrong key: the credential check is refused too
		if (status === 401) stub.respond(CHECK, { status, body });
		const error = errorOf(await engine.run(cinLookup()));
		expect(error.name).toBe('NodeApiError');
		// a 401 names the credential and keeps the service's message
		if (status === 401)
			expect(error.message).toBe(
				`The FinVerify API credential "FinVerify sandbox" was rejected by the service (HTTP 401 ${code}: ${message})`,
			);
		else expect(error.message).toBe(message);
		expect(error.description).toContain(`Code: ${code}`);
		expect(error.description).toContain(`HTTP ${status}`);
		expect(error.httpCode).toBe(String(status));
		expect(sentTo(PATH)).toHaveLength(1);
		expect(sentTo(CHECK)).toHaveLength(status === 401 ? 1 : 0);
	});
});

test('an error envelope inside HTTP 200 is still an error', async () => {
	stub.respond(PATH, {
		status: 200,
		body: { success: false, message: 'Company not found', error_code: 'COMPANY_NOT_FOUND' },
	});
	const error = errorOf(await engine.run(cinLookup()));
	expect(error.message).toBe('Company not found');
	expect(error.description).toContain('Code: COMPANY_NOT_FOUND');
});

test('429 with Retry-After is retried after the given wait, then succeeds', async () => {
	stub.respond(
		PATH,
		{
			status: 429,
			headers: { 'retry-after': '1' },
			body: { success: false, message: 'Slow down', error_code: 'RATE_LIMITED' },
		},
		{ body: companyBody },
	);
	const result = await engine.run(cinLookup());
	expect(result.error).toBeUndefined();
	expect(stub.requests).toHaveLength(2);
	expect(stub.requests[1].at - stub.requests[0].at).toBeGreaterThanOrEqual(950);
	expect(result.json('FinVerify')[0].cin).toBe(CIN);
});

test('503 and 502 (HTML body) are retried with backoff, then succeed', async () => {
	stub.respond(
		PATH,
		{
			status: 503,
			body: { success: false, message: 'Upstream unavailable', error_code: 'UPSTREAM_UNAVAILABLE' },
		},
		{ status: 502, body: '<html><body>Bad gateway</body></html>' },
		{ body: companyBody },
	);
	const result = await engine.run(cinLookup());
	expect(result.error).toBeUndefined();
	expect(stub.requests).toHaveLength(3);
});

test('retries stop at the configured count and report the last answer', async () => {
	stub.respond(PATH, {
		status: 500,
		body: { success: false, message: 'Internal failure', error_code: 'SERVER_ERROR' },
	});
	const error = errorOf(await engine.run(cinLookup({ requestOptions: { maxRetries: 2 } })));
	expect(stub.requests).toHaveLength(3);
	expect(error.message).toBe('Internal failure');
	expect(error.description).toContain('after 3 attempts');
});

test('a 502 with an HTML body gives a readable message, not the HTML', async () => {
	stub.respond(PATH, { status: 502, body: '<!DOCTYPE html><html><body>nginx</body></html>' });
	const error = errorOf(await engine.run(cinLookup({ requestOptions: { maxRetries: 0 } })));
	expect(error.message).toBe('The service answered with HTTP 502 and no readable error body');
	expect(error.httpCode).toBe('502');
});

test('retries are capped at 5, whatever an expression gives', async () => {
	stub.respond(PATH, {
		status: 503,
		headers: { 'retry-after': '0' },
		body: { success: false, message: 'Busy', error_code: 'BUSY' },
	});
	errorOf(await engine.run(cinLookup({ requestOptions: { maxRetries: '={{ 9 }}' } })));
	expect(stub.requests).toHaveLength(6);
});

test.each([400, 401, 403, 404, 422])('HTTP %i is never retried', async (status) => {
	stub.respond(PATH, {
		status,
		body: { success: false, message: `failure ${status}`, error_code: 'X' },
	});
	errorOf(await engine.run(cinLookup()));
	expect(sentTo(PATH)).toHaveLength(1);
});

test('a 200 with a body that is not JSON is an error naming the problem', async () => {
	stub.respond(PATH, {
		status: 200,
		headers: { 'content-type': 'application/json' },
		body: '{"success": tru',
	});
	const error = errorOf(await engine.run(cinLookup({ requestOptions: { maxRetries: 0 } })));
	expect(error.message).toBe('The service answered with a body that is not valid JSON');
});

test('a timeout becomes a clear error', async () => {
	stub.respond(PATH, { delayMs: 3000, body: companyBody });
	const error = errorOf(
		await engine.run(cinLookup({ requestOptions: { maxRetries: 0, timeout: 1000 } })),
	);
	expect(error.message).toBe('The service did not answer within 1000 ms');
});

test('a dropped connection is retried for a lookup', async () => {
	stub.respond(PATH, { drop: true }, { body: companyBody });
	const result = await engine.run(cinLookup());
	expect(result.error).toBeUndefined();
	expect(stub.requests).toHaveLength(2);
});

test('secrets never appear in an error message, description or JSON', async () => {
	// a hostile or buggy server echoing the secrets back in its error, to the credential check too
	const echoed = {
		status: 401,
		body: {
			success: false,
			message: `Key ${SECRETS.apiKey} with secret ${SECRETS.apiSecret} rejected`,
			error_code: 'UNAUTHORIZED',
		},
	};
	stub.respond(PATH, echoed);
	stub.respond(CHECK, echoed);
	const continued = await engine.run(
		nodeWorkflow({
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: CIN },
			},
			onError: 'continueRegularOutput',
		}),
	);
	const stopped = await engine.run(cinLookup());
	const everything = JSON.stringify([
		continued.run,
		stopped.run,
		{ message: stopped.error?.message, description: stopped.error?.description },
	]);
	for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
	expect(stopped.error?.message).toContain('[redacted]');
	// under Continue the node never throws (n8n would pass the input on as a success): the item carries the
	// rejection, redacted too
	expect(continued.error).toBeUndefined();
	const [item] = continued.json('FinVerify');
	expect(String(item.message)).toContain('[redacted]');
	expect(item.error).toMatchObject({ code: 'UNAUTHORIZED', httpCode: 401 });
});

test('a network failure error holds no request internals (auth headers)', async () => {
	engine.setCredentials({
		finVerifyApi: { environment: 'custom', baseUrl: 'http://127.0.0.1:9', ...SECRETS },
	});
	try {
		const result = await engine.run(cinLookup({ requestOptions: { maxRetries: 1 } }));
		const error = errorOf(result);
		expect(error.message).toMatch(/refused the connection/);
		const everything = JSON.stringify(result.run);
		for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
	} finally {
		engine.setCredentials({
			finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS },
		});
	}
});

test('a credential without a valid base URL fails before any request', async () => {
	engine.setCredentials({
		finVerifyApi: { environment: 'production', baseUrl: 'not a url', ...SECRETS },
	});
	try {
		const error = errorOf(await engine.run(cinLookup()));
		expect(error.message).toBe('The FinVerify credential has no valid Base URL');
		expect(stub.requests).toHaveLength(0);
	} finally {
		engine.setCredentials({
			finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS },
		});
	}
});

describe('request path cost (issue #13)', () => {
	const manyItems = (n: number) =>
		nodeWorkflow({
			// distinct CINs: the same company in several items is looked up once (see kybChain.test.cts)
			items: Array.from({ length: n }, (_, i) => ({
				cin: `${CIN.slice(0, -2)}${String(i).padStart(2, '0')}`,
			})),
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				requestOptions: { maxRetries: 0, concurrency: 4 },
			},
		});

	test('the credential is read (decrypted) once per execution, not per request, and again by the next execution', async () => {
		stub.respond(PATH, { body: companyBody });
		const helper = engine.credentialsHelper;
		const original = helper.getDecrypted.bind(helper);
		let reads = 0;
		helper.getDecrypted = async (...args: Parameters<typeof original>) => {
			reads++;
			return await original(...args);
		};
		try {
			const first = await engine.run(manyItems(12));
			expect(first.error).toBeUndefined();
			expect(first.json('FinVerify')).toHaveLength(12);
			expect(stub.requests).toHaveLength(12);
			expect(reads).toBe(1);
			// every request still carries the credential's headers
			for (const r of stub.requests) {
				expect(r.headers['x-api-key']).toBe(SECRETS.apiKey);
				expect(r.headers['x-api-secret']).toBe(SECRETS.apiSecret);
			}
			// nothing is kept across executions: a changed credential applies to the next run
			engine.setCredentials({
				finVerifyApi: {
					environment: 'custom',
					baseUrl: stub.url,
					...SECRETS,
					apiKey: 'key-rotated',
				},
			});
			const second = await engine.run(manyItems(3));
			expect(second.error).toBeUndefined();
			expect(reads).toBe(2);
			expect(stub.requests.slice(12).map((r) => r.headers['x-api-key'])).toEqual([
				'key-rotated',
				'key-rotated',
				'key-rotated',
			]);
		} finally {
			helper.getDecrypted = original;
			engine.setCredentials({
				finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS },
			});
		}
	});

	test('a credential without a valid Base URL fails every item with its own item index', async () => {
		engine.setCredentials({
			finVerifyApi: { environment: 'custom', baseUrl: 'not a url', ...SECRETS },
		});
		try {
			const result = await engine.run({
				...manyItems(2),
				nodes: manyItems(2).nodes.map((n) =>
					n.name === 'FinVerify' ? { ...n, onError: 'continueRegularOutput' as const } : n,
				),
			});
			expect(result.error).toBeUndefined();
			const items = result.json('FinVerify');
			expect(items).toHaveLength(2);
			for (const item of items)
				expect((item.error as IDataObject).message).toMatch(/no valid Base URL/);
			expect(stub.requests).toHaveLength(0);
		} finally {
			engine.setCredentials({
				finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS },
			});
		}
	});
});
