/**
 * Through n8n-core's real engine: one record answering on its own (401, 403, an
 * error envelope saying FORBIDDEN or status_code 403 inside another status, a path the key may not use, its
 * own 503, 429 or 500) is that record's error after its retries, at Items in Parallel 1, 3 and 50: 49
 * outputs and 1 error item, no stop. Only a credential the credential check refuses too stops every item,
 * after at most Items in Parallel requests; what a wrong key or an outage costs at a service answering after
 * 0.8 s is counted (asserted: request counts; printed: times).
 */
import type { IDataObject } from 'n8n-workflow';

import { Engine, nodeWorkflow, startStubServer } from '../../harness/index.cjs';
import type { LoggedRequest, RunResult, StubResponse, StubServer } from '../../harness/index.cjs';
import { NODE, withSandbox } from '../support.cjs';

const ITEMS = 50;
/** The item that answers on its own. */
const BAD = 7;
const PARALLEL = [1, 3, 50];
/** One item's attempts with the default Retries (3). */
const ATTEMPTS = 4;
const CHECK_PATH = 'aa-bsa-journey/status';

const cinOf = (i: number) => `L17110MH1973PLC0${String(19000 + i).padStart(5, '0')}`;
const mobileOf = (i: number) => `98765${String(i).padStart(5, '0')}`;

const figures: string[] = [];
afterAll(() => {
	if (figures.length > 0)
		console.log(`record failures and slow answers, measured:\n${figures.join('\n')}`);
});

/** 49 outputs in input order without item 7, and item 7 on the error output with its code and status. */
function expectOneErrorItem(result: RunResult, code: string | null, httpCode: number) {
	expect(result.error).toBeUndefined();
	const outputs = result.output(NODE, 0);
	expect(outputs).toHaveLength(ITEMS - 1);
	expect(outputs.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: ITEMS }, (_, item) => ({ item })).filter(({ item }) => item !== BAD),
	);
	const failed = result.output(NODE, 1);
	expect(failed).toHaveLength(1);
	expect(failed[0].pairedItem).toEqual({ item: BAD });
	expect(failed[0].json.error).toMatchObject({ code, httpCode });
	return failed[0].json.error as IDataObject;
}

/**
 * What stopped the node, under On Error → Continue (using error output): the node never throws there (n8n
 * would pass the input items on to the success branch), so every item not done is an error item carrying the
 * stop; the execution succeeds and nothing reaches the success output.
 */
function stopOf(result: RunResult): { message: string; description: string } {
	expect(result.error).toBeUndefined();
	expect(result.output(NODE, 0)).toHaveLength(0);
	const errors = result.output(NODE, 1).map((item) => item.json.error as IDataObject);
	expect(errors).toHaveLength(ITEMS);
	const count = new Map<unknown, number>();
	for (const e of errors) count.set(e.message, (count.get(e.message) ?? 0) + 1);
	const [message] = [...count.entries()].sort((a, b) => b[1] - a[1])[0];
	const stop = errors.find((e) => e.message === message)!;
	return { message: String(stop.message), description: String(stop.description) };
}

describe('against the sandbox', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	const epfo = (badMobile: string, concurrency: number) =>
		nodeWorkflow({
			items: Array.from({ length: ITEMS }, (_, i) => ({
				mobile: i === BAD ? badMobile : mobileOf(i),
			})),
			onError: 'continueErrorOutput',
			parameters: {
				resource: 'employment',
				operation: 'getEpfoRecord',
				mobileNumber: '={{ $json.mobile }}',
				requestOptions: { concurrency },
			},
		});

	const lookups = (concurrency: number) =>
		nodeWorkflow({
			items: Array.from({ length: ITEMS }, (_, i) => ({ cin: cinOf(i) })),
			onError: 'continueErrorOutput',
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				requestOptions: { concurrency },
			},
		});

	/** Custom API Call: every item looks a company up, item 7 asks for an EPFO record. */
	const customCalls = (concurrency: number) =>
		nodeWorkflow({
			items: Array.from({ length: ITEMS }, (_, i) =>
				i === BAD
					? { path: 'epfo-combined/fetch', body: { mobile_number: mobileOf(i) } }
					: { path: 'corporate/cin-lookup', body: { cin: cinOf(i) } },
			),
			onError: 'continueErrorOutput',
			parameters: {
				resource: 'apiRequest',
				operation: 'send',
				method: 'POST',
				path: '={{ $json.path }}',
				jsonBody: '={{ JSON.stringify($json.body) }}',
				requestOptions: { concurrency },
			},
		});

	const ofMobile = (requests: LoggedRequest[], mobile: string) =>
		requests.filter((r) => (r.body as IDataObject | undefined)?.mobile_number === mobile);

	describe.each(PARALLEL)('Items in Parallel %i', (concurrency) => {
		test.each<[string, string, string, number]>([
			['its own 503 (EPFO mobile 9000000503)', '9000000503', 'UPSTREAM_UNAVAILABLE', 503],
			['its own 429 (EPFO mobile 9000000429, Retry-After 1)', '9000000429', 'RATE_LIMITED', 429],
		])(
			'one record answering %s: 49 outputs, 1 error item after its retries, no stop',
			async (_label, badMobile, code, httpCode) => {
				const started = Date.now();
				const result = await sandbox.run(epfo(badMobile, concurrency));
				figures.push(
					`sandbox, ${_label}, Items in Parallel ${concurrency}: ${Date.now() - started} ms`,
				);
				expectOneErrorItem(result, code, httpCode);
				const requests = await sandbox.control.requests('epfo-combined/fetch');
				expect(ofMobile(requests, badMobile)).toHaveLength(ATTEMPTS);
				expect(requests).toHaveLength(ITEMS - 1 + ATTEMPTS);
				// a 5xx or a 429 is no reason to check the credential (the one check there may be is the
				// first probe's grace, when its answer took over half a second)
				expect(await sandbox.sent(CHECK_PATH)).toBeLessThanOrEqual(1);
			},
		);

		test('Custom API Call, item 7’s path is one the key may not use (403): its error alone', async () => {
			const result = await sandbox.run(customCalls(concurrency), {
				apiKey: 'corporate-only-key',
				apiSecret: 'corporate-only-secret',
			});
			const error = expectOneErrorItem(result, 'PERMISSION_DENIED', 403);
			expect(error.description).toContain(
				'The credential "FinVerify sandbox" was checked with the credential Test\'s free request and is accepted (HTTP 403 PERMISSION_DENIED)',
			);
			expect(await sandbox.sent('epfo-combined/fetch')).toBe(1);
			expect(await sandbox.sent('corporate/cin-lookup')).toBe(ITEMS - 1);
			// one credential check for the execution (the key lacks the journey permission: still accepted)
			expect(await sandbox.sent(CHECK_PATH)).toBe(1);
		});

		test('a wrong API secret stops every item after at most Items in Parallel lookups', async () => {
			const result = await sandbox.run(lookups(concurrency), { apiSecret: 'wrong-secret-value' });
			const sent = await sandbox.sent('cin-lookup');
			expect(sent).toBeLessThanOrEqual(concurrency);
			// the first lookup alone, then the credential check
			expect(sent).toBe(1);
			expect(await sandbox.sent(CHECK_PATH)).toBe(1);
			const stop = stopOf(result);
			expect(stop.message).toBe(
				'The FinVerify API credential "FinVerify sandbox" was rejected by the service ' +
					'(HTTP 401 UNAUTHORIZED: Invalid API key or secret)',
			);
			expect(stop.description).toContain(
				"The credential check (the credential Test's free request) was refused too (HTTP 401 UNAUTHORIZED)",
			);
			expect(JSON.stringify(result.run)).not.toContain('wrong-secret-value');
		});
	});
});

describe('against a scripted service', () => {
	const CIN_PATH = '/api/v1/services/corporate/cin-lookup';
	const CHECK = `/api/v1/services/${CHECK_PATH}`;
	const KEYS = { apiKey: 'key-record-failures', apiSecret: 'secret-record-failures' };
	let engine: Engine;
	let stub: StubServer;

	beforeAll(async () => {
		engine = await Engine.create();
		stub = await startStubServer();
		engine.setCredentials({
			finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...KEYS },
		});
	});
	afterAll(async () => await stub.close());
	beforeEach(() => stub.requests.splice(0));

	const company = (cin: string): StubResponse => ({
		body: { success: true, message: 'ok', data: { cin, company_name: 'ACME LIMITED' } },
	});
	const notFound: StubResponse = {
		status: 404,
		body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
	};
	const cinOfRequest = (request: { body: unknown }) =>
		String((request.body as IDataObject | undefined)?.cin);
	const lookups = (concurrency: number, requestOptions: IDataObject = {}) =>
		nodeWorkflow({
			items: Array.from({ length: ITEMS }, (_, i) => ({ cin: cinOf(i) })),
			onError: 'continueErrorOutput',
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				requestOptions: { concurrency, ...requestOptions },
			},
		});
	const sentTo = (path: string) => stub.requests.filter((r) => r.path === path);

	describe.each(PARALLEL)('Items in Parallel %i', (concurrency) => {
		test.each<[string, StubResponse, string | null, number, number]>([
			[
				'HTTP 401',
				{
					status: 401,
					body: { success: false, message: 'Not for this record', error_code: 'UNAUTHORIZED' },
				},
				'UNAUTHORIZED',
				401,
				1,
			],
			[
				'HTTP 403',
				{
					status: 403,
					body: { success: false, message: 'Record restricted', error_code: 'FORBIDDEN' },
				},
				'FORBIDDEN',
				403,
				1,
			],
			[
				'HTTP 200 with error_code FORBIDDEN',
				{ status: 200, body: { success: false, message: 'Restricted', error_code: 'FORBIDDEN' } },
				'FORBIDDEN',
				200,
				1,
			],
			[
				'HTTP 422 with status_code 403',
				{
					status: 422,
					body: { status: 'error', status_code: 403, message: 'Restricted', request_id: 'req_7' },
				},
				'ERROR',
				422,
				1,
			],
			[
				'HTTP 500',
				{ status: 500, body: { success: false, message: 'Internal', error_code: 'SERVER_ERROR' } },
				'SERVER_ERROR',
				500,
				ATTEMPTS,
			],
		])(
			'item 7 answering %s: 49 outputs, 1 error item, no stop',
			async (label, answer, code, httpCode, attempts) => {
				stub.answer(CIN_PATH, (request) =>
					cinOfRequest(request) === cinOf(BAD) ? answer : company(cinOfRequest(request)),
				);
				stub.respond(CHECK, notFound);
				const result = await engine.run(lookups(concurrency));
				expectOneErrorItem(result, code, httpCode);
				const lookupsSent = sentTo(CIN_PATH);
				expect(lookupsSent.filter((r) => cinOfRequest(r) === cinOf(BAD))).toHaveLength(attempts);
				expect(lookupsSent).toHaveLength(ITEMS - 1 + attempts);
				// a refused answer is confirmed once per execution; a 500 is no reason to check (the one
				// check there may be is the first probe's grace, when its answer took over half a second)
				if (label === 'HTTP 500') expect(sentTo(CHECK).length).toBeLessThanOrEqual(1);
				else expect(sentTo(CHECK)).toHaveLength(1);
			},
		);
	});

	describe('a slow service (every answer after 0.8 s): what a wrong key and an outage cost', () => {
		const LATENCY_MS = 800;
		const unauthorized = {
			status: 401,
			delayMs: LATENCY_MS,
			body: { success: false, message: 'Invalid API key or secret', error_code: 'UNAUTHORIZED' },
		};
		const gatewayTimeout = {
			status: 504,
			delayMs: LATENCY_MS,
			body: '<html><body>504 Gateway Time-out</body></html>',
		};

		test.each(PARALLEL)(
			'a wrong key at Items in Parallel %i: 1 lookup and 1 credential check, the node stops',
			async (concurrency) => {
				stub.answer(CIN_PATH, () => unauthorized);
				stub.respond(CHECK, unauthorized);
				const started = Date.now();
				const result = await engine.run(lookups(concurrency));
				const [sent, checks] = [sentTo(CIN_PATH).length, sentTo(CHECK).length];
				figures.push(
					`wrong key, 0.8 s answers, Items in Parallel ${concurrency}: ${sent} lookups + ${checks} check, ${Date.now() - started} ms`,
				);
				expect(stopOf(result).message).toMatch(/^The FinVerify API credential .* was rejected/);
				expect(sent).toBe(1);
				expect(checks).toBe(1);
			},
		);

		// the circuit needs 4 failed rounds over 3 different items: at Items in Parallel 1 the first two
		// items go through their 4 attempts each (a record's own 504 is its error), the third item's first
		// failure opens it; with more in parallel, 4 different probes, one after another
		test.each<[number, number]>([
			[1, 2 * ATTEMPTS + 1],
			[3, 4],
			[50, 4],
		])(
			'an outage (504 everywhere) at Items in Parallel %i: %i lookups, the node stops',
			async (concurrency, expected) => {
				stub.answer(CIN_PATH, () => gatewayTimeout);
				stub.respond(CHECK, gatewayTimeout);
				const started = Date.now();
				const result = await engine.run(lookups(concurrency));
				const sent = sentTo(CIN_PATH).length;
				figures.push(
					`outage (504), 0.8 s answers, Items in Parallel ${concurrency}: ${sent} lookups, ${Date.now() - started} ms`,
				);
				expect(stopOf(result).message).toMatch(/^The FinVerify service is unavailable/);
				expect(sent).toBe(expected);
				// the first probe's grace ends before its 504: the check is sent for the items waiting on it
				// (none at Items in Parallel 1), gets a 504 too, proves nothing, and they keep waiting
				expect(sentTo(CHECK).length).toBeLessThanOrEqual(concurrency === 1 ? 0 : 1);
			},
		);
	});
});
