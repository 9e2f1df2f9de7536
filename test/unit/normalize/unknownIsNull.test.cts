/**
 * Unknown is null, never the clean value (credit reports and EPFO): the tolerant readers of the
 * layouts the specification leaves open (payment / days-past-due histories, bureau scores), and the
 * rules of the aggregates built on them (lowest score, worst days past due, totals, tenure, wage).
 * Hand-written bodies, not the sandbox's.
 */
import {
	accountDaysPastDue,
	knownDelinquency,
	monthOf,
	paymentStatuses,
	readDaysPastDue,
	readScore,
	sumAll,
} from '../../../nodes/FinVerify/helpers/normalize/common';
import {
	COMMERCIAL_REQUIRED,
	MULTI_BUREAU_REQUIRED,
	normalizeMultiBureau,
} from '../../../nodes/FinVerify/helpers/normalize/creditReport';
import {
	EPFO_CREDIT_REQUIRED,
	EPFO_REQUIRED,
	normalizeEpfo,
	normalizeEpfoCredit,
} from '../../../nodes/FinVerify/helpers/normalize/employment';
import { missingField } from '../../../nodes/FinVerify/transport';

describe('readDaysPastDue: every payment-history layout', () => {
	it.each<[string, unknown]>([
		['pipes (reference shape)', '000|030|XXX|000'],
		['CRIF month strings', '03:2025,STD/XXX|02:2025,030/SMA|01:2025,XXX/XXX|12:2024,000/STD'],
		['CIBIL run-together', '000030XXX000'],
		['commas', '0,30,XXX,0'],
		['spaces', '0 30 XXX 0'],
		['numbers', [0, 30, 0]],
		['codes', ['STD', '030', 'XXX', '000']],
		['objects: dpd', [{ dpd: 0 }, { dpd: '30' }, { dpd: 0 }]],
		['objects: DPD', [{ DPD: '000' }, { DPD: '030' }, { DPD: '000' }]],
		['objects: days_past_due', [{ days_past_due: 0 }, { days_past_due: 30 }, { days_past_due: 0 }]],
		['objects: daysPastDue', [{ daysPastDue: 0 }, { daysPastDue: 30 }, { daysPastDue: 0 }]],
		[
			'Equifax History48Months',
			[
				{ key: '03-25', PaymentStatus: '000' },
				{ key: '02-25', PaymentStatus: '030' },
				{ key: '01-25', PaymentStatus: '000' },
			],
		],
		[
			'Experian CAIS history, oldest first',
			[
				{ Year: '2025', Month: '01', Days_Past_Due: 0 },
				{ Year: '2025', Month: '02', Days_Past_Due: 30 },
				{ Year: '2025', Month: '03', Days_Past_Due: 0 },
			],
		],
		['a month map', { '2025-01': '000', '2025-03': 0, '2025-02': '030' }],
		['a month map, MM-YYYY keys', { '01-2025': 0, '03-2025': 0, '02-2025': 30 }],
		['a wrapped history', { history: '000|030|000' }],
	])('%s: a 30-days-past-due month is read as 30', (_, value) => {
		const days = readDaysPastDue(value);
		expect(days).not.toBeNull();
		expect(Math.max(...(days as number[]))).toBe(30);
		expect((days as number[]).filter((d) => d > 0)).toEqual([30]);
	});

	it('orders dated months newest first', () => {
		expect(
			readDaysPastDue([
				{ Year: '2024', Month: '12', Days_Past_Due: 90 },
				{ Year: '2025', Month: '03', Days_Past_Due: 0 },
				{ Year: '2025', Month: '01', Days_Past_Due: 30 },
			]),
		).toEqual([0, 30, 90]);
		expect(readDaysPastDue({ 'Jan 25': 30, 'Mar 25': 0, 'Feb 25': 60 })).toEqual([0, 60, 30]);
	});

	it.each<[string, unknown]>([
		['missing', undefined],
		['null', null],
		['an empty string', ''],
		['a month without a value', [{ dpd: 0 }, { dpd: null }]],
		['a null month', [0, null, 0]],
		['a code outside the grammar', '000|ABC|000'],
		['an object without a history', { something: 'else' }],
		['a negative number', [-5]],
	])('%s: unknown (null), never read as clean', (_, value) => {
		expect(readDaysPastDue(value)).toBeNull();
	});

	it('leaves out months not reported (XXX) and keeps an all-clean history as zeros', () => {
		expect(readDaysPastDue('XXX|000|XXX')).toEqual([0]);
		expect(readDaysPastDue('STD|STD')).toEqual([0, 0]);
	});

	it('finds an account history under any of the layouts names', () => {
		for (const account of [
			{ paymentHistory: '000030' },
			{ payment_history: '000|030' },
			{ 'COMBINED-PAYMENT-HISTORY': '02:2025,030/XXX|01:2025,000/XXX' },
			{ History48Months: [{ PaymentStatus: '030' }] },
			{ CAIS_Account_History: [{ Days_Past_Due: 30 }] },
			{ dpd: '0|30' },
		])
			expect(Math.max(...(accountDaysPastDue(account) ?? [-1]))).toBe(30);
		expect(accountDaysPastDue({ account_number: 'X1' })).toBeNull();
	});

	it('paymentStatuses keeps the codes of every string layout in one form', () => {
		expect(paymentStatuses('0,30,0')).toEqual(['000', '030', '000']);
		expect(paymentStatuses('03:2025,STD/XXX|02:2025,030/XXX')).toEqual(['000', '030']);
		expect(paymentStatuses('000030')).toEqual(['000', '030']);
	});

	it.each([
		['2025-03', '2025-03'],
		['2025-03-31', '2025-03'],
		['03-2025', '2025-03'],
		['03:2025', '2025-03'],
		['03-25', '2025-03'],
		['Mar-2025', '2025-03'],
		['mar 25', '2025-03'],
		['March', null],
	])('monthOf(%s) is %s', (label, month) => {
		expect(monthOf(label)).toBe(month);
	});
});

describe('aggregates: an unknown input makes the aggregate unknown', () => {
	it('knownDelinquency: one account without a readable history makes the worst unknown', () => {
		expect(knownDelinquency([[0, 30], [0]])).toEqual({ maxDaysPastDue: 30, delinquentMonths: 1 });
		expect(knownDelinquency([[0, 30], null])).toEqual({
			maxDaysPastDue: null,
			delinquentMonths: null,
		});
		// no history at all is unknown, not 0
		expect(knownDelinquency([])).toEqual({ maxDaysPastDue: null, delinquentMonths: null });
		// an account whose history has no reported month (an empty list, all XXX) is unknown too
		for (const empty of [readDaysPastDue([]), readDaysPastDue('XXX|XXX')])
			expect(knownDelinquency([[0, 30], empty]).maxDaysPastDue).toBeNull();
	});

	it('sumAll: null when any value is null, or there are none', () => {
		expect(sumAll([1, 2, 3])).toBe(6);
		expect(sumAll([1, null, 3])).toBeNull();
		expect(sumAll([])).toBeNull();
	});
});

describe('readScore: special values kept apart', () => {
	it.each<[unknown, number | null, string | null, number | null]>([
		[742, 742, 'score', null],
		['742', 742, 'score', null],
		['00742', 742, 'score', null],
		[300, 300, 'score', null],
		[900, 900, 'score', null],
		[-1, null, 'noHistory', -1],
		['000-1', null, 'noHistory', -1],
		['-1', null, 'noHistory', -1],
		[0, null, 'new', 0],
		['00000', null, 'new', 0],
		[3, null, 'new', 3],
		[5, null, 'new', 5],
		[250, null, null, null],
		[999, null, null, null],
		['NH', null, null, null],
		[null, null, null, null],
	])('%p → score %p, kind %p, special %p', (value, score, scoreKind, specialScore) => {
		expect(readScore(value)).toEqual({ score, scoreKind, specialScore });
	});
});

describe('Credit Report → Get Multi-Bureau Report: lowest score', () => {
	const reference = (entries: Record<string, unknown>) => ({
		status: 'success',
		request_id: 'req_1',
		data: entries,
	});
	const scored = (score: unknown) => ({
		score,
		report: { pan: 'ABCDE1234F', accounts: [{}], payment_history: [{ history: '000|000' }] },
	});

	it('a bureau that reports success without a score does not drop out: 749 never becomes 758', () => {
		const body = reference({
			cibil: scored(749),
			crif: scored(758),
			experian: { success: true, report: { pan: 'ABCDE1234F' } },
		});
		const out = normalizeMultiBureau(body, ['cibil', 'crif', 'experian']);
		expect(out.lowestScore).toBeNull();
		expect(out.highestScore).toBeNull();
		expect(out.coverage).toEqual({
			bureaus: 3,
			scored: 2,
			special: 0,
			unknown: 1,
			complete: false,
		});
		expect(out.scores).toEqual({ cibil: 749, crif: 758, experian: null });
		expect(out.bureaus[2].missing).toContain('score');
		// all three scored: the lowest is known
		const all = normalizeMultiBureau(
			reference({ cibil: scored(749), crif: scored(758), experian: scored(761) }),
			['cibil', 'crif', 'experian'],
		);
		expect(all).toMatchObject({ lowestScore: 749, highestScore: 761 });
		expect(all.coverage.complete).toBe(true);
	});

	it('a failed or left-out bureau makes the lowest unknown too', () => {
		const failed = normalizeMultiBureau(
			reference({ cibil: scored(749), crif: { success: false, message: 'Bureau down' } }),
			['cibil', 'crif', 'experian'],
		);
		expect(failed.lowestScore).toBeNull();
		expect(failed.coverage).toMatchObject({ bureaus: 3, scored: 1, unknown: 2, complete: false });
	});

	it.each([
		[-1, 'noHistory'],
		['000-1', 'noHistory'],
		[0, 'new'],
		[1, 'new'],
		[5, 'new'],
	])('CIBIL %p (%s) never becomes the lowest score', (special, kind) => {
		const out = normalizeMultiBureau(reference({ cibil: scored(special), crif: scored(702) }), [
			'cibil',
			'crif',
		]);
		expect(out.bureaus[0]).toMatchObject({ score: null, scoreKind: kind });
		expect(out.scores.cibil).toBeNull();
		expect(out.scoreKinds).toEqual({ cibil: kind, crif: 'score' });
		// a thin file is a known fact: the lowest over the bureaus that score is known
		expect(out.lowestScore).toBe(702);
		expect(out.coverage).toEqual({ bureaus: 2, scored: 1, special: 1, unknown: 0, complete: true });
	});

	it('the sample shape: a special value sent as text is kept apart as well', () => {
		const out = normalizeMultiBureau(
			{
				success: true,
				pan: 'ABCDE1234F',
				results: {
					cibil: { success: true, data: { credit_score: '-1', credit_report: {} } },
					crif: { success: true, data: { credit_score: '731', credit_report: {} } },
				},
			},
			['cibil', 'crif'],
		);
		expect(out.scoreKinds).toEqual({ cibil: 'noHistory', crif: 'score' });
		expect(out.lowestScore).toBe(731);
	});

	it('a missing DPD history is unknown, not 0, and the bureau says so', () => {
		const out = normalizeMultiBureau(
			reference({
				cibil: {
					score: 742,
					report: {
						pan: 'ABCDE1234F',
						accounts: [{ account_number: 'X1' }, { account_number: 'X2' }],
						payment_history: [{ history: '000|030' }, { account_number: 'X2' }],
					},
				},
			}),
			['cibil'],
		);
		expect(out.bureaus[0]).toMatchObject({
			maxDaysPastDue: null,
			delinquentMonths: null,
			missing: ['paymentHistory'],
		});
	});

	it('CRIF states the length of credit history', () => {
		const out = normalizeMultiBureau(
			{
				success: true,
				results: {
					crif: {
						success: true,
						data: {
							credit_score: '731',
							credit_report: {
								'ACCOUNTS-SUMMARY': {
									'DERIVED-ATTRIBUTES': {
										'LENGTH-OF-CREDIT-HISTORY-YEAR': '6',
										'LENGTH-OF-CREDIT-HISTORY-MONTH': '4',
									},
								},
							},
						},
					},
				},
			},
			['crif'],
		);
		expect(out.bureaus[0].lengthOfHistoryMonths).toBe(76);
	});

	it('an answer that names no PAN and no bureau result is not about anyone (the transport fails it)', () => {
		for (const body of [{}, { data: null }, { status: 'success', data: {} }, { results: {} }])
			expect(missingField(body, MULTI_BUREAU_REQUIRED)).toBe(
				'pan or results or data.equifax or data.experian or data.cibil or data.crif',
			);
		expect(missingField(reference({ cibil: scored(742) }), MULTI_BUREAU_REQUIRED)).toBeUndefined();
		// a no-hit answer (a bureau's message, no report) still answers for the bureau
		expect(
			missingField(
				reference({ cibil: { score: null, report: null, message: 'No record' } }),
				MULTI_BUREAU_REQUIRED,
			),
		).toBeUndefined();
		expect(missingField({ pan: 'ABCDE1234F', results: {} }, MULTI_BUREAU_REQUIRED)).toBeUndefined();
	});

	it('a commercial report answer without PAN, name or report is not about any business', () => {
		for (const body of [{}, { data: null }, { status: 'success', data: { report_type: 'html' } }])
			expect(missingField(body, COMMERCIAL_REQUIRED)).toBe(
				'data.pan or data.business_name or data.report or data.report_url',
			);
		expect(missingField({ data: { pan: 'AAACA1234B' } }, COMMERCIAL_REQUIRED)).toBeUndefined();
	});
});

describe('Employment → Get EPFO Record: totals, wage and tenure', () => {
	const body = {
		success: true,
		data: {
			mobile_number: '9876543210',
			uan: '101234567890',
			member_profile: { name: 'PRIYA SHARMA' },
			employment_history: [
				{
					establishment_name: 'NEW CO',
					date_of_joining: '2022-04-01',
					date_of_exit: null,
					tenure_months: 36,
				},
				{
					establishment_name: 'OLD CO',
					date_of_joining: '2019-01-01',
					date_of_exit: '2022-03-01',
					tenure_months: 38,
				},
			],
			contribution_summary: { total_contribution: 250000, months_contributed: 74 },
			passbook: [
				{ wage_month: '2025-02', wages: 15000, employee_share: 1800 },
				{ wage_month: '2025-03', wages: 15000, employee_share: 1800 },
			],
		},
	};

	it('totalContribution is the service total only: never a sum over the passbook', () => {
		const out = normalizeEpfo(body);
		expect(out.contributions.total).toBe(250000);
		const { contribution_summary: _omit, ...data } = body.data;
		const without = normalizeEpfo({ ...body, data });
		expect(without.contributions.total).toBeNull();
		// the passbook's own sums keep their own name and say which months they cover
		expect(without.passbookTotals).toMatchObject({
			entries: 2,
			fromMonth: '2025-02',
			toMonth: '2025-03',
			employeeShare: 3600,
		});
	});

	it('the monthly wage is the newest passbook month (with or without Include Passbook)', () => {
		const out = normalizeEpfo(body);
		expect(out.contributions).toMatchObject({
			latestMonthlyWage: 15000,
			latestWageMonth: '2025-03',
		});
		const unknownWage = structuredClone(body);
		delete (unknownWage.data.passbook[1] as { wages?: number }).wages;
		expect(normalizeEpfo(unknownWage).contributions.latestMonthlyWage).toBeNull();
	});

	it('tenure: an employer without its stated tenure makes the total unknown', () => {
		expect(normalizeEpfo(body).totalTenureMonths).toBe(74);
		const drifted = structuredClone(body);
		delete (drifted.data.employment_history[1] as { tenure_months?: number }).tenure_months;
		expect(normalizeEpfo(drifted).totalTenureMonths).toBeNull();
	});

	it('overlapping employments (an exit date not sent) make the total tenure unknown', () => {
		const drifted = structuredClone(body);
		drifted.data.employment_history[1].date_of_exit = null;
		const out = normalizeEpfo(drifted);
		expect(out.totalTenureMonths).toBeNull();
		// the newest current job is still the current employer
		expect(out.currentEmployer).toBe('NEW CO');
	});

	it('an employer entry that says nothing makes the current employer unknown', () => {
		const drifted = structuredClone(body) as { data: { employment_history: unknown[] } };
		drifted.data.employment_history[0] = { success: false };
		expect(normalizeEpfo(drifted).currentEmployer).toBeNull();
	});

	it('employerCount: null without a history, or with an empty one next to a UAN', () => {
		const { employment_history: _omit, ...data } = body.data;
		expect(normalizeEpfo({ data }).employerCount).toBeNull();
		expect(normalizeEpfo({ data: { ...data, employment_history: [] } }).employerCount).toBeNull();
		expect(normalizeEpfo(body).employerCount).toBe(2);
	});

	it('keeps the mobile number that was sent when the answer does not echo it', () => {
		const { mobile_number: _omit, ...data } = body.data;
		expect(normalizeEpfo({ data }, '9123456780').mobileNumber).toBe('9123456780');
		expect(normalizeEpfo(body, '9123456780').mobileNumber).toBe('9876543210');
	});

	it('an answer without UAN, member or employment is not about a member (the transport fails it)', () => {
		for (const empty of [
			{},
			{ data: null },
			{ success: true, data: {} },
			{ success: true, data: { mobile_number: '9876543210', member_profile: {} } },
		])
			expect(missingField(empty, EPFO_REQUIRED)).toBe(
				'data.uan or data.member_profile or data.employment_history',
			);
		expect(missingField(body, EPFO_REQUIRED)).toBeUndefined();
	});
});

describe('Employment → Get EPFO Record with Credit Report: partial and empty answers', () => {
	it('the partial answer keeps the mobile number that was sent', () => {
		const out = normalizeEpfoCredit(
			{
				success: true,
				partial: true,
				missing: ['epfo'],
				data: { epfo: null, crif: { credit_score: 742, accounts: [] } },
			},
			'9876543210',
		);
		expect(out).toMatchObject({ partial: true, missing: ['epfo'], mobileNumber: '9876543210' });
	});

	it('an answer with neither part is not about anyone (the transport fails it)', () => {
		for (const empty of [
			{},
			{ data: null },
			{ success: true, data: { epfo: null, crif: null } },
			{ success: true, data: { doc_id: 'doc_1', epfo: {}, credit_report: null } },
		])
			expect(missingField(empty, EPFO_CREDIT_REQUIRED)).toBe(
				'data.epfo or data.crif or data.credit_report or data.credit',
			);
		expect(
			missingField({ data: { epfo: null, crif: { credit_score: 742 } } }, EPFO_CREDIT_REQUIRED),
		).toBeUndefined();
	});

	it('a CIBIL-style special credit score is kept apart', () => {
		const out = normalizeEpfoCredit({
			data: { epfo: { uan: '101234567890' }, crif: { credit_score: -1, accounts: [] } },
		});
		expect(out.credit).toMatchObject({ score: null, scoreKind: 'noHistory', specialScore: -1 });
	});

	it('totals: a summary figure the layout has but the answer left out is unknown, not recounted', () => {
		const crif = {
			credit_score: 742,
			total_accounts: 2,
			active_accounts: 1,
			total_outstanding: 300000,
			accounts: [
				{ account_status: 'ACTIVE', outstanding_amount: 300000, overdue_amount: 0, dpd: '000' },
				{ account_status: 'Closed', outstanding_amount: 0, overdue_amount: 0, dpd: '000' },
			],
		};
		const out = normalizeEpfoCredit({ data: { epfo: { uan: '1' }, crif } });
		expect(out.credit).toMatchObject({ totalAccounts: 2, activeAccounts: 1, totalOverdue: 0 });
		const { total_accounts: _omit, ...drifted } = crif;
		expect(
			normalizeEpfoCredit({ data: { epfo: { uan: '1' }, crif: drifted } }).credit,
		).toMatchObject({ totalAccounts: null, activeAccounts: 1 });
		// one account without its overdue amount: the total overdue is unknown
		const noOverdue = structuredClone(crif);
		delete (noOverdue.accounts[1] as { overdue_amount?: number }).overdue_amount;
		expect(
			normalizeEpfoCredit({ data: { epfo: { uan: '1' }, crif: noOverdue } }).credit?.totalOverdue,
		).toBeNull();
		// statuses in lower case, whatever the service's case
		expect(out.credit?.accounts.map((a) => a.status)).toEqual(['active', 'closed']);
	});
});
