/**
 * Defects where the two response shapes described the same fact differently (or one dropped it), each
 * with hand-written answers in both shapes describing the same entity (after the OpenAPI contract,
 * openapi/finverify.openapi.yaml, not from the sandbox).
 */
import { normalizeCompany } from '../../../nodes/FinVerify/helpers/normalize/company';
import { normalizeMultiBureau } from '../../../nodes/FinVerify/helpers/normalize/creditReport';
import {
	monthsBetween,
	normalizeEpfo,
	normalizeEpfoCredit,
} from '../../../nodes/FinVerify/helpers/normalize/employment';
import { inferMode, normalizeAnalysis } from '../../../nodes/FinVerify/helpers/normalize/journey';

const today = new Date().toISOString().slice(0, 10);
const twoYearsAgo = `${Number(today.slice(0, 4)) - 2}-${today.slice(5, 7)}-01`;

describe('Company → Get by CIN: company type', () => {
	const reference = (companyType: string) => ({
		success: true,
		message: 'ok',
		data: { cin: 'U72200KA2015PTC081234', company_name: 'ACME', company_type: companyType },
	});
	const sample = {
		success: true,
		status_code: 200,
		message: 'ok',
		data: {
			cin: 'U72200KA2015PTC081234',
			result: {
				company: {
					cin: 'U72200KA2015PTC081234',
					legal_name: 'ACME',
					class_of_company: 'Private',
					company_category: 'Company limited by Shares',
				},
			},
		},
	};

	it.each(['Private', 'Private Limited Company', 'Pvt Ltd', 'private limited'])(
		'reference "%s" gives the wording and class of the sample shape',
		(companyType) => {
			const a = normalizeCompany(reference(companyType));
			const b = normalizeCompany(sample);
			expect(b.companyType).toBe('Private Limited Company');
			expect(a.companyType).toBe(b.companyType);
			expect(a.classOfCompany).toBe(b.classOfCompany);
		},
	);

	it('keeps other types, with "Company" once', () => {
		expect(normalizeCompany(reference('One Person Company')).companyType).toBe(
			'One Person Company',
		);
		expect(normalizeCompany(reference('Section 8 Company')).companyType).toBe('Section 8 Company');
	});
});

describe('Company → Get by CIN: facts the sample shape sends', () => {
	it('keeps director network, shareholding summary, financial sub-scores and revenue growth', () => {
		const out = normalizeCompany({
			data: {
				cin: 'L17110MH1973PLC019786',
				result: {
					company: { cin: 'L17110MH1973PLC019786' },
					service_financial_score: {
						overall_financial_score: 71,
						growth_score: 60,
						profitability_score: 70,
						liquidity_score: 80,
						solvency_score: 75,
						efficiency_score: 65,
					},
					financials: [
						{ year: '2023-03-31', ratios: { revenue_growth: 0.05 } },
						{ year: '2024-03-31', ratios: { revenue_growth: 0.12 } },
					],
					director_network: [
						{
							name: 'A KUMAR',
							network: {
								companies: [{ legal_name: 'X LTD', designation: 'Director' }],
								llps: [{}],
							},
						},
					],
					shareholdings_summary: [
						{
							financial_year: '2023',
							total_equity_shares: 100,
							total_preference_shares: 0,
							promoter: 60,
							public: 40,
						},
						{
							financial_year: '2024',
							total_equity_shares: 120,
							total_preference_shares: 0,
							promoter: 55,
							public: 45,
						},
					],
				},
			},
		});
		expect(out.financialScore).toBe(71);
		expect(out.financialSubScores).toEqual({
			growth: 60,
			profitability: 70,
			liquidity: 80,
			solvency: 75,
			efficiency: 65,
		});
		expect(out.revenueGrowth).toBe(0.12);
		expect(out.directorNetwork).toEqual([
			{ name: 'A KUMAR', companies: [{ name: 'X LTD', designation: 'Director' }], llpCount: 1 },
		]);
		expect(out.shareholdingSummary).toEqual({
			financialYear: '2024',
			totalEquityShares: 120,
			totalPreferenceShares: 0,
			promoterPercent: 55,
			publicPercent: 45,
		});
	});
});

// ------------------------------------------------------------------ EPFO + credit

const crifAccounts = [
	{
		status: 'Active',
		sanctioned: 500000,
		outstanding: 300000,
		overdue: 2500,
		emi: 12000,
		dpd: ['000', '030', '000'],
	},
	{
		status: 'Closed',
		sanctioned: 100000,
		outstanding: 0,
		overdue: 0,
		emi: 0,
		dpd: ['000', '000', '000'],
	},
];

const referenceCredit = {
	success: true,
	message: 'ok',
	data: {
		epfo: {
			uan: '101234567890',
			name: 'PRIYA SHARMA',
			mobile: '9876543210',
			employment_history: [
				{
					employer_name: 'NEW CO',
					date_of_joining: twoYearsAgo,
					date_of_exit: null,
					pf_account_number: 'PF1',
				},
			],
		},
		crif: {
			credit_score: 742,
			report_date: '2025-03-31',
			dpd_history: crifAccounts.map((a) => a.dpd.join('|')).join(';'),
			total_accounts: 2,
			active_accounts: 1,
			closed_accounts: 1,
			overdue_accounts: 1,
			total_outstanding: 300000,
			total_sanctioned: 600000,
			accounts: crifAccounts.map((a, i) => ({
				account_type: 'Personal Loan',
				account_number: `XXXX${i}`,
				account_status: a.status,
				dpd: a.dpd.join('|'),
				sanctioned_amount: a.sanctioned,
				outstanding_amount: a.outstanding,
				emi_amount: a.emi,
				overdue_amount: a.overdue,
			})),
		},
	},
};

const sampleCredit = (summary: Record<string, string>) => ({
	success: true,
	status_code: 200,
	message: 'ok',
	data: {
		doc_id: 'doc_1',
		epfo: {
			mobile: '9876543210',
			uan: '101234567890',
			uan_source: 'epfo',
			prefill: {
				mobile: '9876543210',
				details: {
					personal_info: {
						full_name: 'PRIYA SHARMA',
						total_income: '1200000',
						occupation: 'Salaried',
						age: '34',
					},
				},
			},
			employment_history: [
				{ establishment_name: 'NEW CO', date_of_joining: twoYearsAgo, date_of_exit: null },
			],
		},
		credit_report: {
			first_name: 'PRIYA',
			last_name: 'SHARMA',
			credit_score: '742',
			credit_report: {
				HEADER: { 'DATE-OF-ISSUE': '31-03-2025' },
				'ACCOUNTS-SUMMARY': { 'PRIMARY-ACCOUNTS-SUMMARY': summary },
				RESPONSES: {
					RESPONSE: crifAccounts.map((a, i) => ({
						'LOAN-DETAILS': {
							'ACCT-TYPE': 'Personal Loan',
							'ACCT-NUMBER': `XXXX${i}`,
							'ACCOUNT-STATUS': a.status,
							'DISBURSED-AMT': String(a.sanctioned),
							'CURRENT-BAL': String(a.outstanding),
							'OVERDUE-AMT': String(a.overdue),
							'INSTALLMENT-AMT': String(a.emi),
							'COMBINED-PAYMENT-HISTORY': a.dpd
								.map(
									(d, m) => `${String(3 - m).padStart(2, '0')}:2025,${d === '000' ? 'STD' : d}/XXX`,
								)
								.join('|'),
						},
					})),
				},
			},
		},
	},
});

const creditFacts = (out: ReturnType<typeof normalizeEpfoCredit>) => {
	const { accounts, ...totals } = out.credit ?? { accounts: [] };
	return {
		totals: {
			...totals,
			reportId: undefined,
			scoreVersion: undefined,
			enquiriesLast30Days: undefined,
			enquiriesLast6Months: undefined,
		},
		accounts: accounts.map((a) => ({
			accountNumber: a.accountNumber,
			status: a.status,
			sanctionedAmount: a.sanctionedAmount,
			outstandingAmount: a.outstandingAmount,
			overdueAmount: a.overdueAmount,
			paymentHistory: a.paymentHistory,
			maxDaysPastDue: a.maxDaysPastDue,
		})),
	};
};

describe('Employment → EPFO with Credit Report', () => {
	it.each([
		[
			'CRIF summary names',
			{
				'PRIMARY-NUMBER-OF-ACCOUNTS': '2',
				'PRIMARY-ACTIVE-NUMBER-OF-ACCOUNTS': '1',
				'PRIMARY-OVERDUE-NUMBER-OF-ACCOUNTS': '1',
				'PRIMARY-CURRENT-BALANCE': '300000',
				'PRIMARY-SANCTIONED-AMOUNT': '600000',
			},
		],
		['no summary (totals from the accounts)', {}],
	])('the sample shape with %s gives the totals of the reference shape', (_, summary) => {
		const a = creditFacts(normalizeEpfoCredit(referenceCredit));
		const b = creditFacts(normalizeEpfoCredit(sampleCredit(summary)));
		expect(b).toEqual(a);
		expect(a.totals).toMatchObject({
			overdueAccounts: 1,
			totalOutstanding: 300000,
			totalSanctioned: 600000,
			totalOverdue: 2500,
		});
	});

	it('keeps the delinquency history: a 30-days-past-due month shows in both shapes', () => {
		for (const body of [referenceCredit, sampleCredit({})]) {
			const out = normalizeEpfoCredit(body);
			expect(out.credit).toMatchObject({ maxDaysPastDue: 30, delinquentMonths: 1 });
			expect(out.credit?.accounts[0]).toMatchObject({
				paymentHistory: '000|030|000',
				maxDaysPastDue: 30,
			});
		}
	});

	it('an EPFO part without UAN and employment is missing in both shapes (partial)', () => {
		const reference = structuredClone(referenceCredit) as typeof referenceCredit;
		Object.assign(reference.data.epfo, { uan: null, employment_history: null });
		const sample = sampleCredit({});
		Object.assign(sample.data.epfo, { uan: null, uan_source: 'none', employment_history: null });
		for (const body of [reference, sample]) {
			const out = normalizeEpfoCredit(body);
			expect(out).toMatchObject({
				partial: true,
				missing: ['epfo'],
				hasEmployment: false,
				hasCredit: true,
				employment: null,
			});
			expect(out.member.name).toBe('PRIYA SHARMA');
		}
	});

	it('keeps income, occupation and age of the sample prefill', () => {
		expect(normalizeEpfoCredit(sampleCredit({})).member).toMatchObject({
			totalIncome: 1200000,
			occupation: 'Salaried',
			age: 34,
		});
		expect(normalizeEpfoCredit(referenceCredit).member).toMatchObject({
			totalIncome: null,
			occupation: null,
			age: null,
		});
	});

	it('a current job runs up to today where the shape states no durations (sample); a stated duration that is missing is unknown (reference)', () => {
		const expected = monthsBetween(twoYearsAgo, today);
		expect(expected).toBeGreaterThanOrEqual(23);
		const sample = normalizeEpfoCredit(sampleCredit({}));
		expect(sample.employment?.employers[0]).toMatchObject({
			current: true,
			tenureMonths: expected,
		});
		expect(sample.employment?.totalTenureMonths).toBe(expected);
		// the reference shape states service_duration_months: without it the tenure is not computed
		const reference = normalizeEpfoCredit(referenceCredit);
		expect(reference.employment?.employers[0]).toMatchObject({ current: true, tenureMonths: null });
		expect(reference.employment?.totalTenureMonths).toBeNull();
		const stated = structuredClone(referenceCredit);
		Object.assign(stated.data.epfo.employment_history[0], { service_duration_months: 24 });
		expect(normalizeEpfoCredit(stated).employment?.totalTenureMonths).toBe(24);
	});
});

describe('Employment → EPFO record', () => {
	it('states each tenure: one not stated is unknown, and so is the total', () => {
		const history = [
			{
				establishment_name: 'NEW CO',
				date_of_joining: twoYearsAgo,
				date_of_exit: null,
				tenure_months: 24,
			},
			{
				establishment_name: 'OLD CO',
				date_of_joining: '2018-01-10',
				date_of_exit: '2019-01-10',
				tenure_months: 12,
			},
		];
		const out = normalizeEpfo({
			success: true,
			data: { uan: '101234567890', employment_history: history },
		});
		expect(out.employers.map((e) => e.tenureMonths)).toEqual([24, 12]);
		expect(out.totalTenureMonths).toBe(36);
		expect(out.currentEmployer).toBe('NEW CO');
		const withoutOne = structuredClone(history);
		delete (withoutOne[1] as Partial<(typeof history)[1]>).tenure_months;
		const partial = normalizeEpfo({ success: true, data: { employment_history: withoutOne } });
		expect(partial.employers[1].tenureMonths).toBeNull();
		expect(partial.totalTenureMonths).toBeNull();
	});
});

// ------------------------------------------------------------------ bank statements

describe('Bank Statement Journey → Get Analysis: bounce flag', () => {
	it('an inward cheque return is a bounce in both shapes', () => {
		const reference = normalizeAnalysis({
			success: true,
			data: {
				client_id: 'aa_1',
				summary: { total_credits: 1000, total_debits: 500 },
				flags: {
					salary_bounce: false,
					emi_bounce: false,
					inward_cheque_return: true,
					high_cash_withdrawal: false,
					end_of_month_stress: false,
				},
			},
		});
		const sample = normalizeAnalysis({
			status_code: 200,
			data: {
				client_id: 'aa_1',
				status: 'completed',
				total_accounts: 1,
				accounts: [
					{
						account_index: 0,
						analysis_json: {
							flagged_transactions: {
								bounce_transactions: [],
								cheque_return_summary: { total_returns: 1 },
							},
						},
					},
				],
			},
		});
		for (const out of [reference, sample]) {
			expect(out.flags).toMatchObject({ anyBounce: true, inwardChequeReturn: true });
		}
	});
});

describe('Statement transactions: narration modes of the major Indian banks', () => {
	it.each([
		['ATW-512967XXXXXX1234-S1ANMU01-MUMBAI', 'ATM'],
		['NWD-512967XXXXXX1234-SBIN0001-PUNE', 'ATM'],
		['EAW-512967XXXXXX1234-00123-MUMBAI', 'ATM'],
		['ATM WDL/ATM CASH 1234 MG ROAD', 'ATM'],
		['CASH WDL SELF', 'ATM'],
		['UPI/DR/412345678901/PRIYA/HDFC/priya@okhdfc', 'UPI'],
		['UPI-SWIGGY-SWIGGY@ICICI-ICIC0000001-412345678901', 'UPI'],
		['UPIAR/412345678901/DR/ZOMATO', 'UPI'],
		['NEFT CR-HDFC0000001-ACME PVT LTD-SALARY', 'NEFT'],
		['NEFTINW-0012345678-ACME', 'NEFT'],
		['BY TRANSFER-NEFT*HDFC0000001*N123*ACME', 'NEFT'],
		['MMT/IMPS/412345678901/RENT/RAVI', 'IMPS'],
		['IMPS-P2A-412345678901-RAVI', 'IMPS'],
		['RTGS-HDFCR52025033100012345-ACME', 'RTGS'],
		['ACH D- TP ACH BAJAJFIN-1234567', 'NACH'],
		['NACH/DR/HDFC LTD/EMI', 'NACH'],
		['CTS CLG CHQ 000123 ACME', 'Cheque'],
		['INWARD CLG 000456', 'Cheque'],
	])('%s → %s', (narration, mode) => {
		expect(inferMode(narration)).toBe(mode);
	});
});

// ------------------------------------------------------------------ multi-bureau

describe('Credit Report → Multi-Bureau: facts and counts', () => {
	const reference = {
		status: 'success',
		status_code: 200,
		message: 'ok',
		request_id: 'req_1',
		timestamp: '2025-03-31T10:15:30Z',
		data: {
			cibil: {
				score: 742,
				report: {
					name: 'PRIYA',
					pan: 'ABCDE1234F',
					accounts: [{}],
					inquiries: [],
					payment_history: [{ account_number: 'X1', history: '000|030|060' }],
				},
			},
			crif: {
				score: 700,
				report: {
					name: 'PRIYA',
					pan: 'ABCDE1234F',
					accounts: [],
					inquiries: [],
					payment_history: [],
				},
			},
			equifax: { score: null, report: null },
		},
	};

	it('keeps the report timestamp and the payment history (worst days past due)', () => {
		const out = normalizeMultiBureau(reference, ['cibil']);
		expect(out.reportedAt).toBe('2025-03-31T10:15:30.000Z');
		expect(out.bureaus[0]).toMatchObject({ maxDaysPastDue: 60, delinquentMonths: 2 });
	});

	it('reads the payment history of the sample CIBIL and CRIF layouts the same way', () => {
		const out = normalizeMultiBureau(
			{
				success: true,
				results: {
					cibil: {
						success: true,
						data: {
							credit_score: '742',
							credit_report: {
								consumerCreditData: [{ accounts: [{ paymentHistory: '000030060' }] }],
							},
						},
					},
					crif: {
						success: true,
						data: {
							credit_score: '700',
							credit_report: {
								RESPONSES: {
									RESPONSE: [
										{
											'LOAN-DETAILS': {
												'COMBINED-PAYMENT-HISTORY':
													'03:2025,STD/XXX|02:2025,030/XXX|01:2025,060/XXX',
											},
										},
									],
								},
							},
						},
					},
				},
			},
			['cibil', 'crif'],
		);
		for (const bureau of out.bureaus) {
			expect(bureau).toMatchObject({ maxDaysPastDue: 60, delinquentMonths: 2 });
		}
	});

	it('a scored report without an account list has an unknown account count (a score needs accounts); no report counts null', () => {
		const sample = normalizeMultiBureau(
			{
				success: true,
				results: {
					crif: {
						success: true,
						data: { credit_score: '700', credit_report: { HEADER: {}, RESPONSES: '' } },
					},
					experian: {
						success: true,
						data: { credit_score: '690', credit_report: { CreditProfileHeader: {} } },
					},
					equifax: { success: false, data: null },
				},
			},
			['crif', 'experian', 'equifax'],
		);
		const ref = normalizeMultiBureau(reference, ['crif', 'equifax']);
		expect(sample.bureaus.map((b) => b.accountCount)).toEqual([null, null, null]);
		expect(sample.bureaus.map((b) => b.missing.includes('accounts'))).toEqual([true, true, true]);
		expect(ref.bureaus.slice(0, 2).map((b) => b.accountCount)).toEqual([null, null]);
	});
});

// ------------------------------------------------ EPFO + credit: one loan, both shapes

describe('Employment → EPFO with Credit Report: the same loan gives the same days past due in both shapes', () => {
	// one personal loan, 30 days past due in February 2025, clean in January and March
	const referenceBody = (dpd: unknown) => ({
		success: true,
		data: {
			epfo: { uan: '101234567890', name: 'PRIYA SHARMA' },
			crif: {
				credit_score: 742,
				total_accounts: 1,
				active_accounts: 1,
				accounts: [
					{
						account_type: 'Personal Loan',
						account_number: 'XXXX1234',
						account_status: 'Active',
						dpd,
						sanctioned_amount: 500000,
						outstanding_amount: 300000,
						overdue_amount: 12000,
					},
				],
			},
		},
	});
	const sampleBody = (history: unknown) => ({
		success: true,
		data: {
			doc_id: 'doc_1',
			epfo: { uan: '101234567890', employment_history: [] },
			credit_report: {
				credit_score: '742',
				credit_report: {
					'ACCOUNTS-SUMMARY': {
						'PRIMARY-ACCOUNTS-SUMMARY': {
							'PRIMARY-NUMBER-OF-ACCOUNTS': '1',
							'PRIMARY-ACTIVE-NUMBER-OF-ACCOUNTS': '1',
						},
					},
					RESPONSES: {
						RESPONSE: [
							{
								'LOAN-DETAILS': {
									'ACCT-TYPE': 'Personal Loan',
									'ACCT-NUMBER': 'XXXX1234',
									'ACCOUNT-STATUS': 'ACTIVE',
									'DISBURSED-AMT': '500000',
									'CURRENT-BAL': '300000',
									'OVERDUE-AMT': '12000',
									'COMBINED-PAYMENT-HISTORY': history,
								},
							},
						],
					},
				},
			},
		},
	});

	const referenceLayouts: Array<[string, unknown]> = [
		['pipes, newest first', '000|030|000'],
		['commas', '0,30,0'],
		['run together', '000030000'],
		[
			'month objects',
			[
				{ month: '2025-03', dpd: 0 },
				{ month: '2025-02', dpd: 30 },
				{ month: '2025-01', dpd: 0 },
			],
		],
		['a month map', { '2025-01': 0, '2025-02': 30, '2025-03': 0 }],
	];
	const sampleLayouts: Array<[string, unknown]> = [
		['CRIF with STD', '03:2025,STD/XXX|02:2025,030/XXX|01:2025,STD/XXX'],
		['CRIF with 000 and the standard class', '03:2025,000/STD|02:2025,030/XXX|01:2025,000/STD'],
	];
	const cases = referenceLayouts.flatMap(([ref, dpd]) =>
		sampleLayouts.map(([sample, history]) => [ref, sample, dpd, history] as const),
	);

	it.each(cases)('reference %s = sample %s', (_r, _s, dpd, history) => {
		const a = normalizeEpfoCredit(referenceBody(dpd)).credit;
		const b = normalizeEpfoCredit(sampleBody(history)).credit;
		for (const credit of [a, b]) {
			expect(credit?.accounts[0]).toMatchObject({ status: 'active', maxDaysPastDue: 30 });
			expect(credit?.accounts[0].paymentHistory).toBe('000|030|000');
			expect(credit).toMatchObject({ maxDaysPastDue: 30, delinquentMonths: 1 });
		}
		expect(b?.accounts[0]).toEqual({
			...a?.accounts[0],
			lender: null,
			openDate: null,
			closeDate: null,
			emiAmount: null,
		});
	});

	it('a class below standard is a fact the reference layout cannot state: SMA kept, days the same', () => {
		const b = normalizeEpfoCredit(
			sampleBody('03:2025,000/STD|02:2025,030/SMA|01:2025,000/STD'),
		).credit;
		expect(b?.accounts[0]).toMatchObject({
			maxDaysPastDue: 30,
			paymentHistory: '000|030/SMA|000',
			worstAssetClass: 'SMA',
		});
		expect(b).toMatchObject({ maxDaysPastDue: 30, delinquentMonths: 1, worstAssetClass: 'SMA' });
		expect(normalizeEpfoCredit(referenceBody('000|030|000')).credit?.worstAssetClass).toBe('none');
	});

	it('without the history, both shapes say unknown (null), not 0', () => {
		const a = normalizeEpfoCredit(referenceBody(null)).credit;
		const b = normalizeEpfoCredit(sampleBody(undefined)).credit;
		for (const credit of [a, b]) {
			expect(credit?.accounts[0].maxDaysPastDue).toBeNull();
			expect(credit?.maxDaysPastDue).toBeNull();
			expect(credit?.delinquentMonths).toBeNull();
		}
	});
});
