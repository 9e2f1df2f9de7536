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

describe('EPFO grammar: the exit date', () => {
	const today = new Date().toISOString().slice(0, 10);
	const nextYear = `${new Date().getUTCFullYear() + 1}-01-15`;
	// the current job (NEW CO) with its exit date replaced; `is_current` as given (absent: removed)
	const record = (exit: unknown, isCurrent?: unknown) => {
		const [old, current] = epfo.data.employment_history;
		const { is_current: _, ...rest } = current;
		const job = isCurrent === undefined ? rest : { ...rest, is_current: isCurrent };
		return normalizeEpfo({
			...epfo,
			data: { ...epfo.data, employment_history: [old, { ...job, date_of_exit: exit }] },
		});
	};
	const combined = (exit: unknown) => {
		const [current, old] = combinedReference.data.epfo.employment_history;
		return normalizeEpfoCredit({
			...combinedReference,
			data: {
				...combinedReference.data,
				epfo: {
					...combinedReference.data.epfo,
					employment_history: [{ ...current, date_of_exit: exit }, old],
				},
			},
		}).employment;
	};

	it.each([
		['null', null],
		['"NA"', 'NA'],
		['"na"', 'na'],
		['"N/A"', 'N/A'],
		['"-"', '-'],
		['"--"', '--'],
		['a blank " "', ' '],
		['an empty ""', ''],
		['"00/00/0000"', '00/00/0000'],
		['"00-00-0000"', '00-00-0000'],
		['"0000-00-00"', '0000-00-00'],
	])(
		'date_of_exit %s on a current job -> current (record and both EPFO + credit shapes)',
		(_, exit) => {
			for (const out of [record(exit), record(exit, true)]) {
				expect(out.employers[0]).toMatchObject({
					name: 'NEW CO PVT LTD',
					current: true,
					dateOfExit: null,
				});
				expect(out.currentEmployer).toBe('NEW CO PVT LTD');
				expect(out.totalTenureMonths).toBe(84);
			}
			expect(combined(exit)).toMatchObject({ currentEmployer: 'NEW CO', totalTenureMonths: 84 });
			expect(combined(exit)?.employers[0]).toMatchObject({ current: true, dateOfExit: null });
		},
	);

	it('a valid exit date -> ended on that date', () => {
		const out = record('2024-12-31');
		expect(out.employers[0]).toMatchObject({ current: false, dateOfExit: '2024-12-31' });
		expect(out.currentEmployer).toBeNull();
		expect(record('31/12/2024').employers[0]).toMatchObject({
			current: false,
			dateOfExit: '2024-12-31',
		});
		expect(record(today).employers[0]).toMatchObject({ current: false, dateOfExit: today });
	});

	it.each([
		['unparseable text', 'Dec 2024'],
		['an impossible date', '2024-02-30'],
		['a month 13', '2024-13-01'],
		['a date before joining', '2020-01-01'],
		['a date in the future', nextYear],
		['a number', 20241231],
		['"NULL" (not a documented marker)', 'NULL'],
	])('date_of_exit as %s -> unknown (current null, not ended)', (_, exit) => {
		for (const out of [record(exit), record(exit, true)]) {
			expect(out.employers[0]).toMatchObject({ current: null, dateOfExit: null });
			expect(out.currentEmployer).toBeNull();
		}
		expect(combined(exit)).toMatchObject({ currentEmployer: null });
	});

	it('is_current must agree with the exit date; alone it is taken as sent', () => {
		// ended on a date but said current, or not exited but said not current: a contradiction
		expect(record('2024-12-31', true).employers[0].current).toBeNull();
		expect(record('NA', false).employers[0].current).toBeNull();
		expect(record(null, false).employers[0].current).toBeNull();
		expect(record('2024-12-31', false).employers[0].current).toBe(false);
		expect(record(null, 'Y').employers[0].current).toBe(true);
		expect(record(null, 'maybe').employers[0].current).toBeNull();
	});

	it('an unparseable or future joining date is unknown', () => {
		const joined = (value: unknown) =>
			normalizeEpfo({
				data: {
					employment_history: [
						{
							establishment_name: 'A',
							establishment_id: 'E',
							date_of_joining: value,
							date_of_exit: null,
							tenure_months: 5,
						},
					],
				},
			}).employers[0].dateOfJoining;
		expect(joined('2021-05-01')).toBe('2021-05-01');
		expect(joined('01-05-2021')).toBe('2021-05-01');
		for (const value of ['NA', '2021-02-30', '00/00/0000', nextYear, 'May 2021', 2021])
			expect(joined(value)).toBeNull();
	});
});

describe('EPFO grammar: tenure, amounts, duplicates and contradictions', () => {
	const history = epfo.data.employment_history;
	const withHistory = (list: unknown[], extra: Record<string, unknown> = {}) =>
		normalizeEpfo({ ...epfo, data: { ...epfo.data, employment_history: list, ...extra } });

	it.each([
		['-67', -67],
		['99,999', 99_999],
		['841 (over 70 years)', 841],
		['a fraction', 12.5],
		['text', 'twelve'],
	])('a stated tenure of %s months is unknown, and so is the total', (_, tenure) => {
		const out = withHistory([history[0], { ...history[1], tenure_months: tenure }]);
		expect(out.employers[0].tenureMonths).toBeNull();
		expect(out.totalTenureMonths).toBeNull();
	});

	it('a stated tenure must fit the dates: an ended job within a month, a current one not beyond the time since joining', () => {
		// OLD CO: 2018-01-10 to 2021-03-31 is 38 whole months; 37 and 39 fit, 30 and 45 do not
		for (const months of [37, 38, 39])
			expect(
				withHistory([{ ...history[0], tenure_months: months }]).employers[0].tenureMonths,
			).toBe(months);
		for (const months of [30, 45])
			expect(
				withHistory([{ ...history[0], tenure_months: months }]).employers[0].tenureMonths,
			).toBeNull();
		// NEW CO joined 2021-05-01 and is current: 46 months (an older answer) fits, 840 does not
		expect(
			withHistory([{ ...history[1], tenure_months: 840 }]).employers[0].tenureMonths,
		).toBeNull();
		expect(withHistory([history[1]]).employers[0].tenureMonths).toBe(46);
	});

	it('the same employer listed twice (establishment id and joining date) counts once', () => {
		const out = withHistory([history[0], history[1], { ...history[1] }]);
		expect(out).toMatchObject({
			employerCount: 2,
			totalTenureMonths: 84,
			currentEmployer: 'NEW CO PVT LTD',
		});
		expect(out.employers).toHaveLength(2);
		// one copy sends the joining date in another layout: still one employer
		const other = { ...history[1], date_of_joining: '01-05-2021' };
		expect(withHistory([history[0], history[1], other]).employerCount).toBe(2);
	});

	it('two copies of one employer that disagree make the history unknown', () => {
		const out = withHistory([history[0], history[1], { ...history[1], tenure_months: 20 }]);
		expect(out).toMatchObject({
			employerCount: null,
			totalTenureMonths: null,
			currentEmployer: null,
		});
	});

	it('a deep-equal copy of an employer without identity is unknown', () => {
		const anonymous = {
			establishment_name: 'X',
			date_of_joining: '2016-01-01',
			date_of_exit: '2017-01-01',
			tenure_months: 12,
		};
		expect(withHistory([anonymous, { ...anonymous }]).employerCount).toBeNull();
		// two different anonymous employers are two
		expect(withHistory([anonymous, { ...anonymous, establishment_name: 'Y' }]).employerCount).toBe(
			2,
		);
	});

	it('a declared employer count that disagrees with the list is unknown', () => {
		const reference = (total: unknown) =>
			normalizeEpfoCredit({
				...combinedReference,
				data: {
					...combinedReference.data,
					epfo: { ...combinedReference.data.epfo, total_employers: total },
				},
			}).employment?.employerCount;
		expect(reference(2)).toBe(2);
		expect(reference(3)).toBeNull();
		expect(reference(-1)).toBeNull();
		expect(reference('two')).toBeNull();
		expect(withHistory(history, { total_employers: 2 }).employerCount).toBe(2);
		expect(withHistory(history, { total_employers: 5 }).employerCount).toBeNull();
	});

	it('a declared contribution total that disagrees with its shares is unknown', () => {
		const summary = epfo.data.contribution_summary;
		const total = (s: Record<string, unknown>) =>
			normalizeEpfo({ ...epfo, data: { ...epfo.data, contribution_summary: { ...summary, ...s } } })
				.contributions.total;
		expect(total({})).toBe(7200);
		expect(total({ total_contribution: 7201 })).toBe(7201);
		expect(total({ total_contribution: 9000 })).toBeNull();
		expect(total({ total_contribution: -7200 })).toBeNull();
	});

	it.each([
		['negative', -1800],
		['beyond 1e13', 1e21],
	])('wages and contributions that are %s are unknown', (_, value) => {
		const summary = epfo.data.contribution_summary;
		const out = normalizeEpfo({
			...epfo,
			data: {
				...epfo.data,
				contribution_summary: {
					...summary,
					total_employee_share: value,
					average_monthly_wage: value,
					months_contributed: value,
				},
				passbook: epfo.data.passbook.map((p) => ({ ...p, wages: value, employee_share: value })),
			},
		});
		expect(out.contributions).toMatchObject({
			employeeShare: null,
			averageMonthlyWage: null,
			monthsContributed: null,
			latestMonthlyWage: null,
		});
		expect(out.passbookTotals).toMatchObject({ employeeShare: null, total: null });
		expect(out.passbook[0]).toMatchObject({ wages: null, employeeShare: null });
	});

	it('a passbook month repeated for one establishment counts once if equal, unknown if not', () => {
		const [feb, mar] = epfo.data.passbook;
		const book = (list: unknown[]) =>
			normalizeEpfo({ ...epfo, data: { ...epfo.data, passbook: list } });
		const repeated = book([feb, mar, { ...mar }]);
		expect(repeated.passbookTotals).toMatchObject({ entries: 2, employeeShare: 3600, total: 7200 });
		expect(repeated.contributions.latestMonthlyWage).toBe(15000);
		const disagreeing = book([feb, mar, { ...mar, wages: 30000 }]);
		expect(disagreeing.passbookTotals).toMatchObject({ entries: null, total: null, toMonth: null });
		expect(disagreeing.contributions.latestMonthlyWage).toBeNull();
		// the same month at another establishment is another entry (a second job)
		expect(
			book([feb, mar, { ...mar, establishment_id: 'OTHER' }]).contributions.latestMonthlyWage,
		).toBe(30000);
		// a passbook naming no establishment: a month is its identity
		const monthOnly = { wage_month: '2025-03', wages: 15000 };
		expect(book([monthOnly, { ...monthOnly }]).passbookTotals.entries).toBe(1);
		expect(book([monthOnly, { ...monthOnly, wages: 1 }]).passbookTotals.entries).toBeNull();
		// an entry whose month or establishment is unknown may repeat another: the totals are unknown
		const { establishment_id: _, ...noEstablishment } = mar;
		for (const unplaced of [noEstablishment, { ...mar, wage_month: 'March' }]) {
			const out = book([feb, mar, unplaced]);
			expect(out.passbookTotals).toMatchObject({ entries: null, total: null });
			expect(out.contributions.latestMonthlyWage).toBeNull();
		}
	});

	it('a wage month that is not a month (or in the future) is unknown', () => {
		const [feb] = epfo.data.passbook;
		const month = (value: unknown) =>
			normalizeEpfo({ data: { passbook: [{ ...feb, wage_month: value }] } }).passbook[0].month;
		expect(month('2025-02')).toBe('2025-02');
		expect(month('2025-13')).toBeNull();
		expect(month(`${new Date().getUTCFullYear() + 1}-01`)).toBeNull();
	});
});
