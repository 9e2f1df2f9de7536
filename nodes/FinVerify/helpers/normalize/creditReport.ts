import type { IDataObject } from 'n8n-workflow';

import type { HistoryMonth, ScoreKind, Shape, WorstAssetClass } from './common';
import type { CreditAccountDetail } from './adverse';
import { ADVERSE_DETAIL, withAdverseDetail } from './adverse';
import {
	accountHistory,
	datedAccountHistory,
	readDatedHistory,
	accountIdentity,
	asArray,
	asObject,
	field,
	first,
	firstArrayLength,
	HISTORY_NAMES,
	knownHistoryFacts,
	readHistory,
	readScore,
	toBoolean,
	toLowerText,
	toStatusWord,
	toUpperText,
	unwrap,
} from './common';
import { agreeingCount, distinctEntries, inRange, RANGES, toCount } from './grammar';
import { isObject, toIsoTimestamp, toText } from '../../../shared/values';

/**
 * Credit report normalizers (operations multiBureauFetch and commercialReportFetch). Pure and
 * tolerant: any field may be missing, in which case the simplified field is null (or an empty
 * list); nothing here throws.
 */

const KNOWN_BUREAUS = ['equifax', 'experian', 'cibil', 'crif'] as const;

/** What one bureau answered, the same whichever response shape came back. */
export interface BureauOutcome extends IDataObject {
	bureau: string;
	success: boolean;
	message: string | null;
	/**
	 * Credit score (300 to 900) as a number (the sample shape sends it as text). Null when the bureau
	 * sent none, or sent a special value instead (see scoreKind).
	 */
	score: number | null;
	/**
	 * `score`, `noHistory` (CIBIL -1: no credit history) or `new` (CIBIL 0: under six months of
	 * history; 1 to 5: a new-to-credit risk rank); null when no score came.
	 */
	scoreKind: ScoreKind | null;
	/** The special value as sent (-1, 0, 1 to 5) when scoreKind is noHistory or new. */
	specialScore: number | null;
	/** Link to the bureau's report document; null when the service sent none or an empty string. */
	reportLink: string | null;
	name: string | null;
	pan: string | null;
	mobile: string | null;
	gender: string | null;
	/**
	 * Number of credit accounts in the report, each account (number and lender) once: 0 for a report
	 * listing none, null when there is no account list (or an empty one next to a score or payment
	 * history, which need accounts), when an account is listed twice with different facts (or twice
	 * without a number and lender), or when the report's own account summary states another count.
	 */
	accountCount: number | null;
	/**
	 * Number of enquiries in the report: 0 for a report listing none; null when there is no report or
	 * the bureau's own layout (CRIF, Experian in the sample shape) does not list enquiries.
	 */
	enquiryCount: number | null;
	/**
	 * Worst days past due over the report's accounts in their last 12 reported months. Null when any
	 * account's payment history is missing or cannot be read (see missing).
	 */
	maxDaysPastDue: number | null;
	/** Account-months with any days past due in the last 12 reported months (null as above). */
	delinquentMonths: number | null;
	/**
	 * The gravest asset class a month of the accounts' last 12 reported months states: `STD`, `SMA`
	 * (SMA-0), `SMA-1`, `SMA-2`, `SUB`, `DBT`, `LSS` (SUB, DBT and LSS are non-performing: the month
	 * counts at least 90 days past due in maxDaysPastDue). `none` when the histories are known and no
	 * month states a class, or the report lists no account; null when unknown (as maxDaysPastDue).
	 */
	worstAssetClass: WorstAssetClass | null;
	/**
	 * Length of credit history in months (0 to 840), where the bureau's report states it (CRIF);
	 * null otherwise or when out of range.
	 */
	lengthOfHistoryMonths: number | null;
	/**
	 * The decision facts this bureau's answer leaves unknown: `score`, `accounts`, `paymentHistory`.
	 * Empty when all are known.
	 */
	missing: string[];
}

/** What lowestScore and highestScore cover. */
export interface ScoreCoverage extends IDataObject {
	/** Bureaus in the answer (requested ones the service left out included). */
	bureaus: number;
	/** Bureaus with a score (300 to 900). */
	scored: number;
	/** Bureaus with a special value instead (no history, new to credit). */
	special: number;
	/** Bureaus whose score is unknown: failed, left out, or successful without a score. */
	unknown: number;
	/** True when no bureau's score is unknown: only then are lowestScore and highestScore set. */
	complete: boolean;
}

export interface MultiBureauSummary extends IDataObject {
	shape: Shape;
	success: boolean;
	message: string | null;
	/** reference `request_id`, sample `doc_id`. */
	requestId: string | null;
	/** When the service produced the reports (reference shape's `timestamp`), ISO 8601. */
	reportedAt: string | null;
	pan: string | null;
	/** One outcome per bureau, in the order requested (then any others the service added). */
	bureaus: BureauOutcome[];
	/** Score per bureau, for quick expressions like `$json.scores.cibil` (null: no score). */
	scores: IDataObject;
	/** scoreKind per bureau (`score`, `noHistory`, `new`, or null when unknown). */
	scoreKinds: IDataObject;
	successfulBureaus: string[];
	failedBureaus: string[];
	/**
	 * Lowest score over the bureaus with a score; null unless every bureau's score is known (see
	 * coverage): a failed bureau could have held the lowest. Special values never count.
	 */
	lowestScore: number | null;
	highestScore: number | null;
	coverage: ScoreCoverage;
}

/** Equifax sample report: CCRResponse.CIRReportDataLst[0] (optionally wrapping CIRReportData). */
function equifaxReportData(report: IDataObject): IDataObject {
	const ccr = asObject(report.CCRResponse);
	const list = asArray(ccr.CIRReportDataLst);
	const entry = asObject(list[0]);
	return isObject(entry.CIRReportData) ? entry.CIRReportData : entry;
}

/** CIBIL sample report: consumerCreditData[0]. */
function cibilReportData(report: IDataObject): IDataObject {
	return asObject(asArray(report.consumerCreditData)[0]);
}

/** CRIF sample report: RESPONSES.RESPONSE, an array or a single object. */
function crifResponses(report: IDataObject): unknown[] | undefined {
	const responses = asObject(report.RESPONSES).RESPONSE;
	if (Array.isArray(responses)) return responses;
	return isObject(responses) ? [responses] : undefined;
}

/** The score inside a bureau's own report layout, when the entry has no `credit_score`. */
function reportScore(report: IDataObject): unknown {
	for (const detail of asArray(equifaxReportData(report).ScoreDetails)) {
		const value = asObject(detail).Value;
		if (toText(value) !== null) return value;
	}
	const score = asObject(report.SCORE);
	return first(
		score.BureauScore,
		score['SCORE-VALUE'],
		asObject(asArray(cibilReportData(report).scores)[0]).score,
	);
}

/**
 * The account list of a bureau report, in whichever layout it came: the reference `accounts`,
 * Equifax RetailAccountDetails, Experian CAIS_Account_DETAILS, CIBIL accounts, CRIF RESPONSE (each
 * account's LOAN-DETAILS). Undefined when the report has none of them.
 */
function reportAccounts(report: IDataObject): unknown[] | undefined {
	const candidates: unknown[] = [
		report.accounts,
		equifaxReportData(report).RetailAccountDetails,
		asObject(report.CAIS_Account).CAIS_Account_DETAILS,
		cibilReportData(report).accounts,
	];
	for (const list of candidates) if (Array.isArray(list)) return list;
	return crifResponses(report)?.map((raw) =>
		isObject(raw) && isObject(raw['LOAN-DETAILS']) ? raw['LOAN-DETAILS'] : raw,
	);
}

function sampleEnquiryCount(report: IDataObject): number | null {
	const equifax = equifaxReportData(report);
	return first<number>(
		firstArrayLength(
			report.inquiries,
			report.enquiries,
			equifax.Enquiries,
			cibilReportData(report).enquiries,
		),
		toCount(asObject(equifax.EnquirySummary).Total),
	);
}

/**
 * Months of credit history a CRIF report states (DERIVED-ATTRIBUTES: years, and months from 0 to
 * 11), or null when either is missing or out of range, or the total is above 840 months.
 */
export function crifHistoryMonths(report: IDataObject): number | null {
	const derived = asObject(asObject(report['ACCOUNTS-SUMMARY'])['DERIVED-ATTRIBUTES']);
	const years = toCount(derived['LENGTH-OF-CREDIT-HISTORY-YEAR']);
	const months = inRange(derived['LENGTH-OF-CREDIT-HISTORY-MONTH'], {
		min: 0,
		max: 11,
		integer: true,
	});
	return years === null || months === null
		? null
		: inRange(years * 12 + months, RANGES.tenureMonths);
}

/**
 * The account count a bureau's own summary states (Equifax RetailAccountsSummary, Experian
 * CAIS_Summary, CRIF's primary and secondary summaries), or null when it states none or an
 * impossible one (negative, fractional).
 */
function summaryAccountCount(report: IDataObject): number | null {
	const equifax = asObject(equifaxReportData(report).RetailAccountsSummary);
	if ('NoOfAccounts' in equifax) return toCount(equifax.NoOfAccounts);
	const experian = asObject(asObject(asObject(report.CAIS_Account).CAIS_Summary).Credit_Account);
	if ('CreditAccountTotal' in experian) return toCount(experian.CreditAccountTotal);
	const summaries = asObject(report['ACCOUNTS-SUMMARY']);
	const count = (name: string, keys: string[]): number | null | undefined => {
		const summary = asObject(summaries[name]);
		const key = keys.find((k) => k in summary);
		return key === undefined ? undefined : toCount(summary[key]);
	};
	const primary = count('PRIMARY-ACCOUNTS-SUMMARY', [
		'NUMBER-OF-ACCOUNTS',
		'PRIMARY-NUMBER-OF-ACCOUNTS',
	]);
	const secondary = count('SECONDARY-ACCOUNTS-SUMMARY', [
		'NUMBER-OF-ACCOUNTS',
		'SECONDARY-NUMBER-OF-ACCOUNTS',
	]);
	if (primary === undefined || primary === null || secondary === null) return null;
	return primary + (secondary ?? 0);
}

/**
 * The facts of one bureau's report read the same way for every layout: the account count (each
 * account once, see accountIdentity; checked against the report's own summary), the delinquency and
 * the gravest asset class over every account's history, and what is unknown. `historiesOf` gives the
 * histories for the distinct accounts (null when they cannot be had).
 */
function reportFacts(
	accounts: unknown[] | undefined,
	historiesOf: (distinct: unknown[] | null) => Array<HistoryMonth[] | null> | null,
	kind: ScoreKind | null,
	declaredCount: number | null = null,
): Pick<
	BureauOutcome,
	'accountCount' | 'maxDaysPastDue' | 'delinquentMonths' | 'worstAssetClass' | 'missing'
> {
	// an account listed twice counts once; two listings of one account that disagree, or two
	// deep-equal listings without a number and lender, make the list (and its histories) unknown
	const distinct =
		accounts === undefined ? null : distinctEntries(accounts, accountIdentity).entries;
	const histories = historiesOf(distinct);
	const hasHistory = histories !== null && histories.length > 0;
	const listed = distinct?.length ?? null;
	// a score (300-900) or a payment history needs accounts: an empty list next to them is a list
	// the service did not send, not a file without accounts
	const fromList =
		listed === null ? null : listed === 0 && (kind === 'score' || hasHistory) ? null : listed;
	const accountCount =
		accounts !== undefined && distinct === null ? null : agreeingCount(declaredCount, fromList);
	const facts = knownHistoryFacts(histories ?? []);
	const missing: string[] = [];
	if (kind === null) missing.push('score');
	if (accountCount === null) missing.push('accounts');
	if (facts.maxDaysPastDue === null && accountCount !== 0) missing.push('paymentHistory');
	return {
		accountCount,
		maxDaysPastDue: facts.maxDaysPastDue,
		delinquentMonths: facts.delinquentMonths,
		worstAssetClass: accountCount === 0 ? 'none' : facts.worstAssetClass,
		missing,
	};
}

/** The account a reference payment_history line belongs to (its account number), or null. */
const lineIdentity = (line: unknown): string | null =>
	toText(field(line, ['account_number']))?.toUpperCase() ?? null;

function referenceOutcome(bureau: string, entry: IDataObject): BureauOutcome {
	const report = asObject(entry.report);
	const read = readScore(first(entry.score, entry.credit_score));
	const declared = toBoolean(entry.success);
	const hasData = read.scoreKind !== null || Object.keys(report).length > 0;
	// the reference report keeps the histories apart from the accounts, one payment_history line per
	// account, and nowhere else: without the lines (missing, null, or fewer than the accounts) the
	// delinquency is unknown, never read from another figure such as an account's current days past due
	// (a line listed twice, by its account number, is read once; twice with different histories, the
	// delinquency is unknown)
	const accounts = Array.isArray(report.accounts) ? report.accounts : undefined;
	const sent = Array.isArray(report.payment_history) ? report.payment_history : null;
	const lines = sent === null ? null : distinctEntries(sent, lineIdentity).entries;
	const historiesOf = (distinct: unknown[] | null) =>
		lines && (accounts === undefined || (distinct !== null && lines.length >= distinct.length))
			? lines.map((line) => readHistory(isObject(line) ? field(line, HISTORY_NAMES) : line))
			: null;
	// the adverse facts (adverse.ts) follow the lines the delinquency is read from: each line with its
	// account (by number; else the account in its place when as many are listed), then the accounts no
	// line names (their status: written off, settled)
	const listed =
		accounts === undefined ? [] : (distinctEntries(accounts, accountIdentity).entries ?? accounts);
	const used = new Set<unknown>();
	const details: CreditAccountDetail[] = (lines ?? []).map((line, index) => {
		const number = lineIdentity(line);
		const byNumber = number === null ? undefined : listed.find((a) => lineIdentity(a) === number);
		const account =
			byNumber ??
			(listed.length === (lines ?? []).length && !used.has(listed[index])
				? listed[index]
				: { account_number: number });
		used.add(account);
		return {
			account,
			months: readDatedHistory(isObject(line) ? field(line, HISTORY_NAMES) : line),
		};
	});
	for (const account of listed) if (!used.has(account)) details.push({ account, months: null });
	return withAdverseDetail<BureauOutcome>(
		{
			bureau,
			success: declared ?? hasData,
			message: toText(first(entry.message, entry.error)) ?? (hasData ? null : 'No report returned'),
			...read,
			reportLink: toText(first(entry.report_link, entry.credit_report_link, report.report_link)),
			name: toText(first(report.name, entry.name)),
			pan: toUpperText(first(report.pan, entry.pan)),
			mobile: toText(first(report.mobile, report.mobile_number, entry.mobile)),
			gender: toLowerText(first(report.gender, entry.gender)),
			enquiryCount: firstArrayLength(report.inquiries, report.enquiries),
			lengthOfHistoryMonths: inRange(
				first(report.length_of_credit_history_months, report.credit_history_months),
				RANGES.tenureMonths,
			),
			...reportFacts(accounts, historiesOf, read.scoreKind),
		},
		details,
	);
}

function sampleOutcome(bureau: string, entry: IDataObject): BureauOutcome {
	const data = asObject(entry.data);
	const report = asObject(data.credit_report);
	const sent = first(data.credit_score, data.score);
	const read = readScore(sent ?? reportScore(report));
	const declared = toBoolean(entry.success);
	const accounts = reportAccounts(report);
	// each account with its dated months, for the adverse facts (adverse.ts)
	const details: CreditAccountDetail[] = (
		accounts === undefined ? [] : (distinctEntries(accounts, accountIdentity).entries ?? accounts)
	).map((account) => ({ account, months: datedAccountHistory(account) }));
	return withAdverseDetail<BureauOutcome>(
		{
			bureau,
			success: declared ?? read.scoreKind !== null,
			message: toText(entry.message),
			...read,
			reportLink: toText(entry.credit_report_link),
			name: toText(data.name),
			pan: toUpperText(data.pan),
			mobile: toText(first(data.mobile, data.mobile_number)),
			gender: toLowerText(data.gender),
			enquiryCount: sampleEnquiryCount(report),
			lengthOfHistoryMonths: crifHistoryMonths(report),
			...reportFacts(
				accounts,
				(distinct) => (distinct && distinct.length > 0 ? distinct.map(accountHistory) : null),
				read.scoreKind,
				summaryAccountCount(report),
			),
		},
		details,
	);
}

/**
 * Which layout `bureauReport` returns for a body: the reference shape's one layout for every
 * bureau, or the bureau's own layout (`cibil`, `crif`, `equifax`, `experian`) in the sample shape.
 */
export function bureauReportLayout(body: unknown, bureau: string): string {
	return isObject(asObject(body).results) ? bureau.toLowerCase() : 'reference';
}

/**
 * The bureau's full report object as the service sent it (for the "include full report" option).
 */
export function bureauReport(body: unknown, bureau: string): IDataObject | null {
	const object = asObject(body);
	if (isObject(object.results)) {
		const report = asObject(asObject(object.results[bureau]).data).credit_report;
		return isObject(report) ? report : null;
	}
	const report = asObject(unwrap(object)[bureau]).report;
	return isObject(report) ? report : null;
}

function missingOutcome(bureau: string): BureauOutcome {
	return {
		bureau,
		success: false,
		message: 'The service returned no result for this bureau',
		score: null,
		scoreKind: null,
		specialScore: null,
		reportLink: null,
		name: null,
		pan: null,
		mobile: null,
		gender: null,
		accountCount: null,
		enquiryCount: null,
		maxDaysPastDue: null,
		delinquentMonths: null,
		worstAssetClass: null,
		lengthOfHistoryMonths: null,
		missing: ['score', 'accounts', 'paymentHistory'],
	};
}

/**
 * Multi-bureau report, either shape, to one stable object. `requested` (the bureaus asked for)
 * fixes the order and adds an unsuccessful outcome for a requested bureau the service left out.
 */
export function normalizeMultiBureau(
	body: unknown,
	requested: readonly string[] = [],
): MultiBureauSummary {
	const object = asObject(body);
	const isSample = isObject(object.results);
	const shape: Shape = isSample ? 'sample' : 'reference';
	const entries = isSample ? asObject(object.results) : unwrap(object);

	const outcomes = new Map<string, BureauOutcome>();
	for (const [key, value] of Object.entries(entries)) {
		const bureau = key.toLowerCase();
		// the reference `data` object has only bureau keys; skip anything else that is not a bureau entry
		if (!isObject(value)) continue;
		if (
			!isSample &&
			!(KNOWN_BUREAUS as readonly string[]).includes(bureau) &&
			!('score' in value || 'report' in value)
		) {
			continue;
		}
		outcomes.set(bureau, isSample ? sampleOutcome(bureau, value) : referenceOutcome(bureau, value));
	}

	const order = [...new Set(requested.map((b) => b.toLowerCase()))];
	const bureaus: BureauOutcome[] = [
		...order.map((b) => outcomes.get(b) ?? missingOutcome(b)),
		...[...outcomes.values()].filter((o) => !order.includes(o.bureau)),
	];

	const scores: IDataObject = {};
	const scoreKinds: IDataObject = {};
	for (const outcome of bureaus) {
		scores[outcome.bureau] = outcome.score;
		scoreKinds[outcome.bureau] = outcome.scoreKind;
	}
	const numbers = bureaus.map((o) => o.score).filter((s): s is number => s !== null);
	const unknown = bureaus.filter((o) => o.scoreKind === null).length;
	const coverage: ScoreCoverage = withAdverseDetail(
		{
			bureaus: bureaus.length,
			scored: numbers.length,
			special: bureaus.filter((o) => o.scoreKind === 'noHistory' || o.scoreKind === 'new').length,
			unknown,
			complete: unknown === 0,
		},
		// each bureau's accounts, for the adverse facts of an output that copies the outcomes
		Object.fromEntries(
			bureaus.map((o) => [o.bureau, (o as unknown as Record<symbol, unknown>)[ADVERSE_DETAIL]]),
		),
	);
	const ranked = coverage.complete && numbers.length > 0;
	const successful = bureaus.filter((o) => o.success).map((o) => o.bureau);
	const declaredSuccess = toBoolean(object.success);
	const status = toStatusWord(object.status);

	return {
		shape,
		success: declaredSuccess ?? (status !== null ? status === 'success' : successful.length > 0),
		message: toText(object.message),
		requestId: toText(first(object.request_id, object.doc_id)),
		reportedAt: toIsoTimestamp(object.timestamp),
		pan: toUpperText(first(object.pan, ...bureaus.map((o) => o.pan))),
		bureaus,
		scores,
		scoreKinds,
		successfulBureaus: successful,
		failedBureaus: bureaus.filter((o) => !o.success).map((o) => o.bureau),
		lowestScore: ranked ? Math.min(...numbers) : null,
		highestScore: ranked ? Math.max(...numbers) : null,
		coverage,
	};
}

export interface CommercialReportSummary extends IDataObject {
	success: boolean;
	message: string | null;
	businessName: string | null;
	pan: string | null;
	reportType: string | null;
	reportUrl: string | null;
	generatedAt: string | null;
	/** Size of the HTML report in bytes (UTF-8); null when none came back. */
	reportSize: number | null;
}

/** The HTML report string of a commercial report response, or null. */
export function commercialReportHtml(body: unknown): string | null {
	const data = unwrap(body);
	const report = first(data.report, data.report_html, data.html);
	return typeof report === 'string' && report.trim() !== '' ? report : null;
}

/**
 * Commercial report to a stable object. The HTML itself is not included here (see
 * commercialReportHtml).
 */
export function normalizeCommercialReport(body: unknown): CommercialReportSummary {
	const object = asObject(body);
	const data = unwrap(object);
	const html = commercialReportHtml(object);
	const status = toStatusWord(object.status);
	const declared = toBoolean(object.success);
	return {
		success: declared ?? (status !== null ? status === 'success' : html !== null),
		message: toText(object.message),
		businessName: toText(data.business_name),
		pan: toUpperText(data.pan),
		reportType: toLowerText(data.report_type),
		reportUrl: toText(data.report_url),
		generatedAt: toIsoTimestamp(data.generated_at),
		reportSize: html === null ? null : Buffer.byteLength(html, 'utf8'),
	};
}

/**
 * A file-name-safe slug: "Acme Traders Pvt. Ltd." → "acme-traders-pvt-ltd". Letters outside a-z and
 * digits are dropped; an empty result falls back to the given default.
 */
export function slugify(value: string, fallback = 'report', maxLength = 80): string {
	const slug = value
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/&/g, ' and ')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, maxLength)
		.replace(/-+$/g, '');
	return slug === '' ? fallback : slug;
}

/** `acme-traders-credit-report.html` from "Acme Traders". */
export function commercialReportFileName(businessName: string): string {
	return `${slugify(businessName, 'business')}-credit-report.html`;
}

/**
 * What a multi-bureau answer must carry to be about anyone: the PAN (sample shape) or a bureau's
 * result. The transport's requiredField: an answer with none of them (`{}`, `data: null`) is an
 * error naming them, never an all-unknown report.
 */
export const MULTI_BUREAU_REQUIRED = [
	'pan',
	'results',
	...KNOWN_BUREAUS.map((bureau) => `data.${bureau}`),
].join('|');

/** What a commercial report answer must carry: the PAN, the business name, the report or its link. */
export const COMMERCIAL_REQUIRED = 'data.pan|data.business_name|data.report|data.report_url';
