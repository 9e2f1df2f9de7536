/**
 * Employment resource (operations epfoFetch and epfoCrifFetch) through n8n-core's real engine
 * against the sandbox, in both response shapes: simplified and raw output, partial answers flagged
 * (not failed), the EPFO magic numbers' error codes, and mobile number validation.
 */
import type { IDataObject } from 'n8n-workflow';

import { withParameters } from '../harness/index.cjs';
import { expectNothingSent, fixtures, NODE, SHAPES, withSandbox } from './support.cjs';

const fixture = fixtures('employment');
const ISO_DATE = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);

describe('Get EPFO Record (one documented shape)', () => {
	const sandbox = withSandbox();
	const { run } = sandbox;

	test('simplified: member, employers, contribution totals and passbook; the mobile normalized', async () => {
		const before = (await sandbox.control.requests('epfo-combined')).length;
		const result = await run(fixture('getEpfoRecord'));
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		expect(json).toMatchObject({
			success: true,
			mobileNumber: '9876543210',
			uan: expect.stringMatching(/^\d{12}$/),
			member: {
				name: expect.any(String),
				dateOfBirth: ISO_DATE,
				gender: expect.stringMatching(/^(male|female)$/),
				kycVerified: true,
			},
			employerCount: expect.any(Number),
			currentEmployer: expect.any(String),
		});
		const employers = json.employers as IDataObject[];
		expect(employers).toHaveLength(json.employerCount as number);
		expect(employers[0]).toMatchObject({
			current: true,
			dateOfExit: null,
			dateOfJoining: ISO_DATE,
			name: json.currentEmployer,
		});
		for (const e of employers.slice(1))
			expect(e).toMatchObject({ current: false, dateOfExit: ISO_DATE });
		const c = json.contributions as IDataObject;
		const passbook = json.passbook as IDataObject[];
		expect(passbook.length).toBeGreaterThan(0);
		expect(c.employeeShare).toBe(passbook.reduce((t, p) => t + (p.employeeShare as number), 0));
		expect(c.total).toBe(
			(c.employeeShare as number) + (c.employerShare as number) + (c.pensionShare as number),
		);
		expect(c.lastContributionMonth).toMatch(/^\d{4}-\d{2}$/);
		expect(passbook[0].month! >= passbook[passbook.length - 1].month!).toBe(true);

		const log = (await sandbox.control.requests('epfo-combined')).slice(before);
		expect(log).toHaveLength(1);
		expect(log[0].body).toEqual({ mobile_number: '9876543210' });
	});

	test('same number, same member; passbook only on request', async () => {
		const a = (await run(fixture('getEpfoRecord'))).json(NODE)[0];
		const b = (await run(withParameters(fixture('getEpfoRecord'), NODE, { options: {} }))).json(
			NODE,
		)[0];
		expect(b.uan).toBe(a.uan);
		expect(b).not.toHaveProperty('passbook');
	});

	test('raw output', async () => {
		const result = await run(withParameters(fixture('getEpfoRecord'), NODE, { simplify: false }));
		expect(result.json(NODE)[0]).toMatchObject({
			success: true,
			data: {
				mobile_number: '9876543210',
				member_profile: expect.any(Object),
				passbook: expect.any(Array),
			},
		});
	});

	test.each([
		['notFound', 'EPFO_RECORD_NOT_FOUND', 404],
		['rateLimited', 'RATE_LIMITED', 429],
		['upstreamUnavailable', 'UPSTREAM_UNAVAILABLE', 503],
	])('%s: %s on the error output', async (scenario, code, httpCode) => {
		const result = await run(fixture(`getEpfoRecord.${scenario}`));
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toHaveLength(0);
		const [failed] = result.output(NODE, 1);
		expect(failed.pairedItem).toEqual({ item: 0 });
		expect(failed.json).toMatchObject({ message: expect.any(String), error: { code, httpCode } });
	});
});

describe.each(SHAPES)('Get EPFO Record with Credit Report, %s shape', (shape) => {
	const { run } = withSandbox({ shape });

	test('simplified: member, employment and credit summary, nothing missing', async () => {
		const result = await run(fixture('getEpfoRecordWithCredit'));
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		expect(json).toMatchObject({
			shape,
			success: true,
			partial: false,
			missing: [],
			hasEmployment: true,
			hasCredit: true,
			mobileNumber: '9876543210',
			member: { name: expect.any(String), dateOfBirth: ISO_DATE, mobile: '9876543210' },
			employment: {
				uan: expect.stringMatching(/^\d{12}$/),
				employerCount: expect.any(Number),
				currentEmployer: expect.any(String),
			},
		});
		const credit = json.credit as IDataObject;
		expect(credit.score).toEqual(expect.any(Number));
		expect(credit.score as number).toBeGreaterThanOrEqual(300);
		expect(credit.score as number).toBeLessThanOrEqual(900);
		expect(credit.reportDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		const accounts = credit.accounts as IDataObject[];
		expect(credit.totalAccounts).toBe(accounts.length);
		expect(credit.activeAccounts as number).toBe(
			accounts.filter((a) => a.status === 'Active').length,
		);
		expect(credit.totalOutstanding).toBe(
			accounts.reduce((t, a) => t + (a.outstandingAmount as number), 0),
		);
		for (const a of accounts)
			expect(a).toMatchObject({
				openDate: ISO_DATE,
				sanctionedAmount: expect.any(Number),
				lender: expect.any(String),
			});
		if (shape === 'sample')
			expect(json.member).toMatchObject({ pan: expect.stringMatching(/^[A-Z]{5}\d{4}[A-Z]$/) });
	});

	test('without the account list', async () => {
		const result = await run(
			withParameters(fixture('getEpfoRecordWithCredit'), NODE, {
				options: { includeCreditAccounts: false },
			}),
		);
		const credit = result.json(NODE)[0].credit as IDataObject;
		expect(credit).not.toHaveProperty('accounts');
		expect(credit.score).toEqual(expect.any(Number));
	});

	test('raw output', async () => {
		const json = (
			await run(withParameters(fixture('getEpfoRecordWithCredit'), NODE, { simplify: false }))
		).json(NODE)[0];
		const data = json.data as IDataObject;
		if (shape === 'sample')
			expect(data).toMatchObject({
				doc_id: expect.any(String),
				epfo: { mobile: '9876543210' },
				credit_report: { credit_score: expect.any(String) },
			});
		else
			expect(data).toMatchObject({
				epfo: { mobile: '9876543210' },
				crif: { credit_score: expect.any(Number) },
			});
	});

	test('EPFO part missing: the item says so and keeps the credit part', async () => {
		const result = await run(fixture('getEpfoRecordWithCredit.partialEpfo'));
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		expect(json).toMatchObject({
			partial: true,
			missing: ['epfo'],
			hasEmployment: false,
			hasCredit: true,
			employment: null,
		});
		expect((json.credit as IDataObject).score).toEqual(expect.any(Number));
	});

	test('credit part missing: the item says so and keeps the EPFO part', async () => {
		const [json] = (await run(fixture('getEpfoRecordWithCredit.partialCredit'))).json(NODE);
		expect(json).toMatchObject({
			partial: true,
			missing: ['credit'],
			hasEmployment: true,
			hasCredit: false,
			credit: null,
		});
		expect((json.employment as IDataObject).employerCount).toEqual(expect.any(Number));
	});

	test('Error on Partial Data: PARTIAL_DATA on the error output', async () => {
		const result = await run(fixture('getEpfoRecordWithCredit.partialError'));
		expect(result.output(NODE, 0)).toHaveLength(0);
		expect(result.output(NODE, 1)[0].json).toMatchObject({
			message: 'The service returned no EPFO employment record for this mobile number',
			error: { code: 'PARTIAL_DATA' },
		});
	});
});

describe('Employment input validation: nothing is sent', () => {
	const sandbox = withSandbox();

	test.each([
		[
			'getEpfoRecord.invalidMobile',
			'epfo-combined',
			'Invalid Mobile Number in item 0 (got "+44 7700 900123")',
		],
		[
			'getEpfoRecordWithCredit.invalidMobile',
			'epfo-crif-combined',
			'Invalid Mobile Number in item 0 (got "5876543210")',
		],
	])('%s', async (name, path, message) => {
		const result = await expectNothingSent(
			sandbox,
			path,
			async () => await sandbox.run(fixture(name)),
		);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toContain('10-digit Indian mobile number');
	});
});
