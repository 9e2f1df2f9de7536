/**
 * The credential's Test request resolves to the same base address the node's transport uses, evaluated
 * by n8n-workflow's real expression engine.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { FinVerifyApi } from '../../credentials/FinVerifyApi.credentials';
import { resolveBaseUrl } from '../../nodes/FinVerify/transport';
import { checkBaseUrl } from '../../nodes/shared/baseUrl';
import {
	Engine,
	nodeWorkflow,
	runCredentialTest,
	startStubServer,
	startTestSandbox,
} from '../harness/index.cjs';
import type { StubServer } from '../harness/index.cjs';

let engine: Engine;
beforeAll(async () => {
	engine = await Engine.create();
});

function testValue(credentials: IDataObject, expression: string): unknown {
	const workflow = engine.buildWorkflow(
		nodeWorkflow({ parameters: { resource: 'company', operation: 'getByCin' } }),
	);
	const node = workflow.getNode('FinVerify') as INode;
	return workflow.expression.getSimpleParameterValue(
		node,
		expression,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
}

function testBaseUrl(credentials: IDataObject): string {
	const workflow = engine.buildWorkflow(
		nodeWorkflow({ parameters: { resource: 'company', operation: 'getByCin' } }),
	);
	const node = workflow.getNode('FinVerify') as INode;
	const expression = new FinVerifyApi().test.request.baseURL as string;
	return String(
		workflow.expression.getSimpleParameterValue(
			node,
			expression,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		),
	);
}

test.each([
	[{ environment: 'production', baseUrl: 'https://api.example.com' }, 'https://api.example.com'],
	[{ environment: 'production', baseUrl: 'https://api.example.com/' }, 'https://api.example.com'],
	[
		{ environment: 'custom', baseUrl: ' https://staging.example.com/api/v1/services/ ' },
		'https://staging.example.com',
	],
	[{ environment: 'sandbox', sandboxUrl: 'http://127.0.0.1:4999/' }, 'http://127.0.0.1:4999'],
	[{ environment: 'sandbox', sandboxUrl: '' }, 'http://127.0.0.1:4010'],
	[{ environment: 'production', baseUrl: 'api.example.com' }, 'https://api.example.com'],
	[
		{ environment: 'custom', baseUrl: 'staging.example.com:8443/' },
		'https://staging.example.com:8443',
	],
])('Test request base URL for %j is %s, as the node uses', (credentials, expected) => {
	expect(testBaseUrl(credentials)).toBe(expected);
	expect(resolveBaseUrl(credentials as never)).toBe(expected);
});

/** n8n's credentials tester fails the test on the first rule whose `get(body, key) === value`. */
function testVerdict(body: unknown): string {
	for (const rule of new FinVerifyApi().test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const value =
			typeof body === 'object' && body !== null
				? (body as IDataObject)[rule.properties.key]
				: undefined;
		if (value === rule.properties.value) return rule.properties.message;
	}
	return 'OK';
}

test.each([
	[{ success: false, message: 'No journey found', error_code: 'NOT_FOUND' }, 'OK'],
	[
		{ success: false, message: 'Invalid API key', error_code: 'UNAUTHORIZED' },
		'The API key or API secret is wrong, expired or for another environment',
	],
	// the key and secret were accepted; only the permission used for the check is missing
	[{ success: false, message: 'Missing permission', error_code: 'PERMISSION_DENIED' }, 'OK'],
	[
		'<html><body>Not Found</body></html>',
		'The address answered, but not like the FinVerify service: check the Base URL (the Simulator URL for the Local Simulator)',
	],
	[
		{ message: 'Cannot GET /api/v1/services/aa-bsa-journey/status' },
		'The address answered, but not like the FinVerify service: check the Base URL (the Simulator URL for the Local Simulator)',
	],
	// the service did not get as far as the key: Test says so instead of passing
	[
		{ success: false, message: 'Too many requests', error_code: 'RATE_LIMITED' },
		'The service answered "too many requests" (RATE_LIMITED) before checking the key and secret: run Test again in a minute',
	],
	...['INTERNAL_ERROR', 'BAD_GATEWAY', 'UPSTREAM_UNAVAILABLE', 'GATEWAY_TIMEOUT'].map(
		(code): [unknown, string] => [
			{ success: false, message: 'Failed', error_code: code },
			`The service failed on its side (${code}), so the key and secret were not checked: run Test again later`,
		],
	),
])('credential test verdict for %j', (body, verdict) => {
	expect(testVerdict(body)).toEqual(verdict);
});

test('authenticate is a function (no expression per request) that adds the key and secret and leaves the request it got alone', async () => {
	const { authenticate } = new FinVerifyApi();
	expect(typeof authenticate).toBe('function');
	const incoming = { url: 'http://127.0.0.1:1/x', headers: { Accept: 'application/json' } };
	const out = await (authenticate as Exclude<typeof authenticate, { type: string }>)(
		{ apiKey: 'k-1', apiSecret: 's-1', refreshToken: 'r-1', webhookSecret: 'w-1' },
		incoming,
	);
	expect(out.headers).toEqual({
		Accept: 'application/json',
		'X-API-KEY': 'k-1',
		'X-API-SECRET': 's-1',
	});
	expect(out.url).toBe(incoming.url);
	expect(incoming.headers).toEqual({ Accept: 'application/json' });
	// n8n's package loader serialises a function as {}, which is what the editor checks to list the credential
	// under the HTTP Request node's Predefined Credential Type (checked in the real app by test/e2e/server.test.cts)
	expect(JSON.stringify(out)).not.toContain('r-1');
});

test.each([
	[{ environment: 'custom', ignoreSslIssues: true }, true],
	[{ environment: 'custom', ignoreSslIssues: false }, false],
	// Production always checks certificates, whatever a hidden field still holds
	[{ environment: 'production', ignoreSslIssues: true }, false],
	[{ environment: 'sandbox' }, false],
])('Test request relaxes certificate checks for %j: %s', (credentials, expected) => {
	const expression = new FinVerifyApi().test.request.skipSslCertificateValidation as string;
	expect(testValue(credentials, expression)).toBe(expected);
});

describe('the Test request against the simulator', () => {
	let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(async () => await sandbox.close());

	/** Sends the credential's Test request as n8n would (its base URL, path, query and auth headers). */
	async function verdictFor(apiKey: string, apiSecret: string) {
		const credential = new FinVerifyApi();
		const { request } = credential.test;
		const base = testBaseUrl({ environment: 'sandbox', sandboxUrl: sandbox.url });
		const url = new URL(`${base}${request.url as string}`);
		for (const [k, v] of Object.entries(request.qs ?? {})) url.searchParams.set(k, String(v));
		const response = await fetch(url, {
			method: request.method,
			headers: { 'X-API-KEY': apiKey, 'X-API-SECRET': apiSecret },
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON: judged as text, like the credentials tester does
		}
		return testVerdict(body);
	}

	test('the default key passes', async () => {
		expect(await verdictFor('sandbox-key', 'sandbox-secret')).toBe('OK');
	});
	test('a valid key without the journey permission passes (accepted by the service)', async () => {
		expect(await verdictFor('corporate-only-key', 'corporate-only-secret')).toBe('OK');
	});
	test.each([
		[429, /RATE_LIMITED.*run Test again in a minute/],
		[500, /INTERNAL_ERROR.*not checked/],
		[503, /UPSTREAM_UNAVAILABLE.*not checked/],
	])(
		'an answer %s before the key was checked fails Test, saying why (through n8n-core)',
		async (status, message) => {
			await sandbox.control.fault({ path: 'aa-bsa-journey/status', status, times: 1 });
			const verdict = await runCredentialTest(engine, 'finVerifyApi', new FinVerifyApi().test, {
				environment: 'sandbox',
				sandboxUrl: sandbox.url,
				apiKey: 'sandbox-key',
				apiSecret: 'sandbox-secret',
			});
			expect(verdict).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		},
	);

	test('a wrong secret or key is rejected', async () => {
		expect(await verdictFor('sandbox-key', 'wrong-secret')).toBe(
			'The API key or API secret is wrong, expired or for another environment',
		);
		expect(await verdictFor('no-such-key', 'sandbox-secret')).toBe(
			'The API key or API secret is wrong, expired or for another environment',
		);
	});
});

/**
 * The Base URL is parsed and checked once (nodes/shared/baseUrl.ts): the node refuses a value that could
 * send the key and secret to another host or every call to a wrong path, naming the reason, and the
 * credential's Test gets an empty address from the same rules, so neither sends anything.
 */
describe('Base URL tricks: refused by the node and by Test, nothing sent', () => {
	const KEYS = {
		apiKey: 'key-base-url-1',
		apiSecret: 'secret-base-url-2',
		refreshToken: 'refresh-3',
	};
	let legit: StubServer;
	let other: StubServer;
	beforeAll(async () => {
		legit = await startStubServer();
		other = await startStubServer();
	});
	afterAll(async () => {
		await legit.close();
		await other.close();
	});
	beforeEach(() => {
		legit.requests.length = 0;
		other.requests.length = 0;
	});

	const host = (stub: StubServer) => new URL(stub.url).host;
	const tricks: Array<[string, () => string, RegExp]> = [
		[
			'CR/LF and @ (a WHATWG parser drops the line break and takes what follows @ as the host)',
			() => `http://${host(legit)}\r\n@${host(other)}`,
			/line break/,
		],
		['a line feed alone', () => `${legit.url}\n`.replace('\n', '\n/x'), /line break/],
		['a tab', () => `http://${host(legit)}\t@${host(other)}`, /line break, tab/],
		['user:pass@', () => `http://user:pass@${host(other)}`, /user name or password/],
		['@ alone', () => `http://${host(legit)}@${host(other)}`, /user name or password/],
		['?q=1', () => `${legit.url}?q=1`, /query/],
		['#frag', () => `${legit.url}#frag`, /fragment/],
		['a backslash', () => `http://${host(other)}\\@${host(legit)}`, /backslash/],
		['a non-ASCII letter', () => 'https://exämple.com', /non-ASCII/],
		['ftp://', () => `ftp://${host(legit)}`, /https:\/\/ or http:\/\//],
		[
			'a wrong API path (…/api/v1/service)',
			() => `${legit.url}/api/v1/service`,
			/mistyped API prefix \(\/api\/v1\/service\)/,
		],
		['…/api/v1', () => `${legit.url}/api/v1/`, /mistyped API prefix \(\/api\/v1\)/],
		['a port out of range', () => 'http://127.0.0.1:70000', /host of the Base URL/],
		['no host', () => 'https:///api', /host of the Base URL/],
	];

	test.each(tricks)('%s', async (_name, value, problem) => {
		const baseUrl = value();
		const checked = checkBaseUrl(baseUrl);
		expect(checked.ok).toBe(false);
		if (!checked.ok) expect(checked.problem).toMatch(problem);

		// every operation: the node stops before any request, naming the reason
		engine.setCredentials({ finVerifyApi: { environment: 'custom', baseUrl, ...KEYS } });
		const result = await engine.run(
			nodeWorkflow({
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: 'L17110MH1973PLC019786' },
				},
			}),
		);
		expect(result.error?.message).toBe('The FinVerify credential has no valid Base URL');
		expect(result.error?.description).toMatch(problem);
		expect(result.error?.description).toContain('Nothing was sent');
		for (const secret of Object.values(KEYS))
			expect(JSON.stringify(result.error)).not.toContain(secret);

		// Test: the same rules give an empty address, so n8n sends nothing and reports the request as not
		// buildable: the app (2.41.1, its axios) shows ERR_INVALID_URL (test/e2e/server.test.cts), this
		// repository's axios "Invalid URL"
		expect(testBaseUrl({ environment: 'custom', baseUrl })).toBe('');
		const verdict = await runCredentialTest(engine, 'finVerifyApi', new FinVerifyApi().test, {
			environment: 'custom',
			baseUrl,
			...KEYS,
		});
		expect(verdict).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^(Invalid URL|ERR_INVALID_URL)$/),
		});

		expect(legit.requests).toHaveLength(0);
		expect(other.requests).toHaveLength(0);
	});

	test.each([
		'https://api.example.com',
		'HTTPS://Api.Example.com:8443/',
		'api.example.com/api/v1/services',
		'https://api.example.com/API/V1/Services/',
		'http://[::1]:4010',
		'  http://127.0.0.1:4010/  ',
	])('the Test and the node resolve %j to the same address', (baseUrl) => {
		const checked = checkBaseUrl(baseUrl);
		expect(checked.ok).toBe(true);
		expect(testBaseUrl({ environment: 'production', baseUrl })).toBe(
			checked.ok ? checked.url : 'not ok',
		);
	});

	test('a Local Simulator credential names its own field: the Simulator URL', async () => {
		engine.setCredentials({
			finVerifyApi: { environment: 'sandbox', sandboxUrl: `${legit.url}?q=1`, ...KEYS },
		});
		const result = await engine.run(
			nodeWorkflow({
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: 'L17110MH1973PLC019786' },
				},
			}),
		);
		expect(result.error?.message).toBe('The FinVerify credential has no valid Simulator URL');
		expect(result.error?.description).toMatch(/^The Simulator URL must not contain a query/);
		expect(result.error?.description).toContain('the address the simulator prints');
		expect(result.error?.description).not.toContain('Base URL');
		expect(legit.requests).toHaveLength(0);
	});

	test('a well-formed Base URL passes Test through n8n-core with the service NOT_FOUND for the probe journey', async () => {
		legit.respond('/api/v1/services/aa-bsa-journey/status', {
			status: 404,
			body: { success: false, message: 'No journey found', error_code: 'NOT_FOUND' },
		});
		const verdict = await runCredentialTest(engine, 'finVerifyApi', new FinVerifyApi().test, {
			environment: 'custom',
			baseUrl: `${legit.url}/`,
			...KEYS,
		});
		expect(verdict.status).toBe('OK');
		expect(legit.requests).toHaveLength(1);
		expect(legit.requests[0].path).toBe('/api/v1/services/aa-bsa-journey/status');
		expect(legit.requests[0].headers['x-api-key']).toBe(KEYS.apiKey);
	});
});

/**
 * The documented Base URL is the service address alone (or with exactly /api/v1/services, which
 * is dropped). A typo of the API prefix, or any other path, sent the key and secret to a wrong path on the
 * simulator's own host, from the node and from Test; a /finverify prefix even passed Test, because the
 * simulator (like many hosts) answers every unknown path with the "not found" Test expects. Now both
 * refuse them, naming the Base URL and the expected form, and the simulator's request log stays empty.
 */
describe('API-prefix typos and paths on the right host: refused by the node and by Test', () => {
	let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(async () => await sandbox.close());

	const TYPOS = [
		'/api',
		'/api/',
		'/api/v1.0/services',
		'/api//v1/services',
		'/v1/services',
		'/api/services',
		'/api/v1/service',
		'/api/v2/services',
		'/api%2Fv1%2Fservices',
		'/api/v1%2Fservices',
		'//api/v1/services',
		'/api/v1/services/corporate',
	];
	const PATHS = ['/finverify', '/finverify/', '/gateway/api/v1/services', '/v1'];

	test.each([
		...TYPOS.map((path) => [path, /has a mistyped API prefix/] as const),
		...PATHS.map((path) => [path, /has a path|mistyped API prefix/] as const),
	])('%s', async (path, problem) => {
		const baseUrl = `${sandbox.url}${path}`;
		const before = (await sandbox.control.requests()).length;

		engine.setCredentials({
			finVerifyApi: {
				environment: 'custom',
				baseUrl,
				apiKey: 'sandbox-key',
				apiSecret: 'sandbox-secret',
			},
		});
		const result = await engine.run(
			nodeWorkflow({
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: 'L17110MH1973PLC019786' },
				},
			}),
		);
		expect(result.error?.message).toBe('The FinVerify credential has no valid Base URL');
		expect(result.error?.description).toMatch(problem);
		// names the field and the form it expects
		expect(result.error?.description).toContain(
			'Base URL: expected the service address alone, https:// (or http://), the host and an optional port, e.g. https://api.example.com',
		);
		expect(result.error?.description).toContain('Nothing was sent');

		expect(testBaseUrl({ environment: 'custom', baseUrl })).toBe('');
		const verdict = await runCredentialTest(engine, 'finVerifyApi', new FinVerifyApi().test, {
			environment: 'custom',
			baseUrl,
			apiKey: 'sandbox-key',
			apiSecret: 'sandbox-secret',
		});
		expect(verdict).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^(Invalid URL|ERR_INVALID_URL)$/),
		});

		// the simulator's request log: nothing reached it, from the node or from Test
		expect(await sandbox.control.requests()).toHaveLength(before);
	});

	test('the same host without a path passes Test, and its one request is logged', async () => {
		const before = (await sandbox.control.requests()).length;
		const verdict = await runCredentialTest(engine, 'finVerifyApi', new FinVerifyApi().test, {
			environment: 'custom',
			baseUrl: `${sandbox.url}/api/v1/services/`,
			apiKey: 'sandbox-key',
			apiSecret: 'sandbox-secret',
		});
		expect(verdict.status).toBe('OK');
		const requests = await sandbox.control.requests();
		expect(requests).toHaveLength(before + 1);
		expect(requests[requests.length - 1].path).toBe('/api/v1/services/aa-bsa-journey/status');
	});
});
