import type { IDataObject } from 'n8n-workflow';

import type { HistoryMonth, ScoreKind, Shape, WorstAssetClass } from './common';
import { withAdverseDetail } from './adverse';
import {
	accountHistory,
	datedAccountHistory,
	accountIdentity,
	asArray,
	asObject,
	first,
	field,
	HISTORY_NAMES,
	historyMonthCount,
	knownHistoryFacts,
	normalizePaymentHistory,
	readHistory,
	readScore,
	sumAll,
	toBoolean,
	todayIsoDate,
	toIsoDate,
	toIsoMonth,
	toLowerText,
	toNumber,
	toStatusWord,
	toUpperText,
	unwrap,
} from './common';
import { isObject, toText } from '../../../shared/values';
import { crifHistoryMonths } from './creditReport';
import {
	agreeingCount,
	canonical,
	distinctEntries,
	inRange,
	RANGES,
	toAmount,
	toCount,
} from './grammar';

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
	/**
	 * True for the current job: declared, or an exit date sent as null. Null when the entry says
	 * neither (no `is_current`, no `date_of_exit` field).
	 */
	current: boolean | null;
	/**
	 * Months with this employer: as the service states them where its layout has durations (the EPFO
	 * record, the reference shape of EPFO with credit: a missing one is unknown), else from the dates
	 * (a current job up to today).
	 */
	tenureMonths: number | null;
	/** Employee and employer PF shares with this employer, INR, when the response carries them. */
	employeeShare: number | null;
	employerShare: number | null;
}

const DURATION_NAMES = ['tenure_months', 'service_duration_months', 'tenure'];
const EXIT_NAMES = ['date_of_exit', 'doe', 'exit_date'];

/**
 * The texts EPFO answers send for "not exited" in an exit date (compared trimmed, in upper case): a
 * blank, NA, N/A, one or two dashes, an all-zero date.
 */
const NOT_EXITED = new Set(['', 'NA', 'N/A', '-', '--', '00/00/0000', '00-00-0000', '0000-00-00']);

const daysInMonth = (year: number, month: number) =>
	new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * A calendar date as `YYYY-MM-DD` (the layouts toIsoDate reads), from 1900 up to today; null for
 * anything else: an impossible date (`2024-02-30`, `00/00/0000`), a date in the future, text.
 */
export function pastDate(value: unknown): string | null {
	const iso = toIsoDate(value);
	if (iso === null) return null;
	const [year, month, day] = iso.split('-').map(Number);
	if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
		return null;
	return iso <= todayIsoDate() ? iso : null;
}

/** A month as `YYYY-MM` (month 01 to 12, from 1900, not after the current month), else null. */
export function pastMonth(value: unknown): string | null {
	const month = toIsoMonth(value);
	if (month === null) return null;
	const [y, m] = month.split('-').map(Number);
	if (y < 1900 || m < 1 || m > 12) return null;
	return month <= todayIsoDate().slice(0, 7) ? month : null;
}

/**
 * What an employer's exit date says. `absent`: the entry has no exit field; `notExited`: null, a
 * blank or a not-exited marker (NOT_EXITED); `ended`: a valid date, not before joining and not in the
 * future; `unknown`: any other value (an unparseable or impossible date, one before joining or in the
 * future, a number).
 */
export type ExitReading =
	| { kind: 'absent' }
	| { kind: 'notExited' }
	| { kind: 'ended'; date: string }
	| { kind: 'unknown' };

export function readExit(entry: IDataObject, dateOfJoining: string | null): ExitReading {
	const sent = EXIT_NAMES.filter((name) => name in entry);
	if (sent.length === 0) return { kind: 'absent' };
	const value = first(...sent.map((name) => entry[name]));
	if (value === null) return { kind: 'notExited' };
	if (typeof value === 'string' && NOT_EXITED.has(value.trim().toUpperCase()))
		return { kind: 'notExited' };
	const date = pastDate(value);
	if (date === null || (dateOfJoining !== null && date < dateOfJoining)) return { kind: 'unknown' };
	return { kind: 'ended', date };
}

/**
 * Whether a job is current, from `is_current` and the exit date. `is_current` alone (no exit field)
 * is taken as sent; with an exit field both must agree (true with not exited, false with an exit
 * date): a contradiction, an unreadable `is_current` or an unknown exit date is unknown (null).
 */
function currentOf(entry: IDataObject, exit: ExitReading): boolean | null {
	if (!('is_current' in entry))
		return exit.kind === 'notExited' ? true : exit.kind === 'ended' ? false : null;
	const declared = toBoolean(entry.is_current);
	if (declared === null || exit.kind === 'unknown') return null;
	if (exit.kind === 'absent') return declared;
	return declared === (exit.kind === 'notExited') ? declared : null;
}

/**
 * The tenure an entry states, read against its dates: outside 0 to 840 months, or contradicting
 * them, it is unknown. An ended job's stated months may differ by one from the whole months between
 * its dates (a part month counted or not), no more; a current job's may not exceed the months since
 * joining by more than one (the answer may be older than today: fewer months are fine).
 */
function statedTenure(
	entry: IDataObject,
	dateOfJoining: string | null,
	dateOfExit: string | null,
	current: boolean | null,
): number | null {
	const raw = first(...DURATION_NAMES.map((name) => entry[name]));
	const months = inRange(raw, RANGES.tenureMonths);
	if (months === null || dateOfJoining === null) return months;
	if (current === false && dateOfExit !== null) {
		const between = monthsBetween(dateOfJoining, dateOfExit);
		return between !== null && Math.abs(months - between) > 1 ? null : months;
	}
	if (current === true) {
		const since = monthsBetween(dateOfJoining, todayIsoDate());
		return since !== null && months > since + 1 ? null : months;
	}
	return months;
}

/** `statesDurations`: the layout has a duration per employer (then none is computed). */
function employers(list: unknown, statesDurations: boolean): Employer[] {
	return asArray<unknown>(list).map((raw) => {
		const e = asObject(raw);
		const dateOfJoining = pastDate(first(e.date_of_joining, e.doj, e.joining_date));
		const exit = readExit(e, dateOfJoining);
		const dateOfExit = exit.kind === 'ended' ? exit.date : null;
		const current = currentOf(e, exit);
		const computedTenure =
			current === null
				? null
				: monthsBetween(dateOfJoining, dateOfExit ?? (current ? todayIsoDate() : null));
		return {
			name: toText(first(e.establishment_name, e.employer_name, e.company_name, e.name)),
			establishmentId: toUpperText(e.establishment_id),
			memberId: toUpperText(first(e.member_id, e.pf_account_number)),
			dateOfJoining,
			dateOfExit,
			current,
			tenureMonths: statesDurations
				? statedTenure(e, dateOfJoining, dateOfExit, current)
				: inRange(computedTenure, RANGES.tenureMonths),
			employeeShare: toAmount(e.employee_share),
			employerShare: toAmount(e.employer_share),
		};
	});
}

/** Newest employment first (by joining date; undated entries keep their order at the end). */
const newestFirst = <T extends { dateOfJoining: string | null }>(list: T[]) =>
	[...list].sort((a, b) => (b.dateOfJoining ?? '').localeCompare(a.dateOfJoining ?? ''));

/**
 * The newest current employer; null when there is none, or when an entry's current status or name
 * is unknown (it could be the current job).
 */
function currentEmployerOf(list: Employer[]): string | null {
	if (list.some((e) => e.current === null || (e.current && e.name === null))) return null;
	return newestFirst(list).find((e) => e.current)?.name ?? null;
}

/** Where an employment ends: its exit date, today for a current one, null when unknown. */
const endOf = (e: Employer) => e.dateOfExit ?? (e.current === true ? todayIsoDate() : null);

/**
 * Months over every employer. Null when any employer's months are unknown, when two employments
 * overlap (an exit date that is not sent makes an old job look current): months counted twice are
 * not a tenure, or when the sum is beyond 840 months.
 */
function totalTenureOf(jobs: Employer[]): number | null {
	const total = sumAll(jobs.map((j) => j.tenureMonths));
	const periods = jobs.map((j) => ({ from: j.dateOfJoining, to: endOf(j) }));
	if (periods.every((p) => p.from !== null && p.to !== null)) {
		const sorted = [...periods].sort((a, b) => (a.from as string).localeCompare(b.from as string));
		for (let i = 1; i < sorted.length; i++)
			if ((sorted[i - 1].to as string) > (sorted[i].from as string)) return null;
	}
	return inRange(total, RANGES.tenureMonths);
}

/** An employer's identity: its establishment id and joining date (null when one is unknown). */
const employerIdentity = (e: Employer) =>
	e.establishmentId !== null && e.dateOfJoining !== null
		? `${e.establishmentId}|${e.dateOfJoining}`
		: null;

/** A count the answer declares next to its list: absent, or sent (null when not a count). */
interface Declared {
	sent: boolean;
	value: number | null;
}

const NOT_DECLARED: Declared = { sent: false, value: null };

const declaredCount = (source: IDataObject, name: string): Declared => ({
	sent: source[name] !== undefined && source[name] !== null,
	value: toCount(source[name]),
});

/**
 * The number of employers: the distinct entries of the history (an employer listed twice, same
 * establishment and joining date, counts once). Null when there is no history list, an empty one for
 * a member with a UAN (a UAN comes with an employer: the list was not sent), a null entry in it, or
 * entries that may or may not be one employer (distinctEntries); and when a declared count is not a
 * count or disagrees with the list.
 */
function employerCountOf(
	history: unknown,
	distinct: Employer[] | null,
	declared: Declared,
	uan: string | null,
): number | null {
	if (declared.sent && declared.value === null) return null;
	if (!Array.isArray(history)) return declared.value;
	if (distinct === null || history.some((entry) => !isObject(entry))) return null;
	const listed = history.length === 0 && uan !== null ? null : distinct.length;
	return agreeingCount(declared.value, listed);
}

/** The employment facts of one history, the same in the EPFO record and both EPFO + credit shapes. */
interface EmploymentFacts {
	employerCount: number | null;
	currentEmployer: string | null;
	totalTenureMonths: number | null;
	/** Newest first; each employer once (every entry as listed when the repeats are uncertain). */
	employers: Employer[];
}

function employmentFacts(
	history: unknown,
	statesDurations: boolean,
	declared: Declared,
	uan: string | null,
): EmploymentFacts {
	const listed = employers(history, statesDurations);
	const distinct = distinctEntries(listed, employerIdentity).entries;
	const jobs = newestFirst(distinct ?? listed);
	return {
		employerCount: employerCountOf(history, distinct, declared, uan),
		currentEmployer: distinct === null ? null : currentEmployerOf(jobs),
		totalTenureMonths: distinct === null ? null : totalTenureOf(jobs),
		employers: jobs,
	};
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
	/** The service's contribution summary, as stated (null where it states nothing). */
	employeeShare: number | null;
	employerShare: number | null;
	pensionShare: number | null;
	total: number | null;
	monthsContributed: number | null;
	/** The newest contribution month: the summary's, else the passbook's newest entry. */
	lastContributionMonth: string | null;
	averageMonthlyWage: number | null;
	/**
	 * The member's monthly wage: the wages of the newest passbook month (summed over the
	 * establishments that contributed in it). Null when the passbook is missing or that month's
	 * wages are not all stated.
	 */
	latestMonthlyWage: number | null;
	/** The month of latestMonthlyWage, YYYY-MM. */
	latestWageMonth: string | null;
}

/**
 * Sums over the passbook entries the answer carries: not the contribution totals (a passbook may
 * cover only recent months), so they have their own names and say which months they cover. Null
 * sums when an entry's share is not stated.
 */
export interface PassbookTotals extends IDataObject {
	/**
	 * The passbook's entries; null without a passbook, with a null entry in it, or with an empty one
	 * next to a UAN (a member's passbook was not sent).
	 */
	entries: number | null;
	fromMonth: string | null;
	toMonth: string | null;
	employeeShare: number | null;
	employerShare: number | null;
	pensionShare: number | null;
	total: number | null;
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
	/** Null when the answer has no employment history (or an empty one next to a UAN). */
	employerCount: number | null;
	/** Months over every employer; null when any employer's tenure is unknown. */
	totalTenureMonths: number | null;
	/** Newest employment first. */
	employers: Employer[];
	contributions: ContributionTotals;
	passbookTotals: PassbookTotals;
	/** Period-wise passbook entries, newest first. */
	passbook: PassbookEntry[];
}

function passbookEntries(list: unknown): PassbookEntry[] {
	return asArray(list)
		.map((raw) => {
			const p = asObject(raw);
			return {
				month:
					pastMonth(first(p.wage_month, p.month, p.period, p.date)) ??
					pastMonth(pastDate(first(p.date, p.period))),
				establishmentId: toUpperText(p.establishment_id),
				memberId: toUpperText(p.member_id),
				wages: toAmount(first(p.wages, p.wage, p.epf_wages)),
				employeeShare: toAmount(p.employee_share),
				employerShare: toAmount(p.employer_share),
				pensionShare: toAmount(p.pension_share),
				type: toText(first(p.transaction_type, p.type)),
			};
		})
		.sort((a, b) => (b.month ?? '').localeCompare(a.month ?? ''));
}

/**
 * A passbook entry's identity: its wage month and establishment; the month alone when no entry of the
 * passbook names an establishment (one member's months). Null when the month is unknown, or the
 * establishment is while other entries name theirs.
 */
const passbookIdentity =
	(namesEstablishments: boolean) =>
	(p: PassbookEntry): string | null => {
		if (p.month === null) return null;
		if (!namesEstablishments) return p.month;
		return p.establishmentId === null ? null : `${p.month}|${p.establishmentId}`;
	};

/** The wages of the newest passbook month, summed over its entries; null unless all are stated. */
function latestWage(passbook: PassbookEntry[] | null): {
	wage: number | null;
	month: string | null;
} {
	if (passbook === null || passbook.length === 0 || passbook.some((p) => p.month === null))
		return { wage: null, month: null };
	const month = passbook[0].month;
	const wage = sumAll(passbook.filter((p) => p.month === month).map((p) => p.wages));
	return { wage: toAmount(wage), month };
}

/** Sums over the passbook's distinct entries; all unknown when its repeats are uncertain (null). */
function passbookTotalsOf(
	passbook: PassbookEntry[] | null,
	entries: number | null,
): PassbookTotals {
	const sum = (key: 'employeeShare' | 'employerShare' | 'pensionShare') =>
		passbook === null ? null : toAmount(sumAll(passbook.map((p) => p[key])));
	const employeeShare = sum('employeeShare');
	const employerShare = sum('employerShare');
	const pensionShare = sum('pensionShare');
	const months = (passbook ?? []).map((p) => p.month);
	const dated = passbook !== null && months.length > 0 && months.every((m) => m !== null);
	return {
		entries: passbook === null ? null : entries,
		fromMonth: dated ? (months[months.length - 1] as string) : null,
		toMonth: dated ? (months[0] as string) : null,
		employeeShare,
		employerShare,
		pensionShare,
		total: toAmount(sumAll([employeeShare, employerShare, pensionShare])),
	};
}

/** An amount the summary states: null when it is absent, or sent but not an amount in range. */
const statedAmount = (source: IDataObject, ...names: string[]): number | null =>
	toAmount(first(...names.map((name) => source[name])));

/**
 * The summary's total contribution: null when it is not an amount, or when it disagrees (by more
 * than a rupee) with the three shares the summary states next to it.
 */
function contributionTotal(summary: IDataObject): number | null {
	const total = statedAmount(summary, 'total_contribution');
	const shares = sumAll(
		['total_employee_share', 'total_employer_share', 'total_pension_share'].map((name) =>
			statedAmount(summary, name),
		),
	);
	return total !== null && shares !== null && Math.abs(total - shares) > 1 ? null : total;
}

/**
 * Get EPFO Record (operation epfoFetch). The contribution totals are the service's summary; sums
 * over the passbook are passbookTotals (they cover the passbook's months only). `sentMobile` (the
 * number the operation sent) stands in when the answer does not echo it.
 */
export function normalizeEpfo(body: unknown, sentMobile: string | null = null): EpfoSummary {
	const object = asObject(body);
	const data = unwrap(object);
	const profile = asObject(first(data.member_profile, data.profile));
	const summary = asObject(data.contribution_summary);
	const uan = toText(first(data.uan, profile.uan));
	// the EPFO record states each employer's tenure
	const employment = employmentFacts(
		data.employment_history,
		true,
		declaredCount(data, 'total_employers'),
		uan,
	);
	const listed = passbookEntries(data.passbook);
	// a month listed twice for one establishment counts once; copies that disagree are unknown, and
	// so is an entry whose month or establishment is unknown (it may repeat another)
	const identity = passbookIdentity(listed.some((p) => p.establishmentId !== null));
	const passbook = listed.some((p) => identity(p) === null)
		? null
		: distinctEntries(listed, identity).entries;
	const wage = latestWage(passbook);
	const wageSent = first(summary.monthly_wage, summary.current_monthly_wage) !== null;
	const declaredWage = statedAmount(summary, 'monthly_wage', 'current_monthly_wage');
	const declaredMonth = pastMonth(summary.last_contribution_month);
	return {
		success: toBoolean(object.success) ?? true,
		message: toText(object.message),
		mobileNumber: toText(first(data.mobile_number, data.mobile)) ?? sentMobile,
		uan,
		member: {
			name: toText(first(profile.name, profile.member_name, profile.full_name)),
			fatherOrHusbandName: toText(first(profile.father_or_husband_name, profile.father_name)),
			dateOfBirth: toIsoDate(first(profile.date_of_birth, profile.dob)),
			gender: toGender(profile.gender),
			email: toText(profile.email),
			// the inner names are not documented: the linkage is also sent as `*_verified`
			panLinked: toBoolean(first(profile.pan_linked, profile.pan_verified)),
			aadhaarLinked: toBoolean(first(profile.aadhaar_linked, profile.aadhaar_verified)),
			kycVerified: toBoolean(profile.kyc_verified),
		},
		currentEmployer: employment.currentEmployer,
		employerCount: employment.employerCount,
		totalTenureMonths: employment.totalTenureMonths,
		employers: employment.employers,
		contributions: {
			employeeShare: statedAmount(summary, 'total_employee_share'),
			employerShare: statedAmount(summary, 'total_employer_share'),
			pensionShare: statedAmount(summary, 'total_pension_share'),
			total: contributionTotal(summary),
			monthsContributed: inRange(summary.months_contributed, RANGES.tenureMonths),
			// the summary's month; sent but not a month is unknown, not the passbook's
			lastContributionMonth:
				first(summary.last_contribution_month) !== null
					? declaredMonth
					: passbook === null || passbook.some((p) => p.month === null)
						? null
						: (passbook[0]?.month ?? null),
			averageMonthlyWage: statedAmount(summary, 'average_monthly_wage'),
			latestMonthlyWage: wageSent ? declaredWage : wage.wage,
			latestWageMonth: wageSent ? (declaredWage === null ? null : declaredMonth) : wage.month,
		},
		passbookTotals: passbookTotalsOf(
			passbook,
			!Array.isArray(data.passbook) ||
				data.passbook.some((entry) => !isObject(entry)) ||
				(data.passbook.length === 0 && uan !== null)
				? null
				: (passbook?.length ?? null),
		),
		passbook: passbook ?? listed,
	};
}

/**
 * What an EPFO answer must carry to be about a member: the UAN, the member profile or the employment
 * history. The transport's requiredField: an answer with none of them (`{}`, `data: null`) is an
 * error naming them, never an all-null record.
 */
export const EPFO_REQUIRED = 'data.uan|data.member_profile|data.employment_history';

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
	/**
	 * Worst days past due in the account's last 12 reported months (an asset class counts as its
	 * floor: SUB, DBT, LSS at least 90); null when its history is missing or cannot be read.
	 */
	maxDaysPastDue: number | null;
	/**
	 * The gravest asset class stated in those months (`STD` … `LSS`); `none` when none is stated;
	 * null when the history is unknown.
	 */
	worstAssetClass: WorstAssetClass | null;
}

export interface CreditSummary extends IDataObject {
	/** Credit score (300 to 900); null for none or a special value (see scoreKind). */
	score: number | null;
	/** `score`, `noHistory` (-1) or `new` (0, or a 1-5 new-to-credit rank); null when none came. */
	scoreKind: ScoreKind | null;
	specialScore: number | null;
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
	/**
	 * Worst days past due over all accounts in the last 12 reported months; null when any account's
	 * history is missing or cannot be read.
	 */
	maxDaysPastDue: number | null;
	/** Account-months with any days past due in the last 12 reported months (null as above). */
	delinquentMonths: number | null;
	/**
	 * The gravest asset class stated in any account's last 12 reported months: `STD`, `SMA` (SMA-0),
	 * `SMA-1`, `SMA-2`, `SUB`, `DBT`, `LSS` (the last three non-performing). `none` when the histories
	 * are known and no month states a class, or no account is listed; null when unknown (exactly when
	 * maxDaysPastDue is null for a report with accounts).
	 */
	worstAssetClass: WorstAssetClass | null;
	enquiriesLast30Days: number | null;
	enquiriesLast6Months: number | null;
	/** Length of credit history in months, as the report states it (CRIF's sample layout). */
	lengthOfHistoryMonths: number | null;
	/** Opening date of the oldest listed account; null when an account's date is not stated. */
	oldestAccountOpenDate: string | null;
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
	employerCount: number | null;
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

type TotalName =
	| 'total'
	| 'active'
	| 'closed'
	| 'overdue'
	| 'outstanding'
	| 'sanctioned'
	| 'overdueAmount';

/**
 * Account counts and amounts: the report's own summary where its layout has one (`hasSummary`): a
 * figure missing from it is unknown, not recounted, and a count that contradicts the listed accounts
 * (3 accounts declared, 2 listed; 2 active declared, 1 listed active) is unknown. A layout without a
 * summary gets them from the listed accounts, null when an account does not state what a figure
 * needs. The overdue amount, which neither documented summary states, always comes from the accounts
 * that way. `accounts` null: the list cannot be counted (an account listed twice with different facts).
 * The declared figures come in range-checked (toCount, toAmount).
 */
function accountTotals(
	accounts: CreditAccount[] | null,
	hasSummary: boolean,
	declared: Record<Exclude<TotalName, 'overdueAmount'>, number | null> & {
		overdueAmount: number | null | undefined;
	},
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
	const listed = accounts ?? [];
	const known = accounts !== null && listed.length > 0;
	const statusKnown = listed.every((a) => a.status !== null);
	const overdueKnown = listed.every((a) => a.overdueAmount !== null);
	const count = (test: (a: CreditAccount) => boolean) => listed.filter(test).length;
	const unknownList = accounts === null;
	const derived = {
		total: known ? listed.length : null,
		active: known && statusKnown ? count((a) => a.status === 'active') : null,
		closed: known && statusKnown ? count((a) => a.status === 'closed') : null,
		overdue: known && overdueKnown ? count((a) => (a.overdueAmount ?? 0) > 0) : null,
		outstanding: unknownList ? null : sumAll(listed.map((a) => a.outstandingAmount)),
		sanctioned: unknownList ? null : sumAll(listed.map((a) => a.sanctionedAmount)),
	};
	// a declared count against the listed accounts: unknown when they disagree
	const counted = (name: 'total' | 'active' | 'closed' | 'overdue', value: number | null) =>
		value === null ? null : agreeingCount(value, derived[name]);
	const pick = (name: keyof typeof derived) =>
		hasSummary
			? name === 'outstanding' || name === 'sanctioned'
				? declared[name]
				: counted(name, declared[name])
			: derived[name];
	const total = pick('total');
	const active = pick('active');
	const closed =
		declared.closed !== null
			? counted('closed', declared.closed)
			: total !== null && active !== null
				? total - active
				: pick('closed');
	return {
		totalAccounts: total,
		activeAccounts: active,
		closedAccounts: closed !== null && closed >= 0 ? closed : null,
		overdueAccounts: pick('overdue'),
		totalOutstanding: pick('outstanding'),
		totalSanctioned: pick('sanctioned'),
		// the overdue amount as declared (null: declared but out of range), else the accounts' sum
		totalOverdue:
			declared.overdueAmount !== undefined
				? declared.overdueAmount
				: unknownList
					? null
					: sumAll(listed.map((a) => a.overdueAmount)),
	};
}

/** Opening date of the oldest account, or null when any account's date is not stated. */
function oldestOpenDate(accounts: CreditAccount[]): string | null {
	const dates = accounts.map((a) => a.openDate);
	if (dates.length === 0 || dates.some((d) => d === null)) return null;
	return (dates as string[]).sort()[0];
}

/** Per-account facts from the account's own payment history (read once: `months`). */
function historyFacts(
	history: unknown,
	months: HistoryMonth[] | null = readHistory(history),
): Pick<CreditAccount, 'paymentHistory' | 'maxDaysPastDue' | 'worstAssetClass'> {
	const facts = knownHistoryFacts([months]);
	return {
		paymentHistory:
			normalizePaymentHistory(history) ??
			(months?.length
				? months
						.map((m) =>
							m.assetClass === null || m.assetClass === 'STD'
								? String(m.days).padStart(3, '0')
								: `${String(m.days).padStart(3, '0')}/${m.assetClass}`,
						)
						.join('|')
				: null),
		maxDaysPastDue: facts.maxDaysPastDue,
		worstAssetClass: facts.worstAssetClass,
	};
}

/**
 * The listed accounts, each once (see accountIdentity and distinctEntries): null when one account is
 * listed twice with different facts, or two deep-equal listings have no number and lender.
 */
function distinctAccounts<T>(entries: T[], rawOf: (entry: T) => unknown): T[] | null {
	return distinctEntries(entries, (entry) => accountIdentity(rawOf(entry))).entries;
}

/** Fields of the reference shape's credit summary (the contract's EpfoCrifReference). */
const REFERENCE_SUMMARY = [
	'total_accounts',
	'active_accounts',
	'closed_accounts',
	'overdue_accounts',
	'total_outstanding',
	'total_sanctioned',
];

/**
 * An account's own history in the reference layout (`dpd`): a history only when it lists more than
 * one month (`000|030|…`, `000030000`, reported or `XXX`); a single value (`30`, `030`) is the
 * account's current days past due, not its last 12 months.
 */
function ownHistory(account: IDataObject): unknown {
	const history = field(account, HISTORY_NAMES);
	const months = historyMonthCount(history);
	return months !== null && months > 1 ? history : undefined;
}

/**
 * The reference layout's `dpd_history`: one history line per account, in the accounts' order,
 * separated by semicolons (or a list of lines); null when not sent.
 */
function dpdHistoryLines(value: unknown): string[] | null {
	if (Array.isArray(value)) return value.map((line) => (typeof line === 'string' ? line : ''));
	const text = toText(value);
	return text === null ? null : text.split(';');
}

/** Whether a figure was sent at all (a blank or null is not). */
const sent = (value: unknown): boolean => first(value) !== null;

/** A report that lists no account states no class: `none`, not unknown. */
const withoutAccounts = (summary: CreditSummary): CreditSummary =>
	summary.worstAssetClass === null && summary.totalAccounts === 0 && summary.accounts.length === 0
		? { ...summary, worstAssetClass: 'none' }
		: summary;

function referenceCredit(crif: IDataObject): CreditSummary {
	const rawAccounts = asArray<unknown>(crif.accounts);
	// dpd_history: one history per account, in the accounts' order. The account's line when the lines
	// match the accounts as listed (or as counted once each); with no account listed, the lines when
	// they are as many as the declared total_accounts (a one-account report's single line); else each
	// account's own (multi-month) history, never its current days past due
	const lines = dpdHistoryLines(crif.dpd_history);
	const declaredTotal = toCount(crif.total_accounts);
	const rawLines = lines !== null && lines.length === rawAccounts.length;
	const paired = rawAccounts.map((raw, index) => ({
		raw,
		line: rawLines ? (lines as string[])[index] : undefined,
	}));
	const distinct = distinctAccounts(paired, (entry) => entry.raw);
	const distinctLines =
		!rawLines && distinct !== null && lines !== null && lines.length === distinct.length;
	const entries = (distinct ?? paired).map((entry, index) => ({
		raw: asObject(entry.raw),
		line: distinctLines ? (lines as string[])[index] : entry.line,
	}));
	const fromLines = rawLines || distinctLines;
	// an account's months: its line (when the lines match the accounts), else its own history; its own
	// (multi-month) history next to its line must say the same, or the account's history is unknown
	const monthsOf = (a: IDataObject, line: string | undefined) => {
		const own = ownHistory(a);
		if (!fromLines) return { history: own, months: readHistory(own) };
		const months = readHistory(line);
		const agrees = own === undefined || canonical(readHistory(own)) === canonical(months);
		return { history: line, months: agrees ? months : null };
	};
	const accounts: CreditAccount[] = entries.map(({ raw: a, line }) => {
		const { history, months } = monthsOf(a, line);
		return {
			type: toText(a.account_type),
			lender: toText(a.lender_name),
			accountNumber: toText(a.account_number),
			status: toStatusWord(a.account_status),
			openDate: toIsoDate(a.open_date),
			closeDate: toIsoDate(a.close_date),
			sanctionedAmount: toAmount(a.sanctioned_amount),
			outstandingAmount: toAmount(a.outstanding_amount),
			emiAmount: toAmount(a.emi_amount),
			overdueAmount: toAmount(a.overdue_amount),
			...historyFacts(history, months),
		};
	});
	const histories: Array<HistoryMonth[] | null> =
		distinct === null
			? [null]
			: rawAccounts.length === 0 && lines !== null && lines.length === declaredTotal
				? lines.map(readHistory)
				: entries.map(({ raw, line }) => monthsOf(raw, line).months);
	const facts = knownHistoryFacts(histories);
	return withoutAccounts({
		...readScore(crif.credit_score),
		scoreVersion: toText(crif.score_version),
		reportDate: toIsoDate(crif.report_date),
		reportId: toText(crif.report_id),
		...accountTotals(
			distinct === null ? null : accounts,
			REFERENCE_SUMMARY.some((name) => name in crif),
			{
				total: declaredTotal,
				active: toCount(crif.active_accounts),
				closed: toCount(crif.closed_accounts),
				overdue: toCount(crif.overdue_accounts),
				outstanding: toAmount(crif.total_outstanding),
				sanctioned: toAmount(crif.total_sanctioned),
				overdueAmount: sent(crif.total_overdue) ? toAmount(crif.total_overdue) : undefined,
			},
		),
		...facts,
		enquiriesLast30Days: toCount(crif.enquiries_last_30_days),
		enquiriesLast6Months: toCount(crif.enquiries_last_6_months),
		lengthOfHistoryMonths: inRange(crif.length_of_credit_history_months, RANGES.tenureMonths),
		oldestAccountOpenDate: oldestOpenDate(accounts),
		accounts,
	});
}

/** A CRIF report object (HEADER, ACCOUNTS-SUMMARY, RESPONSES…) under the sample `credit_report`. */
function sampleCredit(part: IDataObject): CreditSummary {
	const report = asObject(part.credit_report);
	const header = asObject(report.HEADER);
	const summaries = asObject(report['ACCOUNTS-SUMMARY']);
	const primary = asObject(summaries['PRIMARY-ACCOUNTS-SUMMARY']);
	const derived = asObject(summaries['DERIVED-ATTRIBUTES']);
	const responseList = asObject(report.RESPONSES).RESPONSE;
	const list: unknown[] = Array.isArray(responseList)
		? responseList
		: isObject(responseList)
			? [responseList]
			: [];
	const listed = list.map((raw) => (isObject(raw) ? raw['LOAN-DETAILS'] : raw));
	// each account once (number and lender); an account listed twice with different facts: unknown
	const loans = distinctAccounts(listed, (loan) => loan);
	const accounts: CreditAccount[] = (loans ?? listed).map((raw) => {
		const loan = asObject(raw);
		return {
			type: toText(loan['ACCT-TYPE']),
			lender: toText(first(loan['CREDIT-GUARANTOR'], loan['LENDER-NAME'])),
			accountNumber: toText(loan['ACCT-NUMBER']),
			status: toStatusWord(loan['ACCOUNT-STATUS']),
			openDate: toIsoDate(loan['DISBURSED-DT']),
			closeDate: toIsoDate(loan['CLOSED-DATE']),
			sanctionedAmount: toAmount(first(loan['SANCTIONED-AMT'], loan['DISBURSED-AMT'])),
			outstandingAmount: toAmount(loan['CURRENT-BAL']),
			emiAmount: toAmount(loan['INSTALLMENT-AMT']),
			overdueAmount: toAmount(loan['OVERDUE-AMT']),
			...historyFacts(field(loan, HISTORY_NAMES), accountHistory(loan)),
		};
	});
	// CRIF's own summary names (PRIMARY-…) and the shorter ones; the accounts when there is none.
	// Counts add the secondary summary's (the listed responses hold both), amounts are the primary's
	const secondary = asObject(summaries['SECONDARY-ACCOUNTS-SUMMARY']);
	const summary = (...keys: string[]) => toAmount(first(...keys.map((k) => primary[k])));
	const summaryCount = (...keys: string[]) => {
		const own = toCount(first(...keys.map((k) => primary[k])));
		const key = keys.find((k) => k in secondary);
		if (key === undefined || own === null) return own;
		const other = toCount(secondary[key]);
		return other === null ? null : own + other;
	};
	const score = asObject(report.SCORE);
	// the accounts with their dated months, for the adverse facts (adverse.ts)
	const details = (loans ?? listed).map((loan) => ({
		account: loan,
		months: datedAccountHistory(loan),
	}));
	return withAdverseDetail(
		withoutAccounts({
			...readScore(first(part.credit_score, score['SCORE-VALUE'])),
			scoreVersion: toText(first(score['SCORE-VERSION'], score['SCORE-TYPE'])),
			reportDate: toIsoDate(first(header['DATE-OF-ISSUE'], header['DATE-OF-REQUEST'])),
			reportId: toText(header['REPORT-ID']),
			...accountTotals(loans === null ? null : accounts, Object.keys(primary).length > 0, {
				total: summaryCount('NUMBER-OF-ACCOUNTS', 'PRIMARY-NUMBER-OF-ACCOUNTS'),
				active: summaryCount('ACTIVE-ACCOUNTS', 'PRIMARY-ACTIVE-NUMBER-OF-ACCOUNTS'),
				closed: null,
				overdue: summaryCount('OVERDUE-ACCOUNTS', 'PRIMARY-OVERDUE-NUMBER-OF-ACCOUNTS'),
				outstanding: summary('TOTAL-CURRENT-BALANCE', 'PRIMARY-CURRENT-BALANCE'),
				sanctioned: summary(
					'TOTAL-SANCTIONED-AMT',
					'PRIMARY-SANCTIONED-AMOUNT',
					'TOTAL-DISBURSED-AMT',
					'PRIMARY-DISBURSED-AMOUNT',
				),
				overdueAmount: sent(first(primary['TOTAL-AMT-OVERDUE'], primary['PRIMARY-OVERDUE-AMOUNT']))
					? summary('TOTAL-AMT-OVERDUE', 'PRIMARY-OVERDUE-AMOUNT')
					: undefined,
			}),
			...knownHistoryFacts(loans === null ? [null] : loans.map(accountHistory)),
			enquiriesLast30Days: toCount(derived['INQUIRIES-IN-LAST-30-DAYS']),
			enquiriesLast6Months: toCount(
				first(derived['INQUIRIES-IN-LAST-SIX-MONTHS'], derived['INQURIES-IN-LAST-SIX-MONTHS']),
			),
			lengthOfHistoryMonths: crifHistoryMonths(report),
			oldestAccountOpenDate: oldestOpenDate(accounts),
			accounts,
		}),
		details,
	);
}

/**
 * Get EPFO Record with Credit Report (operation epfoCrifFetch), either shape. Partial answers (one
 * part null or empty, with or without a `partial`/`missing` marker) are not errors: `missing` lists
 * the absent parts and that part is null.
 */
export function normalizeEpfoCredit(
	body: unknown,
	sentMobile: string | null = null,
): EpfoCreditSummary {
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
		readScore(credit.credit_score).scoreKind !== null ||
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
			// the sample shape states no durations: from the dates
			const uan = toText(epfo.uan);
			const facts = employmentFacts(epfo.employment_history, false, NOT_DECLARED, uan);
			employment = {
				uan,
				uanSource: toText(epfo.uan_source),
				employerCount: facts.employerCount,
				currentEmployer: facts.currentEmployer,
				totalTenureMonths: facts.totalTenureMonths,
				employers: facts.employers,
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
			// the reference shape states service_duration_months and the employer count
			const uan = toText(epfo.uan);
			const facts = employmentFacts(
				epfo.employment_history,
				true,
				declaredCount(epfo, 'total_employers'),
				uan,
			);
			employment = {
				uan,
				uanSource: null,
				employerCount: facts.employerCount,
				currentEmployer: facts.currentEmployer,
				totalTenureMonths: facts.totalTenureMonths,
				employers: facts.employers,
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
		// the number that was sent, when a partial answer does not echo it
		mobileNumber: toText(first(data.mobile_number, member.mobile)) ?? sentMobile,
		partial: toBoolean(first(object.partial, data.partial)) === true || missingList.length > 0,
		missing: missingList,
		hasEmployment,
		hasCredit,
		member,
		employment,
		credit: creditSummary,
	};
}

/**
 * What an EPFO + credit answer must carry: one of its parts, in either shape. One missing part is a
 * partial answer (partial, missing); neither is an error (the transport's requiredField).
 */
export const EPFO_CREDIT_REQUIRED = 'data.epfo|data.crif|data.credit_report|data.credit';
