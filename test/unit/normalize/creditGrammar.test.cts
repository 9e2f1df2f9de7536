/**
 * The credit readers' grammar (docs/output.md, "The readers' grammar"): what each bureau layout may send
 * for a month of payment history, an account and a summary figure, and what makes it unknown. One test
 * (at least) per grammar row, per layout; the verdict (decisionReady) follows every unknown.
 */
import { decide } from '../../../nodes/FinVerify/actions/declarations';
import {
	accountHistory,
	readDaysPastDue,
	readHistory,
	readScore,
} from '../../../nodes/FinVerify/helpers/normalize/common';
import { normalizeMultiBureau } from '../../../nodes/FinVerify/helpers/normalize/creditReport';
import { normalizeEpfoCredit } from '../../../nodes/FinVerify/helpers/normalize/employment';

const worst = (value: unknown): number | null => {
	const days = readDaysPastDue(value);
	return days === null ? null : Math.max(...days);
};

describe('a month: a day count, an asset class alone or after a slash', () => {
	it.each<[string, number]>([
		['030', 30],
		['000/STD', 0],
		['STD', 0],
		['030/XXX', 30],
		['XXX/SUB', 90],
		['030/SUB', 90],
		['000/DBT', 90],
		['120/LSS', 120],
		['SUB', 90],
		['DBT', 90],
		['LSS', 90],
		['SMA', 1],
		['SMA-0', 1],
		['SMA-1', 31],
		['SMA-2', 61],
		['000/SMA-2', 61],
		['sub', 90],
	])('%s reads %i days past due (the greater of the days and the class floor)', (code, days) => {
		expect(readDaysPastDue([code])).toEqual([days]);
		expect(readDaysPastDue(`000|${code}`)).toEqual([0, days]);
	});

	it('XXX and XXX/XXX are months not reported: left out', () => {
		expect(readDaysPastDue('XXX|000|XXX/XXX')).toEqual([0]);
	});

	it.each<[string, string]>([
		['an unknown code', 'ABC'],
		['an unknown class after the slash', '030/ABC'],
		['a day count after the slash', '030/030'],
		['two slashes', '030/SUB/XXX'],
		['a negative count', '-30'],
		['a count above 999', '1000'],
		['a decimal count', '30.5'],
		['a class before a count', 'SUB/030'],
	])('%s (%s) makes the history unknown', (_, code) => {
		expect(readDaysPastDue(`000|${code}|000`)).toBeNull();
		expect(readDaysPastDue(['000', code])).toBeNull();
	});

	it('states the class it read', () => {
		expect(readHistory('000|030/SUB|SMA-1')).toEqual([
			{ days: 0, assetClass: null },
			{ days: 90, assetClass: 'SUB' },
			{ days: 31, assetClass: 'SMA-1' },
		]);
	});
});

describe('reference layout (`000|030|...`) and delimited lists: widths', () => {
	it.each(['000|30|000', '000|030|000', '000| 30 |000', '000|0030|000', '0,30,0', '0 30 0'])(
		'%s reads 30',
		(line) => expect(worst(line)).toBe(30),
	);

	it.each([
		['a blank month', '000||000'],
		['a count above 999', '000|1030|000'],
		['a negative count', '000|-30|000'],
		['a comma inside a pipe-delimited month', '000|030,000'],
	])('%s makes the history unknown', (_, line) => expect(readDaysPastDue(line)).toBeNull());
});

describe("CIBIL's run-together line: exactly three characters a month", () => {
	it('reads three-digit months and three-letter codes', () => {
		expect(readDaysPastDue('000030000')).toEqual([0, 30, 0]);
		expect(worst('000SUB000')).toBe(90);
		expect(readDaysPastDue('XXX000')).toEqual([0]);
	});

	it.each([
		['one 4-character month (length not a multiple of 3)', '0000030000'],
		['a 2-character line', '30'],
		['a chunk neither 3 digits nor a code', '000ABC000'],
		['a code cut across chunks', '0SUB00'],
	])('%s is unknown, never cut into other months', (_, line) =>
		expect(readDaysPastDue(line)).toBeNull(),
	);

	it('a single month that cannot run together is one month', () => {
		expect(readDaysPastDue('SMA-1')).toEqual([31]);
		expect(readDaysPastDue('030/SUB')).toEqual([90]);
	});
});

describe('CRIF combined payment history (`MM:YYYY,days/class`)', () => {
	it('reads the class after the slash', () => {
		expect(worst('03:2025,000/XXX|02:2025,030/XXX')).toBe(30);
		expect(worst('03:2025,XXX/SUB|02:2025,030/XXX')).toBe(90);
		expect(worst('03:2025,000/DBT|02:2025,STD/XXX')).toBe(90);
		expect(worst('03:2025,000/LSS')).toBe(90);
	});

	it('a month listed twice: once when both say the same, unknown when they disagree', () => {
		expect(readDaysPastDue('03:2025,030/XXX|03:2025,030/XXX|02:2025,STD/XXX')).toEqual([30, 0]);
		expect(readDaysPastDue('03:2025,STD/XXX|03:2025,060/XXX|02:2025,STD/XXX')).toBeNull();
	});

	it('orders the months newest first', () => {
		expect(readDaysPastDue('01:2025,060/XXX|03:2025,STD/XXX|02:2025,030/XXX')).toEqual([0, 30, 60]);
	});
});

describe('lists, month objects and month maps', () => {
	it('a list of codes and numbers', () => {
		expect(worst(['000', 'SUB', 0])).toBe(90);
		expect(readDaysPastDue([0, 1000])).toBeNull();
		expect(readDaysPastDue([0, -1])).toBeNull();
		expect(readDaysPastDue([0, 30.5])).toBeNull();
	});

	it('month objects: a class in the DPD field', () => {
		expect(worst([{ dpd: 'SMA-2' }, { dpd: 0 }])).toBe(61);
		expect(worst([{ Days_Past_Due: '030/SUB', Year: '2025', Month: '03' }])).toBe(90);
	});

	it("Equifax History48Months: AssetClassificationStatus is the month's class (`*`: none stated)", () => {
		const month = (PaymentStatus: string, AssetClassificationStatus: unknown) => [
			{ key: '03-25', PaymentStatus, AssetClassificationStatus },
			{ key: '02-25', PaymentStatus: '000', AssetClassificationStatus: '*' },
		];
		expect(worst(month('000', '*'))).toBe(0);
		expect(worst(month('030', '*'))).toBe(30);
		expect(worst(month('000', 'SUB'))).toBe(90);
		expect(worst(month('XXX', 'DBT'))).toBe(90);
		expect(worst(month('000', 'STD'))).toBe(0);
		expect(readDaysPastDue(month('000', 'ABC'))).toBeNull();
		expect(readDaysPastDue(month('000', ''))).toBeNull();
	});

	it('a month listed twice in month objects or maps: once when equal, unknown when not', () => {
		expect(
			readDaysPastDue([
				{ Year: '2025', Month: '03', Days_Past_Due: 30 },
				{ Year: '2025', Month: '03', Days_Past_Due: 30 },
			]),
		).toEqual([30]);
		expect(
			readDaysPastDue([
				{ Year: '2025', Month: '03', Days_Past_Due: 30 },
				{ Year: '2025', Month: '03', Days_Past_Due: 0 },
			]),
		).toBeNull();
		expect(readDaysPastDue({ '2025-03': 0, '03-2025': 30 })).toBeNull();
		expect(worst({ '2025-03': '030/SUB', '2025-02': 0 })).toBe(90);
	});

	it('an Experian account with only its profile states no class', () => {
		expect(accountHistory({ Payment_History_Profile: '010' })).toEqual([
			{ days: 0, assetClass: null },
			{ days: 30, assetClass: null },
			{ days: 0, assetClass: null },
		]);
	});
});

describe('scores: a whole number as sent', () => {
	it.each([
		['742', 742],
		['00742', 742],
		[' 742 ', 742],
	])('%j reads %i', (value, score) => expect(readScore(value).score).toBe(score));
	it.each(['7 42', '74.2', '1,742', '742a'])('%j is no score', (value) =>
		expect(readScore(value).scoreKind).toBeNull(),
	);
});

// ------------------------------------------------------------------ Get Multi-Bureau Report

const sampleBody = (bureau: string, credit_report: object, credit_score = '750') => ({
	success: true,
	pan: 'ABCDE1234F',
	results: { [bureau]: { success: true, data: { credit_score, credit_report } } },
});
const bureauOf = (body: unknown) => normalizeMultiBureau(body).bureaus[0];
const verdictOf = (body: unknown) =>
	decide('creditReport.getMultiBureauReport', normalizeMultiBureau(body));

const cibil = (...paymentHistories: unknown[]) =>
	sampleBody('cibil', {
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
const crifLoan = (history: string, number = 'X1', lender = 'HDFC BANK') => ({
	'LOAN-DETAILS': {
		'ACCT-NUMBER': number,
		'CREDIT-GUARANTOR': lender,
		'COMBINED-PAYMENT-HISTORY': history,
	},
});
const crif = (loans: object[], summary: object = {}) =>
	sampleBody('crif', {
		'ACCOUNTS-SUMMARY': { 'PRIMARY-ACCOUNTS-SUMMARY': summary },
		RESPONSES: { RESPONSE: loans },
	});
const equifaxAccount = (AccountNumber: string, status: string, asset = '*') => ({
	AccountNumber,
	Institution: 'HDFC BANK',
	History48Months: [
		{ key: '03-25', PaymentStatus: status, AssetClassificationStatus: asset },
		{ key: '02-25', PaymentStatus: '000', AssetClassificationStatus: '*' },
	],
});
const equifax = (accounts: object[], summary: object = {}) =>
	sampleBody('equifax', {
		CCRResponse: {
			CIRReportDataLst: [
				{ CIRReportData: { RetailAccountDetails: accounts, RetailAccountsSummary: summary } },
			],
		},
	});
const experianAccount = (Account_Number: string, days: number) => ({
	Account_Number,
	Subscriber_Name: 'HDFC BANK',
	CAIS_Account_History: [
		{ Year: '2025', Month: '03', Days_Past_Due: days },
		{ Year: '2025', Month: '02', Days_Past_Due: 0 },
	],
});
const experian = (accounts: object[], total?: number) =>
	sampleBody('experian', {
		CAIS_Account: {
			CAIS_Summary: total === undefined ? {} : { Credit_Account: { CreditAccountTotal: total } },
			CAIS_Account_DETAILS: accounts,
		},
	});
const reference = (report: object, score: unknown = 742) => ({
	success: true,
	data: { cibil: { score, report: { name: 'A', pan: 'ABCDE1234F', inquiries: [], ...report } } },
});

describe('Get Multi-Bureau Report, CIBIL layout', () => {
	it('a complete, well-formed report is ready', () => {
		const body = cibil('000030000', '000000000');
		expect(bureauOf(body)).toMatchObject({
			accountCount: 2,
			maxDaysPastDue: 30,
			delinquentMonths: 1,
			worstAssetClass: 'none',
		});
		expect(verdictOf(body).decisionReady).toBe(true);
	});

	it('a 4-character month: unknown, not 3 days; the answer is not ready', () => {
		const body = cibil('0000030000', '000000000');
		expect(bureauOf(body).maxDaysPastDue).toBeNull();
		expect(bureauOf(body).worstAssetClass).toBeNull();
		expect(verdictOf(body)).toMatchObject({ decisionReady: false, maxDaysPastDue: null });
	});

	it('SUB run together reads 90 and names the class', () => {
		expect(bureauOf(cibil('000SUB000', '000000000'))).toMatchObject({
			maxDaysPastDue: 90,
			worstAssetClass: 'SUB',
		});
	});

	it('the same account listed twice (deep-equal, no account number): unknown', () => {
		const once = { index: 'T001', memberShortName: 'HDFC BANK', paymentHistory: '000030000' };
		const body = sampleBody('cibil', { consumerCreditData: [{ accounts: [once, { ...once }] }] });
		expect(bureauOf(body)).toMatchObject({ accountCount: null, maxDaysPastDue: null });
		expect(verdictOf(body).decisionReady).toBe(false);
	});
});

describe('Get Multi-Bureau Report, CRIF layout', () => {
	it('030/SUB and XXX/SUB read 90, SUB named, ready', () => {
		for (const month of ['030/SUB', 'XXX/SUB']) {
			const body = crif([crifLoan(`03:2025,${month}|02:2025,030/XXX`)]);
			expect(bureauOf(body)).toMatchObject({ maxDaysPastDue: 90, worstAssetClass: 'SUB' });
			expect(verdictOf(body)).toMatchObject({ decisionReady: true, maxDaysPastDue: 90 });
		}
	});

	it('the gravest class wins: LSS over SMA-2', () => {
		expect(
			bureauOf(
				crif([
					crifLoan('03:2025,000/SMA-2|02:2025,STD/XXX', 'X1'),
					crifLoan('03:2025,000/LSS', 'X2'),
				]),
			).worstAssetClass,
		).toBe('LSS');
	});

	it('the same account (number and lender) listed twice is counted once', () => {
		const loan = crifLoan('03:2025,030/XXX|02:2025,STD/XXX');
		expect(bureauOf(crif([loan, loan]))).toMatchObject({
			accountCount: 1,
			maxDaysPastDue: 30,
			delinquentMonths: 1,
		});
	});

	it('one account listed twice with different histories: unknown', () => {
		const body = crif([
			crifLoan('03:2025,030/XXX|02:2025,STD/XXX'),
			crifLoan('03:2025,STD/XXX|02:2025,STD/XXX'),
		]);
		expect(bureauOf(body)).toMatchObject({ accountCount: null, maxDaysPastDue: null });
		expect(verdictOf(body).decisionReady).toBe(false);
	});

	it('a summary count that contradicts the listed accounts: the count is unknown', () => {
		const loans = [crifLoan('03:2025,STD/XXX', 'X1'), crifLoan('03:2025,STD/XXX', 'X2')];
		expect(bureauOf(crif(loans, { 'NUMBER-OF-ACCOUNTS': '2' })).accountCount).toBe(2);
		expect(bureauOf(crif(loans, { 'NUMBER-OF-ACCOUNTS': '3' })).accountCount).toBeNull();
	});

	it('the length of history out of range is unknown', () => {
		const body = (years: string, months: string) =>
			sampleBody('crif', {
				'ACCOUNTS-SUMMARY': {
					'DERIVED-ATTRIBUTES': {
						'LENGTH-OF-CREDIT-HISTORY-YEAR': years,
						'LENGTH-OF-CREDIT-HISTORY-MONTH': months,
					},
				},
				RESPONSES: { RESPONSE: [crifLoan('03:2025,STD/XXX')] },
			});
		expect(bureauOf(body('3', '4')).lengthOfHistoryMonths).toBe(40);
		for (const [years, months] of [
			['-1', '0'],
			['3', '12'],
			['99999', '0'],
		])
			expect(bureauOf(body(years, months)).lengthOfHistoryMonths).toBeNull();
	});
});

describe('Get Multi-Bureau Report, Equifax layout', () => {
	it('AssetClassificationStatus SUB reads 90; `*` is no class', () => {
		expect(bureauOf(equifax([equifaxAccount('X1', '000', 'SUB')]))).toMatchObject({
			maxDaysPastDue: 90,
			worstAssetClass: 'SUB',
		});
		expect(bureauOf(equifax([equifaxAccount('X1', '030')]))).toMatchObject({
			maxDaysPastDue: 30,
			worstAssetClass: 'none',
		});
	});

	it('a PaymentStatus outside the grammar (`30+`) is unknown', () => {
		const body = equifax([equifaxAccount('X1', '30+')]);
		expect(bureauOf(body).maxDaysPastDue).toBeNull();
		expect(verdictOf(body).decisionReady).toBe(false);
	});

	it('the account twice counts once; NoOfAccounts against the list', () => {
		const account = equifaxAccount('X1', '030');
		expect(bureauOf(equifax([account, account], { NoOfAccounts: '1' }))).toMatchObject({
			accountCount: 1,
			delinquentMonths: 1,
		});
		expect(bureauOf(equifax([account], { NoOfAccounts: '2' })).accountCount).toBeNull();
		// an impossible summary is no summary: the list counts
		expect(bureauOf(equifax([account], { NoOfAccounts: '-1' })).accountCount).toBe(1);
	});
});

describe('Get Multi-Bureau Report, Experian layout', () => {
	it('CAIS history: days past due, a month twice that disagrees is unknown', () => {
		expect(bureauOf(experian([experianAccount('X1', 60)], 1)).maxDaysPastDue).toBe(60);
		const twice = experianAccount('X1', 60);
		twice.CAIS_Account_History.push({ Year: '2025', Month: '03', Days_Past_Due: 0 });
		expect(bureauOf(experian([twice])).maxDaysPastDue).toBeNull();
	});

	it('a day count above 999 or negative is unknown', () => {
		for (const days of [1000, -30])
			expect(bureauOf(experian([experianAccount('X1', days)])).maxDaysPastDue).toBeNull();
	});

	it('CreditAccountTotal that contradicts the list: unknown count', () => {
		expect(bureauOf(experian([experianAccount('X1', 0)], 3)).accountCount).toBeNull();
	});
});

describe('Get Multi-Bureau Report, reference layout', () => {
	const accounts = [
		{ account_number: 'X1', lender_name: 'HDFC Bank' },
		{ account_number: 'X2', lender_name: 'ICICI Bank' },
	];
	const lines = [
		{ account_number: 'X1', history: '000|030|000' },
		{ account_number: 'X2', history: '000|000|000' },
	];

	it('a complete report is ready; 030/SUB in a line reads 90', () => {
		expect(verdictOf(reference({ accounts, payment_history: lines }))).toMatchObject({
			decisionReady: true,
			maxDaysPastDue: 30,
		});
		const sub = [lines[0], { account_number: 'X2', history: '000|030/SUB|000' }];
		expect(bureauOf(reference({ accounts, payment_history: sub }))).toMatchObject({
			maxDaysPastDue: 90,
			worstAssetClass: 'SUB',
		});
	});

	it('a duplicated account and its line count once: delinquent months not doubled', () => {
		const out = bureauOf(
			reference({
				accounts: [...accounts, accounts[0]],
				payment_history: [...lines, lines[0]],
			}),
		);
		expect(out).toMatchObject({ accountCount: 2, maxDaysPastDue: 30, delinquentMonths: 1 });
	});

	it('a line listed twice with different histories: unknown', () => {
		const body = reference({
			accounts,
			payment_history: [...lines, { account_number: 'X1', history: '000|000|000' }],
		});
		expect(bureauOf(body).maxDaysPastDue).toBeNull();
		expect(verdictOf(body).decisionReady).toBe(false);
	});

	it('length_of_credit_history_months outside 0..840 is unknown', () => {
		for (const months of [-5, 99999, 12.5])
			expect(
				bureauOf(
					reference({ accounts, payment_history: lines, length_of_credit_history_months: months }),
				).lengthOfHistoryMonths,
			).toBeNull();
	});
});

// ------------------------------------------------------------------ EPFO with credit

const epfo = { uan: '101234567890', employment_history: [] };
const epfoReference = (crifPart: object) => ({
	success: true,
	data: { epfo, crif: { credit_score: 742, ...crifPart } },
});
const epfoCreditOf = (body: unknown) => normalizeEpfoCredit(body).credit;
const account = (number: string, extra: object = {}) => ({
	account_type: 'Personal Loan',
	lender_name: 'HDFC Bank',
	account_number: number,
	account_status: 'Active',
	sanctioned_amount: 100000,
	outstanding_amount: 50000,
	overdue_amount: 0,
	...extra,
});

describe('EPFO with credit, reference layout', () => {
	it('a one-account report: its single dpd_history line is its history (30, not null)', () => {
		for (const dpd of ['30', '030', undefined]) {
			const credit = epfoCreditOf(
				epfoReference({
					dpd_history: '000000000030000000',
					total_accounts: 1,
					accounts: [account('X1', dpd === undefined ? {} : { dpd })],
				}),
			);
			expect(credit).toMatchObject({ maxDaysPastDue: 30, delinquentMonths: 1 });
		}
		// with no account listed, the line is read when the declared total says one account
		expect(
			epfoCreditOf(epfoReference({ dpd_history: '000000000030000000', total_accounts: 1 }))
				?.maxDaysPastDue,
		).toBe(30);
		// a list of lines
		expect(
			epfoCreditOf(epfoReference({ dpd_history: ['000|030|000'], accounts: [account('X1')] }))
				?.maxDaysPastDue,
		).toBe(30);
	});

	it('a lone current-DPD number is no history: unknown', () => {
		const credit = epfoCreditOf(epfoReference({ accounts: [account('X1', { dpd: '030' })] }));
		expect(credit?.maxDaysPastDue).toBeNull();
	});

	it("an account's own history: SUB reads 90; a run-together 4-character month is unknown", () => {
		expect(
			epfoCreditOf(epfoReference({ accounts: [account('X1', { dpd: '000|030/SUB|000' })] })),
		).toMatchObject({ maxDaysPastDue: 90, worstAssetClass: 'SUB' });
		expect(
			epfoCreditOf(epfoReference({ accounts: [account('X1', { dpd: '0000030000' })] }))
				?.maxDaysPastDue,
		).toBeNull();
	});

	it('the same account listed twice counts once; with different facts it is unknown', () => {
		const a = account('X1', { dpd: '000|030|000' });
		expect(epfoCreditOf(epfoReference({ accounts: [a, a] }))).toMatchObject({
			maxDaysPastDue: 30,
			delinquentMonths: 1,
			accounts: [expect.objectContaining({ accountNumber: 'X1' })],
		});
		const other = account('X1', { dpd: '000|000|000' });
		expect(epfoCreditOf(epfoReference({ accounts: [a, other] }))).toMatchObject({
			maxDaysPastDue: null,
			totalAccounts: null,
		});
	});

	it("an account's own history must agree with its dpd_history line", () => {
		const body = epfoReference({
			dpd_history: '000|030|000',
			accounts: [account('X1', { dpd: '000|000|000' })],
		});
		expect(epfoCreditOf(body)?.maxDaysPastDue).toBeNull();
	});

	it.each([
		['total_accounts', -1, 'totalAccounts'],
		['active_accounts', 1.5, 'activeAccounts'],
		['overdue_accounts', -2, 'overdueAccounts'],
		['total_outstanding', -100, 'totalOutstanding'],
		['total_sanctioned', 1e21, 'totalSanctioned'],
		['total_overdue', -1, 'totalOverdue'],
		['length_of_credit_history_months', 99999, 'lengthOfHistoryMonths'],
	])('%s %p is unknown', (name, value, key) => {
		const credit = epfoCreditOf(
			epfoReference({
				dpd_history: '000|000',
				total_accounts: 1,
				accounts: [account('X1')],
				[name]: value,
			}),
		);
		expect(credit?.[key]).toBeNull();
	});

	it('summary counts against the listed accounts', () => {
		const body = (declared: object) =>
			epfoCreditOf(
				epfoReference({
					dpd_history: '000|000;000|030',
					accounts: [account('X1'), account('X2', { account_status: 'Closed' })],
					...declared,
				}),
			);
		expect(
			body({ total_accounts: 2, active_accounts: 1, closed_accounts: 1, overdue_accounts: 0 }),
		).toMatchObject({ totalAccounts: 2, activeAccounts: 1, closedAccounts: 1, overdueAccounts: 0 });
		expect(
			body({ total_accounts: 3, active_accounts: 2, closed_accounts: 2, overdue_accounts: 1 }),
		).toMatchObject({
			totalAccounts: null,
			activeAccounts: null,
			closedAccounts: null,
			overdueAccounts: null,
		});
	});

	it('a complete answer stays ready; an unknown history is not', () => {
		const ready = decide(
			'employment.getEpfoRecordWithCredit',
			normalizeEpfoCredit(epfoReference({ dpd_history: '000|030/SUB', accounts: [account('X1')] })),
		);
		expect(ready.incomplete).not.toContain('credit: payment history unknown');
		const unknown = decide(
			'employment.getEpfoRecordWithCredit',
			normalizeEpfoCredit(epfoReference({ dpd_history: '000|0A0', accounts: [account('X1')] })),
		);
		expect(unknown.incomplete).toContain('credit: payment history unknown');
	});
});

describe('EPFO with credit, sample layout (CRIF)', () => {
	const sample = (loans: object[], summary: object = {}) => ({
		success: true,
		data: {
			doc_id: 'doc_1',
			epfo: null,
			credit_report: {
				credit_score: '742',
				credit_report: {
					'ACCOUNTS-SUMMARY': { 'PRIMARY-ACCOUNTS-SUMMARY': summary },
					RESPONSES: { RESPONSE: loans },
				},
			},
		},
	});

	it('XXX/SUB, 000/DBT and .../LSS read 90', () => {
		for (const month of ['XXX/SUB', '000/DBT', '030/LSS'])
			expect(epfoCreditOf(sample([crifLoan(`03:2025,${month}|02:2025,030/XXX`)]))).toMatchObject({
				maxDaysPastDue: 90,
				worstAssetClass: month.slice(4),
			});
	});

	it('duplicated loans count once; counts against the summary; amounts in range', () => {
		const loan = crifLoan('03:2025,030/XXX|02:2025,STD/XXX');
		expect(
			epfoCreditOf(
				sample([loan, loan], { 'NUMBER-OF-ACCOUNTS': '1', 'TOTAL-CURRENT-BALANCE': '-5' }),
			),
		).toMatchObject({ totalAccounts: 1, delinquentMonths: 1, totalOutstanding: null });
		expect(epfoCreditOf(sample([loan], { 'NUMBER-OF-ACCOUNTS': '2' }))?.totalAccounts).toBeNull();
	});
});
