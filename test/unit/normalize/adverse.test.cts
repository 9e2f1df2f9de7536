/**
 * The adverse facts (issue 46, nodes/FinVerify/helpers/normalize/adverse.ts): per decision operation and
 * per kind, in both of the service's layouts (the sandbox's generators and the OpenAPI contract's
 * examples), the words, the source, the masked account; a clean answer has none; facts the answer
 * leaves unknown are not adverse.
 */
import type { IDataObject } from 'n8n-workflow';

import { adverseFacts, decide, withDecision } from '../../../nodes/FinVerify/actions/declarations';
import {
	analysisAdverse,
	dateWords,
	lastFour,
	rupees,
} from '../../../nodes/FinVerify/helpers/normalize/adverse';
import { normalizeMultiBureau } from '../../../nodes/FinVerify/helpers/normalize/creditReport';
import { maskPersonalData } from '../../../nodes/FinVerify/helpers/personalData';
import { multiBureauReference, multiBureauSample } from '../../../sandbox/data/bureau.cjs';
import { example } from '../../contract/openapiExamples.cjs';
import { RESPONSES } from '../../contract/responses.cjs';

const MULTI = 'creditReport.getMultiBureauReport';
const texts = (facts: unknown) => (facts as IDataObject[]).map((f) => f.text);

describe('words', () => {
	test.each([
		['2026-07', 'July 2026'],
		['2026-08-05', '5 August 2026'],
		['2026-13', '2026-13'],
	])('%s reads %s', (date, words) => expect(dateWords(date)).toBe(words));
	test('amounts in Indian grouping', () => expect(rupees(150000)).toBe('₹1,50,000'));
	test.each([
		['1234567890123456', 'XXXX3456'],
		['XXXXXX1234', 'XXXX1234'],
		['1234-5678-9012', 'XXXX9012'],
		['XXXX', null],
		['12', null],
		[null, null],
	])('account %p shows as %p', (number, shown) => expect(lastFour(number)).toBe(shown));
});

describe('Get Multi-Bureau Report', () => {
	const input = {
		pan: 'ABCPK1234L',
		name: 'Asha Rao',
		mobile_number: '9876543210',
		gender: 'female' as const,
		bureaus: ['cibil', 'crif', 'equifax', 'experian'] as Array<
			'cibil' | 'crif' | 'equifax' | 'experian'
		>,
	};
	const reference = () =>
		withDecision(MULTI, normalizeMultiBureau(multiBureauReference(input, 'req'), input.bureaus));
	const sample = () =>
		withDecision(
			MULTI,
			normalizeMultiBureau(
				multiBureauSample(input, (b) => `https://example.test/${b}`),
				input.bureaus,
			),
		);

	test('the sandbox subject with a 60-day delinquency: one fact per bureau, reference layout (no months)', () => {
		const record = reference();
		expect(record.maxDaysPastDue).toBe(60);
		expect(texts(record.adverse)).toEqual(
			['CIBIL', 'CRIF', 'Equifax', 'Experian'].map(
				(b) =>
					`${b}: personal loan with IDFC First Bank (account XXXX1034) 60 days past due in the last 12 reported months`,
			),
		);
	});

	test('the same subject, sample layout: each bureau its own layout; the month where it says it', () => {
		const facts = sample().adverse as IDataObject[];
		expect(facts.map((f) => [f.source, f.kind, f.figure, f.date])).toEqual([
			['cibil', 'daysPastDue', 60, null],
			['crif', 'daysPastDue', 60, '2025-03'],
			['equifax', 'daysPastDue', 60, '2025-03'],
			['experian', 'daysPastDue', 60, '2025-03'],
		]);
		expect(facts[1].text).toBe(
			'CRIF: personal loan with IDFC FIRST BANK (account XXXX1034) 60 days past due in March 2025',
		);
		// Experian's account type code 05
		expect(facts[3].text).toMatch(/^Experian: personal loan with /);
	});

	test('a clean subject: adverse: [] in both layouts', () => {
		for (const pan of ['BBCPK1234L', 'CBCPK1234L']) {
			const clean = { ...input, pan };
			for (const body of [multiBureauReference(clean, 'req'), multiBureauSample(clean, () => '')]) {
				const record = withDecision(MULTI, normalizeMultiBureau(body, clean.bureaus));
				expect(record).toMatchObject({ decisionReady: true, maxDaysPastDue: 0, adverse: [] });
			}
		}
	});

	const crif = (loans: IDataObject[]) => ({
		results: {
			crif: {
				success: true,
				data: {
					credit_score: '742',
					credit_report: { RESPONSES: { RESPONSE: loans.map((l) => ({ 'LOAN-DETAILS': l })) } },
				},
			},
		},
	});
	const loan = (extra: IDataObject): IDataObject => ({
		'ACCT-NUMBER': '1234567890123456',
		'CREDIT-GUARANTOR': 'HDFC BANK',
		'ACCT-TYPE': 'Personal Loan',
		'ACCOUNT-STATUS': 'Active',
		'COMBINED-PAYMENT-HISTORY': '07:2026,STD/XXX',
		...extra,
	});

	test.each<[string, IDataObject, string, string]>([
		[
			'SUB after a slash',
			{ 'COMBINED-PAYMENT-HISTORY': '07:2026,XXX/SUB' },
			'assetClass',
			'90+ days past due (SUB) in July 2026',
		],
		[
			'DBT with days',
			{ 'COMBINED-PAYMENT-HISTORY': '07:2026,120/DBT' },
			'assetClass',
			'120 days past due (DBT) in July 2026',
		],
		[
			'LSS',
			{ 'COMBINED-PAYMENT-HISTORY': '07:2026,LSS' },
			'assetClass',
			'90+ days past due (LSS) in July 2026',
		],
		[
			'SMA-2',
			{ 'COMBINED-PAYMENT-HISTORY': '07:2026,000/SMA-2' },
			'daysPastDue',
			'61 days past due (SMA-2) in July 2026',
		],
		[
			'the worst month of the account, once',
			{ 'COMBINED-PAYMENT-HISTORY': '07:2026,030/XXX|06:2026,060/XXX|05:2026,060/XXX' },
			'daysPastDue',
			'60 days past due in June 2026',
		],
		['written off', { 'ACCOUNT-STATUS': 'Written Off' }, 'writtenOff', 'written off'],
		['settled', { 'ACCOUNT-STATUS': 'SETTLED' }, 'settled', 'settled'],
		['a written-off amount', { 'WRITTEN-OFF-AMT': '45000' }, 'writtenOff', 'written off (₹45,000)'],
	])('%s', (_name, extra, kind, words) => {
		const record = withDecision(MULTI, normalizeMultiBureau(crif([loan(extra)]), ['crif']));
		expect(record.adverse).toEqual([
			expect.objectContaining({
				text: `CRIF: personal loan with HDFC BANK (account XXXX3456) ${words}`,
				source: 'crif',
				kind,
				lender: 'HDFC BANK',
				account: 'XXXX3456',
				date: words.endsWith('2026') ? expect.stringMatching(/^2026-0[67]$/) : null,
			}),
		]);
	});

	test('a month older than the 12 newest is not adverse (the window of maxDaysPastDue)', () => {
		const months = Array.from({ length: 13 }, (_, i) => {
			const m = 12 - i; // 12 … 1 of 2026, then 12 of 2025
			return i < 12 ? `${String(m).padStart(2, '0')}:2026,STD/XXX` : '12:2025,090/XXX';
		});
		const record = withDecision(
			MULTI,
			normalizeMultiBureau(crif([loan({ 'COMBINED-PAYMENT-HISTORY': months.join('|') })]), [
				'crif',
			]),
		);
		expect(record).toMatchObject({ maxDaysPastDue: 0, adverse: [] });
	});

	test('an unknown history is not adverse: it is in incomplete', () => {
		const record = withDecision(
			MULTI,
			normalizeMultiBureau(crif([loan({ 'COMBINED-PAYMENT-HISTORY': '07:2026,30+' })]), ['crif']),
		);
		expect(record.incomplete).toContain('CRIF: payment history unknown');
		expect(record.adverse).toEqual([]);
	});

	test('a record read back from JSON (no accounts): each bureau named from its figures', () => {
		const record = JSON.parse(JSON.stringify(sample())) as IDataObject;
		delete record.adverse;
		expect(texts(decide(MULTI, record).adverse)).toEqual([
			'CIBIL: an account 60 days past due in the last 12 reported months',
			'CRIF: an account 60 days past due in the last 12 reported months',
			'Equifax: an account 60 days past due in the last 12 reported months',
			'Experian: an account 60 days past due in the last 12 reported months',
		]);
	});
});

describe('the other operations', () => {
	test('Get EPFO Record: no current employer, with the last exit', () => {
		const record = {
			employerCount: 2,
			employers: [
				{ name: 'OLD CO', current: false, dateOfJoining: '2015-01-01', dateOfExit: '2019-03-31' },
				{ name: 'NEW CO', current: false, dateOfJoining: '2019-04-01', dateOfExit: '2026-06-30' },
			],
		};
		expect(adverseFacts('employment.getEpfoRecord', record, { currentlyEmployed: false })).toEqual([
			{
				text: 'EPFO: no current employer (last employment with NEW CO ended on 30 June 2026)',
				source: 'epfo',
				kind: 'noCurrentEmployer',
				lender: 'NEW CO',
				account: null,
				date: '2026-06-30',
				figure: null,
			},
		]);
		// unknown (null) is not adverse
		expect(adverseFacts('employment.getEpfoRecord', record, { currentlyEmployed: null })).toEqual(
			[],
		);
		expect(adverseFacts('employment.getEpfoRecord', record, { currentlyEmployed: true })).toEqual(
			[],
		);
	});

	test('Get ITR Data: an outstanding demand, and a demand on a return not listed among them', () => {
		const facts = adverseFacts('incomeTaxReturn.getData', {
			outstandingDemands: [{ assessmentYear: '2025-26', amount: 25000, section: '143(1)' }],
			filings: [
				{ assessmentYear: '2025-26', demandAmount: 25000 },
				{ assessmentYear: '2024-25', demandAmount: 1200 },
				{ assessmentYear: '2023-24', demandAmount: 0 },
			],
		});
		expect(texts(facts)).toEqual([
			'Income tax: outstanding tax demand of ₹25,000 for assessment year 2025-26 (section 143(1))',
			'Income tax: tax demand of ₹1,200 on the return for assessment year 2024-25',
		]);
	});

	test('Get Analysis, reference layout: the journey flags', () => {
		expect(
			texts(
				analysisAdverse({
					shape: 'reference',
					flags: { emiBounce: true, salaryBounce: true, inwardChequeReturn: true },
				}),
			),
		).toEqual([
			'Bank statement: EMI bounce',
			'Bank statement: salary bounce',
			'Bank statement: inward cheque returned',
		]);
		expect(analysisAdverse({ shape: 'reference', flags: { anyBounce: null } })).toEqual([]);
	});

	test('Get Analysis, a record without its transactions: counts from the health score', () => {
		const facts = analysisAdverse({
			shape: 'sample',
			accounts: [
				{
					bankName: 'Axis Bank',
					accountNumber: '9182736450001234',
					flags: { anyBounce: true, inwardChequeReturn: false, negativeBalance: true },
					healthScore: { bounces: 2, negativeBalances: 3 },
				},
			],
		});
		expect(texts(facts)).toEqual([
			'Bank statement: 2 payment bounces, Axis Bank account XXXX1234',
			'Bank statement: negative balance (3 times), Axis Bank account XXXX1234',
		]);
	});

	test("a company: the decider's facts as objects, null when the decider says null", () => {
		const record = {
			status: 'Under Liquidation',
			dateOfIncorporation: '2010-01-01',
			legalCaseCount: 4,
			riskFlags: {
				pendingCases: true,
				bureauDefaults: false,
				gstFilingDelay: true,
				epfPaymentDelay: true,
			},
		};
		expect(texts(decide('company.getByCin', record).adverse)).toEqual([
			"Company: in liquidation or dissolved (status 'Under Liquidation')",
			'Company: pending cases (litigation): 4 cases',
			'Company: GST returns filed late',
			'Company: EPF contributions paid late',
		]);
		// Decide On Status and Age: the flags are not named
		expect(
			texts(decide('company.getByCin', record, { decideOn: ['status', 'age'] }).adverse),
		).toEqual(["Company: in liquidation or dissolved (status 'Under Liquidation')"]);
		expect(decide('company.getByCin', { ...record, status: null }).adverse).toBeNull();
		expect(
			texts(
				decide('company.getEntityByPan', {
					status: 'Active',
					dateOfIncorporation: '2010-01-01',
					bureauDefaults: true,
					gstFilingDelay: false,
					tdsDefaults: true,
				}).adverse,
			),
		).toEqual(['Entity: defaults reported to a credit bureau', 'Entity: TDS defaults']);
	});
});

describe('the contract examples (every property filled), both layouts', () => {
	const decisionCases = RESPONSES.filter((c) =>
		[
			MULTI,
			'employment.getEpfoRecord',
			'employment.getEpfoRecordWithCredit',
			'incomeTaxReturn.getData',
			'bankStatementJourney.getAnalysis',
			'company.getByCin',
			'company.getLlpByLlpin',
			'company.getEntityByPan',
		].includes(c.operation),
	).flatMap((c) => c.schemas.map((schema) => ({ ...c, schema })));

	test('there are examples of every decision operation', () =>
		expect(new Set(decisionCases.map((c) => c.operation)).size).toBe(8));

	test.each(decisionCases)(
		'$operation from $schema: facts are objects with their source; the words survive masking unchanged',
		({ operation, schema, normalize }) => {
			const out = normalize(example({ $ref: `#/components/schemas/${schema}` }));
			for (const json of (Array.isArray(out) ? out : [out]) as IDataObject[]) {
				const record = withDecision(operation, json);
				const facts = record.adverse as IDataObject[] | null;
				if (facts === null) continue; // a company neither ready nor declinable
				for (const f of facts) {
					expect(Object.keys(f)).toEqual([
						'text',
						'source',
						'kind',
						'lender',
						'account',
						'date',
						'figure',
					]);
					expect(f.text).toMatch(
						/^(CIBIL|CRIF|Equifax|Experian|Credit report|EPFO|Bank statement|Income tax|Company|LLP|Entity): /,
					);
				}
				// masking leaves the words as they are: nothing in them to mask
				expect(maskPersonalData({ adverse: facts }, 'masked')).toEqual({ adverse: facts });
			}
		},
	);
});
