/**
 * Income Tax Return resource (itrAnalyze, itrStatus, itrData, itrForgetPassword, itrSubmitOtp)
 * through n8n-core's real engine against the sandbox, in both response shapes: simplified and raw
 * output, filings as items, filed-return documents as binaries, waiting for the analysis, passwords
 * that never come back, input validation (nothing sent) and the service's error codes.
 */
import type { IDataObject } from 'n8n-workflow';

import { sandboxCredentials, startTestSandbox, withParameters } from '../harness/index.cjs';
import type { RunResult } from '../harness/index.cjs';
import {
	expectApiError,
	expectInvalidInput,
	fixtures,
	NODE,
	SHAPES,
	withSandbox,
} from './support.cjs';

const fixture = fixtures('incomeTaxReturn');
const JOB_ID = 'itr_0123456789abcdef01234567';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const NEW_PASSWORD = 'N3w#Portal-Pass';

describe.each(SHAPES)('Income Tax Return, %s shape', (shape) => {
	const sandbox = withSandbox({ shape, resetBeforeEach: true });
	const { run, sent } = sandbox;

	/** The run stopped on bad input naming the field, and nothing reached the ITR endpoints. */
	async function expectInvalid(result: RunResult, field: string) {
		expectInvalidInput(result, field);
		expect(await sent('itr-analyzer')).toBe(0);
	}

	describe('Start Analysis', () => {
		test('simplified: a processing job; PAN uppercased, years and password sent, password not in the output', async () => {
			const result = await run(fixture('startAnalysis'));
			expect(result.error).toBeUndefined();
			const [json] = result.json(NODE);
			expect(json).toMatchObject({
				jobId: expect.stringMatching(/^itr_[0-9a-f]{24}$/),
				status: 'processing',
				isFinal: false,
				isComplete: false,
				pan: 'ABCDE1234F',
			});
			expect(JSON.stringify(result.output(NODE))).not.toContain('Portal#Pass1');
			const [request] = await sandbox.control.requests('itr-analyzer/analyze');
			expect(request.body).toMatchObject({
				pan: 'ABCDE1234F',
				assessment_years: ['2024-25', '2023-24'],
			});
			// the sandbox's log redacts secrets; the password is there but not readable
			expect(JSON.stringify(request)).not.toContain('Portal#Pass1');
		});

		test('raw: the response as sent', async () => {
			const [json] = (
				await run(withParameters(fixture('startAnalysis'), NODE, { simplify: false }))
			).json(NODE);
			expect(json).toMatchObject({
				success: true,
				data: { job_id: expect.stringMatching(/^itr_/), status: 'processing' },
			});
		});

		test('a response that echoes the password does not carry it to the output (simplified or raw)', async () => {
			const echo = {
				success: true,
				message: 'Started for Portal#Pass1',
				data: { job_id: 'itr_echo', status: 'processing', password: 'Portal#Pass1' },
			};
			for (const simplify of [true, false]) {
				await sandbox.control.fault({ path: 'itr-analyzer/analyze', times: 1, body: echo });
				const result = await run(withParameters(fixture('startAnalysis'), NODE, { simplify }));
				expect(result.error).toBeUndefined();
				expect(result.json(NODE)[0]).toMatchObject(
					simplify ? { jobId: 'itr_echo' } : { data: { job_id: 'itr_echo' } },
				);
				expect(JSON.stringify(result.output(NODE))).not.toContain('Portal#Pass1');
			}
		});

		test.each([
			['startAnalysis.invalidPan', 'PAN'],
			['startAnalysis.emptyPassword', 'Portal Password'],
			['startAnalysis.invalidAssessmentYears', 'Assessment Years'],
			['startAnalysis.invalidExtraBody', 'Additional Body Fields (JSON)'],
		])('%s: rejected before sending, naming %s', async (name, field) => {
			await expectInvalid(await run(fixture(name)), field);
		});

		test('a too long password is rejected without showing it', async () => {
			const password = `Aa1#${'x'.repeat(130)}`;
			const result = await run(
				withParameters(fixture('startAnalysis.emptyPassword'), NODE, { portalPassword: password }),
			);
			expect(result.error?.message).toBe('Invalid Portal Password in item 0');
			expect(
				JSON.stringify({ m: result.error?.message, d: result.error?.description }),
			).not.toContain('xxxx');
		});
	});

	describe('Get Analysis Status', () => {
		test('simplified: a job the sandbox did not start is completed', async () => {
			const result = await run(fixture('getAnalysisStatus'));
			expect(result.error).toBeUndefined();
			expect(result.json(NODE)[0]).toEqual({
				jobId: JOB_ID,
				status: 'completed',
				progress: 100,
				isFinal: true,
				isComplete: true,
				message: expect.anything(),
			});
			const [request] = await sandbox.control.requests('itr-analyzer/status');
			expect(request.body).toEqual({ job_id: JOB_ID });
		});

		test('simplified: job_incomplete stays processing', async () => {
			const [json] = (
				await run(withParameters(fixture('getAnalysisStatus'), NODE, { jobId: 'job_incomplete' }))
			).json(NODE);
			expect(json).toMatchObject({
				jobId: 'job_incomplete',
				status: 'processing',
				isFinal: false,
				progress: expect.any(Number),
			});
		});

		test('wait with a time limit of 0 on a processing job: the last status with timedOut', async () => {
			const wf = withParameters(fixture('getAnalysisStatus'), NODE, {
				jobId: 'job_incomplete',
				waitForFinalStatus: true,
				waitOptions: { timeLimit: 0, onTimeout: 'returnLastStatus' },
			});
			expect((await run(wf)).json(NODE)[0]).toMatchObject({
				status: 'processing',
				timedOut: true,
				polls: 1,
			});
		});

		test('raw: the response as sent', async () => {
			const [json] = (
				await run(withParameters(fixture('getAnalysisStatus'), NODE, { simplify: false }))
			).json(NODE);
			expect(json).toMatchObject({ success: true, data: { job_id: JOB_ID, status: 'completed' } });
		});

		test('invalid job id: rejected before sending', async () => {
			await expectInvalid(await run(fixture('getAnalysisStatus.invalidJobId')), 'Job ID');
		});
	});

	describe('Get Data', () => {
		test('simplified: profile and filings, newest first, with ISO dates and numbers', async () => {
			const result = await run(fixture('getData'));
			expect(result.error).toBeUndefined();
			const [json] = result.json(NODE);
			expect(json).toMatchObject({
				shape,
				jobId: JOB_ID,
				pan: expect.stringMatching(/^[A-Z]{5}\d{4}[A-Z]$/),
				name: expect.any(String),
			});
			const filings = json.filings as IDataObject[];
			expect(filings.map((f) => f.assessmentYear)).toEqual(['2025-26', '2024-25', '2023-24']);
			expect(json.latestFiling).toEqual(filings[0]);
			for (const filing of filings) {
				expect(filing).toMatchObject({
					form: expect.stringMatching(/^ITR-[1-4]$/),
					filingDate: expect.stringMatching(ISO_DATE),
					acknowledgementNumber: expect.stringMatching(/^\d{15}$/),
					grossTotalIncome: expect.any(Number),
					totalDeductions: expect.any(Number),
					taxableIncome: expect.any(Number),
					taxPayable: expect.any(Number),
					tdsAmount: expect.any(Number),
					refundAmount: expect.any(Number),
					incomeHeads: {
						salary: expect.any(Number),
						houseProperty: expect.any(Number),
						businessProfession: expect.any(Number),
						capitalGains: expect.any(Number),
						otherSources: expect.any(Number),
					},
				});
				expect(filing.taxableIncome).toBe(
					(filing.grossTotalIncome as number) - (filing.totalDeductions as number),
				);
				const heads = Object.values(filing.incomeHeads as Record<string, number>).reduce(
					(s, v) => s + v,
					0,
				);
				expect(heads).toBe(filing.grossTotalIncome);
			}
			if (shape === 'sample') {
				expect(json.profile).toMatchObject({
					dateOfBirth: expect.stringMatching(ISO_DATE),
					city: expect.any(String),
					address: expect.any(String),
					aadhaarStatus: 'Linked',
				});
				expect(filings[0]).toMatchObject({
					status: 'ITR Processed',
					statusDate: expect.stringMatching(ISO_DATE),
					downloadLink: expect.stringMatching(/^https?:\/\//),
					filingSection: expect.stringMatching(/^139/),
				});
				expect((json.tds as IDataObject[]).length).toBeGreaterThan(0);
			} else {
				expect(json).toMatchObject({
					filingStatus: expect.stringMatching(/^(Regular|Revised|Belated)$/),
					tds: [],
					outstandingDemands: [],
				});
				expect(filings[0]).toMatchObject({ refundStatus: expect.any(String), downloadLink: null });
			}
		});

		test('both shapes describe the same returns for the same job', async () => {
			// the sandbox derives the taxpayer from the job id, in either shape
			const other = await startTestSandbox({ shape: shape === 'sample' ? 'reference' : 'sample' });
			try {
				const mine = (await run(fixture('getData'))).json(NODE)[0];
				const { engine } = sandbox;
				engine.setCredentials(sandboxCredentials(other.url));
				const theirs = (await engine.run(fixture('getData'))).json(NODE)[0];
				const view = (json: IDataObject) => ({
					pan: json.pan,
					filings: (json.filings as IDataObject[]).map((f) => [
						f.assessmentYear,
						f.form,
						f.filingDate,
						f.acknowledgementNumber,
						f.grossTotalIncome,
						f.taxableIncome,
						f.taxPayable,
						f.tdsAmount,
						f.refundAmount,
						f.incomeHeads,
					]),
				});
				expect(view(mine)).toEqual(view(theirs));
			} finally {
				await other.close();
			}
		});

		test('split into one item per filing, each with its document (sample shape has links)', async () => {
			const items = (await run(fixture('getData.splitDownload'))).output(NODE);
			expect(items).toHaveLength(3);
			expect(items[0].json).toMatchObject({
				jobId: JOB_ID,
				pan: expect.any(String),
				assessmentYear: '2025-26',
			});
			if (shape === 'sample') {
				for (const item of items) {
					const file = item.binary!.itr;
					expect(file.mimeType).toBe('application/pdf');
					expect(file.fileName).toBe(
						`itr_${item.json.pan as string}_${item.json.assessmentYear as string}_${item.json.form as string}.pdf`,
					);
					expect(Buffer.from(file.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
				}
			} else {
				expect(items.every((i) => i.binary === undefined)).toBe(true);
			}
		});

		test('one item with every document as <name>_<position>', async () => {
			const [item] = (await run(fixture('getData.download'))).output(NODE);
			const filings = item.json.filings as IDataObject[];
			if (shape === 'sample') {
				expect(Object.keys(item.binary ?? {}).sort()).toEqual(['return_0', 'return_1', 'return_2']);
				expect(filings.map((f) => f.binaryProperty)).toEqual(['return_0', 'return_1', 'return_2']);
			} else {
				expect(item.binary).toBeUndefined();
				expect(filings.map((f) => f.binaryProperty)).toEqual([null, null, null]);
			}
		});

		test('raw: the response as sent', async () => {
			const [json] = (
				await run(withParameters(fixture('getData'), NODE, { simplify: false }))
			).json(NODE);
			if (shape === 'sample')
				expect(json.data).toMatchObject({
					job_id: JOB_ID,
					profile: expect.any(Object),
					filings: expect.any(Array),
				});
			else expect(json.data).toMatchObject({ job_id: JOB_ID, itr_records: expect.any(Array) });
		});

		test('a job still processing: JOB_INCOMPLETE', async () => {
			expectApiError(await run(fixture('getData.jobIncomplete')), 'JOB_INCOMPLETE', '409');
		});

		test('invalid job id: rejected before sending', async () => {
			await expectInvalid(await run(fixture('getData.invalidJobId')), 'Job ID');
		});
	});

	test('start → wait for completion → data: the analysed PAN and years come back', async () => {
		const result = await run(fixture('itr.fullAnalysis'));
		expect(result.error).toBeUndefined();
		const [started] = result.json('Start Analysis');
		const [status] = result.json('Wait for Analysis');
		expect(status).toMatchObject({
			jobId: started.jobId,
			status: 'completed',
			isComplete: true,
			timedOut: false,
		});
		const filings = result.json('Get Data');
		expect(filings.length).toBeGreaterThan(0);
		expect(filings.every((f) => f.jobId === started.jobId && f.pan === 'ABCDE1234F')).toBe(true);
	}, 30_000);

	describe('Reset Portal Password', () => {
		test('simplified: otp_sent, and the password appears nowhere in the output', async () => {
			const result = await run(fixture('resetPortalPassword'));
			expect(result.error).toBeUndefined();
			const [json] = result.json(NODE);
			expect(json).toEqual({
				clientId: 'itr_client_123456',
				status: 'otp_sent',
				message: expect.any(String),
			});
			const [request] = await sandbox.control.requests('itr-analyzer/forget-password');
			expect(request.body).toMatchObject({ client_id: 'itr_client_123456' });
		});

		test('raw output does not carry the password either', async () => {
			const result = await run(
				withParameters(fixture('resetPortalPassword'), NODE, { simplify: false }),
			);
			expect(result.json(NODE)[0]).toMatchObject({
				success: true,
				data: { client_id: 'itr_client_123456', status: 'otp_sent' },
			});
			expect(JSON.stringify(result.output(NODE))).not.toContain(NEW_PASSWORD);
		});

		test('weak password: WEAK_PASSWORD, and the error does not repeat the password', async () => {
			const result = await run(fixture('resetPortalPassword.weakPassword'));
			expectApiError(result, 'WEAK_PASSWORD', '422');
			// what n8n shows of an error: message, description, the error body and its messages (the node's
			// own parameters travel with any error, as they do with the workflow)
			const error = result.error as unknown as { errorResponse?: unknown; messages?: string[] };
			const shown = JSON.stringify({
				m: result.error?.message,
				d: result.error?.description,
				r: error.errorResponse,
				ms: error.messages,
			});
			expect(shown).not.toContain('weakpassword');
		});

		test('weak password on the error output: code and no password', async () => {
			const result = await run({
				...fixture('resetPortalPassword.weakPassword'),
				nodes: fixture('resetPortalPassword.weakPassword').nodes.map((n) =>
					n.name === NODE ? { ...n, onError: 'continueErrorOutput' as const } : n,
				),
			});
			const [item] = result.output(NODE, 1);
			expect(item.json).toMatchObject({ error: { code: 'WEAK_PASSWORD', httpCode: 422 } });
			expect(JSON.stringify(item.json)).not.toContain('weakpassword');
		});

		test.each([
			['resetPortalPassword.emptyPassword', 'New Password'],
			['resetPortalPassword.invalidClientId', 'Portal Client ID'],
		])('%s: rejected before sending, naming %s', async (name, field) => {
			await expectInvalid(await run(fixture(name)), field);
		});
	});

	describe('Confirm Password Reset with OTP', () => {
		test('simplified: password_reset after the reset request', async () => {
			await run(fixture('resetPortalPassword'));
			const result = await run(fixture('confirmPasswordReset'));
			expect(result.error).toBeUndefined();
			expect(result.json(NODE)[0]).toEqual({
				clientId: 'itr_client_123456',
				status: 'password_reset',
				message: expect.any(String),
			});
			const [request] = await sandbox.control.requests('forget-password/submit-otp');
			// the sandbox's log redacts the OTP; it was sent
			expect(request.body).toEqual({ client_id: 'itr_client_123456', otp: '[REDACTED]' });
		});

		test('raw: the response as sent', async () => {
			await run(fixture('resetPortalPassword'));
			const [json] = (
				await run(withParameters(fixture('confirmPasswordReset'), NODE, { simplify: false }))
			).json(NODE);
			expect(json).toMatchObject({
				success: true,
				data: { client_id: 'itr_client_123456', status: 'password_reset' },
			});
		});

		test('wrong OTP: INVALID_OTP', async () => {
			expectApiError(await run(fixture('confirmPasswordReset.wrongOtp')), 'INVALID_OTP', '400');
		});

		test.each([
			['confirmPasswordReset.invalidOtp', 'OTP'],
			['confirmPasswordReset.invalidClientId', 'Portal Client ID'],
		])('%s: rejected before sending, naming %s', async (name, field) => {
			await expectInvalid(await run(fixture(name)), field);
		});
	});
});
