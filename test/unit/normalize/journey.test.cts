import type { IDataObject } from 'n8n-workflow';

import {
	decide,
	simplifyOutput,
	withDecision,
} from '../../../nodes/FinVerify/actions/declarations';
import { missingField } from '../../../nodes/FinVerify/transport';
import {
	inferMode,
	ANALYSIS_REQUIRED,
	JOURNEY_STATUS_REQUIRED,
	STATEMENT_REQUIRED,
	normalizeAnalysis,
	normalizeJourneyStart,
	normalizeJourneyStatus,
	normalizeJourneyStatusValue,
	normalizeStatementResult,
	normalizeTransaction,
	toStatementDate,
	transactionItems,
} from '../../../nodes/FinVerify/helpers/normalize/journey';

// ---- fixtures hand-written after the contract's JourneyStatusReference and JourneyStatusSample
// (openapi/finverify.openapi.yaml)
const statusReference = {
	success: true,
	message: 'Journey status fetched',
	data: {
		client_id: 'aa_0123456789abcdef01234567',
		status: 'analysis_complete',
		consent_type: 'loan_underwriting',
		mobile_number: 'XXXXXX3210',
		updated_at: '2025-03-31T10:00:00Z',
	},
};

const statusSample = {
	client_id: 'aa_0123456789abcdef01234567',
	status: 'completed',
	failed_at_stage: null,
	total_accounts: 2,
	completed_accounts: 2,
	failed_accounts: 0,
	accounts: [
		{
			account_index: 0,
			bank_name: 'HDFC Bank',
			account_number: 'XXXX1234',
			bsa_status: 'completed',
			bsa_client_id: 'bsa_1',
			error_message: null,
		},
		{
			account_index: 1,
			bank_name: 'ICICI Bank',
			account_number: 'XXXX9876',
			bsa_status: 'completed',
			bsa_client_id: 'bsa_2',
			error_message: null,
		},
	],
	error_message: null,
	created_at: '2025-03-31T09:58:00Z',
	updated_at: '2025-03-31T10:00:00+05:30',
};

// ---- "AA-BSA statement result"
const statementReference = {
	success: true,
	data: {
		client_id: 'aa_1',
		accounts: [
			{
				account_id: 'acc_1',
				account_number: 'XXXX1234',
				ifsc: 'hdfc0001234',
				bank_name: 'HDFC Bank',
				account_type: 'SAVINGS',
				holder_name: 'Priya Sharma',
				opening_balance: 10000,
				closing_balance: 55000,
				statement_from: '2025-01-01',
				statement_to: '2025-03-31',
				transactions: [
					{
						date: '2025-01-01',
						description: 'SALARY ACME',
						type: 'CREDIT',
						amount: 50000,
						balance: 60000,
						mode: 'NEFT',
					},
					{
						date: '2025-01-05',
						description: 'EMI HDFC',
						type: 'DEBIT',
						amount: 5000,
						balance: 55000,
						mode: 'NACH',
					},
				],
			},
		],
	},
};

const statementSample = {
	status_code: 200,
	data: {
		client_id: 'aa_2',
		status: 'completed',
		failed_at_stage: null,
		total_accounts: 1,
		completed_accounts: 1,
		failed_accounts: 0,
		error_message: null,
		is_charged: true,
		amount_charged: '25.00',
		created_at: '2025-03-31T09:58:00Z',
		updated_at: '2025-03-31T10:00:00Z',
		accounts: [
			{
				account_index: 0,
				bank_name: 'State Bank of India',
				account_number: 'XXXX5555',
				bsa_status: 'completed',
				bsa_client_id: 'bsa_9',
				error_message: null,
				account_info: {
					bank_name: 'State Bank of India',
					account_holder_name: 'RAHUL VERMA',
					account_number: 'XXXX5555',
					ifsc: 'SBIN0000001',
					account_type: 'Savings',
					branch_name: 'MG Road',
					statement_period: { from: '01-01-25', to: '31-03-25' },
				},
				analysis_completed: true,
				analysis_result: null,
				analysis_url: 'https://files.example.com/a.html',
				analysis_json_url: 'https://files.example.com/a.json',
				input_s3_url: 'https://files.example.com/in.pdf',
				analysis_pdf_s3_url: 'https://files.example.com/statement.pdf',
				transactions: [
					{
						sr_no: 1,
						txn_date: '02-01-25',
						value_date: '02-01-25',
						reference_no: 'UTR123',
						description: 'UPI/PAYTM/grocery',
						txn_type: 'Dr.',
						credit: '',
						debit: 1250.5,
						balance: 18749.5,
					},
					{
						sr_no: 2,
						txn_date: '03-01-25',
						value_date: '03-01-25',
						reference_no: 'NEFT99',
						description: 'NEFT SALARY ACME',
						txn_type: 'Cr.',
						credit: 45000,
						debit: '',
						balance: 63749.5,
					},
				],
				mismatched_sequence_date: [],
				negative_balance: [],
				discrepancies: {
					balance_errors: [],
					swapped_credit_debit_rows: 0,
					corrected_row_indices: [],
				},
				checkpoint: 'done',
				progress: null,
				analysis_summary: {
					total_credits: 45000,
					total_debits: 1250.5,
					average_monthly_balance: 40000,
					opening_balance: 20000,
					closing_balance: 63749.5,
					total_transactions: 2,
				},
			},
		],
	},
};

// ---- "AA-BSA analysis"
const analysisReference = {
	success: true,
	data: {
		client_id: 'aa_1',
		analysis_period: { from: '2025-01-01', to: '2025-03-31' },
		summary: {
			total_credits: 150000,
			total_debits: 90000,
			average_monthly_balance: 42000,
			minimum_monthly_balance: 12000,
		},
		income: {
			average_monthly_income: 50000,
			income_stability_score: 87,
			identified_salary_credits: [{ month: '2025-01', amount: 50000, source: 'ACME' }],
		},
		obligations: {
			total_emi_per_month: 16300,
			fixed_obligations_ratio: 0.326,
			emi_accounts: [{ lender: 'HDFC', amount: 16300, mode: 'NACH' }],
		},
		cash_flow: {
			monthly_trend: [{ month: '2025-01', total_credits: 50000, total_debits: 30000, net: 20000 }],
		},
		flags: {
			salary_bounce: false,
			emi_bounce: true,
			high_cash_withdrawal: false,
			inward_cheque_return: false,
			end_of_month_stress: true,
		},
	},
};

const sampleAccount = (index: number, score: number, credits: number, bounces: number) => ({
	account_index: index,
	bank_name: 'HDFC Bank',
	account_number: `XXXX000${index}`,
	bsa_status: 'completed',
	bsa_client_id: `bsa_${index}`,
	analysis_json: {
		entity_type: 'individual',
		health_score: {
			score,
			rating: score >= 75 ? 'good' : 'fair',
			rating_description: 'desc',
			total_penalties: 100 - score,
			breakdown: {},
			details: {
				bounces: { count: bounces, penalty: 5, weight: 1 },
				negative_balances: { count: 0, penalty: 0, weight: 1 },
				reconciliation_issues: { count: 1, penalty: 1, weight: 1 },
			},
		},
		flagged_transactions: {
			bounce_transactions: new Array(bounces).fill({}),
			negative_balance_transactions: [],
			reconciliation_issues: [],
			date_mismatch_transactions: [],
			cheque_return_summary: { total_returns: 0 },
			summary: {},
		},
		summary_card: {
			customer_name: 'Priya Sharma',
			account_number: `XXXX000${index}`,
			bank_name: 'HDFC Bank',
			ifsc_code: 'HDFC0000001',
			account_type: 'savings',
			statement_period: {
				start_date: '01-01-2025',
				end_date: `30-0${3 + index}-2025`,
				days: 90,
				months: 3,
			},
			balance_summary: { average_monthly_balance: 10000, minimum_balance: 500 },
			transaction_summary: { total_credits: credits, total_debits: 1000 },
			mode_breakdown: { UPI: { count: 3, total_credit: 100, total_debit: 200 } },
		},
		monthly_summary: [
			{
				month: '2025-01',
				total_credits: credits,
				total_debits: 600,
				closing_balance: 9000 + index,
			},
			{ month: `2025-0${2 + index}`, total_credits: 0, total_debits: 400, closing_balance: 11000 },
		],
	},
});

const analysisSample = {
	data: {
		client_id: 'aa_2',
		status: 'completed',
		total_accounts: 2,
		accounts: [sampleAccount(0, 82, 5000, 0), sampleAccount(1, 61, 7000, 2)],
	},
};

describe('journey status vocabulary', () => {
	it('maps the sample "completed" and the reference "analysis_complete" to one final, successful status', () => {
		expect(normalizeJourneyStatusValue('completed')).toEqual({
			status: 'analysis_complete',
			isFinal: true,
			isSuccessful: true,
		});
		expect(normalizeJourneyStatusValue('analysis_complete')).toEqual({
			status: 'analysis_complete',
			isFinal: true,
			isSuccessful: true,
		});
	});
	it.each([
		['initiated', 'initiated', false],
		['consent_pending', 'consent_pending', false],
		['CONSENT GRANTED', 'consent_granted', false],
		['data_fetched', 'data_fetched', false],
		['consent_denied', 'consent_denied', true],
		// a word no documented response sends passes through as it is (lowercased), not final
		['rejected', 'rejected', false],
		['success', 'success', false],
		['failed', 'failed', true],
		['expired', 'expired', true],
	])('%s → %s (final: %s)', (raw, status, isFinal) => {
		const info = normalizeJourneyStatusValue(raw);
		expect(info.status).toBe(status);
		expect(info.isFinal).toBe(isFinal);
		expect(info.isSuccessful).toBe(false);
	});
	it('keeps unknown values (lowercased) as not final, and null as null', () => {
		expect(normalizeJourneyStatusValue('Mystery')).toEqual({
			status: 'mystery',
			isFinal: false,
			isSuccessful: false,
		});
		expect(normalizeJourneyStatusValue(null)).toEqual({
			status: null,
			isFinal: false,
			isSuccessful: false,
		});
	});
});

describe('normalizeJourneyStatus', () => {
	it('reads the reference shape', () => {
		const s = normalizeJourneyStatus(statusReference);
		expect(s).toMatchObject({
			shape: 'reference',
			clientId: 'aa_0123456789abcdef01234567',
			status: 'analysis_complete',
			serviceStatus: 'analysis_complete',
			isFinal: true,
			isSuccessful: true,
			consentType: 'loan_underwriting',
			mobileNumber: 'XXXXXX3210',
			updatedAt: '2025-03-31T10:00:00.000Z',
			accounts: [],
			totalAccounts: null,
		});
	});
	it('reads the sample shape into the same fields', () => {
		const s = normalizeJourneyStatus(statusSample);
		expect(s).toMatchObject({
			shape: 'sample',
			status: 'analysis_complete',
			serviceStatus: 'completed',
			isFinal: true,
			isSuccessful: true,
			totalAccounts: 2,
			completedAccounts: 2,
			failedAccounts: 0,
			createdAt: '2025-03-31T09:58:00.000Z',
			updatedAt: '2025-03-31T04:30:00.000Z',
		});
		expect(s.accounts[1]).toEqual({
			accountIndex: 1,
			bankName: 'ICICI Bank',
			accountNumber: 'XXXX9876',
			status: 'completed',
			bsaClientId: 'bsa_2',
			errorMessage: null,
		});
	});
	it('counts accounts when the counters are missing', () => {
		const s = normalizeJourneyStatus({
			...statusSample,
			total_accounts: undefined,
			completed_accounts: undefined,
			failed_accounts: undefined,
		});
		expect([s.totalAccounts, s.completedAccounts, s.failedAccounts]).toEqual([2, 2, 0]);
	});
	it('tolerates partial and odd input', () => {
		for (const body of [
			undefined,
			null,
			'x',
			42,
			[],
			{},
			{ data: null },
			{ data: { status: true } },
		]) {
			const s = normalizeJourneyStatus(body);
			expect(s.status).toBeNull();
			expect(s.isFinal).toBe(false);
			expect(s.accounts).toEqual([]);
		}
	});
});

describe('normalizeJourneyStart', () => {
	it('reads the assumed init shape', () => {
		expect(
			normalizeJourneyStart({
				success: true,
				message: 'ok',
				data: {
					client_id: 'aa_1',
					journey_url: 'http://127.0.0.1:4010/journey/aa_1',
					status: 'initiated',
					expires_at: '2025-04-01T00:00:00Z',
				},
			}),
		).toEqual({
			clientId: 'aa_1',
			journeyUrl: 'http://127.0.0.1:4010/journey/aa_1',
			status: 'initiated',
			isFinal: false,
			expiresAt: '2025-04-01T00:00:00.000Z',
		});
	});
	it('tolerates an empty answer', () => {
		expect(normalizeJourneyStart({})).toMatchObject({
			clientId: null,
			journeyUrl: null,
			status: 'initiated',
		});
	});
});

describe('dates and modes', () => {
	it.each([
		['2025-01-02', '2025-01-02'],
		['02-01-25', '2025-01-02'],
		['02-01-2025', '2025-01-02'],
		['02/01/2025', '2025-01-02'],
		['02-Jan-2025', '2025-01-02'],
		['2 Jan 25', '2025-01-02'],
		['2025-01-02T10:00:00Z', '2025-01-02'],
		['not a date', null],
		['', null],
		[null, null],
	])('toStatementDate(%p) = %p', (input, expected) => {
		expect(toStatementDate(input)).toBe(expected);
	});
	it('infers modes from descriptions', () => {
		expect(inferMode('UPI/PAYTM/123')).toBe('UPI');
		expect(inferMode('NEFT-SALARY')).toBe('NEFT');
		expect(inferMode('ACH D- BAJAJ FIN')).toBe('NACH');
		expect(inferMode('NACH DEBIT')).toBe('NACH');
		expect(inferMode('ATM WDL 12')).toBe('ATM');
		expect(inferMode('CHQ DEP 0001')).toBe('Cheque');
		expect(inferMode('Interest credit')).toBeNull();
		expect(inferMode(null)).toBeNull();
	});
});

describe('normalizeTransaction', () => {
	it('reads the reference form', () => {
		expect(
			normalizeTransaction({
				date: '2025-01-05',
				description: 'EMI',
				type: 'DEBIT',
				amount: 5000,
				balance: 55000,
				mode: 'NACH',
			}),
		).toEqual({
			date: '2025-01-05',
			valueDate: null,
			description: 'EMI',
			type: 'DEBIT',
			amount: 5000,
			balance: 55000,
			mode: 'NACH',
			reference: null,
			serialNumber: null,
		});
	});
	it('reads the sample form (Dr./Cr. with credit and debit columns, empty strings)', () => {
		expect(
			normalizeTransaction({
				sr_no: 1,
				txn_date: '02-01-25',
				value_date: '03-01-25',
				reference_no: 'UTR1',
				description: 'UPI/x',
				txn_type: 'Dr.',
				credit: '',
				debit: '1,250.50',
				balance: '18749.5',
			}),
		).toEqual({
			date: '2025-01-02',
			valueDate: '2025-01-03',
			description: 'UPI/x',
			type: 'DEBIT',
			amount: 1250.5,
			balance: 18749.5,
			mode: 'UPI',
			reference: 'UTR1',
			serialNumber: 1,
		});
	});
	it('infers the type from the columns when txn_type is missing, and from a signed amount', () => {
		expect(normalizeTransaction({ credit: 10, debit: '' })).toMatchObject({
			type: 'CREDIT',
			amount: 10,
		});
		expect(normalizeTransaction({ credit: 0, debit: 7 })).toMatchObject({
			type: 'DEBIT',
			amount: 7,
		});
		expect(normalizeTransaction({ amount: -30 })).toMatchObject({ type: 'DEBIT', amount: 30 });
	});
	it('tolerates junk', () => {
		expect(normalizeTransaction(null)).toMatchObject({
			date: null,
			type: null,
			amount: null,
			balance: null,
		});
	});
});

describe('normalizeStatementResult', () => {
	it('reads the reference shape', () => {
		const r = normalizeStatementResult(statementReference);
		expect(r).toMatchObject({
			shape: 'reference',
			clientId: 'aa_1',
			status: null,
			totalAccounts: 1,
			totalTransactions: 2,
		});
		expect(r.accounts[0]).toMatchObject({
			accountIndex: 0,
			accountId: 'acc_1',
			bankName: 'HDFC Bank',
			accountNumber: 'XXXX1234',
			ifsc: 'HDFC0001234',
			accountType: 'SAVINGS',
			holderName: 'Priya Sharma',
			statementFrom: '2025-01-01',
			statementTo: '2025-03-31',
			openingBalance: 10000,
			closingBalance: 55000,
			totalCredits: 50000,
			totalDebits: 5000,
			transactionCount: 2,
			pdfUrl: null,
		});
		expect(r.accounts[0].transactions[0]).toMatchObject({
			date: '2025-01-01',
			type: 'CREDIT',
			amount: 50000,
			mode: 'NEFT',
		});
	});
	it('reads the sample shape into the same fields, DD-MM-YY periods as ISO', () => {
		const r = normalizeStatementResult(statementSample);
		expect(r).toMatchObject({
			shape: 'sample',
			clientId: 'aa_2',
			status: 'analysis_complete',
			totalAccounts: 1,
			totalTransactions: 2,
		});
		expect(r.accounts[0]).toMatchObject({
			accountIndex: 0,
			accountId: 'bsa_9',
			bankName: 'State Bank of India',
			accountNumber: 'XXXX5555',
			ifsc: 'SBIN0000001',
			accountType: 'Savings',
			holderName: 'RAHUL VERMA',
			branchName: 'MG Road',
			status: 'completed',
			statementFrom: '2025-01-01',
			statementTo: '2025-03-31',
			openingBalance: 20000,
			closingBalance: 63749.5,
			totalCredits: 45000,
			totalDebits: 1250.5,
			pdfUrl: 'https://files.example.com/statement.pdf',
		});
		expect(
			r.accounts[0].transactions.map((t) => [t.date, t.type, t.amount, t.mode, t.reference]),
		).toEqual([
			['2025-01-02', 'DEBIT', 1250.5, 'UPI', 'UTR123'],
			['2025-01-03', 'CREDIT', 45000, 'NEFT', 'NEFT99'],
		]);
	});
	it('states balances only as the service sends them; totals from the transactions in the reference shape only', () => {
		const account = { ...statementSample.data.accounts[0], analysis_summary: undefined };
		const r = normalizeStatementResult({ data: { ...statementSample.data, accounts: [account] } });
		// the sample shape's summary is where its balances and totals are: without it they are unknown
		expect(r.accounts[0]).toMatchObject({
			openingBalance: null,
			closingBalance: null,
			totalCredits: null,
			totalDebits: null,
			transactionCount: 2,
		});
		// the reference shape has no summary: its totals are the transactions'
		const reference = normalizeStatementResult(statementReference);
		expect([reference.accounts[0].totalCredits, reference.accounts[0].totalDebits]).toEqual([
			50000, 5000,
		]);
		const {
			opening_balance: _o,
			closing_balance: _c,
			...bare
		} = statementReference.data.accounts[0] as IDataObject;
		const withoutBalances = normalizeStatementResult({
			data: { client_id: 'aa_1', accounts: [bare] },
		});
		expect([
			withoutBalances.accounts[0].openingBalance,
			withoutBalances.accounts[0].closingBalance,
		]).toEqual([null, null]);
	});
	it('splits into one item per transaction with account context', () => {
		const result = normalizeStatementResult(statementSample);
		const items = result.accounts.flatMap((account) => transactionItems(result, account));
		expect(items).toHaveLength(2);
		expect(items[1]).toMatchObject({
			clientId: 'aa_2',
			account: {
				accountIndex: 0,
				bankName: 'State Bank of India',
				accountNumber: 'XXXX5555',
				ifsc: 'SBIN0000001',
				holderName: 'RAHUL VERMA',
			},
			type: 'CREDIT',
			amount: 45000,
		});
	});
	it('tolerates partial input', () => {
		expect(normalizeStatementResult(undefined)).toMatchObject({
			clientId: null,
			accounts: [],
			totalTransactions: 0,
		});
		const r = normalizeStatementResult({ data: { accounts: [null, { transactions: 'x' }] } });
		expect(r.accounts).toHaveLength(2);
		expect(r.accounts[1]).toMatchObject({
			accountIndex: 1,
			// no list of transactions: unknown, not none
			transactionCount: null,
			openingBalance: null,
			totalCredits: null,
		});
	});
});

describe('normalizeAnalysis', () => {
	it('reads the reference shape', () => {
		const a = normalizeAnalysis(analysisReference);
		expect(a).toMatchObject({
			shape: 'reference',
			clientId: 'aa_1',
			periodFrom: '2025-01-01',
			periodTo: '2025-03-31',
			totalCredits: 150000,
			totalDebits: 90000,
			netFlow: 60000,
			averageMonthlyBalance: 42000,
			minimumMonthlyBalance: 12000,
			averageMonthlyIncome: 50000,
			incomeStabilityScore: 87,
			totalEmiPerMonth: 16300,
			fixedObligationsRatio: 0.326,
			healthScore: null,
			accounts: [],
		});
		expect(a.flags).toEqual({
			salaryBounce: false,
			emiBounce: true,
			anyBounce: true,
			highCashWithdrawal: false,
			inwardChequeReturn: false,
			endOfMonthStress: true,
			negativeBalance: null,
			suspiciousCredit: null,
		});
		expect(a.salaryCredits).toEqual([{ month: '2025-01', amount: 50000, source: 'ACME' }]);
		expect(a.emiAccounts).toEqual([{ lender: 'HDFC', amount: 16300, mode: 'NACH' }]);
		expect(a.monthlyTrend).toEqual([
			{
				month: '2025-01',
				totalCredits: 50000,
				totalDebits: 30000,
				net: 20000,
				closingBalance: null,
			},
		]);
	});
	it('reads the sample shape: sums over accounts, worst health score, flags from the flagged transactions', () => {
		const a = normalizeAnalysis(analysisSample);
		expect(a).toMatchObject({
			shape: 'sample',
			clientId: 'aa_2',
			status: 'analysis_complete',
			periodFrom: '2025-01-01',
			periodTo: '2025-04-30',
			totalCredits: 12000,
			totalDebits: 2000,
			netFlow: 10000,
			averageMonthlyBalance: 20000,
			minimumMonthlyBalance: 18001,
			averageMonthlyIncome: null,
		});
		expect(a.monthlyTrend).toEqual([
			{
				month: '2025-01',
				totalCredits: 12000,
				totalDebits: 1200,
				net: 10800,
				closingBalance: 18001,
			},
			// each of these months comes from one account only: not a total over both
			{ month: '2025-02', totalCredits: null, totalDebits: null, net: null, closingBalance: null },
			{ month: '2025-03', totalCredits: null, totalDebits: null, net: null, closingBalance: null },
		]);
		expect(a.healthScore).toMatchObject({
			score: 61,
			rating: 'fair',
			bounces: 2,
			negativeBalances: 0,
			reconciliationIssues: 1,
		});
		expect(a.flags).toMatchObject({
			anyBounce: true,
			inwardChequeReturn: false,
			negativeBalance: false,
			salaryBounce: null,
		});
		expect(a.accounts).toHaveLength(2);
		expect(a.accounts[0]).toMatchObject({
			accountIndex: 0,
			holderName: 'Priya Sharma',
			ifsc: 'HDFC0000001',
			periodFrom: '2025-01-01',
			periodTo: '2025-03-30',
			totalCredits: 5000,
			minimumBalance: 500,
			minimumMonthlyBalance: 9000,
			flags: { anyBounce: false },
			modeBreakdown: [{ mode: 'UPI', count: 3, totalCredit: 100, totalDebit: 200 }],
		});
	});
	it('tolerates partial input', () => {
		for (const body of [
			undefined,
			{},
			{ data: { accounts: [{ analysis_json: null }] } },
			{ data: { summary: {} } },
		]) {
			const a = normalizeAnalysis(body);
			expect(a.totalCredits).toBeNull();
			expect(a.netFlow).toBeNull();
		}
		const a = normalizeAnalysis({
			data: { total_accounts: 1, accounts: [{ analysis_json: { health_score: 70 } }] },
		});
		expect(a.shape).toBe('sample');
		expect(a.healthScore?.score).toBe(70);
		expect(a.minimumMonthlyBalance).toBeNull();
		expect(a.monthlyTrend).toEqual([]);
		// averages come from month-end balances when the balance summary lacks them
		const b = normalizeAnalysis({
			data: {
				accounts: [
					{
						analysis_json: {
							monthly_summary: [
								{ month: '2025-01', closing_balance: 100 },
								{ month: '2025-02', closing_balance: 300 },
								{ month: null },
							],
						},
					},
				],
			},
		});
		// …but not over the rows that happen to be readable: a row without its month leaves them unknown
		expect([b.averageMonthlyBalance, b.minimumMonthlyBalance]).toEqual([null, null]);
		const months = (b.accounts[0].monthlyTrend as IDataObject[]).slice(0, 2);
		const c = normalizeAnalysis({
			data: {
				accounts: [
					{
						analysis_json: {
							monthly_summary: months.map((m) => ({
								month: m.month,
								closing_balance: m.closingBalance,
							})),
						},
					},
				],
			},
		});
		expect([c.accounts[0].averageMonthlyBalance, c.accounts[0].minimumMonthlyBalance]).toEqual([
			200, 100,
		]);
	});
});

describe('Get Analysis: unknown is null, never the clean value', () => {
	/** Two analysed accounts: a clean one (100, excellent) and one holding an inward cheque return (85, good). */
	const clean = () => {
		const account = sampleAccount(0, 100, 5000, 0);
		account.analysis_json.health_score.rating = 'excellent';
		return account;
	};
	const withChequeReturn = () => {
		const account = sampleAccount(1, 85, 7000, 0);
		account.analysis_json.flagged_transactions.cheque_return_summary = { total_returns: 1 };
		account.analysis_json.monthly_summary[1].month = '2025-02';
		return account;
	};
	const journey = (accounts: unknown[], total = accounts.length) => ({
		data: { client_id: 'aa_3', status: 'completed', total_accounts: total, accounts },
	});

	it('both accounts analysed: the cheque return is a bounce and the worst score is 85 "good"', () => {
		const a = normalizeAnalysis(journey([clean(), withChequeReturn()]));
		expect(a.flags).toMatchObject({ anyBounce: true, inwardChequeReturn: true });
		expect(a.healthScore).toMatchObject({ score: 85, rating: 'good' });
		expect(a.coverage).toEqual({
			accounts: 2,
			analysed: 2,
			complete: true,
			unanalysedAccounts: [],
			source: 'accounts',
			repeatedAccounts: 0,
			conflictingAccounts: false,
		});
		expect(a.totalCredits).toBe(12000);
	});

	it('the account holding the cheque return has no analysis: bounce flags, score and totals are null, coverage says which', () => {
		const unanalysed = { ...withChequeReturn(), analysis_json: null };
		const a = normalizeAnalysis(journey([clean(), unanalysed]));
		expect(a.accounts[1]).toMatchObject({ status: 'completed', analysed: false });
		expect(a.flags).toMatchObject({
			anyBounce: null,
			inwardChequeReturn: null,
			negativeBalance: null,
		});
		// not 100 "excellent" from the clean account alone
		expect(a.healthScore).toBeNull();
		expect(a.coverage).toEqual({
			accounts: 2,
			analysed: 1,
			complete: false,
			unanalysedAccounts: [1],
			source: 'accounts',
			repeatedAccounts: 0,
			conflictingAccounts: false,
		});
		expect([a.totalCredits, a.totalDebits, a.netFlow]).toEqual([null, null, null]);
		expect([a.averageMonthlyBalance, a.minimumMonthlyBalance]).toEqual([null, null]);
		expect([a.periodFrom, a.periodTo]).toEqual([null, null]);
		expect(a.monthlyTrend).toEqual([]);
		// the analysed account keeps its own figures
		expect(a.accounts[0]).toMatchObject({ analysed: true, totalCredits: 5000 });
	});

	it('an account the answer does not list (total_accounts says more) leaves the same unknowns', () => {
		const a = normalizeAnalysis(journey([clean()], 2));
		expect(a.coverage).toMatchObject({ accounts: 2, analysed: 1, complete: false });
		expect(a.flags.anyBounce).toBeNull();
		expect(a.healthScore).toBeNull();
		expect(a.totalCredits).toBeNull();
	});

	it('a bounce seen in an analysed account stays true when another account has no analysis', () => {
		const a = normalizeAnalysis(journey([withChequeReturn(), { account_index: 1 }]));
		expect(a.flags).toMatchObject({ anyBounce: true, inwardChequeReturn: true });
		expect(a.healthScore).toBeNull();
	});

	it('a missing flag makes anyBounce null, not false (reference shape)', () => {
		const flags = { ...analysisReference.data.flags, emi_bounce: false } as IDataObject;
		delete flags.inward_cheque_return;
		const a = normalizeAnalysis({ data: { ...analysisReference.data, flags } });
		expect(a.flags).toMatchObject({
			salaryBounce: false,
			emiBounce: false,
			inwardChequeReturn: null,
			anyBounce: null,
		});
		const all = normalizeAnalysis({
			data: { ...analysisReference.data, flags: { ...flags, inward_cheque_return: false } },
		});
		expect(all.flags.anyBounce).toBe(false);
	});

	it('a missing cheque-return summary makes anyBounce null, not false (sample shape)', () => {
		const account = clean();
		delete (account.analysis_json.flagged_transactions as IDataObject).cheque_return_summary;
		const a = normalizeAnalysis(journey([account]));
		expect(a.accounts[0].flags).toMatchObject({ anyBounce: null, inwardChequeReturn: null });
		expect(a.flags).toMatchObject({ anyBounce: null, inwardChequeReturn: null });
	});

	it('a month only some accounts report is not summed over those accounts', () => {
		const one = clean();
		const two = withChequeReturn();
		two.analysis_json.monthly_summary[1].month = '2025-03';
		const a = normalizeAnalysis(journey([one, two]));
		expect(a.monthlyTrend).toEqual([
			{
				month: '2025-01',
				totalCredits: 12000,
				totalDebits: 1200,
				net: 10800,
				closingBalance: 18001,
			},
			{ month: '2025-02', totalCredits: null, totalDebits: null, net: null, closingBalance: null },
			{ month: '2025-03', totalCredits: null, totalDebits: null, net: null, closingBalance: null },
		]);
	});

	it('an average of month-end balances is not taken over the months that have one', () => {
		const account = clean();
		delete (account.analysis_json.summary_card.balance_summary as IDataObject)
			.average_monthly_balance;
		(account.analysis_json.monthly_summary[1] as IDataObject).closing_balance = null;
		const a = normalizeAnalysis(journey([account]));
		expect(a.accounts[0].averageMonthlyBalance).toBeNull();
		expect(a.accounts[0].minimumMonthlyBalance).toBeNull();
	});

	it('a flagged suspicious credit surfaces in the account and in the flags', () => {
		const account = clean() as IDataObject;
		(account.analysis_json as IDataObject).suspicious_transactions = {
			suspicious_credits: [
				{
					date: '2025-01-20',
					description: 'NEFT FROM R KUMAR',
					amount: 250000,
					type: 'CREDIT',
					balance: 260000,
					reason: 'Large credit from an individual',
				},
			],
			suspicious_debits: [],
			monthwise_summary: [],
			summary: { total_suspicious_credits: 1, total_suspicious_debits: 0, total_amount: 250000 },
		};
		const a = normalizeAnalysis(journey([account]));
		expect(a.flags.suspiciousCredit).toBe(true);
		expect(a.accounts[0]).toMatchObject({
			suspiciousCreditCount: 1,
			suspiciousCredits: [
				{
					date: '2025-01-20',
					amount: 250000,
					description: 'NEFT FROM R KUMAR',
					reason: 'Large credit from an individual',
				},
			],
			flags: { suspiciousCredit: true },
		});
		// an analysis without the group does not say "none"
		const without = normalizeAnalysis(journey([clean()]));
		expect(without.flags.suspiciousCredit).toBeNull();
		expect(without.accounts[0].suspiciousCredits).toBeNull();
	});
});

describe('Get Status and Get Statement Result: unknown is null', () => {
	it.each([
		['an HTTP code in the envelope', { success: true, status: 200, data: null }],
		['an HTTP code as text', { status: '200', message: 'OK' }],
		['an envelope word without a journey', { status: 'success', message: 'OK' }],
		['an empty body', {}],
		['data: null', { success: true, data: null }],
		['a record without status', { client_id: 'aa_1', total_accounts: 1 }],
	])('%s is never a journey status', (_, body) => {
		const s = normalizeJourneyStatus(body);
		expect(s.status).toBeNull();
		expect(s.serviceStatus).toBeNull();
		expect(missingField(body, JOURNEY_STATUS_REQUIRED)).toBe(
			'a journey status (data.status or status)',
		);
	});

	it('a journey status in either shape passes', () => {
		expect(missingField(statusReference, JOURNEY_STATUS_REQUIRED)).toBeUndefined();
		expect(missingField(statusSample, JOURNEY_STATUS_REQUIRED)).toBeUndefined();
		expect(normalizeJourneyStatus({ client_id: 'aa_1', status: 'Consent Pending' }).status).toBe(
			'consent_pending',
		);
	});

	it('account counts are not counted from a list that is shorter than total_accounts, or whose statuses are unknown', () => {
		const short = normalizeJourneyStatus({
			...statusSample,
			total_accounts: 3,
			completed_accounts: undefined,
			failed_accounts: undefined,
		});
		expect([short.totalAccounts, short.completedAccounts, short.failedAccounts]).toEqual([
			3,
			null,
			null,
		]);
		const unknown = normalizeJourneyStatus({
			...statusSample,
			completed_accounts: undefined,
			failed_accounts: undefined,
			accounts: [statusSample.accounts[0], { ...statusSample.accounts[1], bsa_status: null }],
		});
		expect([unknown.completedAccounts, unknown.failedAccounts]).toEqual([null, null]);
	});

	it('a statement total is not summed over transactions whose direction or amount is unknown', () => {
		const account = {
			...statementSample.data.accounts[0],
			analysis_summary: undefined,
			transactions: [
				...statementSample.data.accounts[0].transactions,
				{ sr_no: 3, txn_date: '04-01-25', description: 'ADJUSTMENT', balance: 63749.5 },
			],
		};
		const r = normalizeStatementResult({ data: { ...statementSample.data, accounts: [account] } });
		expect([r.accounts[0].totalCredits, r.accounts[0].totalDebits]).toEqual([null, null]);
	});

	it('an account the answer does not list leaves the transaction count unknown', () => {
		const r = normalizeStatementResult({ data: { ...statementSample.data, total_accounts: 2 } });
		expect(r.totalAccounts).toBe(2);
		expect(r.totalTransactions).toBeNull();
	});

	it('statement and analysis answers without their facts are named as missing', () => {
		for (const body of [{}, { data: null }, { success: true, data: { client_id: 'aa_1' } }]) {
			expect(missingField(body, STATEMENT_REQUIRED)).toBe('an account (data.accounts)');
			expect(missingField(body, ANALYSIS_REQUIRED)).toBe(
				'the analysis (data.summary, data.flags or data.accounts)',
			);
		}
		expect(missingField(statementReference, STATEMENT_REQUIRED)).toBeUndefined();
		expect(missingField(statementSample, STATEMENT_REQUIRED)).toBeUndefined();
		expect(missingField(analysisReference, ANALYSIS_REQUIRED)).toBeUndefined();
		expect(missingField(analysisSample, ANALYSIS_REQUIRED)).toBeUndefined();
	});
});

describe('Get Analysis grammar: impossible values, contradictions and repeats are unknown', () => {
	const decideAnalysis = (body: unknown) =>
		decide('bankStatementJourney.getAnalysis', normalizeAnalysis(body) as IDataObject);
	/** One clean analysed account: no bounce, no cheque return, no suspicious credit. */
	const cleanAccount = (index = 0, number = `XXXX000${index}`) => {
		const account = sampleAccount(index, 90, 5000, 0) as IDataObject & {
			analysis_json: IDataObject & {
				flagged_transactions: IDataObject;
				health_score: IDataObject;
				summary_card: IDataObject & { balance_summary: IDataObject };
				suspicious_transactions?: IDataObject;
			};
		};
		account.account_number = number;
		account.analysis_json.summary_card.account_number = number;
		account.analysis_json.flagged_transactions.cheque_return_summary = {
			count: 0,
			total_amount: 0,
		};
		account.analysis_json.flagged_transactions.summary = { bounces: 0, negative_balances: 0 };
		account.analysis_json.suspicious_transactions = {
			suspicious_credits: [],
			suspicious_debits: [],
			monthwise_summary: [],
			summary: { total_suspicious_credits: 0 },
		};
		return account;
	};
	const journey = (accounts: unknown[], total = accounts.length) => ({
		data: { client_id: 'aa_9', status: 'completed', total_accounts: total, accounts },
	});
	const flagged = (account: ReturnType<typeof cleanAccount>) =>
		account.analysis_json.flagged_transactions;

	it('a clean, well-formed answer of each layout is ready', () => {
		expect(decideAnalysis(journey([cleanAccount(0), cleanAccount(1)]))).toMatchObject({
			decisionReady: true,
			incomplete: [],
		});
		expect(decideAnalysis(analysisReference)).toMatchObject({ decisionReady: true });
	});

	describe('counts: a whole number from 0', () => {
		it.each([-1, 1.5, '-1', 'NA', 1e21])(
			'an inward cheque-return count of %p is unknown, not "no return"',
			(count) => {
				const account = cleanAccount();
				flagged(account).cheque_return_summary = { count, total_amount: 0 };
				const a = normalizeAnalysis(journey([account]));
				expect(a.flags).toMatchObject({ inwardChequeReturn: null, anyBounce: null });
				expect(decideAnalysis(journey([account])).incomplete).toContain(
					'flags unknown: bounces, inward cheque returns',
				);
			},
		);

		it('a cheque-return summary whose count and amount contradict each other is unknown', () => {
			for (const summary of [
				{ count: 0, total_amount: 25000 },
				{ count: 2, total_amount: 0 },
				{ count: 0, total_amount: -5 },
			]) {
				const account = cleanAccount();
				flagged(account).cheque_return_summary = summary;
				expect(normalizeAnalysis(journey([account])).flags.inwardChequeReturn).toBeNull();
			}
			const returned = cleanAccount();
			flagged(returned).cheque_return_summary = { count: 1, total_amount: 25000 };
			expect(normalizeAnalysis(journey([returned])).flags).toMatchObject({
				inwardChequeReturn: true,
				anyBounce: true,
			});
		});

		it('a negative bounce count is unknown, not "no bounce"', () => {
			const account = cleanAccount();
			flagged(account).summary = { bounces: -1, negative_balances: 0 };
			expect(normalizeAnalysis(journey([account])).flags.anyBounce).toBeNull();
			expect(decideAnalysis(journey([account])).decisionReady).toBe(false);
		});

		it("a count out of range in the health score's details is not a count (-1 never agrees)", () => {
			const account = cleanAccount();
			(account.analysis_json.health_score.details as IDataObject).bounces = { count: -1 };
			const a = normalizeAnalysis(journey([account]));
			expect(a.healthScore?.bounces).toBeNull();
			// the summary and the (empty) list still say none
			expect(a.flags.anyBounce).toBe(false);
		});
	});

	describe('contradictions: a summary against its own list', () => {
		it('suspicious credits counted 1 with the list empty: the flag is unknown, not false', () => {
			const account = cleanAccount();
			account.analysis_json.suspicious_transactions = {
				suspicious_credits: [],
				summary: { total_suspicious_credits: 1 },
			};
			const a = normalizeAnalysis(journey([account]));
			expect(a.flags.suspiciousCredit).toBeNull();
			expect(a.accounts[0].suspiciousCreditCount).toBeNull();
			expect(decideAnalysis(journey([account])).incomplete).toEqual([
				'flags unknown: suspicious credits',
			]);
		});

		it('a suspicious credit listed with a count of 0 is unknown too', () => {
			const account = cleanAccount();
			account.analysis_json.suspicious_transactions = {
				suspicious_credits: [{ date: '2025-01-20', amount: 250000, description: 'NEFT' }],
				summary: { total_suspicious_credits: 0 },
			};
			expect(normalizeAnalysis(journey([account])).flags.suspiciousCredit).toBeNull();
		});

		it('a bounce count > 0 with no bounce listed, or a bounce listed with a count of 0, is unknown', () => {
			const counted = cleanAccount();
			flagged(counted).summary = { bounces: 1, negative_balances: 0 };
			expect(normalizeAnalysis(journey([counted])).flags.anyBounce).toBeNull();
			const listed = cleanAccount();
			flagged(listed).bounce_transactions = [
				{ date: '2025-01-05', description: 'ACH RTN', amount: 4500 },
			];
			expect(normalizeAnalysis(journey([listed])).flags.anyBounce).toBeNull();
			// the summary, the list and the health score's details agreeing: a known bounce
			const agreed = cleanAccount();
			flagged(agreed).bounce_transactions = [
				{ date: '2025-01-05', description: 'ACH RTN', amount: 4500 },
			];
			flagged(agreed).summary = { bounces: 1, negative_balances: 0 };
			(agreed.analysis_json.health_score.details as IDataObject).bounces = { count: 1 };
			expect(normalizeAnalysis(journey([agreed])).flags.anyBounce).toBe(true);
		});

		it('a negative-balance count against its list', () => {
			const account = cleanAccount();
			flagged(account).summary = { bounces: 0, negative_balances: 2 };
			expect(normalizeAnalysis(journey([account])).flags.negativeBalance).toBeNull();
		});
	});

	describe('ranges of amounts and the health score', () => {
		it('a health score of 99,999 (or -5, or 100.5) is unknown, never 100', () => {
			for (const score of [99_999, -5, 100.5, '1e3']) {
				const account = cleanAccount();
				account.analysis_json.health_score.score = score;
				const a = normalizeAnalysis(journey([account]));
				expect(a.accounts[0].healthScore?.score).toBeNull();
				expect(a.healthScore).toBeNull();
				expect(decideAnalysis(journey([account])).incomplete).toEqual(['health score unknown']);
			}
			const edge = cleanAccount();
			edge.analysis_json.health_score.score = 100;
			expect(normalizeAnalysis(journey([edge])).healthScore?.score).toBe(100);
		});

		it('balances and credits of 1e21 are unknown; a negative balance (an overdraft) is read', () => {
			const huge = cleanAccount();
			huge.analysis_json.summary_card.balance_summary.average_monthly_balance = 1e21;
			(huge.analysis_json.summary_card.transaction_summary as IDataObject).total_credits = 1e21;
			const a = normalizeAnalysis(journey([huge]));
			expect([a.averageMonthlyBalance, a.totalCredits, a.netFlow]).toEqual([null, null, null]);
			expect(decideAnalysis(journey([huge])).incomplete).toEqual([
				'average monthly balance unknown',
				'net flow unknown (total credits or debits)',
			]);
			// a stated balance out of range is not replaced by the month-end balances
			expect(a.accounts[0].averageMonthlyBalance).toBeNull();
			const overdraft = cleanAccount();
			overdraft.analysis_json.summary_card.balance_summary.average_monthly_balance = -2500;
			expect(normalizeAnalysis(journey([overdraft])).averageMonthlyBalance).toBe(-2500);
			const negativeCredits = cleanAccount();
			(
				negativeCredits.analysis_json.summary_card.transaction_summary as IDataObject
			).total_credits = -10;
			expect(normalizeAnalysis(journey([negativeCredits])).totalCredits).toBeNull();
		});

		it('reference layout: incomes, balances and credits out of range are unknown', () => {
			const data = analysisReference.data;
			const a = normalizeAnalysis({
				data: {
					...data,
					summary: { ...data.summary, total_credits: 1e21, average_monthly_balance: -1e21 },
					income: { ...data.income, average_monthly_income: 1e21, income_stability_score: 99_999 },
					obligations: { ...data.obligations, total_emi_per_month: -1 },
				},
			});
			expect(a).toMatchObject({
				totalCredits: null,
				netFlow: null,
				averageMonthlyBalance: null,
				averageMonthlyIncome: null,
				incomeStabilityScore: null,
				totalEmiPerMonth: null,
			});
			expect(decide('bankStatementJourney.getAnalysis', a as IDataObject).decisionReady).toBe(
				false,
			);
		});

		it('a reference health_score the service adds is read within 0..100', () => {
			const a = normalizeAnalysis({ data: { ...analysisReference.data, health_score: 99_999 } });
			expect(a.healthScore).toBeNull();
		});
	});

	describe('identity: an account or a month listed twice', () => {
		it('the same account (account number and bank) listed twice alike is counted once', () => {
			const one = cleanAccount(0, 'XXXX1111');
			const copy = { ...cleanAccount(0, 'XXXX1111'), account_index: 1, bsa_client_id: 'bsa_x' };
			const a = normalizeAnalysis(journey([one, copy], 1));
			expect(a.accounts).toHaveLength(1);
			expect(a.averageMonthlyBalance).toBe(10000);
			expect(a.coverage).toMatchObject({
				accounts: 1,
				analysed: 1,
				complete: true,
				repeatedAccounts: 1,
			});
			expect(decideAnalysis(journey([one, copy], 1)).decisionReady).toBe(true);
			// the account number and bank are compared without case and spaces
			const spaced = { ...copy, bank_name: 'hdfc  bank' };
			spaced.analysis_json = { ...copy.analysis_json };
			// …so copies that write the bank differently are one account saying two things: unknown
			expect(normalizeAnalysis(journey([one, spaced], 1)).coverage.conflictingAccounts).toBe(true);
		});

		it('a repeated account next to total_accounts: 2 leaves the other account unanalysed', () => {
			const one = cleanAccount(0, 'XXXX1111');
			const copy = { ...cleanAccount(0, 'XXXX1111'), account_index: 1 };
			const a = normalizeAnalysis(journey([one, copy], 2));
			expect(a.averageMonthlyBalance).toBeNull();
			expect(a.coverage).toMatchObject({ accounts: 2, analysed: 1, complete: false });
		});

		it('two copies of one account that disagree: the figures are unknown', () => {
			const one = cleanAccount(0, 'XXXX1111');
			const other = cleanAccount(0, 'XXXX1111');
			other.analysis_json.summary_card.balance_summary.average_monthly_balance = 99_000;
			const a = normalizeAnalysis(journey([one, other], 2));
			expect(a.averageMonthlyBalance).toBeNull();
			expect(a.flags.anyBounce).toBeNull();
			expect(a.coverage).toMatchObject({ conflictingAccounts: true, complete: false });
			expect(decideAnalysis(journey([one, other], 2)).incomplete).toContain(
				'an account listed twice with different analyses',
			);
		});

		it('an account without its number copied deep-equal: one account or two is unknown', () => {
			const anonymous = () => {
				const account = cleanAccount(0) as IDataObject;
				delete account.account_number;
				delete ((account.analysis_json as IDataObject).summary_card as IDataObject).account_number;
				return account;
			};
			const a = normalizeAnalysis(journey([anonymous(), { ...anonymous(), account_index: 1 }]));
			expect(a.coverage.conflictingAccounts).toBe(true);
			expect(a.averageMonthlyBalance).toBeNull();
		});

		it('a month listed twice is one month when alike, and unknown when the copies disagree', () => {
			const account = cleanAccount() as IDataObject;
			const json = account.analysis_json as IDataObject;
			delete (json.summary_card as IDataObject & { balance_summary: IDataObject }).balance_summary
				.average_monthly_balance;
			const months = json.monthly_summary as IDataObject[];
			json.monthly_summary = [...months, { ...months[1] }];
			const alike = normalizeAnalysis(journey([account]));
			expect(alike.accounts[0].monthlyTrend).toHaveLength(2);
			expect(alike.accounts[0].averageMonthlyBalance).toBe(10000);
			json.monthly_summary = [...months, { ...months[1], closing_balance: 1 }];
			const differing = normalizeAnalysis(journey([account]));
			expect(differing.accounts[0].monthlyTrend).toEqual([]);
			expect(differing.accounts[0].averageMonthlyBalance).toBeNull();
		});

		it('a bounce listed twice with one transaction id is one bounce; two ids are two', () => {
			const row = {
				transaction_id: 't1',
				date: '2025-01-05',
				description: 'ACH RTN',
				amount: 4500,
			};
			const account = cleanAccount();
			flagged(account).bounce_transactions = [row, { ...row }];
			flagged(account).summary = { bounces: 1, negative_balances: 0 };
			(account.analysis_json.health_score.details as IDataObject).bounces = { count: 1 };
			expect(normalizeAnalysis(journey([account])).flags.anyBounce).toBe(true);
			// counted twice by the summary: a contradiction
			flagged(account).summary = { bounces: 2, negative_balances: 0 };
			(account.analysis_json.health_score.details as IDataObject).bounces = { count: 2 };
			expect(normalizeAnalysis(journey([account])).flags.anyBounce).toBeNull();
			// the same id with a different amount: which is right is unknown
			flagged(account).bounce_transactions = [row, { ...row, amount: 9000 }];
			expect(normalizeAnalysis(journey([account])).flags.anyBounce).toBeNull();
		});

		it('two like bounces without an id (same date, amount, narration) are not taken for one', () => {
			const row = { date: '2025-01-05', description: 'ACH RTN', amount: 4500 };
			const account = cleanAccount();
			flagged(account).bounce_transactions = [row, { ...row }];
			// the summary and the health score count both: two like bounces
			flagged(account).summary = { bounces: 2, negative_balances: 0 };
			(account.analysis_json.health_score.details as IDataObject).bounces = { count: 2 };
			expect(normalizeAnalysis(journey([account])).flags.anyBounce).toBe(true);
			// the summary says 3: more than listed, a contradiction
			flagged(account).summary = { bounces: 3, negative_balances: 0 };
			expect(normalizeAnalysis(journey([account])).flags.anyBounce).toBeNull();
			// deep-equal suspicious credits without a count: one at least, how many is unknown
			const suspicious = cleanAccount();
			const credit = { date: '2025-01-20', amount: 250000, description: 'NEFT' };
			suspicious.analysis_json.suspicious_transactions = {
				suspicious_credits: [credit, { ...credit }],
				summary: {},
			};
			const s = normalizeAnalysis(journey([suspicious]));
			expect(s.flags.suspiciousCredit).toBe(true);
			expect(s.accounts[0].suspiciousCreditCount).toBeNull();
		});
	});

	describe('reference layout: what the node can and cannot know', () => {
		it('names the facts the layout never states; version 3 Simplified leaves them out', () => {
			const a = normalizeAnalysis(analysisReference);
			expect(a.notInLayout).toEqual([
				'healthScore',
				'flags.negativeBalance',
				'flags.suspiciousCredit',
			]);
			const record = withDecision('bankStatementJourney.getAnalysis', a as IDataObject);
			expect(record.decisionReady).toBe(true);
			const simplified = simplifyOutput('bankStatementJourney.getAnalysis', record, 3);
			expect(simplified).not.toHaveProperty('healthScore');
			expect(simplified).not.toHaveProperty('negativeBalance');
			expect(simplified).not.toHaveProperty('suspiciousCredit');
			expect(simplified.notInLayout).toEqual(a.notInLayout);
			// the sample layout's item keeps them
			const sample = withDecision(
				'bankStatementJourney.getAnalysis',
				normalizeAnalysis(journey([cleanAccount()])) as IDataObject,
			);
			expect(simplifyOutput('bankStatementJourney.getAnalysis', sample, 3)).toMatchObject({
				healthScore: 90,
				negativeBalance: false,
				suspiciousCredit: false,
			});
		});

		it('without any account list or count the coverage is the journey (the service names no account)', () => {
			expect(normalizeAnalysis(analysisReference).coverage).toEqual({
				accounts: null,
				analysed: null,
				complete: true,
				unanalysedAccounts: [],
				source: 'journey',
				repeatedAccounts: 0,
				conflictingAccounts: false,
			});
		});

		it('an account the answer lists without its analysis is not analysed', () => {
			const body = {
				data: {
					...analysisReference.data,
					accounts: [
						{
							account_index: 0,
							bank_name: 'HDFC Bank',
							account_number: 'XX11',
							bsa_status: 'completed',
						},
						{ account_index: 1, bank_name: 'SBI', account_number: 'XX22', bsa_status: 'failed' },
					],
				},
			};
			const a = normalizeAnalysis(body);
			expect(a.shape).toBe('reference');
			expect(a.coverage).toMatchObject({
				accounts: 2,
				analysed: 1,
				complete: false,
				unanalysedAccounts: [1],
				source: 'accounts',
			});
			expect(decideAnalysis(body).incomplete).toEqual(['account not analysed: 1']);
		});

		it('total_accounts above the analysed count, a failed account, or an unreadable count: not complete', () => {
			for (const extra of [
				{ total_accounts: 2, completed_accounts: 1 },
				{ total_accounts: 2 },
				{ total_accounts: 1, completed_accounts: 1, failed_accounts: 1 },
				{ total_accounts: -1, completed_accounts: 1 },
			]) {
				const body = { data: { ...analysisReference.data, ...extra } };
				expect(normalizeAnalysis(body).coverage.complete).toBe(false);
				expect(decideAnalysis(body).decisionReady).toBe(false);
			}
			const whole = {
				data: {
					...analysisReference.data,
					total_accounts: 2,
					completed_accounts: 2,
					failed_accounts: 0,
				},
			};
			expect(decideAnalysis(whole).decisionReady).toBe(true);
		});

		it('the same account listed twice in the reference layout is one account', () => {
			const account = { bank_name: 'HDFC Bank', account_number: 'XX11', bsa_status: 'completed' };
			const a = normalizeAnalysis({
				data: { ...analysisReference.data, total_accounts: 1, accounts: [account, { ...account }] },
			});
			expect(a.coverage).toMatchObject({
				accounts: 1,
				analysed: 1,
				complete: true,
				repeatedAccounts: 1,
			});
		});
	});
});
