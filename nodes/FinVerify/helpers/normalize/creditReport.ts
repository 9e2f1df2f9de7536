import type { IDataObject } from 'n8n-workflow';

import type { Shape } from './common';
import {
	asArray,
	asObject,
	delinquencyOf,
	first,
	firstArrayLength,
	isObject,
	parseDaysPastDue,
	toBoolean,
	toIsoTimestamp,
	toLowerText,
	toNumber,
	toText,
	toUpperText,
	unwrap,
} from './common';

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
	/** Credit score as a number (the sample shape sends it as text). */
	score: number | null;
	/** Link to the bureau's report document; null when the service sent none or an empty string. */
	reportLink: string | null;
	name: string | null;
	pan: string | null;
	mobile: string | null;
	gender: string | null;
	/**
	 * Number of credit accounts in the report: 0 for a report listing none, null when there is no
	 * report.
	 */
	accountCount: number | null;
	/**
	 * Number of enquiries in the report: 0 for a report listing none; null when there is no report or
	 * the bureau's own layout (CRIF, Experian in the sample shape) does not list enquiries.
	 */
	enquiryCount: number | null;
	/** Worst days past due over the report's accounts in their last 12 reported months. */
	maxDaysPastDue: number | null;
	/** Account-months with any days past due in the last 12 reported months. */
	delinquentMonths: number | null;
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
	/** Score per bureau, for quick expressions like `$json.scores.cibil`. */
	scores: IDataObject;
	successfulBureaus: string[];
	failedBureaus: string[];
	lowestScore: number | null;
	highestScore: number | null;
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
function reportScore(report: IDataObject): number | null {
	for (const detail of asArray(equifaxReportData(report).ScoreDetails)) {
		const value = toNumber(asObject(detail).Value);
		if (value !== null) return value;
	}
	const cibilScore = toNumber(asObject(asArray(cibilReportData(report).scores)[0]).score);
	const score = asObject(report.SCORE);
	return first<number>(toNumber(score.BureauScore), toNumber(score['SCORE-VALUE']), cibilScore);
}

const hasReport = (report: unknown) => isObject(report) && Object.keys(report).length > 0;

function sampleAccountCount(report: IDataObject): number | null {
	const cais = asObject(report.CAIS_Account);
	const count = firstArrayLength(
		report.accounts,
		equifaxReportData(report).RetailAccountDetails,
		cais.CAIS_Account_DETAILS,
		cibilReportData(report).accounts,
		crifResponses(report),
	);
	return count ?? (hasReport(report) ? 0 : null);
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
		toNumber(asObject(equifax.EnquirySummary).Total),
	);
}

/** Days-past-due histories of every account, from whichever bureau layout the report has. */
function sampleHistories(report: IDataObject): number[][] {
	const histories: number[][] = [];
	for (const raw of asArray(equifaxReportData(report).RetailAccountDetails)) {
		histories.push(
			asArray(asObject(raw).History48Months).flatMap((m) =>
				parseDaysPastDue(asObject(m).PaymentStatus),
			),
		);
	}
	for (const raw of asArray(asObject(report.CAIS_Account).CAIS_Account_DETAILS)) {
		histories.push(
			asArray(asObject(raw).CAIS_Account_History)
				.map((m) => toNumber(asObject(m).Days_Past_Due))
				.filter((d): d is number => d !== null),
		);
	}
	for (const raw of asArray(cibilReportData(report).accounts)) {
		histories.push(parseDaysPastDue(asObject(raw).paymentHistory));
	}
	for (const raw of crifResponses(report) ?? []) {
		histories.push(
			parseDaysPastDue(asObject(asObject(raw)['LOAN-DETAILS'])['COMBINED-PAYMENT-HISTORY']),
		);
	}
	return histories;
}

function referenceOutcome(bureau: string, entry: IDataObject): BureauOutcome {
	const report = asObject(entry.report);
	const score = toNumber(first(entry.score, entry.credit_score));
	const declared = toBoolean(entry.success);
	const hasData = score !== null || Object.keys(report).length > 0;
	return {
		bureau,
		success: declared ?? hasData,
		message: toText(first(entry.message, entry.error)) ?? (hasData ? null : 'No report returned'),
		score,
		reportLink: toText(first(entry.report_link, entry.credit_report_link, report.report_link)),
		name: toText(first(report.name, entry.name)),
		pan: toUpperText(first(report.pan, entry.pan)),
		mobile: toText(first(report.mobile, report.mobile_number, entry.mobile)),
		gender: toLowerText(first(report.gender, entry.gender)),
		accountCount: firstArrayLength(report.accounts) ?? (hasReport(report) ? 0 : null),
		enquiryCount:
			firstArrayLength(report.inquiries, report.enquiries) ?? (hasReport(report) ? 0 : null),
		...delinquencyOf(
			asArray(report.payment_history).map((h) => parseDaysPastDue(asObject(h).history)),
		),
	};
}

function sampleOutcome(bureau: string, entry: IDataObject): BureauOutcome {
	const data = asObject(entry.data);
	const report = asObject(data.credit_report);
	const score = toNumber(first(data.credit_score, data.score)) ?? reportScore(report);
	const declared = toBoolean(entry.success);
	return {
		bureau,
		success: declared ?? score !== null,
		message: toText(entry.message),
		score,
		reportLink: toText(entry.credit_report_link),
		name: toText(data.name),
		pan: toUpperText(data.pan),
		mobile: toText(first(data.mobile, data.mobile_number)),
		gender: toLowerText(data.gender),
		accountCount: sampleAccountCount(report),
		enquiryCount: sampleEnquiryCount(report),
		...delinquencyOf(sampleHistories(report)),
	};
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
		reportLink: null,
		name: null,
		pan: null,
		mobile: null,
		gender: null,
		accountCount: null,
		enquiryCount: null,
		maxDaysPastDue: null,
		delinquentMonths: null,
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
	for (const outcome of bureaus) scores[outcome.bureau] = outcome.score;
	const numbers = bureaus.map((o) => o.score).filter((s): s is number => s !== null);
	const successful = bureaus.filter((o) => o.success).map((o) => o.bureau);
	const declaredSuccess = toBoolean(object.success);
	const status = toLowerText(object.status);

	return {
		shape,
		success: declaredSuccess ?? (status !== null ? status === 'success' : successful.length > 0),
		message: toText(object.message),
		requestId: toText(first(object.request_id, object.doc_id)),
		reportedAt: toIsoTimestamp(object.timestamp),
		pan: toUpperText(first(object.pan, ...bureaus.map((o) => o.pan))),
		bureaus,
		scores,
		successfulBureaus: successful,
		failedBureaus: bureaus.filter((o) => !o.success).map((o) => o.bureau),
		lowestScore: numbers.length ? Math.min(...numbers) : null,
		highestScore: numbers.length ? Math.max(...numbers) : null,
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
	/** Size of the HTML report in bytes (UTF-8), 0 when none came back. */
	reportSize: number;
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
	const status = toLowerText(object.status);
	const declared = toBoolean(object.success);
	return {
		success: declared ?? (status !== null ? status === 'success' : html !== null),
		message: toText(object.message),
		businessName: toText(data.business_name),
		pan: toUpperText(data.pan),
		reportType: toLowerText(data.report_type),
		reportUrl: toText(data.report_url),
		generatedAt: toIsoTimestamp(data.generated_at),
		reportSize: html === null ? 0 : Buffer.byteLength(html, 'utf8'),
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

/** What a multi-bureau answer lacks to be about anyone (stub). */
export function creditAnswerLacks(summary: MultiBureauSummary): string[] {
	return summary.pan === null && summary.bureaus.every((b) => b.success === false) ? ['pan'] : [];
}
