/**
 * Issue #10 regressions of the transport, through n8n-core's real engine against scripted loopback servers:
 * redirects never carry the credential to another host (High 2), downloads retried like reads (5), a hard
 * deadline per attempt (6), every item checked before the first request (7), billed pulls not re-sent (8),
 * an empty success is an error naming the missing field (9).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import { Engine, nodeWorkflow, PATIENCE_MS, startStubServer } from '../../harness/index.cjs';
import type { StubServer } from '../../harness/index.cjs';
import { closeLoopbackServer, listenOnLoopback } from '../../harness/loopback.cjs';

const CIN = 'L17110MH1973PLC019786';
const CIN_PATH = '/api/v1/services/corporate/cin-lookup';
const SECRETS = {
	apiKey: 'key-reliability-7f3a',
	apiSecret: 'secret-reliability-9d8e',
	refreshToken: 'refresh-reliability-1a2b',
	webhookSecret: 'whsec-reliability-0f1e',
};

let engine: Engine;
let service: StubServer;
let other: StubServer;

const company = (pdfUrl?: string) => ({
	success: true,
	data: {
		cin: CIN,
		pdf_url: pdfUrl,
		result: { company: { legal_name: 'ACME LIMITED', cin: CIN } },
	},
});

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

const leaked = (server: StubServer) =>
	server.requests.filter((r) =>
		Object.values(r.headers).some((v) =>
			[SECRETS.apiKey, SECRETS.apiSecret, SECRETS.refreshToken].some((s) => String(v).includes(s)),
		),
	);

beforeAll(async () => {
	engine = await Engine.create();
	service = await startStubServer();
	other = await startStubServer();
	engine.setCredentials({
		finVerifyApi: { environment: 'custom', baseUrl: service.url, ...SECRETS },
	});
});
afterAll(async () => {
	await service.close();
	await other.close();
});
beforeEach(() => {
	service.requests.splice(0);
	other.requests.splice(0);
});

describe('redirects (High 2)', () => {
	test.each([301, 302, 303, 307, 308])(
		'a %i from the service to another host is not followed; the other host sees nothing',
		async (status) => {
			service.respond(CIN_PATH, {
				status,
				headers: { location: `${other.url}/steal` },
				body: '',
			});
			other.respond('/steal', { body: company() });
			const result = await engine.run(cinLookup());
			expect(String(result.error?.message)).toMatch(/redirected to another host/);
			expect(other.requests).toHaveLength(0);
			expect(service.requests).toHaveLength(1);
		},
	);

	test('a same-host redirect is followed with the credential', async () => {
		service.respond(CIN_PATH, {
			status: 307,
			headers: { location: '/api/v1/services/corporate/cin-lookup-v2' },
		});
		service.respond('/api/v1/services/corporate/cin-lookup-v2', { body: company() });
		const result = await engine.run(cinLookup());
		expect(result.error).toBeUndefined();
		expect(service.requests.map((r) => r.path)).toEqual([
			CIN_PATH,
			'/api/v1/services/corporate/cin-lookup-v2',
		]);
		expect(service.requests[1].headers['x-api-key']).toBe(SECRETS.apiKey);
		expect(service.requests[1].body).toEqual({ cin: CIN });
	});

	test('a report link on the service host redirecting elsewhere: the file arrives, the other host gets no credential', async () => {
		service.respond(CIN_PATH, { body: company(`${service.url}/files/report.pdf`) });
		service.respond('/files/report.pdf', {
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
		expect(service.requests[1].headers['x-api-key']).toBe(SECRETS.apiKey);
		expect(other.requests).toHaveLength(1);
		expect(leaked(other)).toHaveLength(0);
	});

	test('version 2 names the switch download, as every download (version 1: downloadReportPdf); the file lands in companyReport', async () => {
		service.respond(CIN_PATH, { body: company(`${service.url}/files/v2.pdf`) });
		service.respond('/files/v2.pdf', {
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
		expect(service.requests.filter((r) => r.path === '/files/v2.pdf')).toHaveLength(1);
	});

	test('a pre-signed link on another host redirecting back to the service host gets the credential only there', async () => {
		service.respond(CIN_PATH, { body: company(`${other.url}/signed.pdf`) });
		other.respond('/signed.pdf', {
			status: 307,
			headers: { location: `${service.url}/files/final.pdf` },
		});
		service.respond('/files/final.pdf', {
			body: '%PDF-1.4 x',
			headers: { 'content-type': 'application/pdf' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(result.error).toBeUndefined();
		expect(leaked(other)).toHaveLength(0);
	});
});

describe('downloads retried like reads (Medium 5)', () => {
	test.each([
		['429', { status: 429, headers: { 'retry-after': '0' }, body: { success: false } }],
		['500', { status: 500, body: { success: false } }],
		['503', { status: 503, body: { success: false } }],
		['a reset connection', { drop: true }],
	])('one %s on the file, then the file: the item succeeds', async (_name, fault) => {
		service.respond(CIN_PATH, { body: company(`${service.url}/files/r.pdf`) });
		service.respond('/files/r.pdf', fault as never, {
			body: '%PDF-1.4 ok',
			headers: { 'content-type': 'application/pdf' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(result.error).toBeUndefined();
		expect(service.requests.filter((r) => r.path === '/files/r.pdf')).toHaveLength(2);
		expect(result.output('FinVerify')[0].binary?.data).toBeDefined();
	});

	test('an error envelope served as the file is an error, not a saved report', async () => {
		service.respond(CIN_PATH, { body: company(`${service.url}/files/e.pdf`) });
		service.respond('/files/e.pdf', {
			body: { success: false, message: 'Link expired', error_code: 'LINK_EXPIRED' },
		});
		const result = await engine.run(cinLookup({ downloadReportPdf: true }));
		expect(String(result.error?.message)).toMatch(/Link expired/);
	});
});

describe('a hard deadline per attempt (Medium 6)', () => {
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
				finVerifyApi: { environment: 'custom', baseUrl: service.url, ...SECRETS },
			});
		}
	});
});

describe('every item checked before the first request (Medium 7, issue 17)', () => {
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
		service.respond(JOURNEY, {
			body: { success: true, data: { client_id: 'aa_1', status: 'initiated' } },
		});
		const items = ['9876543210', '9876543211', '9876543212', 'not-a-number', '9876543214'].map(
			(mobile) => ({ mobile }),
		);
		const result = await engine.run(journey(items));
		expect(String(result.error?.message)).toMatch(/Mobile/i);
		expect(service.requests.filter((r) => r.path === JOURNEY)).toHaveLength(0);
	});

	test('with the error output on, the valid items still run and the invalid one is an error item', async () => {
		service.respond(JOURNEY, {
			body: { success: true, data: { client_id: 'aa_1', status: 'initiated' } },
		});
		const items = ['9876543210', 'x', '9876543212'].map((mobile) => ({ mobile }));
		const result = await engine.run(journey(items, 'continueErrorOutput'));
		expect(result.error).toBeUndefined();
		expect(service.requests.filter((r) => r.path === JOURNEY)).toHaveLength(2);
		expect(result.json('FinVerify', 0)).toHaveLength(2);
		expect(result.json('FinVerify', 1)).toHaveLength(1);
	});
});

describe('billed pulls and empty successes (Medium 8, 9)', () => {
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
		service.respond(COMMERCIAL, fault as never, { body: { success: true, data: {} } });
		const result = await engine.run(commercial());
		expect(result.error).toBeDefined();
		expect(service.requests.filter((r) => r.path === COMMERCIAL)).toHaveLength(1);
	});

	test('the commercial report is re-sent after a 503 (the service did not act)', async () => {
		service.respond(
			COMMERCIAL,
			{ status: 503, headers: { 'retry-after': '0' }, body: { success: false } },
			{ status: 400, body: { success: false, message: 'stop' } },
		);
		await engine.run(commercial());
		expect(service.requests.filter((r) => r.path === COMMERCIAL)).toHaveLength(2);
	});

	test('Start Journey answered {"success":true,"data":{}} is an error naming client_id', async () => {
		service.respond('/api/v1/services/aa-bsa-journey/init', { body: { success: true, data: {} } });
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
