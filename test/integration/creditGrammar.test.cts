/**
 * The credit readers' grammar through n8n-core's real engine (node version 3, Incomplete Answers at its
 * default): Get Multi-Bureau Report and Get EPFO Record with Credit Report against a loopback service
 * answering exact bodies. An asset class after the slash (`030/SUB`) is read as 90 days past due and the
 * answer stays ready (Complete, output 0); a CIBIL month 4 characters wide is unknown (Incomplete, output
 * 1), never 3 days; an account listed twice counts once; a one-account report's single-line dpd_history
 * is read (30 days, ready).
 */
import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson } from '../harness/index.cjs';
import { versionThreeOutputs, versionThreeWorkflow, withStubService } from './support.cjs';

const MULTI_BUREAU = '/api/v1/services/multi-bureau/fetch';
const EPFO_CREDIT = '/api/v1/services/epfo-crif-combined/fetch';

/** A single FinVerify node at version 3 with `parameters`. */
const v3 = (parameters: IDataObject): WorkflowJson =>
	versionThreeWorkflow({ ...parameters, requestOptions: { maxRetries: 0 } });

const multiBureau = (outputMode: string) =>
	v3({
		resource: 'creditReport',
		operation: 'getMultiBureauReport',
		pan: 'ABCDE1234F',
		name: 'Priya Sharma',
		mobileNumber: '9876543210',
		gender: 'female',
		bureaus: ['cibil', 'crif'],
		consent: true,
		outputMode,
	});
const epfoWithCredit = (outputMode: string) =>
	v3({
		resource: 'employment',
		operation: 'getEpfoRecordWithCredit',
		mobileNumber: '9876543210',
		consent: true,
		outputMode,
	});

/** One bureau's entry of a multi-bureau answer: its score and report. */
const bureauEntry = (creditScore: string, creditReport: object) => ({
	success: true,
	message: 'Success',
	credit_report_link: '',
	data: {
		name: 'PRIYA SHARMA',
		pan: 'ABCDE1234F',
		credit_score: creditScore,
		credit_report: creditReport,
	},
});
const cibilEntry = (...paymentHistories: string[]) =>
	bureauEntry('742', {
		consumerCreditData: [
			{
				accounts: paymentHistories.map((paymentHistory, i) => ({
					index: `T00${i + 1}`,
					memberShortName: 'HDFC BANK',
					paymentHistory,
				})),
			},
		],
	});
const crifLoan = (number: string, history: string) => ({
	'LOAN-DETAILS': {
		'ACCT-NUMBER': number,
		'CREDIT-GUARANTOR': 'AXIS BANK',
		'ACCT-TYPE': 'Personal Loan',
		'ACCOUNT-STATUS': 'Active',
		'COMBINED-PAYMENT-HISTORY': history,
	},
});
const crifEntry = (...loans: object[]) =>
	bureauEntry('731', { SCORE: { 'SCORE-VALUE': '731' }, RESPONSES: { RESPONSE: loans } });

const multiBureauBody = (cibil: object, crif: object) => ({
	success: true,
	status_code: 200,
	message: 'Credit reports fetched',
	doc_id: 'doc_1',
	pan: 'ABCDE1234F',
	results: { cibil, crif },
});

const epfoPart = {
	uan: '101234567890',
	name: 'PRIYA SHARMA',
	total_employers: 1,
	employment_history: [
		{
			employer_name: 'NEW CO',
			establishment_id: 'E2',
			date_of_joining: '2021-05-01',
			date_of_exit: null,
			service_duration_months: 46,
		},
	],
};
const epfoCreditBody = (crif: object) => ({
	success: true,
	message: 'EPFO and credit details fetched successfully',
	data: { mobile_number: '9876543210', epfo: epfoPart, crif },
});

describe('credit grammar through the engine (version 3)', () => {
	const service = withStubService();

	/** The items of the Complete (0) and Incomplete (1) outputs. */
	async function run(wf: WorkflowJson) {
		const result = await service.run(wf);
		expect(result.error).toBeUndefined();
		const { complete, incomplete } = versionThreeOutputs(result);
		return { complete, incomplete };
	}

	test('Multi-Bureau: CRIF `030/SUB` and `XXX/SUB` read 90 days past due, SUB named; ready', async () => {
		for (const month of ['030/SUB', 'XXX/SUB']) {
			service.stub.respond(MULTI_BUREAU, {
				body: multiBureauBody(
					cibilEntry('000030000', '000000000'),
					crifEntry(crifLoan('X1', `03:2025,${month}|02:2025,030/XXX|01:2025,STD/XXX`)),
				),
			});
			const { complete, incomplete } = await run(multiBureau('normalized'));
			expect(incomplete).toEqual([]);
			expect(complete).toHaveLength(1);
			expect(complete[0]).toMatchObject({
				decisionReady: true,
				incomplete: [],
				maxDaysPastDue: 90,
			});
			const crif = (complete[0].bureaus as IDataObject[]).find((b) => b.bureau === 'crif');
			expect(crif).toMatchObject({ maxDaysPastDue: 90, worstAssetClass: 'SUB' });
		}
	});

	test('Multi-Bureau: a 4-character CIBIL month is unknown, never 3 days: Incomplete output', async () => {
		service.stub.respond(MULTI_BUREAU, {
			body: multiBureauBody(
				cibilEntry('0000030000', '000000000'),
				crifEntry(crifLoan('X1', '03:2025,STD/XXX|02:2025,STD/XXX')),
			),
		});
		for (const mode of ['simplified', 'normalized']) {
			const { complete, incomplete } = await run(multiBureau(mode));
			expect(complete).toEqual([]);
			expect(incomplete).toHaveLength(1);
			expect(incomplete[0]).toMatchObject({ decisionReady: false, maxDaysPastDue: null });
			expect(incomplete[0].incomplete).toContain('CIBIL: payment history unknown');
		}
	});

	test('Multi-Bureau: the same account listed twice counts once (delinquent months not doubled)', async () => {
		const loan = crifLoan('X1', '03:2025,030/XXX|02:2025,STD/XXX');
		service.stub.respond(MULTI_BUREAU, {
			body: multiBureauBody(cibilEntry('000000000'), crifEntry(loan, loan)),
		});
		const { complete } = await run(multiBureau('normalized'));
		expect(complete[0]).toMatchObject({
			decisionReady: true,
			maxDaysPastDue: 30,
			delinquentMonths: 1,
		});
		const crif = (complete[0].bureaus as IDataObject[]).find((b) => b.bureau === 'crif');
		expect(crif).toMatchObject({ accountCount: 1, delinquentMonths: 1 });
	});

	test('Multi-Bureau: one account listed twice with different histories: Incomplete', async () => {
		service.stub.respond(MULTI_BUREAU, {
			body: multiBureauBody(
				cibilEntry('000000000'),
				crifEntry(
					crifLoan('X1', '03:2025,030/XXX|02:2025,STD/XXX'),
					crifLoan('X1', '03:2025,STD/XXX|02:2025,STD/XXX'),
				),
			),
		});
		const { complete, incomplete } = await run(multiBureau('normalized'));
		expect(complete).toEqual([]);
		expect(incomplete[0]).toMatchObject({ decisionReady: false, maxDaysPastDue: null });
	});

	const account = {
		account_type: 'Personal Loan',
		lender_name: 'HDFC Bank',
		account_number: 'XXXX1234',
		open_date: '2022-01-01',
		close_date: null,
		account_status: 'Active',
		dpd: '30',
		sanctioned_amount: 500000,
		outstanding_amount: 300000,
		emi_amount: 12000,
		overdue_amount: 2500,
	};
	const crifPart = (extra: object) => ({
		credit_score: 742,
		score_version: 'PERFORM CONSUMER 2.2',
		report_date: '2025-03-31',
		total_accounts: 1,
		active_accounts: 1,
		closed_accounts: 0,
		overdue_accounts: 1,
		total_outstanding: 300000,
		total_sanctioned: 500000,
		...extra,
	});

	test("EPFO with Credit: a one-account report's single-line dpd_history is read (30, ready)", async () => {
		service.stub.respond(EPFO_CREDIT, {
			body: epfoCreditBody(crifPart({ dpd_history: '000000000030000000', accounts: [account] })),
		});
		for (const mode of ['simplified', 'normalized']) {
			const { complete, incomplete } = await run(epfoWithCredit(mode));
			expect(incomplete).toEqual([]);
			expect(complete[0]).toMatchObject({ decisionReady: true });
			const credit = mode === 'normalized' ? (complete[0].credit as IDataObject) : complete[0];
			expect(credit.maxDaysPastDue).toBe(30);
		}
	});

	test('EPFO with Credit: 030/SUB in dpd_history reads 90 (ready); a lone current DPD is refused', async () => {
		service.stub.respond(EPFO_CREDIT, {
			body: epfoCreditBody(crifPart({ dpd_history: '000|030/SUB|000', accounts: [account] })),
		});
		const ready = await run(epfoWithCredit('normalized'));
		expect(ready.complete[0]).toMatchObject({
			decisionReady: true,
			credit: { maxDaysPastDue: 90, worstAssetClass: 'SUB' },
		});

		// no dpd_history: the account's `dpd: "30"` is its current days past due, not a history
		service.stub.respond(EPFO_CREDIT, { body: epfoCreditBody(crifPart({ accounts: [account] })) });
		const refused = await run(epfoWithCredit('normalized'));
		expect(refused.complete).toEqual([]);
		expect(refused.incomplete[0]).toMatchObject({
			decisionReady: false,
			credit: { maxDaysPastDue: null },
		});
		expect(refused.incomplete[0].incomplete).toContain('credit: payment history unknown');
	});
});
