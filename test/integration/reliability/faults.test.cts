/**
 * The fault matrix: every fault the sandbox offers, injected once, × a read (Get by CIN), a
 * create (Start Journey), a billed pull (commercial credit report) and a document download (the company
 * report PDF), through n8n-core's real engine against the sandbox. A read and a download survive every
 * one-off fault; a create or a billed pull is never sent twice (it fails rather than risk a duplicate,
 * except where the answer proves nothing was done: 429, 503, a refused connection).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	Engine,
	nodeWorkflow,
	sandboxCredentials,
	startTestSandbox,
} from '../../harness/index.cjs';
import { Figures } from './figures.cjs';

const CIN = 'L17110MH1973PLC019786';
const FAULTS: Array<[string, IDataObject]> = [
	['429 + Retry-After', { status: 429, retryAfter: 0 }],
	['500', { status: 500 }],
	['502', { status: 502 }],
	['503', { status: 503 }],
	['504', { status: 504 }],
	['HTML error page', { html: true }],
	['malformed JSON (200)', { malformed: true }],
	['connection reset', { drop: true }],
	['no answer (timeout)', { timeout: true }],
	['latency 300 ms', { latencyMs: 300 }],
];
/** Faults after which a non-idempotent request may be re-sent: the service proved it did nothing. */
const NOT_PROCESSED = new Set(['429 + Retry-After', '503', 'latency 300 ms']);

type Target = {
	name: string;
	path: string;
	kind: 'read' | 'create' | 'charged' | 'download';
	parameters: IDataObject;
};
const policy = { maxRetries: 2, timeout: 2000 };
const TARGETS: Target[] = [
	{
		name: 'read: Get by CIN',
		kind: 'read',
		path: '/api/v1/services/corporate/cin-lookup',
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: CIN },
			requestOptions: policy,
		},
	},
	{
		name: 'create: Start Journey',
		kind: 'create',
		path: '/api/v1/services/aa-bsa-journey/init',
		parameters: {
			resource: 'bankStatementJourney',
			operation: 'start',
			mobileNumber: '9876543210',
			consentType: 'loanUnderwriting',
			requestOptions: policy,
		},
	},
	{
		name: 'charged: commercial report',
		kind: 'charged',
		path: '/api/v1/services/credit-report-commercial/fetch',
		parameters: {
			resource: 'creditReport',
			operation: 'getCommercialReport',
			businessName: 'Acme Traders',
			pan: 'AAACA1234B',
			consent: true,
			output: 'json',
			requestOptions: policy,
		},
	},
	{
		name: 'download: company PDF',
		kind: 'download',
		path: `/files/company/${CIN}.pdf`,
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: CIN },
			downloadReportPdf: true,
			binaryPropertyName: 'data',
			requestOptions: policy,
		},
	},
];

let engine: Engine;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
const figures = new Figures('Fault matrix (one-off fault × operation kind)');
const tally = { runs: 0, crashes: 0, survived: { read: 0, download: 0 }, duplicates: 0 };

beforeAll(async () => {
	engine = await Engine.create();
	sandbox = await startTestSandbox();
	engine.setCredentials(sandboxCredentials(sandbox.url));
});
afterAll(async () => {
	const perKind = FAULTS.length;
	figures.add('runs', tally.runs, TARGETS.length * FAULTS.length);
	figures.add('crashes (not a node error)', tally.crashes, 0);
	figures.add(`reads surviving a one-off fault (of ${perKind})`, tally.survived.read, perKind);
	figures.add(
		`downloads surviving a one-off fault (of ${perKind})`,
		tally.survived.download,
		perKind,
	);
	figures.add('creates / billed pulls sent twice after an ambiguous fault', tally.duplicates, 0);
	figures.print();
	await sandbox.close();
});
afterEach(async () => await sandbox.control.clearFaults());

describe.each(TARGETS)('$name', (target) => {
	test.each(FAULTS)('%s once', async (faultName, fault) => {
		await sandbox.control.fault({ path: target.path, times: 1, ...fault });
		const before = (await sandbox.control.requests(target.path)).length;
		const result = await engine.run(nodeWorkflow({ parameters: target.parameters }));
		const sent = (await sandbox.control.requests(target.path)).length - before;
		tally.runs++;
		const error = result.error as unknown as { name?: string } | undefined;
		if (error && !/NodeApiError|NodeOperationError/.test(String(error.name))) tally.crashes++;
		expect(error === undefined || /NodeApiError|NodeOperationError/.test(String(error.name))).toBe(
			true,
		);

		if (target.kind === 'read' || target.kind === 'download') {
			expect(result.error).toBeUndefined();
			tally.survived[target.kind]++;
			if (target.kind === 'download')
				expect(result.output('FinVerify')[0].binary?.data?.mimeType).toBe('application/pdf');
		} else if (NOT_PROCESSED.has(faultName)) {
			expect(result.error).toBeUndefined();
		} else {
			// ambiguous: the service may have acted; the node fails instead of sending it again
			if (sent > 1) tally.duplicates++;
			expect(sent).toBe(1);
			expect(result.error).toBeDefined();
		}
	});
});
