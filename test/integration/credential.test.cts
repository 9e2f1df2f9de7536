/**
 * The credential's Test request resolves to the same base address the node's transport uses, evaluated
 * by n8n-workflow's real expression engine.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { FinVerifyApi } from '../../credentials/FinVerifyApi.credentials';
import { resolveBaseUrl } from '../../nodes/FinVerify/transport';
import { Engine, nodeWorkflow } from '../harness/index.cjs';

let engine: Engine;
beforeAll(async () => {
	engine = await Engine.create();
});

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
	[
		{ success: false, message: 'Missing permission', error_code: 'PERMISSION_DENIED' },
		expect.stringContaining('AA_BSA_JOURNEY'),
	],
	[
		'<html><body>Not Found</body></html>',
		'The address answered, but not like the FinVerify service: check the Base URL',
	],
	[
		{ message: 'Cannot GET /api/v1/services/aa-bsa-journey/status' },
		'The address answered, but not like the FinVerify service: check the Base URL',
	],
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
