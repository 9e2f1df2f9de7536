/**
 * The transport (nodes/FinVerify/transport/) through n8n-core's real engine against scripted loopback servers:
 * the credential's headers reach the service and nothing else; the five error envelope variants, an error inside
 * HTTP 200, an unreadable body and an empty success are errors naming the problem; 429 and 5xx are retried (with
 * Retry-After, capped), 4xx never, and a billed pull is never sent twice; secrets never appear in an error;
 * redirects never take the credential to another host; downloads are retried like reads; an attempt has a hard
 * deadline; every item is checked before the first request; the credential is read once per execution. The
 * policies alone (retry waits, error mapping, redaction) are test/unit/transport.test.cts.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import { Engine, nodeWorkflow, PATIENCE_MS, startStubServer } from '../harness/index.cjs';
import type { StubServer } from '../harness/index.cjs';
import { closeLoopbackServer, listenOnLoopback } from '../harness/loopback.cjs';

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
/** Another host: where a redirect or a report link may point. */
let other: StubServer;

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

/** A company answer with a report link. */
const company = (pdfUrl?: string) => ({
	success: true,
	data: {
		cin: CIN,
		pdf_url: pdfUrl,
		result: { company: { legal_name: 'ACME LIMITED', cin: CIN } },
	},
});

const leaked = (server: StubServer) =>
	server.requests.filter((r) =>
		Object.values(r.headers).some((v) =>
			[SECRETS.apiKey, SECRETS.apiSecret, SECRETS.refreshToken].some((s) => String(v).includes(s)),
		),
	);

beforeAll(async () => {
	engine = await Engine.create();
	stub = await startStubServer();
	other = await startStubServer();
	engine.setCredentials({ finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS } });
});
afterAll(async () => {
	await stub.close();
	await other.close();
});
beforeEach(() => {
	stub.requests.splice(0);
	other.requests.splice(0);
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

describe('request path cost', () => {
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
			// the items' lookups (on a busy machine the node may add its credential check, which reads no more)
			expect(stub.requests.filter((r) => r.path === PATH)).toHaveLength(12);
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

describe('redirects: the credential never goes to another host', () => {
	test.each([301, 302, 303, 307, 308])(
		'a %i from the service to another host is not followed; the other host sees nothing',
		async (status) => {
			stub.respond(PATH, {
				status,
				headers: { location: `${other.url}/steal` },
				body: '',
			});
			other.respond('/steal', { body: company() });
			const result = await engine.run(cinLookup());
			expect(String(result.error?.message)).toMatch(/redirected to another host/);
			expect(other.requests).toHaveLength(0);
			expect(stub.requests).toHaveLength(1);
		},
	);

	test('a same-host redirect is followed with the credential', async () => {
		stub.respond(PATH, {
			status: 307,
			headers: { location: '/api/v1/services/corporate/cin-lookup-v2' },
		});
		stub.respond('/api/v1/services/corporate/cin-lookup-v2', { body: company() });
		const result = await engine.run(cinLookup());
		expect(result.error).toBeUndefined();
		expect(stub.requests.map((r) => r.path)).toEqual([
			PATH,
			'/api/v1/services/corporate/cin-lookup-v2',
		]);
		expect(stub.requests[1].headers['x-api-key']).toBe(SECRETS.apiKey);
		expect(stub.requests[1].body).toEqual({ cin: CIN });
	});

	test('a report link on the service host redirecting elsewhere: the file arrives, the other host gets no credential', async () => {
		stub.respond(PATH, { body: company(`${stub.url}/files/report.pdf`) });
		stub.respond('/files/report.pdf', {
			status: 302,
			headers: { location: `${other.url}/bucket/report.pdf` },
		});
		other.respond('/bucket/report.pdf', {
			body: '%PDF-1.4 test',
			headers: { 'content-type': 'application/pdf' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(result.error).toBeUndefined();
		expect(result.output('FinVerify')[0].binary?.data.mimeType).toBe('application/pdf');
		expect(stub.requests[1].headers['x-api-key']).toBe(SECRETS.apiKey);
		expect(other.requests).toHaveLength(1);
		expect(leaked(other)).toHaveLength(0);
	});

	test('version 2 names the switch download, as every download (version 1: downloadReportPdf); the file lands in companyReport', async () => {
		stub.respond(PATH, { body: company(`${stub.url}/files/v2.pdf`) });
		stub.respond('/files/v2.pdf', {
			body: '%PDF-1.4 v2',
			headers: { 'content-type': 'application/pdf' },
		});
		const workflow = cinLookup({ download: true });
		workflow.nodes[1].typeVersion = 2;
		const result = await engine.run(workflow);
		expect(result.error).toBeUndefined();
		const binary = result.output('FinVerify')[0].binary;
		expect(Object.keys(binary ?? {})).toEqual(['companyReport']);
		expect(binary?.companyReport.mimeType).toBe('application/pdf');
		expect(stub.requests.filter((r) => r.path === '/files/v2.pdf')).toHaveLength(1);
	});

	test('a pre-signed link on another host redirecting back to the service host gets the credential only there', async () => {
		stub.respond(PATH, { body: company(`${other.url}/signed.pdf`) });
		other.respond('/signed.pdf', {
			status: 307,
			headers: { location: `${stub.url}/files/final.pdf` },
		});
		stub.respond('/files/final.pdf', {
			body: '%PDF-1.4 x',
			headers: { 'content-type': 'application/pdf' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(result.error).toBeUndefined();
		expect(leaked(other)).toHaveLength(0);
	});
});

describe('downloads are retried like reads', () => {
	test.each([
		['429', { status: 429, headers: { 'retry-after': '0' }, body: { success: false } }],
		['500', { status: 500, body: { success: false } }],
		['503', { status: 503, body: { success: false } }],
		['a reset connection', { drop: true }],
	])('one %s on the file, then the file: the item succeeds', async (_name, fault) => {
		stub.respond(PATH, { body: company(`${stub.url}/files/r.pdf`) });
		stub.respond('/files/r.pdf', fault as never, {
			body: '%PDF-1.4 ok',
			headers: { 'content-type': 'application/pdf' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(result.error).toBeUndefined();
		expect(stub.requests.filter((r) => r.path === '/files/r.pdf')).toHaveLength(2);
		expect(result.output('FinVerify')[0].binary?.data).toBeDefined();
	});

	test('an error envelope served as the file is an error, not a saved report', async () => {
		stub.respond(PATH, { body: company(`${stub.url}/files/e.pdf`) });
		stub.respond('/files/e.pdf', {
			body: { success: false, message: 'Link expired', error_code: 'LINK_EXPIRED' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(String(result.error?.message)).toMatch(/Link expired/);
	});
});

describe('a hard deadline per attempt', () => {
	let trickle: Server;
	let trickleUrl: string;
	/** Answers the client closed while the server was still sending them. */
	let cutByClient = 0;
	beforeAll(async () => {
		// answers headers at once, then one byte every 300 ms, never ending: an idle timeout never fires, and
		// only the client's deadline ends the attempt (without it the run would not end at all)
		trickle = createServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			const timer = setInterval(() => res.write(' '), 300);
			res.on('close', () => {
				clearInterval(timer);
				if (!res.writableEnded) cutByClient++;
			});
		});
		trickleUrl = (await listenOnLoopback(trickle)).url;
	});
	afterAll(async () => await closeLoopbackServer(trickle));

	test('a server trickling bytes forever cannot hold a 2 s attempt: the node cuts it at its deadline', async () => {
		engine.setCredentials({
			finVerifyApi: { environment: 'custom', baseUrl: trickleUrl, ...SECRETS },
		});
		try {
			const result = await engine.run(
				cinLookup({ requestOptions: { maxRetries: 0, timeout: 2000 } }),
			);
			expect(String(result.error?.message)).toMatch(/did not answer within 2000 ms/);
			// the connection is closed, not left trickling: the server sees it (as soon as its loop looks)
			const deadline = Date.now() + PATIENCE_MS;
			while (cutByClient === 0 && Date.now() < deadline)
				await new Promise((resolve) => setTimeout(resolve, 20));
			expect(cutByClient).toBe(1);
		} finally {
			engine.setCredentials({
				finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SECRETS },
			});
		}
	});
});

describe('every item checked before the first request', () => {
	const JOURNEY = '/api/v1/services/aa-bsa-journey/init';
	const journey = (items: IDataObject[], onError?: 'continueErrorOutput') =>
		nodeWorkflow({
			items,
			onError,
			parameters: {
				resource: 'bankStatementJourney',
				operation: 'start',
				mobileNumber: '={{ $json.mobile }}',
				consentType: 'loanUnderwriting',
				requestOptions: { maxRetries: 0, concurrency: 3 },
			},
		});

	test('5 items, item 3 invalid, parallelism 3: nothing is created', async () => {
		stub.respond(JOURNEY, {
			body: { success: true, data: { client_id: 'aa_1', status: 'initiated' } },
		});
		const items = ['9876543210', '9876543211', '9876543212', 'not-a-number', '9876543214'].map(
			(mobile) => ({ mobile }),
		);
		const result = await engine.run(journey(items));
		expect(String(result.error?.message)).toMatch(/Mobile/i);
		expect(stub.requests.filter((r) => r.path === JOURNEY)).toHaveLength(0);
	});

	test('with the error output on, the valid items still run and the invalid one is an error item', async () => {
		stub.respond(JOURNEY, {
			body: { success: true, data: { client_id: 'aa_1', status: 'initiated' } },
		});
		const items = ['9876543210', 'x', '9876543212'].map((mobile) => ({ mobile }));
		const result = await engine.run(journey(items, 'continueErrorOutput'));
		expect(result.error).toBeUndefined();
		expect(stub.requests.filter((r) => r.path === JOURNEY)).toHaveLength(2);
		expect(result.json('FinVerify', 0)).toHaveLength(2);
		expect(result.json('FinVerify', 1)).toHaveLength(1);
	});
});

describe('billed pulls are never sent twice; an empty success is an error', () => {
	const COMMERCIAL = '/api/v1/services/credit-report-commercial/fetch';
	const commercial = () =>
		nodeWorkflow({
			parameters: {
				resource: 'creditReport',
				operation: 'getCommercialReport',
				businessName: 'Acme Traders',
				pan: 'AAACA1234B',
				consent: true,
				output: 'json',
				requestOptions: { maxRetries: 3 },
			},
		});

	test.each([
		['500', { status: 500, body: { success: false, message: 'boom' } }],
		['a reset connection', { drop: true }],
	])('the commercial report is not re-sent after %s', async (_name, fault) => {
		stub.respond(COMMERCIAL, fault as never, { body: { success: true, data: {} } });
		const result = await engine.run(commercial());
		expect(result.error).toBeDefined();
		expect(stub.requests.filter((r) => r.path === COMMERCIAL)).toHaveLength(1);
	});

	test('the commercial report is re-sent after a 503 (the service did not act)', async () => {
		stub.respond(
			COMMERCIAL,
			{ status: 503, headers: { 'retry-after': '0' }, body: { success: false } },
			{ status: 400, body: { success: false, message: 'stop' } },
		);
		await engine.run(commercial());
		expect(stub.requests.filter((r) => r.path === COMMERCIAL)).toHaveLength(2);
	});

	test('Start Journey answered {"success":true,"data":{}} is an error naming client_id', async () => {
		stub.respond('/api/v1/services/aa-bsa-journey/init', { body: { success: true, data: {} } });
		const result = await engine.run(
			nodeWorkflow({
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'start',
					mobileNumber: '9876543210',
					consentType: 'loanUnderwriting',
					requestOptions: { maxRetries: 0 },
				},
			}),
		);
		expect(String(result.error?.message)).toMatch(/without data\.client_id/);
	});
});
