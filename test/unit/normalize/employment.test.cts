import {
	monthsBetween,
	normalizeEpfo,
	normalizeEpfoCredit,
	toGender,
} from '../../../nodes/FinVerify/helpers/normalize/employment';

// Hand-written after the contract's EpfoRecord (openapi/finverify.openapi.yaml; its inner fields are marked
// x-assumed)
const epfo = {
	success: true,
	message: 'EPFO details fetched successfully',
	data: {
		mobile_number: '9876543210',
		uan: '101234567890',
		member_profile: {
			name: 'PRIYA SHARMA',
			father_or_husband_name: 'RAJ SHARMA',
			date_of_birth: '15-08-1990',
			gender: 'F',
			email: 'priya@example.com',
			pan_linked: true,
			aadhaar_linked: 'Y',
			kyc_verified: true,
		},
		employment_history: [
			{
				establishment_name: 'OLD CO PVT LTD',
				establishment_id: 'mhban0000001000',
				member_id: 'MHBAN00000010000000001',
				date_of_joining: '2018-01-10',
				date_of_exit: '2021-03-31',
				tenure_months: 38,
			},
			{
				establishment_name: 'NEW CO PVT LTD',
				establishment_id: 'KNBAN0000002000',
				member_id: 'KNBAN00000020000000002',
				date_of_joining: '2021-05-01',
				date_of_exit: null,
				tenure_months: 46,
				is_current: true,
			},
		],
		contribution_summary: {
			total_employee_share: 3600,
			total_employer_share: 1100,
			total_pension_share: 2500,
			total_contribution: 7200,
			months_contributed: 84,
			last_contribution_month: '2025-03',
			average_monthly_wage: 15000,
		},
		passbook: [
			{
				wage_month: '2025-02',
				establishment_id: 'KNBAN0000002000',
				member_id: 'M',
				wages: 15000,
				employee_share: 1800,
				employer_share: 550,
				pension_share: 1250,
				transaction_type: 'CR',
			},
			{
				wage_month: '2025-03',
				establishment_id: 'KNBAN0000002000',
				member_id: 'M',
				wages: 15000,
				employee_share: 1800,
				employer_share: 550,
				pension_share: 1250,
				transaction_type: 'CR',
			},
		],
	},
};

describe('helpers', () => {
	it('toGender maps M/F and words', () => {
		expect(toGender('M')).toBe('male');
		expect(toGender('Female')).toBe('female');
		expect(toGender('other')).toBe('other');
		expect(toGender(null)).toBeNull();
	});
	it('monthsBetween counts whole months', () => {
		expect(monthsBetween('2020-01-15', '2020-03-14')).toBe(1);
		expect(monthsBetween('2020-01-15', '2020-03-15')).toBe(2);
		expect(monthsBetween('2021-01-01', '2020-01-01')).toBeNull();
		expect(monthsBetween(null, '2020-01-01')).toBeNull();
	});
});

describe('normalizeEpfo', () => {
	it('reads member, employers (newest first), current employer and contribution totals', () => {
		const out = normalizeEpfo(epfo);
		expect(out).toMatchObject({
			success: true,
			mobileNumber: '9876543210',
			uan: '101234567890',
			member: {
				name: 'PRIYA SHARMA',
				fatherOrHusbandName: 'RAJ SHARMA',
				dateOfBirth: '1990-08-15',
				gender: 'female',
				email: 'priya@example.com',
				panLinked: true,
				aadhaarLinked: true,
				kycVerified: true,
			},
			currentEmployer: 'NEW CO PVT LTD',
			employerCount: 2,
			totalTenureMonths: 84,
			contributions: {
				employeeShare: 3600,
				employerShare: 1100,
				pensionShare: 2500,
				total: 7200,
				monthsContributed: 84,
				lastContributionMonth: '2025-03',
				averageMonthlyWage: 15000,
			},
		});
		expect(out.employers.map((e) => e.name)).toEqual(['NEW CO PVT LTD', 'OLD CO PVT LTD']);
		expect(out.employers[1]).toEqual({
			name: 'OLD CO PVT LTD',
			establishmentId: 'MHBAN0000001000',
			memberId: 'MHBAN00000010000000001',
			dateOfJoining: '2018-01-10',
			dateOfExit: '2021-03-31',
			current: false,
			tenureMonths: 38,
			employeeShare: null,
			employerShare: null,
		});
		expect(out.passbook.map((p) => p.month)).toEqual(['2025-03', '2025-02']);
	});

	it('without the summary the contribution totals are unknown; sums over the passbook have their own name', () => {
		const { contribution_summary: _omit, ...data } = epfo.data;
		const out = normalizeEpfo({ success: true, data });
		expect(out.contributions).toEqual({
			employeeShare: null,
			employerShare: null,
			pensionShare: null,
			total: null,
			monthsContributed: null,
			lastContributionMonth: '2025-03',
			averageMonthlyWage: null,
			latestMonthlyWage: 15000,
			latestWageMonth: '2025-03',
		});
		expect(out.passbookTotals).toEqual({
			entries: 2,
			fromMonth: '2025-02',
			toMonth: '2025-03',
			employeeShare: 3600,
			employerShare: 1100,
			pensionShare: 2500,
			total: 7200,
		});
	});

	it('a tenure the EPFO record does not state is unknown (not computed to a date of its own), and never throws', () => {
		const out = normalizeEpfo({
			data: {
				employment_history: [
					{ employer_name: 'X', date_of_joining: '2020-01-01', date_of_exit: '2021-01-01' },
				],
			},
		});
		expect(out.employers[0]).toMatchObject({ name: 'X', tenureMonths: null, current: false });
		expect(out.totalTenureMonths).toBeNull();
		for (const body of [
			undefined,
			null,
			{},
			{ data: { employment_history: [null], passbook: 'x' } },
		]) {
			const empty = normalizeEpfo(body);
			expect(empty.uan).toBeNull();
			expect(empty.contributions.total).toBeNull();
			expect(empty.currentEmployer).toBeNull();
		}
	});
});

// Hand-written after the contract's EpfoCrifReference
const combinedReference = {
	success: true,
	message: 'ok',
	data: {
		epfo: {
			uan: '101234567890',
			name: 'PRIYA SHARMA',
			date_of_birth: '1990-08-15',
			mobile: '9876543210',
			kyc_verified: true,
			total_employers: 2,
			employment_history: [
				{
					employer_name: 'NEW CO',
					establishment_id: 'E2',
					date_of_joining: '2021-05-01',
					date_of_exit: null,
					pf_account_number: 'PF2',
					employee_share: 80000,
					employer_share: 25000,
					service_duration_months: 46,
				},
				{
					employer_name: 'OLD CO',
					establishment_id: 'E1',
					date_of_joining: '2018-01-10',
					date_of_exit: '2021-03-31',
					pf_account_number: 'PF1',
					employee_share: 60000,
					employer_share: 20000,
					service_duration_months: 38,
				},
			],
		},
		crif: {
			credit_score: 742,
			score_version: 'PERFORM CONSUMER 2.2',
			report_date: '2025-03-31',
			dpd_history: '000|000',
			total_accounts: 3,
			active_accounts: 2,
			closed_accounts: 1,
			overdue_accounts: 1,
			enquiries_last_30_days: 0,
			enquiries_last_6_months: 2,
			total_outstanding: 450000,
			total_sanctioned: 900000,
			accounts: [
				{
					account_type: 'Personal Loan',
					lender_name: 'HDFC Bank',
					account_number: 'XXXX1234',
					open_date: '2022-01-01',
					close_date: null,
					account_status: 'Active',
					dpd: '000|030',
					sanctioned_amount: 500000,
					outstanding_amount: 300000,
					emi_amount: 12000,
					overdue_amount: 2500,
				},
				{
					account_type: 'Credit Card',
					lender_name: 'ICICI Bank',
					account_number: 'XXXX5678',
					open_date: '2019-01-01',
					close_date: '2023-01-01',
					account_status: 'Closed',
					dpd: '000',
					sanctioned_amount: 100000,
					outstanding_amount: 0,
					emi_amount: 0,
					overdue_amount: 0,
				},
			],
		},
	},
};

// Hand-written after the contract's EpfoCrifSample
const combinedSample = {
	success: true,
	data: {
		doc_id: 'doc_9',
		epfo: {
			mobile: '9876543210',
			uan: '101234567890',
			uan_source: 'epfo',
			prefill: {
				mobile: '9876543210',
				details: {
					personal_info: {
						full_name: 'PRIYA SHARMA',
						dob: '1990-08-15',
						gender: 'female',
						total_income: '600000',
						occupation: 'Salaried',
						age: '34',
					},
					phone_info: [],
					address_info: [],
					email_info: [],
					identity_info: { pan_number: [{ id_number: 'abcde1234f' }] },
				},
			},
			employment_history: [
				{
					establishment_name: 'NEW CO',
					establishment_id: 'E2',
					member_id: 'PF2',
					date_of_joining: '2021-05-01',
					date_of_exit: null,
				},
			],
		},
		credit_report: {
			first_name: 'PRIYA',
			last_name: 'SHARMA',
			mobile: '9876543210',
			pan: 'ABCDE1234F',
			aadhaar_number: null,
			credit_score: '742',
			credit_report: {
				HEADER: {
					'DATE-OF-REQUEST': '31-03-2025',
					'DATE-OF-ISSUE': '31-03-2025',
					'REPORT-ID': 'CHM1',
					STATUS: 'SUCCESS',
				},
				'ACCOUNTS-SUMMARY': {
					'DERIVED-ATTRIBUTES': { 'INQUIRIES-IN-LAST-SIX-MONTHS': '2' },
					'PRIMARY-ACCOUNTS-SUMMARY': {
						'NUMBER-OF-ACCOUNTS': '3',
						'ACTIVE-ACCOUNTS': '2',
						'OVERDUE-ACCOUNTS': '1',
						'TOTAL-CURRENT-BALANCE': '4,50,000',
						'TOTAL-SANCTIONED-AMT': '900000',
						'TOTAL-AMT-OVERDUE': '2500',
					},
				},
				RESPONSES: {
					RESPONSE: [
						{
							'LOAN-DETAILS': {
								'ACCT-NUMBER': 'XXXX1234',
								'CREDIT-GUARANTOR': 'HDFC BANK',
								'ACCT-TYPE': 'Personal Loan',
								'ACCOUNT-STATUS': 'Active',
								'DISBURSED-AMT': '500000',
								'DISBURSED-DT': '01-01-2022',
								'CLOSED-DATE': '',
								'INSTALLMENT-AMT': '12000',
								'CURRENT-BAL': '300000',
								'OVERDUE-AMT': '2500',
								'COMBINED-PAYMENT-HISTORY': '03:2025,STD/XXX',
							},
						},
					],
				},
				SCORE: { 'SCORE-VERSION': '2.2', 'SCORE-VALUE': '742' },
			},
		},
	},
};

describe('normalizeEpfoCredit', () => {
	it('reads the reference shape', () => {
		const out = normalizeEpfoCredit(combinedReference);
		expect(out).toMatchObject({
			shape: 'reference',
			partial: false,
			missing: [],
			hasEmployment: true,
			hasCredit: true,
			member: {
				name: 'PRIYA SHARMA',
				dateOfBirth: '1990-08-15',
				mobile: '9876543210',
				kycVerified: true,
				pan: null,
			},
			mobileNumber: '9876543210',
		});
		expect(out.employment).toMatchObject({
			uan: '101234567890',
			employerCount: 2,
			currentEmployer: 'NEW CO',
			totalTenureMonths: 84,
		});
		expect(out.employment?.employers[0]).toMatchObject({
			memberId: 'PF2',
			employeeShare: 80000,
			employerShare: 25000,
			tenureMonths: 46,
			current: true,
		});
		expect(out.credit).toMatchObject({
			score: 742,
			scoreVersion: 'PERFORM CONSUMER 2.2',
			reportDate: '2025-03-31',
			// the summary declares 3 accounts (2 active) and lists 2 (1 active): contradictions are unknown
			totalAccounts: null,
			activeAccounts: null,
			closedAccounts: 1,
			overdueAccounts: 1,
			totalOutstanding: 450000,
			totalSanctioned: 900000,
			totalOverdue: 2500,
			enquiriesLast30Days: 0,
			enquiriesLast6Months: 2,
		});
		expect(out.credit?.accounts[1]).toEqual({
			type: 'Credit Card',
			lender: 'ICICI Bank',
			accountNumber: 'XXXX5678',
			// statuses in lower case, whatever case the service sends
			status: 'closed',
			openDate: '2019-01-01',
			closeDate: '2023-01-01',
			sanctionedAmount: 100000,
			outstandingAmount: 0,
			emiAmount: 0,
			overdueAmount: 0,
			// `dpd: "000"` is one month (the current days past due), and dpd_history has one line for
			// two accounts: the account's 12-month history is unknown, not clean (issue 33)
			paymentHistory: null,
			maxDaysPastDue: null,
			worstAssetClass: null,
		});
	});

	it('reads the sample shape (numbers from text, DD-MM-YYYY dates to ISO)', () => {
		const out = normalizeEpfoCredit(combinedSample);
		expect(out).toMatchObject({
			shape: 'sample',
			requestId: 'doc_9',
			partial: false,
			member: {
				name: 'PRIYA SHARMA',
				dateOfBirth: '1990-08-15',
				gender: 'female',
				pan: 'ABCDE1234F',
				mobile: '9876543210',
			},
			employment: {
				uan: '101234567890',
				uanSource: 'epfo',
				employerCount: 1,
				currentEmployer: 'NEW CO',
			},
			credit: {
				score: 742,
				scoreVersion: '2.2',
				reportDate: '2025-03-31',
				reportId: 'CHM1',
				// the summary declares 3 accounts (2 active), the report lists 1: unknown
				totalAccounts: null,
				activeAccounts: null,
				closedAccounts: null,
				totalOutstanding: 450000,
				totalOverdue: 2500,
				enquiriesLast6Months: 2,
				enquiriesLast30Days: null,
			},
		});
		expect(out.credit?.accounts[0]).toMatchObject({
			lender: 'HDFC BANK',
			openDate: '2022-01-01',
			closeDate: null,
			sanctionedAmount: 500000,
			emiAmount: 12000,
		});
	});

	it('gives both shapes the same keys', () => {
		const a = normalizeEpfoCredit(combinedReference);
		const b = normalizeEpfoCredit(combinedSample);
		expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
		expect(Object.keys(a.credit ?? {}).sort()).toEqual(Object.keys(b.credit ?? {}).sort());
		expect(Object.keys(a.employment ?? {}).sort()).toEqual(Object.keys(b.employment ?? {}).sort());
	});

	it('flags a missing EPFO part (marker or null part) instead of failing', () => {
		const marked = {
			...combinedSample,
			partial: true,
			missing: ['epfo'],
			data: { ...combinedSample.data, epfo: null },
		};
		const out = normalizeEpfoCredit(marked);
		expect(out).toMatchObject({
			partial: true,
			missing: ['epfo'],
			hasEmployment: false,
			hasCredit: true,
			employment: null,
		});
		expect(out.credit?.score).toBe(742);
		expect(out.member.name).toBe('PRIYA SHARMA');
		const unmarked = normalizeEpfoCredit({ data: { ...combinedReference.data, epfo: {} } });
		expect(unmarked).toMatchObject({
			partial: true,
			missing: ['epfo'],
			employment: null,
			shape: 'reference',
		});
	});

	it('flags a missing credit part', () => {
		const ref = normalizeEpfoCredit({
			success: true,
			partial: true,
			missing: ['credit'],
			data: { epfo: combinedReference.data.epfo, crif: null },
		});
		expect(ref).toMatchObject({
			partial: true,
			missing: ['credit'],
			hasEmployment: true,
			hasCredit: false,
			credit: null,
		});
		expect(ref.employment?.employerCount).toBe(2);
		const smp = normalizeEpfoCredit({ data: { ...combinedSample.data, credit_report: null } });
		expect(smp).toMatchObject({
			shape: 'sample',
			missing: ['credit'],
			credit: null,
			partial: true,
		});
	});

	it('accepts a single RESPONSE object and never throws', () => {
		const single = JSON.parse(JSON.stringify(combinedSample));
		single.data.credit_report.credit_report.RESPONSES.RESPONSE =
			single.data.credit_report.credit_report.RESPONSES.RESPONSE[0];
		expect(normalizeEpfoCredit(single).credit?.accounts).toHaveLength(1);
		for (const body of [undefined, null, {}, { data: null }]) {
			const out = normalizeEpfoCredit(body);
			expect(out.missing).toEqual(['epfo', 'credit']);
			expect(out.employment).toBeNull();
			expect(out.credit).toBeNull();
		}
	});
});
