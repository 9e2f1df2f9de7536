/**
 * API Request (any path under /api/v1/services/) through n8n-core's real engine against the sandbox: a
 * POST lookup, a GET with query parameters, the refresh-token cookie, service errors passed through with
 * their codes, and paths or bodies rejected before anything is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { withParameters } from '../harness/index.cjs';
import {
	expectApiError,
	expectInvalidInput,
	fixtures,
	NODE,
	SHAPES,
	withSandbox,
} from './support.cjs';

const fixture = fixtures('apiRequest');

describe.each(SHAPES)('API Request, %s shape', (shape) => {
	const sandbox = withSandbox({ shape, resetBeforeEach: true });
	const { run, sent } = sandbox;

	test('POST corporate/cin-lookup: the JSON response as sent, no simplification', async () => {
		const result = await run(fixture('send.cinLookup'));
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		const data = json.data as IDataObject;
		if (shape === 'sample')
			expect(data).toMatchObject({
				cin: 'L17110MH1973PLC019786',
				result: { company: expect.any(Object) },
			});
		else
			expect(data).toMatchObject({
				cin: 'L17110MH1973PLC019786',
				company_name: expect.any(String),
			});
		const [request] = await sandbox.control.requests('corporate/cin-lookup');
		expect(request).toMatchObject({ method: 'POST', body: { cin: 'L17110MH1973PLC019786' } });
	});

	test('GET with query parameters (journey status), path given with the /api/v1/services/ prefix', async () => {
		const result = await run(fixture('send.getWithQuery'));
		expect(result.error).toBeUndefined();
		const [started] = result.json('Start Journey');
		const [json] = result.json(NODE);
		if (shape === 'sample')
			expect(json).toMatchObject({ client_id: started.clientId, status: 'initiated' });
		else
			expect(json).toMatchObject({
				success: true,
				data: { client_id: started.clientId, status: 'initiated' },
			});
		const [request] = await sandbox.control.requests('aa-bsa-journey/status');
		expect(request).toMatchObject({
			method: 'GET',
			path: '/api/v1/services/aa-bsa-journey/status',
			query: { client_id: started.clientId },
		});
	});

	test('Send Refresh Token: reaches the collection session endpoint', async () => {
		const result = await run(fixture('send.refreshToken'));
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)[0]).toMatchObject({
			success: true,
			data: { session_id: expect.any(String), recipient_email: 'api@example.com' },
		});
	});

	test('without the refresh token the collection endpoint answers 401 unauthorized', async () => {
		const result = await run(
			withParameters(fixture('send.refreshToken'), NODE, { sendRefreshToken: false }),
		);
		expectApiError(result, 'unauthorized');
	});

	test('service errors pass through with their code', async () => {
		expectApiError(await run(fixture('send.notFound')), 'COMPANY_NOT_FOUND', '404');
	});

	test.each([
		['send.invalidPath', 'Path', '.. segments'],
		['send.absoluteUrl', 'Path', 'not a full URL'],
		['send.invalidBody', 'Body (JSON)', 'a JSON object'],
		['send.emptyQueryName', 'Query Parameters', 'a non-empty parameter name'],
		['send.invalidMethod', 'Method', '"GET"'],
	])('%s: rejected before sending, naming %s', async (name, field, reason) => {
		expectInvalidInput(await run(fixture(name)), field, reason);
		expect(await sent()).toBe(0);
	});
});
