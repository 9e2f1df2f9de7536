/**
 * Odd successful answers (29 of 96 tried made a read succeed with nothing in it), through n8n-core's
 * real engine against the sandbox, whose fault API serves each answer with HTTP 200 on the operation's path:
 * a status that is an HTTP code (`"200"`, 200), an identifying field that is blank, invisible, empty or a
 * status word, a bureau list `[]` next to the PAN the request sent, an HTML page where JSON or a report file
 * is expected. Each is an error naming what is missing (INCOMPLETE_RESPONSE, or the HTML page), in the item
 * with Continue On Fail, never a success with nulls or a saved page; the request log shows the node went no
 * further (no download, no poll).
 */
import type { IDataObject } from 'n8n-workflow';

import { withParameters } from '../harness/index.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import { fixtures, NODE, withSandbox } from './support.cjs';

const company = fixtures('company');
const credit = fixtures('creditReport');
const employment = fixtures('employment');
const itr = fixtures('incomeTaxReturn');
const journey = fixtures('bankStatementJourney');
const session = fixtures('collectionSession');

const CIN = 'L17110MH1973PLC019786';
const JOB = 'itr_0123456789abcdef01234567';
const CLIENT = 'aa_0123456789abcdef01234567';

/** [what, workflow, path of the answer, the answer (HTTP 200), what the error says is missing]. */
type Odd = [string, () => WorkflowJson, string, IDataObject, RegExp];

const statusOf = (status: unknown, extra: IDataObject = {}) => ({
	success: true,
	data: { ...extra, status },
});

const ODD: Odd[] = [
	// a status that is an HTTP code: no job, no reset
	[
		'ITR Get Analysis Status, status "200"',
		() => itr('getAnalysisStatus'),
		'itr-analyzer/status',
		statusOf('200', { job_id: JOB }),
		/without data\.status$/,
	],
	[
		'ITR Get Analysis Status, status 200',
		() => itr('getAnalysisStatus'),
		'itr-analyzer/status',
		statusOf(200, { job_id: JOB }),
		/without data\.status$/,
	],
	[
		'ITR Get Analysis Status, status "OK"',
		() => itr('getAnalysisStatus'),
		'itr-analyzer/status',
		statusOf('OK', { job_id: JOB }),
		/without data\.status$/,
	],
	[
		'Reset Portal Password, status "200"',
		() => itr('resetPortalPassword'),
		'itr-analyzer/forget-password',
		statusOf('200', { client_id: 'itr_client_123456' }),
		/without data\.status$/,
	],
	[
		'Reset Portal Password, status 200',
		() => itr('resetPortalPassword'),
		'itr-analyzer/forget-password',
		statusOf(200, { client_id: 'itr_client_123456' }),
		/without data\.status$/,
	],
	[
		'Confirm Password Reset, status "200"',
		() => itr('confirmPasswordReset'),
		'submit-otp',
		statusOf('200', { client_id: 'itr_client_123456' }),
		/without data\.status$/,
	],
	[
		'Confirm Password Reset, status 200',
		() => itr('confirmPasswordReset'),
		'submit-otp',
		statusOf(200, { client_id: 'itr_client_123456' }),
		/without data\.status$/,
	],
	// blank, invisible, empty or status-like identifying fields: no company, LLP, entity…
	[
		'Get by CIN, blank CIN and name',
		() => company('getByCin'),
		'cin-lookup',
		{ success: true, data: { cin: '   ', company_name: '', status: 'Active' } },
		/without data\.cin or data\.company_name or /,
	],
	[
		'Get by CIN, empty arrays',
		() => company('getByCin'),
		'cin-lookup',
		{ success: true, data: { cin: [], company_name: [] } },
		/without data\.cin or data\.company_name or /,
	],
	[
		'Get by CIN, zero-width and "200"',
		() => company('getByCin'),
		'cin-lookup',
		{ success: true, data: { cin: '\u200b', company_name: '200' } },
		/without data\.cin or data\.company_name or /,
	],
	[
		'Get by CIN (sample shape), blank legal name',
		() => company('getByCin'),
		'cin-lookup',
		{ success: true, data: { result: { company: { cin: ' ', legal_name: '' } } } },
		/without data\.cin or data\.company_name or /,
	],
	[
		'Get LLP by LLPIN, blank LLPIN and empty name',
		() => company('getLlpByLlpin'),
		'llpin-lookup',
		{ success: true, data: { llpin: ' ', llp_name: [] } },
		/without data\.llpin or data\.llp_name or /,
	],
	[
		'Get Entity by PAN, blank PAN and name',
		() => company('getEntityByPan'),
		'pan-lookup',
		{ success: true, data: { pan: '', entity_name: '  ', entity_type: 'Company' } },
		/without data\.pan or data\.entity_name or /,
	],
	[
		'Get Entity by PAN (sample shape), empty result',
		() => company('getEntityByPan'),
		'pan-lookup',
		{ success: true, data: { doc_id: 'd1', result: { pan: [], legal_name: 'null' } } },
		/without data\.pan or data\.entity_name or /,
	],
	[
		'Get Commercial Report, blank report',
		() => credit('getCommercialReport'),
		'credit-report-commercial/fetch',
		{ status: 'success', data: { pan: ' ', business_name: '', report: '', report_url: [] } },
		/without data\.pan or data\.business_name or data\.report or data\.report_url$/,
	],
	[
		'Get EPFO Record, blank UAN and empty profile and history',
		() => employment('getEpfoRecord'),
		'epfo-combined/fetch',
		{ success: true, data: { uan: ' ', member_profile: {}, employment_history: [] } },
		/without data\.uan or data\.member_profile or data\.employment_history$/,
	],
	[
		'Get EPFO Record, a profile of only status words',
		() => employment('getEpfoRecord'),
		'epfo-combined/fetch',
		{ success: true, data: { member_profile: { status: 200, message: 'OK', name: '' } } },
		/without data\.uan or data\.member_profile or data\.employment_history$/,
	],
	[
		'Get EPFO Record with Credit Report, empty parts',
		() => employment('getEpfoRecordWithCredit'),
		'epfo-crif-combined/fetch',
		{ success: true, data: { epfo: {}, crif: [], credit_report: '', credit: '  ' } },
		/without data\.epfo or data\.crif or data\.credit_report or data\.credit$/,
	],
	[
		'Get Statement Result, a blank account',
		() => journey('getStatementResult'),
		'aa-bsa-journey/statement-result',
		{ success: true, data: { client_id: CLIENT, status: 'analysis_complete', accounts: [''] } },
		/without an account with its number, bank or transactions \(data\.accounts\)$/,
	],
	[
		'Get Statement Result, an account of only its index',
		() => journey('getStatementResult'),
		'aa-bsa-journey/statement-result',
		{
			success: true,
			data: {
				client_id: CLIENT,
				accounts: [{ account_index: 0, bank_name: '', transactions: [] }],
			},
		},
		/without an account with its number, bank or transactions/,
	],
	[
		'Get Analysis, an empty summary',
		() => journey('getAnalysis'),
		'aa-bsa-journey/analysis-json',
		{ success: true, data: { client_id: CLIENT, summary: {} } },
		/without the analysis/,
	],
	[
		'Get Multi-Bureau Report, results [] beside the PAN',
		() => credit('getMultiBureauReport'),
		'multi-bureau/fetch',
		{ success: true, pan: 'ABCDE1234F', doc_id: 'd1', results: [] },
		/without results or data\.equifax or data\.experian or data\.cibil or data\.crif$/,
	],
	[
		'Get Multi-Bureau Report, a bureau entry that is empty',
		() => credit('getMultiBureauReport'),
		'multi-bureau/fetch',
		{ status: 'success', status_code: 200, data: { cibil: {}, experian: '' } },
		/without .*data\.cibil/,
	],
	[
		'Get ITR Data, the job id alone and no returns',
		() => itr('getData'),
		'itr-analyzer/data',
		{ success: true, data: { job_id: JOB, pan: ' ', itr_records: [] } },
		/without a PAN, name, profile or return/,
	],
	[
		'Start Journey, a blank client id',
		() => journey('start'),
		'aa-bsa-journey/init',
		{ success: true, data: { client_id: '  ', status: 'initiated' } },
		/without data\.client_id or /,
	],
	[
		'Create Session, an empty session id',
		() => session('create'),
		'collection/session/create',
		{ success: true, data: { session_id: [], status: 'created' } },
		/without data\.session_id or /,
	],
];

describe('an odd successful answer is an error naming what is missing', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	test.each(ODD)('%s', async (_, workflow, path, body, missing) => {
		await sandbox.control.fault({ path, body });
		const result = await sandbox.run(workflow());
		expect(result.error?.message).toMatch(/^The service answered success without /);
		expect(result.error?.message).toMatch(missing);
		expect(result.error?.description).toContain(
			'(blank or empty values and status words such as "200" or "OK" do not count); nothing in the answer can be used',
		);
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe('200');
		// nothing sent after the answer (no poll, no download, no second try of an item)
		const sent = await sandbox.control.requests();
		expect(sent.every((request) => String(request.path).endsWith(`/${path}`))).toBe(true);
		expect(new Set(sent.map((request) => JSON.stringify([request.body, request.query]))).size).toBe(
			sent.length,
		);
	});

	test('with Continue On Fail the item carries the error, code INCOMPLETE_RESPONSE', async () => {
		await sandbox.control.fault({
			path: 'itr-analyzer/status',
			body: statusOf('200', { job_id: JOB }),
		});
		const wf = itr('getAnalysisStatus');
		const result = await sandbox.run({
			...wf,
			nodes: wf.nodes.map((n) => (n.name === NODE ? { ...n, continueOnFail: true } : n)),
		});
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		expect(json.status).toBeUndefined();
		expect(json.error).toMatchObject({ code: 'INCOMPLETE_RESPONSE', httpCode: 200 });
		expect(String(json.message)).toBe('The service answered success without data.status');
	});

	test('Output Raw fails the same way', async () => {
		await sandbox.control.fault({
			path: 'cin-lookup',
			body: { success: true, data: { cin: ' ', company_name: [] } },
		});
		const result = await sandbox.run(
			withParameters(company('getByCin'), NODE, { simplify: false }),
		);
		expect(result.error?.description).toContain('nothing in the answer can be used');
	});

	test('answers next to the odd ones still pass: a real status, a numeric UAN, a partial EPFO + credit', async () => {
		await sandbox.control.fault({
			path: 'itr-analyzer/status',
			body: statusOf('processing', { job_id: JOB, progress: 40 }),
			times: 1,
		});
		const status = await sandbox.run(itr('getAnalysisStatus'));
		expect(status.error).toBeUndefined();
		expect(status.json(NODE)[0]).toMatchObject({ status: 'processing' });

		await sandbox.control.fault({
			path: 'epfo-combined/fetch',
			body: {
				success: true,
				data: { uan: 100123456789, member_profile: {}, employment_history: [] },
			},
			times: 1,
		});
		const epfo = await sandbox.run(employment('getEpfoRecord'));
		expect(epfo.error).toBeUndefined();
	});
});

describe('an HTML page is an error, never JSON and never the file', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	test('where JSON is expected (a read answered 200 with a gateway page)', async () => {
		await sandbox.control.fault({ path: 'cin-lookup', html: true, status: 200 });
		const result = await sandbox.run(company('getByCin'));
		expect(result.error?.message).toBe('The service answered with an HTML page instead of JSON');
		expect(result.error?.description).toContain('HTTP 200 with an HTML page ("502 Bad Gateway")');
		expect(await sandbox.control.requests('cin-lookup')).toHaveLength(1);
	});

	test('where a billed pull is answered (never re-sent)', async () => {
		await sandbox.control.fault({
			path: 'credit-report-commercial/fetch',
			html: true,
			status: 200,
		});
		const result = await sandbox.run(credit('getCommercialReport'));
		expect(result.error?.message).toBe('The service answered with an HTML page instead of JSON');
		expect(await sandbox.control.requests('credit-report-commercial/fetch')).toHaveLength(1);
	});

	test.each([
		['the company report PDF', () => company('getByCin.downloadPdf'), `/files/company/${CIN}.pdf`],
		[
			'a bureau report PDF',
			() => credit('getMultiBureauReport.downloadPdf'),
			'/files/credit-report/*',
		],
		['a filed return', () => itr('getData.download'), '/files/itr/*'],
	])('where %s is expected: an error, no file saved', async (_, workflow, path) => {
		await sandbox.control.fault({ path, html: true, status: 200 });
		const result = await sandbox.run(workflow());
		expect(result.error?.message).toBe(
			'Document download failed: the link answered an HTML page instead of a file',
		);
		expect(result.error?.description).toContain('page "502 Bad Gateway"');
		expect(result.error?.description).toContain('nothing was saved as the file');
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe('200');
	});

	test('a one-off HTML page on a download is retried like any transient failure, and the PDF saved', async () => {
		await sandbox.control.fault({
			path: `/files/company/${CIN}.pdf`,
			html: true,
			status: 200,
			times: 1,
		});
		const result = await sandbox.run(
			withParameters(company('getByCin.downloadPdf'), NODE, { requestOptions: { maxRetries: 1 } }),
		);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.binary?.companyReport).toMatchObject({ mimeType: 'application/pdf' });
		expect(await sandbox.control.requests(`/files/company/${CIN}.pdf`)).toHaveLength(2);
	});
});
