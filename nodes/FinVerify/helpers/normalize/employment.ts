import type { IDataObject } from 'n8n-workflow';

import type { Shape } from './common';
import {
	asArray,
	asObject,
	delinquencyOf,
	first,
	isObject,
	normalizePaymentHistory,
	parseDaysPastDue,
	sumPresent,
	toBoolean,
	todayIsoDate,
	toIsoDate,
	toIsoMonth,
	toLowerText,
	toNumber,
	toText,
	toUpperText,
	unwrap,
} from './common';

/**
 * EPFO normalizers (operations epfoFetch and epfoCrifFetch). Pure and tolerant: any field may be
 * missing, in which case the simplified field is null (or an empty list); nothing here throws.
 */

/** "M", "Male", "male" → "male"; "F", "Female" → "female"; anything else is kept lowercased. */
export function toGender(value: unknown): string | null {
	const text = toLowerText(value);
	if (text === 'm' || text === 'male') return 'male';
	if (text === 'f' || text === 'female') return 'female';
	return text;
}

/**
 * Whole months from one ISO date to another (null unless both are dates and the order is right).
 */
export function monthsBetween(from: string | null, to: string | null): number | null {
	if (!from || !to) return null;
	const a = /^(\d{4})-(\d{2})-(\d{2})$/.exec(from);
	const b = /^(\d{4})-(\d{2})-(\d{2})$/.exec(to);
	if (!a || !b) return null;
	let months = (Number(b[1]) - Number(a[1])) * 12 + (Number(b[2]) - Number(a[2]));
	if (Number(b[3]) < Number(a[3])) months -= 1;
	return months >= 0 ? months : null;
}

export interface Employer extends IDataObject {
	name: string | null;
	establishmentId: string | null;
	/** PF member ID / PF account number with this employer. */
	memberId: string | null;
	dateOfJoining: string | null;
	dateOfExit: string | null;
	/** True while there is no exit date. */
	current: boolean;
	tenureMonths: number | null;
	/** Employee and employer PF shares with this employer, INR, when the response carries them. */
	employeeShare: number | null;
	employerShare: number | null;
}

function employers(list: unknown): Employer[] {
	return asArray(list).map((raw) => {
		const e = asObject(raw);
		const dateOfJoining = toIsoDate(first(e.date_of_joining, e.doj, e.joining_date));
		const dateOfExit = toIsoDate(first(e.date_of_exit, e.doe, e.exit_date));
		const declaredCurrent = toBoolean(e.is_current);
		const current = declaredCurrent ?? dateOfExit === null;
		return {
			name: toText(first(e.establishment_name, e.employer_name, e.company_name, e.name)),
			establishmentId: toUpperText(e.establishment_id),
			memberId: toUpperText(first(e.member_id, e.pf_account_number)),
			dateOfJoining,
			dateOfExit,
			current,
			// a current job (no exit date) runs up to today
			tenureMonths:
				toNumber(first(e.tenure_months, e.service_duration_months, e.tenure)) ??
				monthsBetween(dateOfJoining, dateOfExit ?? (current ? todayIsoDate() : null)),
			employeeShare: toNumber(e.employee_share),
			employerShare: toNumber(e.employer_share),
		};
	});
}

/** Newest employment first (by joining date; undated entries keep their order at the end). */
const newestFirst = (list: Employer[]) =>
	[...list].sort((a, b) => (b.dateOfJoining ?? '').localeCompare(a.dateOfJoining ?? ''));

function currentEmployerOf(list: Employer[]): string | null {
	return newestFirst(list).find((e) => e.current)?.name ?? null;
}

// ---------------------------------------------------------------- Get EPFO Record (epfoFetch)

export interface PassbookEntry extends IDataObject {
	/** Wage month, YYYY-MM. */
	month: string | null;
	establishmentId: string | null;
	memberId: string | null;
	wages: number | null;
	employeeShare: number | null;
	employerShare: number | null;
	pensionShare: number | null;
	type: string | null;
}

export interface ContributionTotals extends IDataObject {
	employeeShare: number | null;
	employerShare: number | null;
	pensionShare: number | null;
	total: number | null;
	monthsContributed: number | null;
	lastContributionMonth: string | null;
	averageMonthlyWage: number | null;
}

export interface EpfoMember extends IDataObject {
	name: string | null;
	fatherOrHusbandName: string | null;
	dateOfBirth: string | null;
	gender: string | null;
	email: string | null;
	panLinked: boolean | null;
	aadhaarLinked: boolean | null;
	kycVerified: boolean | null;
}

export interface EpfoSummary extends IDataObject {
	success: boolean;
	message: string | null;
	mobileNumber: string | null;
	uan: string | null;
	member: EpfoMember;
	currentEmployer: string | null;
	employerCount: number;
	totalTenureMonths: number | null;
	/** Newest employment first. */
	employers: Employer[];
	contributions: ContributionTotals;
	/** Period-wise passbook entries, newest first. */
	passbook: PassbookEntry[];
}

function passbookEntries(list: unknown): PassbookEntry[] {
	return asArray(list)
		.map((raw) => {
			const p = asObject(raw);
			return {
				month:
					toIsoMonth(first(p.wage_month, p.month, p.period, p.date)) ??
					toIsoMonth(toIsoDate(first(p.date, p.period))),
				establishmentId: toUpperText(p.establishment_id),
				memberId: toUpperText(p.member_id),
				wages: toNumber(first(p.wages, p.wage)),
				employeeShare: toNumber(p.employee_share),
				employerShare: toNumber(p.employer_share),
				pensionShare: toNumber(p.pension_share),
				type: toText(first(p.transaction_type, p.type)),
			};
		})
		.sort((a, b) => (b.month ?? '').localeCompare(a.month ?? ''));
}

/**
 * Get EPFO Record (operation epfoFetch). Contribution totals fall back to sums over the passbook.
 */
export function normalizeEpfo(body: unknown): EpfoSummary {
	const object = asObject(body);
	const data = unwrap(object);
	const profile = asObject(first(data.member_profile, data.profile));
	const summary = asObject(data.contribution_summary);
	const jobs = newestFirst(employers(data.employment_history));
	const passbook = passbookEntries(data.passbook);
	const employeeShare =
		toNumber(summary.total_employee_share) ?? sumPresent(passbook.map((p) => p.employeeShare));
	const employerShare =
		toNumber(summary.total_employer_share) ?? sumPresent(passbook.map((p) => p.employerShare));
	const pensionShare =
		toNumber(summary.total_pension_share) ?? sumPresent(passbook.map((p) => p.pensionShare));
	return {
		success: toBoolean(object.success) ?? true,
		message: toText(object.message),
		mobileNumber: toText(first(data.mobile_number, data.mobile)),
		uan: toText(first(data.uan, profile.uan)),
		member: {
			name: toText(first(profile.name, profile.member_name, profile.full_name)),
			fatherOrHusbandName: toText(first(profile.father_or_husband_name, profile.father_name)),
			dateOfBirth: toIsoDate(first(profile.date_of_birth, profile.dob)),
			gender: toGender(profile.gender),
			email: toText(profile.email),
			panLinked: toBoolean(profile.pan_linked),
			aadhaarLinked: toBoolean(profile.aadhaar_linked),
			kycVerified: toBoolean(profile.kyc_verified),
		},
		currentEmployer: currentEmployerOf(jobs),
		employerCount: jobs.length,
		totalTenureMonths: sumPresent(jobs.map((j) => j.tenureMonths)),
		employers: jobs,
		contributions: {
			employeeShare,
			employerShare,
			pensionShare,
			total:
				toNumber(summary.total_contribution) ??
				sumPresent([employeeShare, employerShare, pensionShare]),
			monthsContributed: toNumber(summary.months_contributed),
			lastContributionMonth:
				toIsoMonth(summary.last_contribution_month) ?? passbook[0]?.month ?? null,
			averageMonthlyWage: toNumber(summary.average_monthly_wage),
		},
		passbook,
	};
}

// ------------------------------------------------------- with Credit Report (epfoCrifFetch)

export type MissingPart = 'epfo' | 'credit';

export interface CreditAccount extends IDataObject {
	type: string | null;
	lender: string | null;
	accountNumber: string | null;
	status: string | null;
	openDate: string | null;
	closeDate: string | null;
	sanctionedAmount: number | null;
	outstandingAmount: number | null;
	emiAmount: number | null;
	overdueAmount: number | null;
	/** Monthly payment statuses, newest first, in one form for both shapes: `000|030|XXX`. */
	paymentHistory: string | null;
	/** Worst days past due in the account's last 12 reported months. */
	maxDaysPastDue: number | null;
}

export interface CreditSummary extends IDataObject {
	score: number | null;
	scoreVersion: string | null;
	reportDate: string | null;
	reportId: string | null;
	totalAccounts: number | null;
	activeAccounts: number | null;
	closedAccounts: number | null;
	overdueAccounts: number | null;
	totalOutstanding: number | null;
	totalSanctioned: number | null;
	totalOverdue: number | null;
	/** Worst days past due over all accounts in the last 12 reported months. */
	maxDaysPastDue: number | null;
	/** Account-months with any days past due in the last 12 reported months. */
	delinquentMonths: number | null;
	enquiriesLast30Days: number | null;
	enquiriesLast6Months: number | null;
	accounts: CreditAccount[];
}

export interface CombinedMember extends IDataObject {
	name: string | null;
	dateOfBirth: string | null;
	gender: string | null;
	pan: string | null;
	mobile: string | null;
	kycVerified: boolean | null;
	/** Declared annual income, INR (sample-shape prefill only). */
	totalIncome: number | null;
	occupation: string | null;
	age: number | null;
}

export interface EmploymentPart extends IDataObject {
	uan: string | null;
	uanSource: string | null;
	employerCount: number;
	currentEmployer: string | null;
	totalTenureMonths: number | null;
	employers: Employer[];
}

export interface EpfoCreditSummary extends IDataObject {
	shape: Shape;
	success: boolean;
	message: string | null;
	requestId: string | null;
	mobileNumber: string | null;
	/** True when the service answered with only one of the two parts. */
	partial: boolean;
	/** Which parts are missing: "epfo", "credit", both or none. */
	missing: MissingPart[];
	hasEmployment: boolean;
	hasCredit: boolean;
	member: CombinedMember;
	/** Null when the EPFO part is missing. */
	employment: EmploymentPart | null;
	/** Null when the credit part is missing. */
	credit: CreditSummary | null;
}

const isEmpty = (value: unknown) =>
	value === undefined ||
	value === null ||
	value === '' ||
	(Array.isArray(value) && value.length === 0) ||
	(isObject(value) && Object.keys(value).length === 0);

function declaredMissing(...sources: IDataObject[]): MissingPart[] {
	const out: MissingPart[] = [];
	for (const source of sources) {
		for (const raw of asArray<unknown>(source.missing)) {
			const part = toText(raw)?.toLowerCase();
			if (part === 'epfo' || part === 'employment') out.push('epfo');
			else if (
				part === 'credit' ||
				part === 'crif' ||
				part === 'credit_report' ||
				part === 'bureau'
			)
				out.push('credit');
		}
	}
	return out;
}

/**
 * Account counts and amounts: the report's own summary where it has one, else derived from the
 * listed accounts (so both shapes give the same totals for the same accounts).
 */
function accountTotals(
	accounts: CreditAccount[],
	declared: Record<
		'total' | 'active' | 'closed' | 'overdue' | 'outstanding' | 'sanctioned' | 'overdueAmount',
		number | null
	>,
): Pick<
	CreditSummary,
	| 'totalAccounts'
	| 'activeAccounts'
	| 'closedAccounts'
	| 'overdueAccounts'
	| 'totalOutstanding'
	| 'totalSanctioned'
	| 'totalOverdue'
> {
	const listed = accounts.length > 0;
	const statusOf = (a: CreditAccount) => a.status?.toLowerCase() ?? '';
	const total = declared.total ?? (listed ? accounts.length : null);
	const active =
		declared.active ?? (listed ? accounts.filter((a) => statusOf(a) === 'active').length : null);
	return {
		totalAccounts: total,
		activeAccounts: active,
		closedAccounts:
			declared.closed ??
			(total !== null && active !== null
				? total - active
				: listed
					? accounts.filter((a) => statusOf(a) === 'closed').length
					: null),
		overdueAccounts:
			declared.overdue ??
			(listed ? accounts.filter((a) => (a.overdueAmount ?? 0) > 0).length : null),
		totalOutstanding: declared.outstanding ?? sumPresent(accounts.map((a) => a.outstandingAmount)),
		totalSanctioned: declared.sanctioned ?? sumPresent(accounts.map((a) => a.sanctionedAmount)),
		totalOverdue: declared.overdueAmount ?? sumPresent(accounts.map((a) => a.overdueAmount)),
	};
}

function referenceCredit(crif: IDataObject): CreditSummary {
	const accounts: CreditAccount[] = asArray(crif.accounts).map((raw) => {
		const a = asObject(raw);
		return {
			type: toText(a.account_type),
			lender: toText(a.lender_name),
			accountNumber: toText(a.account_number),
			status: toText(a.account_status),
			openDate: toIsoDate(a.open_date),
			closeDate: toIsoDate(a.close_date),
			sanctionedAmount: toNumber(a.sanctioned_amount),
			outstandingAmount: toNumber(a.outstanding_amount),
			emiAmount: toNumber(a.emi_amount),
			overdueAmount: toNumber(a.overdue_amount),
			paymentHistory: normalizePaymentHistory(a.dpd),
			maxDaysPastDue: delinquencyOf([parseDaysPastDue(a.dpd)]).maxDaysPastDue,
		};
	});
	const history = toText(crif.dpd_history);
	const delinquency = delinquencyOf(
		history
			? history.split(';').map(parseDaysPastDue)
			: asArray(crif.accounts).map((a) => parseDaysPastDue(asObject(a).dpd)),
	);
	return {
		score: toNumber(crif.credit_score),
		scoreVersion: toText(crif.score_version),
		reportDate: toIsoDate(crif.report_date),
		reportId: toText(crif.report_id),
		...accountTotals(accounts, {
			total: toNumber(crif.total_accounts),
			active: toNumber(crif.active_accounts),
			closed: toNumber(crif.closed_accounts),
			overdue: toNumber(crif.overdue_accounts),
			outstanding: toNumber(crif.total_outstanding),
			sanctioned: toNumber(crif.total_sanctioned),
			overdueAmount: toNumber(crif.total_overdue),
		}),
		...delinquency,
		enquiriesLast30Days: toNumber(crif.enquiries_last_30_days),
		enquiriesLast6Months: toNumber(crif.enquiries_last_6_months),
		accounts,
	};
}

/** A CRIF report object (HEADER, ACCOUNTS-SUMMARY, RESPONSES…) under the sample `credit_report`. */
function sampleCredit(part: IDataObject): CreditSummary {
	const report = asObject(part.credit_report);
	const header = asObject(report.HEADER);
	const summaries = asObject(report['ACCOUNTS-SUMMARY']);
	const primary = asObject(summaries['PRIMARY-ACCOUNTS-SUMMARY']);
	const derived = asObject(summaries['DERIVED-ATTRIBUTES']);
	const score = asObject(report.SCORE);
	const responses = asObject(report.RESPONSES).RESPONSE;
	const list = Array.isArray(responses) ? responses : isObject(responses) ? [responses] : [];
	const accounts: CreditAccount[] = list.map((raw) => {
		const loan = asObject(asObject(raw)['LOAN-DETAILS']);
		return {
			type: toText(loan['ACCT-TYPE']),
			lender: toText(first(loan['CREDIT-GUARANTOR'], loan['LENDER-NAME'])),
			accountNumber: toText(loan['ACCT-NUMBER']),
			status: toText(loan['ACCOUNT-STATUS']),
			openDate: toIsoDate(loan['DISBURSED-DT']),
			closeDate: toIsoDate(loan['CLOSED-DATE']),
			sanctionedAmount: toNumber(first(loan['SANCTIONED-AMT'], loan['DISBURSED-AMT'])),
			outstandingAmount: toNumber(loan['CURRENT-BAL']),
			emiAmount: toNumber(loan['INSTALLMENT-AMT']),
			overdueAmount: toNumber(loan['OVERDUE-AMT']),
			paymentHistory: normalizePaymentHistory(loan['COMBINED-PAYMENT-HISTORY']),
			maxDaysPastDue: delinquencyOf([parseDaysPastDue(loan['COMBINED-PAYMENT-HISTORY'])])
				.maxDaysPastDue,
		};
	});
	// CRIF's own summary names (PRIMARY-…) and the shorter ones; the accounts when neither is there
	const summary = (...keys: string[]) => toNumber(first(...keys.map((k) => primary[k])));
	return {
		score: toNumber(first(part.credit_score, score['SCORE-VALUE'])),
		scoreVersion: toText(first(score['SCORE-VERSION'], score['SCORE-TYPE'])),
		reportDate: toIsoDate(first(header['DATE-OF-ISSUE'], header['DATE-OF-REQUEST'])),
		reportId: toText(header['REPORT-ID']),
		...accountTotals(accounts, {
			total: summary('NUMBER-OF-ACCOUNTS', 'PRIMARY-NUMBER-OF-ACCOUNTS'),
			active: summary('ACTIVE-ACCOUNTS', 'PRIMARY-ACTIVE-NUMBER-OF-ACCOUNTS'),
			closed: null,
			overdue: summary('OVERDUE-ACCOUNTS', 'PRIMARY-OVERDUE-NUMBER-OF-ACCOUNTS'),
			outstanding: summary('TOTAL-CURRENT-BALANCE', 'PRIMARY-CURRENT-BALANCE'),
			sanctioned: summary(
				'TOTAL-SANCTIONED-AMT',
				'PRIMARY-SANCTIONED-AMOUNT',
				'TOTAL-DISBURSED-AMT',
				'PRIMARY-DISBURSED-AMOUNT',
			),
			overdueAmount: summary('TOTAL-AMT-OVERDUE', 'PRIMARY-OVERDUE-AMOUNT'),
		}),
		...delinquencyOf(
			list.map((raw) =>
				parseDaysPastDue(asObject(asObject(raw)['LOAN-DETAILS'])['COMBINED-PAYMENT-HISTORY']),
			),
		),
		enquiriesLast30Days: toNumber(derived['INQUIRIES-IN-LAST-30-DAYS']),
		enquiriesLast6Months: toNumber(
			first(derived['INQUIRIES-IN-LAST-SIX-MONTHS'], derived['INQURIES-IN-LAST-SIX-MONTHS']),
		),
		accounts,
	};
}

/**
 * Get EPFO Record with Credit Report (operation epfoCrifFetch), either shape. Partial answers (one
 * part null or empty, with or without a `partial`/`missing` marker) are not errors: `missing` lists
 * the absent parts and that part is null.
 */
export function normalizeEpfoCredit(body: unknown): EpfoCreditSummary {
	const object = asObject(body);
	const data = unwrap(object);
	const isSample =
		'credit_report' in data || 'doc_id' in data || (isObject(data.epfo) && 'prefill' in data.epfo);
	const epfoPart = data.epfo;
	const creditPart = isSample ? data.credit_report : first(data.crif, data.credit);
	const missing = new Set<MissingPart>(declaredMissing(object, data));
	// A part is there when it carries its facts: an EPFO part needs a UAN or an employment; a credit
	// part a score, an account or a report. Otherwise (null, empty, or only identity fields) it is
	// missing, whichever shape the answer came in.
	const epfo = asObject(epfoPart);
	const credit = asObject(creditPart);
	const epfoFacts = toText(epfo.uan) !== null || asArray(epfo.employment_history).length > 0;
	const creditFacts =
		toNumber(credit.credit_score) !== null ||
		asArray(credit.accounts).length > 0 ||
		(isObject(credit.credit_report) && Object.keys(credit.credit_report).length > 0);
	if (isEmpty(epfoPart) || !epfoFacts) missing.add('epfo');
	if (isEmpty(creditPart) || !creditFacts) missing.add('credit');
	const hasEmployment = !missing.has('epfo');
	const hasCredit = !missing.has('credit');

	let member: CombinedMember;
	let employment: EmploymentPart | null = null;
	let creditSummary: CreditSummary | null = null;
	if (isSample) {
		const details = asObject(asObject(epfo.prefill).details);
		const personal = asObject(details.personal_info);
		const identity = asObject(details.identity_info);
		const creditName = [toText(credit.first_name), toText(credit.last_name)]
			.filter(Boolean)
			.join(' ');
		member = {
			name: toText(first(personal.full_name, creditName)),
			dateOfBirth: toIsoDate(personal.dob),
			gender: toGender(personal.gender),
			pan: toUpperText(first(asObject(asArray(identity.pan_number)[0]).id_number, credit.pan)),
			mobile: toText(first(epfo.mobile, credit.mobile)),
			kycVerified: toBoolean(epfo.kyc_verified),
			totalIncome: toNumber(personal.total_income),
			occupation: toText(personal.occupation),
			age: toNumber(personal.age),
		};
		if (hasEmployment) {
			const jobs = newestFirst(employers(epfo.employment_history));
			employment = {
				uan: toText(epfo.uan),
				uanSource: toText(epfo.uan_source),
				employerCount: jobs.length,
				currentEmployer: currentEmployerOf(jobs),
				totalTenureMonths: sumPresent(jobs.map((j) => j.tenureMonths)),
				employers: jobs,
			};
		}
		if (hasCredit) creditSummary = sampleCredit(credit);
	} else {
		member = {
			name: toText(epfo.name),
			dateOfBirth: toIsoDate(epfo.date_of_birth),
			gender: toGender(epfo.gender),
			pan: toUpperText(first(epfo.pan, credit.pan)),
			mobile: toText(first(epfo.mobile, data.mobile_number)),
			kycVerified: toBoolean(epfo.kyc_verified),
			totalIncome: null,
			occupation: null,
			age: null,
		};
		if (hasEmployment) {
			const jobs = newestFirst(employers(epfo.employment_history));
			employment = {
				uan: toText(epfo.uan),
				uanSource: null,
				employerCount: toNumber(epfo.total_employers) ?? jobs.length,
				currentEmployer: currentEmployerOf(jobs),
				totalTenureMonths: sumPresent(jobs.map((j) => j.tenureMonths)),
				employers: jobs,
			};
		}
		if (hasCredit) creditSummary = referenceCredit(credit);
	}

	const missingList = (['epfo', 'credit'] as const).filter((p) => missing.has(p));
	return {
		shape: isSample ? 'sample' : 'reference',
		success: toBoolean(object.success) ?? true,
		message: toText(object.message),
		requestId: toText(first(data.doc_id, object.request_id)),
		mobileNumber: toText(first(data.mobile_number, member.mobile)),
		partial: toBoolean(first(object.partial, data.partial)) === true || missingList.length > 0,
		missing: missingList,
		hasEmployment,
		hasCredit,
		member,
		employment,
		credit: creditSummary,
	};
}

export function epfoAnswerLacks(summary: EpfoSummary): string[] {
	return summary.uan === null && summary.member.name === null && summary.employerCount === 0
		? ['UAN', 'member']
		: [];
}

export function epfoCreditAnswerLacks(summary: EpfoCreditSummary): string[] {
	return summary.missing.length === 2 ? ['EPFO record', 'credit report'] : [];
}
