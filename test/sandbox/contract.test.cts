import Ajv2020 from 'ajv/dist/2020';
import { loadContract } from '../../sandbox/openapi.cjs';
import type { RunningSandbox } from '../../sandbox/server.cjs';
import { api, call, expectContract, KEY, REFRESH_COOKIE, start, type Reply } from './helpers.cjs';

/**
 * Every sandbox response (both shapes, every error case) must match the response schema the OpenAPI
 * document declares for that operation and status.
 */
const contract = loadContract();
const ops = Object.fromEntries(contract.operations.map((o) => [o.operationId, o]));
const SHAPES = ['sample', 'reference'] as const;

let sandbox: RunningSandbox;
let clientId: string;

const send = (
	operationId: string,
	input: unknown,
	options: {
		shape?: 'sample' | 'reference';
		headers?: Record<string, string>;
		auth?: boolean;
	} = {},
): Promise<Reply> => {
	const op = ops[operationId];
	const headers = { ...(op.needsRefreshToken ? REFRESH_COOKIE : {}), ...options.headers };
	if (op.method === 'GET')
		return call(
			sandbox,
			'GET',
			`${op.path}?${new URLSearchParams(input as Record<string, string>)}`,
			{ ...options, headers },
		);
	return call(sandbox, 'POST', op.path, { ...options, headers, body: input });
};

/** The error code of any envelope variant (variant B has none: its status_code). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const codeOf = (body: Record<string, any>): string =>
	body.error_code ?? body.error?.code ?? body.message_code ?? String(body.status_code);

const SESSION = {
	flow: 'itr',
	redirect_url: 'http://127.0.0.1:9/done',
	callback_url: 'http://127.0.0.1:9/callback',
	recipient_email: 'recipient@example.com',
};
const VALID: Record<string, unknown[]> = {
	multiBureauFetch: [
		{
			pan: 'ABCPE1234F',
			name: 'Ravi Kumar',
			mobile_number: '9876543210',
			consent: 'Y',
			gender: 'male',
			bureaus: ['equifax', 'experian', 'cibil', 'crif'],
		},
		{
			pan: 'BQWPS4321K',
			name: 'Sunita Sharma',
			mobile_number: '9123456780',
			consent: 'Y',
			gender: 'female',
			bureaus: ['crif'],
		},
		{
			pan: 'BQWPS4321K',
			name: 'Nohit Sharma',
			mobile_number: '9123456780',
			consent: 'Y',
			gender: 'female',
			bureaus: ['equifax', 'experian', 'cibil', 'crif'],
		},
	],
	commercialReportFetch: [
		{ business_name: 'Acme Traders', pan: 'AAACA1234B' },
		{
			business_name: 'Zeta & Sons <Exports>',
			pan: 'AAFFZ9876Q',
			consent: 'Y',
			report_type: 'html',
		},
	],
	cinLookup: [
		{ cin: 'L17110MH1973PLC019786' },
		{ cin: 'u72200ka2005ptc036245' },
		{ cin: 'U00000XX0000OPC000001' },
		{ cin: 'ABCDEFGHIJKLMNOPQRSTU' },
	],
	llpinLookup: [{ llpin: 'AAB-1234' }, { llpin: 'zzq-0001' }, { llpin: 'ACD-9921' }],
	panLookup: [
		{ pan: 'AAACR5055K' },
		{ pan: 'aaafa1234b' },
		{ pan: 'AAATA1234C' },
		{ pan: 'ABCPE1234F' },
		{ pan: 'AAFFL1234Q' },
	],
	companyAutocomplete: [{ company_name: 'tata' }, { company_name: 'Reliance Ind' }],
	epfoFetch: [{ mobile_number: '9876543210' }, { mobile_number: '7000000001' }],
	epfoCrifFetch: [
		{ mobile_number: '9876543210' },
		{ mobile_number: '9000000206' },
		{ mobile_number: '9000000207' },
	],
	itrAnalyze: [
		{ pan: 'ABCPE1234F', password: 'Secret@123' },
		{ pan: 'ABCPE1234F', password: 'x', assessment_years: ['2024-25'] },
	],
	itrStatus: [{ job_id: 'itr_unknown_job' }, { job_id: 'job_incomplete' }],
	itrData: [{ job_id: 'itr_demo_job' }, { job_id: 'another-job-42' }],
	itrForgetPassword: [{ client_id: 'client_123', password: 'NewPass@123' }],
	itrSubmitOtp: [{ client_id: 'client_123', otp: '123456' }],
	journeyInit: [
		{ mobile_number: '9876543210' },
		{
			mobile_number: '9876543210',
			consent_type: 'loan_monitoring',
			webhook_url: 'http://127.0.0.1:9/hook',
			redirect_url: 'https://example.com/done',
			customer_name: 'Ravi',
			customer_email: 'ravi@example.com',
			auto_consent: true,
		},
	],
	journeyStatus: [],
	journeyStatementResult: [],
	journeyAnalysisJson: [],
	collectionSessionCreate: [
		SESSION,
		{
			...SESSION,
			flow: 'gst',
			metadata: { loan: 'L-1' },
			expires_in: 86400,
			recipient_name: 'Asha',
			requester_name: 'Acme Finance',
		},
	],
};

/** [operation, input, expected status, expected code] for each magic input and validation failure. */
const ERRORS: Array<[string, unknown, number, string]> = [
	['multiBureauFetch', {}, 400, '400'],
	['multiBureauFetch', { ...(VALID.multiBureauFetch[0] as object), consent: 'N' }, 400, '400'],
	['multiBureauFetch', { ...(VALID.multiBureauFetch[0] as object), pan: 'abcpe1234f' }, 400, '400'],
	['multiBureauFetch', { ...(VALID.multiBureauFetch[0] as object), bureaus: [] }, 400, '400'],
	['multiBureauFetch', { ...(VALID.multiBureauFetch[0] as object), gender: 'other' }, 400, '400'],
	['multiBureauFetch', { ...(VALID.multiBureauFetch[0] as object), pan: 'ZZZZZ0422Z' }, 422, '422'],
	['multiBureauFetch', { ...(VALID.multiBureauFetch[0] as object), pan: 'ZZZZZ0500Z' }, 500, '500'],
	['commercialReportFetch', { business_name: 'Acme', pan: 'BAD' }, 400, 'INVALID_PAN'],
	['commercialReportFetch', { business_name: 'A', pan: 'AAACA1234B' }, 400, 'INVALID_INPUT'],
	[
		'commercialReportFetch',
		{ business_name: 'Acme', pan: 'AAACA1234B', consent: 'N' },
		400,
		'CONSENT_REQUIRED',
	],
	['commercialReportFetch', { business_name: 'Acme', pan: 'ZZZZZ0404Z' }, 404, 'REPORT_NOT_FOUND'],
	['cinLookup', { cin: 'L17110MH1973PLC01978' }, 400, 'INVALID_INPUT'],
	['cinLookup', { cin: 'U00000MH0000PTC000404' }, 404, 'COMPANY_NOT_FOUND'],
	['cinLookup', { cin: 'u00000mh0000ptc000404' }, 404, 'COMPANY_NOT_FOUND'],
	['llpinLookup', { llpin: 'AAB1234' }, 400, 'INVALID_INPUT'],
	['llpinLookup', { llpin: 'ZZZ-0404' }, 404, 'LLPIN_NOT_FOUND'],
	['panLookup', { pan: 'ABC' }, 400, 'INVALID_INPUT'],
	['panLookup', { pan: 'ZZZZZ0404Z' }, 404, 'PAN_NOT_FOUND'],
	['companyAutocomplete', { company_name: 'ab' }, 400, 'INVALID_INPUT'],
	['companyAutocomplete', {}, 400, 'INVALID_INPUT'],
	['companyAutocomplete', { company_name: 'NoMatch Corp' }, 404, 'NO_RESULTS'],
	['epfoFetch', { mobile_number: '12345' }, 400, 'INVALID_INPUT'],
	['epfoFetch', { mobile_number: '9000000404' }, 404, 'EPFO_RECORD_NOT_FOUND'],
	['epfoFetch', { mobile_number: '9000000429' }, 429, 'RATE_LIMITED'],
	['epfoFetch', { mobile_number: '9000000503' }, 503, 'UPSTREAM_UNAVAILABLE'],
	['epfoCrifFetch', { mobile_number: '+919876543210' }, 400, 'INVALID_INPUT'],
	['itrAnalyze', { pan: 'ABCPE1234F' }, 400, 'INVALID_INPUT'],
	['itrStatus', { job_id: 'no spaces allowed' }, 400, 'INVALID_INPUT'],
	['itrData', {}, 400, 'INVALID_INPUT'],
	['itrData', { job_id: 'job_incomplete' }, 409, 'JOB_INCOMPLETE'],
	['itrForgetPassword', { client_id: 'client_123', password: 'password' }, 422, 'WEAK_PASSWORD'],
	['itrForgetPassword', { client_id: 'c1', password: 'NewPass@123' }, 400, 'INVALID_INPUT'],
	['itrSubmitOtp', { client_id: 'client_123', otp: '000000' }, 400, 'INVALID_OTP'],
	['itrSubmitOtp', { client_id: 'client_123', otp: 'abc' }, 400, 'INVALID_OTP'],
	[
		'journeyInit',
		{ mobile_number: '9876543210', webhook_url: 'ftp://example.com/hook' },
		400,
		'INVALID_INPUT',
	],
	['journeyInit', { mobile_number: '98765' }, 400, 'INVALID_INPUT'],
	['journeyStatus', { client_id: 'bad id!' }, 400, 'INVALID_CLIENT_ID'],
	['journeyStatus', {}, 400, 'INVALID_INPUT'],
	['journeyStatus', { client_id: 'aa_doesnotexist' }, 404, 'NOT_FOUND'],
	['journeyStatementResult', { client_id: 'x' }, 400, 'INVALID_CLIENT_ID'],
	['journeyStatementResult', { client_id: 'aa_doesnotexist' }, 404, 'NOT_FOUND'],
	['journeyAnalysisJson', { client_id: 'x' }, 400, 'INVALID_CLIENT_ID'],
	['journeyAnalysisJson', { client_id: 'aa_doesnotexist' }, 404, 'NOT_FOUND'],
	['collectionSessionCreate', { ...SESSION, flow: 'pdf' }, 400, 'bad_request'],
	['collectionSessionCreate', { ...SESSION, expires_in: 0 }, 400, 'bad_request'],
	['collectionSessionCreate', { ...SESSION, recipient_email: 'not-an-email' }, 400, 'bad_request'],
	[
		'collectionSessionCreate',
		{ ...SESSION, recipient_email: 'undeliverable@example.com' },
		422,
		'unprocessable_entity',
	],
	[
		'collectionSessionCreate',
		{ ...SESSION, recipient_email: 'server-error@example.com' },
		500,
		'internal_server_error',
	],
];

beforeAll(async () => {
	sandbox = await start({ clock: 'manual' }); // journeys stay in the state each test sets
	const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
		body: { mobile_number: '9812345678', auto_consent: true },
	});
	clientId = init.json.data.client_id;
	await call(sandbox, 'POST', `/__sandbox/journeys/${clientId}/advance`, {
		body: { to: 'analysis_complete' },
		auth: false,
	});
	VALID.journeyStatus.push({ client_id: clientId });
	VALID.journeyStatementResult.push({ client_id: clientId });
	VALID.journeyAnalysisJson.push({ client_id: clientId });
	await call(sandbox, 'POST', '/__sandbox/keys', {
		auth: false,
		body: { key: 'bureau-only-key', secret: 'bureau-only-secret', permissions: ['MULTI_BUREAU'] },
	});
});

afterAll(() => sandbox.close());

describe('the OpenAPI document', () => {
	it('declares every operation of the spec plus the named-only ones, each with a permission and an error variant', () => {
		expect(contract.operations).toHaveLength(18);
		for (const op of contract.operations) {
			expect(op.permission).toMatch(/^[A-Z_]+$/);
			expect(['A', 'B', 'C', 'D', 'E']).toContain(op.variant);
		}
		expect(Object.keys(VALID).sort()).toEqual(contract.operations.map((o) => o.operationId).sort());
	});

	it('is a valid JSON Schema 2020-12 set (meta-validated)', () => {
		const ajv = new Ajv2020({ strict: false });
		const schemas = JSON.parse(
			JSON.stringify(contract.doc.components.schemas).replaceAll(
				'#/components/schemas/',
				'urn:fv#/$defs/',
			),
		);
		expect(ajv.validateSchema({ $id: 'urn:fv', $defs: schemas })).toBe(true);
	});
});

describe.each(SHAPES)('successful responses, %s shape', (shape) => {
	it.each(Object.keys(VALID))('%s matches its declared 200 schema', async (operationId) => {
		expect(VALID[operationId].length).toBeGreaterThan(0);
		for (const input of VALID[operationId]) {
			const reply = await send(operationId, input, { shape });
			expect({ input, status: reply.status }).toEqual({ input, status: 200 });
			expectContract(operationId, reply);
		}
	});
});

describe.each(SHAPES)('error responses, %s shape', (shape) => {
	it.each(
		ERRORS.map(
			([op, input, status, code]) =>
				[
					`${op} ${JSON.stringify(input).slice(0, 70)} → ${status} ${code}`,
					op,
					input,
					status,
					code,
				] as const,
		),
	)('%s', async (_title, operationId, input, status, code) => {
		const reply = await send(operationId, input, { shape });
		expect({ status: reply.status, code: codeOf(reply.json) }).toEqual({ status, code });
		expectContract(operationId, reply);
		if (status === 429) expect(reply.headers.get('retry-after')).toBe('1');
	});

	it.each(Object.keys(VALID))(
		'%s: missing, wrong and expired credentials → 401; missing permission → 403',
		async (operationId) => {
			const input = VALID[operationId][0];
			const cases: Array<[Record<string, string>, number]> = [
				[{}, 401],
				[{ 'x-api-key': 'sandbox-key', 'x-api-secret': 'wrong' }, 401],
				[{ 'X-Api-Key': 'nobody', 'X-Api-Secret': 'sandbox-secret' }, 401],
				[{ 'x-api-key': 'expired-key', 'x-api-secret': 'expired-secret' }, 401],
				[
					ops[operationId].permission.startsWith('CORPORATE') ||
					ops[operationId].permission === 'COMPANY_AUTOCOMPLETE'
						? { 'x-api-key': 'bureau-only-key', 'x-api-secret': 'bureau-only-secret' }
						: { 'x-api-key': 'corporate-only-key', 'x-api-secret': 'corporate-only-secret' },
					403,
				],
			];
			for (const [headers, status] of cases) {
				const reply = await send(operationId, input, { shape, auth: false, headers });
				expect({ headers, status: reply.status }).toEqual({ headers, status });
				expectContract(operationId, reply);
				if (status === 401)
					expect(codeOf(reply.json)).toBe(
						operationId === 'collectionSessionCreate'
							? 'unauthorized'
							: ops[operationId].variant === 'B'
								? '401'
								: 'UNAUTHORIZED',
					);
				if (status === 403)
					expect(codeOf(reply.json)).toBe(
						operationId === 'collectionSessionCreate'
							? 'forbidden'
							: ops[operationId].variant === 'B'
								? '403'
								: 'PERMISSION_DENIED',
					);
			}
		},
	);

	it('every POST operation answers a malformed JSON body with 400 in its own variant', async () => {
		for (const op of contract.operations.filter((o) => o.method === 'POST')) {
			const reply = await call(sandbox, 'POST', op.path, {
				shape,
				body: '{"pan": ',
				headers: op.needsRefreshToken ? REFRESH_COOKIE : {},
			});
			expect({ op: op.operationId, status: reply.status }).toEqual({
				op: op.operationId,
				status: 400,
			});
			expectContract(op.operationId, reply);
			expect(reply.text).toMatch(/not valid JSON/);
		}
	});

	it('collection session create needs the refresh_token cookie (absent, wrong, expired → 401 D unauthorized)', async () => {
		for (const cookie of [
			undefined,
			'refresh_token=wrong',
			'refresh_token=expired-refresh-token',
			'other=1',
		]) {
			const reply = await call(sandbox, 'POST', api('collection/session/create'), {
				shape,
				body: SESSION,
				headers: cookie ? { cookie } : {},
			});
			expect(reply.status).toBe(401);
			expect(reply.json.message_code).toBe('unauthorized');
			expectContract('collectionSessionCreate', reply);
		}
	});
});

describe('gated journey results', () => {
	it('statement-result and analysis-json answer JOURNEY_INCOMPLETE (409, variant A) before analysis_complete', async () => {
		const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			body: { mobile_number: '9811111111' },
		});
		for (const operationId of ['journeyStatementResult', 'journeyAnalysisJson']) {
			const reply = await send(operationId, { client_id: init.json.data.client_id });
			expect(reply.status).toBe(409);
			expect(reply.json).toEqual({
				success: false,
				message: expect.any(String),
				error_code: 'JOURNEY_INCOMPLETE',
			});
			expectContract(operationId, reply);
		}
	});

	it('journey status validates in every state, in both shapes', async () => {
		const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			body: { mobile_number: '9822222222' },
		});
		const id = init.json.data.client_id;
		for (const to of [
			'consent_pending',
			'consent_granted',
			'data_fetched',
			'failed',
			'consent_denied',
			'expired',
			'analysis_complete',
			'initiated',
		]) {
			await call(sandbox, 'POST', `/__sandbox/journeys/${id}/advance`, {
				auth: false,
				body: { to },
			});
			for (const shape of SHAPES) {
				const reply = await send('journeyStatus', { client_id: id }, { shape });
				expectContract('journeyStatus', reply);
				const status = shape === 'reference' ? reply.json.data.status : reply.json.status;
				expect(status).toBe(shape === 'sample' && to === 'analysis_complete' ? 'completed' : to);
			}
		}
	});
});

it('uses the credential headers case-insensitively', async () => {
	const reply = await call(sandbox, 'POST', api('corporate/cin-lookup'), {
		auth: false,
		headers: { 'X-API-KEY': KEY['x-api-key'], 'X-Api-Secret': KEY['x-api-secret'] },
		body: { cin: 'L17110MH1973PLC019786' },
	});
	expect(reply.status).toBe(200);
});
