/**
 * Credit Report resource (operations multiBureauFetch and commercialReportFetch) through n8n-core's
 * real engine against the sandbox, in both response shapes: simplified and raw output, split items,
 * binary files, the sandbox's magic inputs, and input validation that stops a request from ever
 * leaving.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { withParameters } from '../harness/index.cjs';
import {
	expectNothingSent,
	fixtures,
	NODE,
	NOTHING_SENT,
	SHAPES,
	withSandbox,
} from './support.cjs';

const fixture = fixtures('creditReport');
const MULTI = 'multi-bureau/fetch';
const COMMERCIAL = 'credit-report-commercial/fetch';
const SCORE = expect.any(Number);

const fileText = (binary: IBinaryData) => Buffer.from(binary.data, 'base64').toString('utf8');

const inRange = (value: unknown) => {
	expect(typeof value).toBe('number');
	expect(value as number).toBeGreaterThanOrEqual(300);
	expect(value as number).toBeLessThanOrEqual(900);
};

describe.each(SHAPES)('Credit Report, %s shape', (shape) => {
	const sandbox = withSandbox({ shape });
	const { run } = sandbox;

	describe('Get Multi-Bureau Report', () => {
		test('simplified: one item, only the requested bureaus, numeric scores, normalized request', async () => {
			const before = (await sandbox.control.requests(MULTI)).length;
			const result = await run(fixture('getMultiBureauReport'));
			expect(result.error).toBeUndefined();
			const items = result.output(NODE);
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			const json = items[0].json;
			expect(json).toMatchObject({
				shape,
				success: true,
				pan: 'ABCDE1234F',
				requestId: expect.any(String),
				successfulBureaus: ['cibil', 'experian'],
				failedBureaus: [],
			});
			const bureaus = json.bureaus as IDataObject[];
			expect(bureaus.map((b) => b.bureau)).toEqual(['cibil', 'experian']);
			for (const b of bureaus) {
				expect(b.success).toBe(true);
				inRange(b.score);
				expect(String(b.name).toUpperCase()).toBe('PRIYA SHARMA');
				expect(b.pan).toBe('ABCDE1234F');
				expect(b.accountCount).toEqual(expect.any(Number));
			}
			expect(Object.keys(json.scores as IDataObject).sort()).toEqual(['cibil', 'experian']);
			expect((json.scores as IDataObject).cibil).toBe(bureaus[0].score);
			expect(json.lowestScore).toBe(Math.min(...bureaus.map((b) => b.score as number)));
			expect(json.highestScore).toBe(Math.max(...bureaus.map((b) => b.score as number)));
			if (shape === 'sample') {
				expect(bureaus[0].reportLink).toMatch(/^https?:\/\//);
			} else {
				expect(bureaus[0].reportLink).toBeNull();
			}

			// exactly one request, with the PAN uppercased, the mobile number normalized and consent 'Y'
			const log = (await sandbox.control.requests(MULTI)).slice(before);
			expect(log).toHaveLength(1);
			expect(log[0].status).toBe(200);
			expect(log[0].body).toEqual({
				pan: 'ABCDE1234F',
				name: 'Priya Sharma',
				mobile_number: '9876543210',
				consent: 'Y',
				gender: 'female',
				bureaus: ['cibil', 'experian'],
			});
		});

		test('the same input gives the same scores (deterministic per PAN)', async () => {
			const a = await run(fixture('getMultiBureauReport'));
			const b = await run(fixture('getMultiBureauReport'));
			expect(a.json(NODE)[0].scores).toEqual(b.json(NODE)[0].scores);
		});

		test('raw: the response as the service sent it', async () => {
			const result = await run(
				withParameters(fixture('getMultiBureauReport'), NODE, { simplify: false }),
			);
			expect(result.error).toBeUndefined();
			const json = result.json(NODE)[0];
			if (shape === 'sample') {
				expect(json).toMatchObject({
					success: true,
					pan: 'ABCDE1234F',
					doc_id: expect.any(String),
				});
				const results = json.results as IDataObject;
				expect(Object.keys(results).sort()).toEqual(['cibil', 'experian']);
				expect(typeof ((results.cibil as IDataObject).data as IDataObject).credit_score).toBe(
					'string',
				);
			} else {
				expect(json).toMatchObject({
					status: 'success',
					status_code: 200,
					request_id: expect.any(String),
				});
				const data = json.data as IDataObject;
				expect(Object.keys(data).sort()).toEqual(['cibil', 'experian']);
				inRange((data.cibil as IDataObject).score);
			}
		});

		test('split into items: one item per requested bureau, each paired to the input item', async () => {
			const result = await run(fixture('getMultiBureauReport.split'));
			expect(result.error).toBeUndefined();
			const items = result.output(NODE);
			expect(items.map((i) => i.json.bureau)).toEqual(['equifax', 'experian', 'cibil', 'crif']);
			for (const item of items) {
				expect(item.pairedItem).toEqual({ item: 0 });
				expect(item.json).toMatchObject({
					pan: 'ABCDE1234F',
					shape,
					success: true,
					score: SCORE,
					requestId: expect.any(String),
				});
				inRange(item.json.score);
			}
			// raw + split: one raw bureau entry per item
			const raw = await run(
				withParameters(fixture('getMultiBureauReport.split'), NODE, { simplify: false }),
			);
			const rawItems = raw.json(NODE);
			expect(rawItems.map((j) => j.bureau)).toEqual(['equifax', 'experian', 'cibil', 'crif']);
			expect(rawItems[0]).toHaveProperty(shape === 'sample' ? 'credit_report_link' : 'score');
		});

		test('full bureau reports on request', async () => {
			const result = await run(
				withParameters(fixture('getMultiBureauReport'), NODE, {
					options: { includeFullReports: true },
				}),
			);
			const bureaus = result.json(NODE)[0].bureaus as IDataObject[];
			for (const b of bureaus) expect(b.report).toEqual(expect.any(Object));
			if (shape === 'sample') expect(bureaus[1].report).toHaveProperty('CreditProfileHeader');
			else expect(bureaus[0].report).toHaveProperty('accounts');
		});

		test('report PDFs as binary files where the response links one', async () => {
			const result = await run(fixture('getMultiBureauReport.downloadPdf'));
			expect(result.error).toBeUndefined();
			const [item] = result.output(NODE);
			const bureaus = item.json.bureaus as IDataObject[];
			if (shape === 'sample') {
				expect(Object.keys(item.binary ?? {}).sort()).toEqual(['report_cibil', 'report_equifax']);
				const file = item.binary!.report_equifax;
				expect(file.mimeType).toBe('application/pdf');
				expect(file.fileName).toBe('ABCDE1234F-equifax-credit-report.pdf');
				expect(Buffer.from(file.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
				expect(bureaus.map((b) => b.reportFile)).toEqual(['report_equifax', 'report_cibil']);
			} else {
				// the reference shape carries no document links: no files, and the item says so
				expect(item.binary).toBeUndefined();
				expect(bureaus.map((b) => b.reportFile)).toEqual([null, null]);
			}
		});

		test('no record at the bureaus: every outcome unsuccessful, not an error', async () => {
			const result = await run(fixture('getMultiBureauReport.noHit'));
			expect(result.error).toBeUndefined();
			const json = result.json(NODE)[0];
			expect(json.failedBureaus).toEqual(['cibil', 'experian']);
			expect(json.successfulBureaus).toEqual([]);
			expect(json.lowestScore).toBeNull();
			for (const b of json.bureaus as IDataObject[]) {
				expect(b).toMatchObject({ success: false, score: null, message: expect.any(String) });
			}
		});

		test.each([
			['an empty object', {}],
			['data: null', { status: 'success', data: null }],
		])(
			'an answer without PAN or any bureau result (%s): INCOMPLETE_RESPONSE, not an all-null report',
			async (_, body) => {
				await sandbox.control.fault({ path: 'multi-bureau/fetch', times: 1, body });
				const result = await run(fixture('getMultiBureauReport.serverError'));
				expect(result.output(NODE, 0)).toHaveLength(0);
				expect(result.output(NODE, 1)[0].json).toMatchObject({
					message:
						'The service answered success without pan or results or data.equifax or data.experian or data.cibil or data.crif',
					error: { code: 'INCOMPLETE_RESPONSE' },
				});
			},
		);

		test.each([
			['unprocessable', 422],
			['serverError', 500],
		])(
			'%s: the API error goes to the error output with its HTTP status',
			async (scenario, httpCode) => {
				const result = await run(fixture(`getMultiBureauReport.${scenario}`));
				expect(result.error).toBeUndefined();
				expect(result.output(NODE, 0)).toHaveLength(0);
				const [failed] = result.output(NODE, 1);
				expect(failed.pairedItem).toEqual({ item: 0 });
				expect(failed.json).toMatchObject({
					message: expect.any(String),
					error: { code: 'ERROR', httpCode },
				});
			},
		);
	});

	describe('Get Commercial Report', () => {
		test('HTML file: text/html binary named after the business, with the report facts as JSON', async () => {
			const before = (await sandbox.control.requests(COMMERCIAL)).length;
			const result = await run(fixture('getCommercialReport'));
			expect(result.error).toBeUndefined();
			const [item] = result.output(NODE);
			expect(item.json).toMatchObject({
				success: true,
				businessName: 'Acme Traders',
				pan: 'AAACA1234B',
				reportType: 'html',
				reportUrl: expect.stringMatching(/^https?:\/\//),
				generatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
				fileName: 'acme-traders-credit-report.html',
				binaryProperty: 'data',
			});
			expect(item.json).not.toHaveProperty('reportHtml');
			const file = item.binary!.data;
			expect(file.mimeType).toBe('text/html');
			expect(file.fileName).toBe('acme-traders-credit-report.html');
			expect(file.fileExtension).toBe('html');
			const html = fileText(file);
			expect(html).toContain('Acme Traders');
			expect(html).toContain('AAACA1234B');
			expect(item.json.reportSize).toBe(Buffer.byteLength(html));

			const log = (await sandbox.control.requests(COMMERCIAL)).slice(before);
			expect(log).toHaveLength(1);
			expect(log[0].body).toEqual({
				business_name: 'Acme Traders',
				pan: 'AAACA1234B',
				consent: 'Y',
				report_type: 'html',
			});
		});

		test('JSON only: the HTML as text, no binary', async () => {
			const result = await run(fixture('getCommercialReport.jsonOnly'));
			const [item] = result.output(NODE);
			expect(item.binary).toBeUndefined();
			expect(item.json.reportHtml).toEqual(expect.stringContaining('Acme Traders'));
			expect(item.json).not.toHaveProperty('fileName');
		});

		test('JSON only, an answer about no business ({}): INCOMPLETE_RESPONSE, not an all-null report', async () => {
			await sandbox.control.fault({ path: 'credit-report-commercial/fetch', times: 1, body: {} });
			const result = await run(fixture('getCommercialReport.jsonOnly'));
			expect(result.error?.message).toBe(
				'The service answered success without data.pan or data.business_name or data.report or data.report_url',
			);
		});

		test('custom file name (from an expression) and binary field', async () => {
			const result = await run(fixture('getCommercialReport.customFileName'));
			const [item] = result.output(NODE);
			expect(item.binary!.creditReport.fileName).toBe('LOAN-42-report.html');
			expect(item.json.fileName).toBe('LOAN-42-report.html');
		});

		test('raw output keeps the response, and still attaches the file', async () => {
			const result = await run(
				withParameters(fixture('getCommercialReport'), NODE, { simplify: false }),
			);
			const [item] = result.output(NODE);
			expect(item.json).toMatchObject({
				status: 'success',
				data: { business_name: 'Acme Traders', report_type: 'html' },
			});
			expect(item.binary!.data.mimeType).toBe('text/html');
		});

		test('no report for the PAN: REPORT_NOT_FOUND on the error output', async () => {
			const result = await run(fixture('getCommercialReport.notFound'));
			expect(result.output(NODE, 0)).toHaveLength(0);
			expect(result.output(NODE, 1)[0].json).toMatchObject({
				error: { code: 'REPORT_NOT_FOUND', httpCode: 404 },
			});
		});

		test('a key without the permission: every item fails naming the credential, on the error output (under Continue the node never throws)', async () => {
			const result = await run(fixture('getCommercialReport.permissionDenied'), {
				apiKey: 'corporate-only-key',
				apiSecret: 'corporate-only-secret',
			});
			expect(result.error).toBeUndefined();
			expect(result.json(NODE, 0)).toEqual([]);
			const failed = result.json(NODE, 1);
			expect(failed.length).toBeGreaterThan(0);
			for (const json of failed) {
				expect(json.message).toMatch(
					/^The FinVerify API credential "FinVerify sandbox" was rejected by the service \(HTTP 403 PERMISSION_DENIED/,
				);
				expect(json.error).toMatchObject({ code: 'PERMISSION_DENIED', httpCode: 403 });
			}
		});
	});
});

describe('Credit Report input validation: nothing is sent', () => {
	const sandbox = withSandbox();

	test.each([
		[
			'getMultiBureauReport.invalidPan',
			MULTI,
			'Invalid PAN in item 0 (got "ABCDE12345")',
			'5 letters, 4 digits, 1 letter',
		],
		[
			'getMultiBureauReport.invalidName',
			MULTI,
			'Invalid Full Name in item 0 (got " ")',
			'at least 2 characters',
		],
		[
			'getMultiBureauReport.invalidMobile',
			MULTI,
			'Invalid Mobile Number in item 0 (got "12345")',
			'10-digit Indian mobile number',
		],
		[
			'getMultiBureauReport.invalidGender',
			MULTI,
			'Invalid Gender in item 0 (got "other")',
			'"female" or "male"',
		],
		[
			'getMultiBureauReport.noBureaus',
			MULTI,
			'Invalid Bureaus in item 0 (got "[]")',
			'at least one of equifax, experian, cibil, crif',
		],
		[
			'getMultiBureauReport.noConsent',
			MULTI,
			'Subject Has Consented is required in item 0',
			'consented',
		],
		[
			'getCommercialReport.invalidPan',
			COMMERCIAL,
			'Invalid PAN in item 0 (got "AAACA-1234")',
			'e.g. ABCDE1234F',
		],
		[
			'getCommercialReport.shortBusinessName',
			COMMERCIAL,
			'Invalid Business Name in item 0 (got "A")',
			'at least 2 characters',
		],
		[
			'getCommercialReport.noConsent',
			COMMERCIAL,
			'Subject Has Consented is required in item 0',
			'consented',
		],
	])('%s', async (name, path, message, expected) => {
		const result = await expectNothingSent(
			sandbox,
			path,
			async () => await sandbox.run(fixture(name)),
		);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toContain(expected);
		expect(result.error?.description).toContain(NOTHING_SENT);
	});
});
