import type { IDataObject } from 'n8n-workflow';

import type { Shape } from './common';
import {
	asArray,
	asObject,
	first,
	toIsoDate,
	toNumber,
	toStatusWord,
	toUpperText,
	unwrap,
} from './common';
import { isObject, toIsoTimestamp, toText } from '../../../shared/values';
import { toStatusText } from './statusText';
import { canonical, distinctEntries, toAmount, toSignedAmount } from './grammar';

/**
 * Income-tax return (ITR analyzer) responses, read from either documented shape into one stable
 * output. Pure and tolerant: missing or odd fields become null, nothing throws.
 */

// ---------------------------------------------------------------- analysis job

/**
 * The job states are `processing` and `completed` (ItrJobStatus in openapi/finverify.openapi.yaml);
 * any other status passes through as the service sent it (lowercased). The failure words are not
 * documented: should the service send one, the wait for a final status ends there instead of
 * running to its time limit.
 */
const FINAL_JOB_STATUSES = new Set(['completed', 'failed', 'error', 'cancelled']);

export interface AnalysisJob extends IDataObject {
	jobId: string | null;
	status: string | null;
	progress: number | null;
	/** False while the job runs, and when the answer says no status (a wait then keeps polling). */
	isFinal: boolean;
	/** Null when the answer says no status. */
	isComplete: boolean | null;
	message: string | null;
}

/**
 * Start Analysis and Get Analysis Status answers:
 * `{success, message?, data:{job_id, status, progress?}}` (assumed shape).
 */
export function normalizeAnalysisJob(body: unknown): AnalysisJob {
	const outer = asObject(body);
	const data = unwrap(body);
	const status = toStatusWord(data.status)?.replace(/[\s-]+/g, '_') ?? null;
	return {
		jobId: toText(first(data.job_id, data.jobId)),
		status,
		progress: toNumber(data.progress),
		isFinal: status !== null && FINAL_JOB_STATUSES.has(status),
		isComplete: status === null ? null : status === 'completed',
		message: toText(first(data.message, outer.message)),
	};
}

/** What a job status answer (Get Analysis Status, and its polls) must carry: the job's status. */
export const JOB_STATUS_REQUIRED = 'data.status';

// ---------------------------------------------------------------- password reset

export interface PasswordResetState extends IDataObject {
	clientId: string | null;
	status: string | null;
	message: string | null;
}

/**
 * Reset Portal Password and its OTP confirmation: `{success, data:{client_id, status, message}}`.
 */
export function normalizePasswordReset(body: unknown): PasswordResetState {
	const outer = asObject(body);
	const data = unwrap(body);
	return {
		clientId: toText(data.client_id),
		status: toStatusWord(data.status),
		message: toText(first(data.message, outer.message)),
	};
}

/** What a password reset (or its OTP confirmation) answer must carry: the reset's status. */
export const PASSWORD_RESET_REQUIRED = 'data.status';

// ---------------------------------------------------------------- ITR data

export interface IncomeHeads extends IDataObject {
	salary: number | null;
	houseProperty: number | null;
	businessProfession: number | null;
	capitalGains: number | null;
	otherSources: number | null;
}

export interface ItrFiling extends IDataObject {
	assessmentYear: string | null;
	form: string | null;
	filingDate: string | null;
	filingType: string | null;
	filingSection: string | null;
	filedBy: string | null;
	acknowledgementNumber: string | null;
	/** Latest status of the return (sample: last entry of itr_status). */
	status: string | null;
	statusDate: string | null;
	refundStatus: string | null;
	grossTotalIncome: number | null;
	totalDeductions: number | null;
	taxableIncome: number | null;
	taxPayable: number | null;
	tdsAmount: number | null;
	advanceTax: number | null;
	selfAssessmentTax: number | null;
	refundAmount: number | null;
	demandAmount: number | null;
	incomeHeads: IncomeHeads;
	/** Link to the filed return document (sample shape), or null. */
	downloadLink: string | null;
}

export interface ItrProfile extends IDataObject {
	pan: string | null;
	name: string | null;
	dateOfBirth: string | null;
	gender: string | null;
	category: string | null;
	status: string | null;
	mobile: string | null;
	email: string | null;
	address: string | null;
	city: string | null;
	state: string | null;
	pinCode: string | null;
	aadhaarNumber: string | null;
	aadhaarStatus: string | null;
}

export interface ItrData extends IDataObject {
	shape: Shape;
	jobId: string | null;
	pan: string | null;
	name: string | null;
	status: string | null;
	filingStatus: string | null;
	profile: ItrProfile;
	filings: ItrFiling[];
	/**
	 * How many returns the answer lists, a return listed twice once; null when it carries no list, an
	 * empty one (a finished analysis without a single return is not told apart from a lost list), a
	 * null entry, or two copies of one return that disagree.
	 */
	filingCount: number | null;
	/**
	 * The newest return; null when a listed return has no readable assessment year (which one is
	 * newest is then unknown), when the list is unknown (as filingCount), or when two returns of the
	 * newest year do not say by their filing dates which came last.
	 */
	latestFiling: ItrFiling | null;
	tds: IDataObject[];
	outstandingDemands: IDataObject[];
}

/**
 * An assessment year as `YYYY-YY`, read from `2024-25`, `2024-2025`, `2024_25`, `2024/25` (spaces
 * around the separator allowed) with an optional `AY`, `A.Y.` or `AY:` before it. The two years must
 * follow each other (`2024-26`, `2024-2026` are not a year), and the first may not be after the
 * current year (a return for it cannot have been filed yet) nor before 1950. Anything else, a bare
 * year among it (`2024`: the assessment or the financial year?), is unknown (null).
 */
export function toAssessmentYear(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const m = /^(?:A\.?\s*Y\.?\s*:?\s*)?(\d{4})\s*[-_/]\s*(\d{2}|\d{4})$/i.exec(text.trim());
	if (!m) return null;
	const start = Number(m[1]);
	const end = Number(m[2]);
	const follows = m[2].length === 4 ? end === start + 1 : end === (start + 1) % 100;
	if (!follows || start < 1950 || start > new Date().getUTCFullYear()) return null;
	return `${m[1]}-${m[2].slice(-2)}`;
}

/** Form name as `ITR-1`…`ITR-7`, from `ITR-1`, `ITR1`, `itr 1` or `1`. */
export function toItrForm(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const m = /^(?:itr)?\s*[-_ ]?\s*(\d)([A-Z])?$/i.exec(text);
	return m ? `ITR-${m[1]}${m[2]?.toUpperCase() ?? ''}` : text.toUpperCase();
}

/** How a figure is read: an amount that is never negative, or one that may be (a loss). */
type Reader = (value: unknown) => number | null;

/**
 * The figure under the first of the given keys the given objects carry (null and blank are not
 * carried), read with `read`: a value outside its range is unknown (null), never passed over for the
 * next key.
 */
function pick(sources: IDataObject[], keys: string[], read: Reader = toAmount): number | null {
	for (const source of sources) {
		for (const key of keys) {
			const value = source[key];
			if (value !== undefined && value !== null && value !== '') return read(value);
		}
	}
	return null;
}

function incomeHeads(sources: IDataObject[]): IncomeHeads {
	return {
		salary: pick(sources, ['salary', 'income_from_salary', 'salary_income']),
		// a house, a business, capital gains or other sources may make a loss
		houseProperty: pick(
			sources,
			['house_property', 'income_from_house_property', 'house_property_income'],
			toSignedAmount,
		),
		businessProfession: pick(
			sources,
			[
				'business_profession',
				'business_or_profession',
				'income_from_business',
				'profits_and_gains_from_business',
				'business_income',
			],
			toSignedAmount,
		),
		capitalGains: pick(
			sources,
			['capital_gains', 'income_from_capital_gains', 'capital_gain'],
			toSignedAmount,
		),
		otherSources: pick(
			sources,
			['other_sources', 'income_from_other_sources', 'other_income'],
			toSignedAmount,
		),
	};
}

/**
 * The latest entry of a return's status history. Unknown (null) when an entry cannot be read (not an
 * object, no status word) or when some entries are dated and others not, or two of the latest date
 * disagree: the entry left out or undated could be the latest.
 */
function latestStatus(raw: unknown): { status: string | null; date: string | null } {
	const unknown = { status: null, date: null };
	if (!Array.isArray(raw)) return { status: toStatusText(raw), date: null };
	if (raw.length === 0 || raw.some((e) => !isObject(e))) return unknown;
	const entries = raw.map((e: IDataObject) => ({
		status: toStatusText(e.status),
		date: toIsoDate(e.date) ?? toIsoTimestamp(e.date),
	}));
	if (entries.some((e) => e.status === null)) return unknown;
	const dated = entries.filter((e) => e.date !== null);
	// undated entries: the last listed is the latest
	if (dated.length === 0) return entries[entries.length - 1];
	if (dated.length < entries.length) return unknown;
	const newest = dated.reduce((a, b) => ((b.date as string) > (a.date as string) ? b : a)).date;
	const latest = dated.filter((e) => e.date === newest);
	return latest.every((e) => e.status === latest[0].status) ? latest[latest.length - 1] : unknown;
}

function filing(raw: unknown): ItrFiling {
	const r = asObject(raw);
	const analyzed = asObject(r.analyzed_data);
	const incomeSummary = asObject(analyzed.income_summary);
	const taxComputation = asObject(analyzed.tax_computation);
	const filingInfo = asObject(analyzed.filing_info);
	const headsObject = asObject(first(r.income_heads, incomeSummary.income_heads));
	const sources = [r, incomeSummary, taxComputation];
	const status = latestStatus(first(r.itr_status, r.status));
	return {
		assessmentYear: toAssessmentYear(
			first(r.assessment_year, r.filing_year, filingInfo.assessment_year),
		),
		form: toItrForm(first(r.itr_type, r.itr_form, analyzed.form_type)),
		filingDate: toIsoDate(first(r.filing_date, filingInfo.filing_date)),
		filingType: toText(first(r.filing_type, filingInfo.filing_type)),
		filingSection: toText(first(r.filing_section, filingInfo.filing_section)),
		filedBy: toText(r.filled_by),
		acknowledgementNumber: toText(
			first(r.acknowledgement_number, r.acknowledgement_no, filingInfo.acknowledgement_no),
		),
		status: status.status,
		statusDate: status.date,
		refundStatus: toStatusText(r.refund_status),
		grossTotalIncome: pick(sources, ['gross_total_income', 'total_gross_income', 'gross_income']),
		totalDeductions: pick(sources, ['total_deductions', 'deductions', 'chapter_via_deductions']),
		taxableIncome: pick(sources, [
			'net_taxable_income',
			'total_taxable_income',
			'taxable_income',
			'total_income',
		]),
		taxPayable: pick(
			[r, taxComputation],
			['tax_payable', 'total_tax_payable', 'total_tax_liability', 'tax_liability'],
		),
		tdsAmount: pick([r, taxComputation], ['tds_amount', 'tds', 'total_tds', 'tds_tcs']),
		advanceTax: pick([r, taxComputation], ['advance_tax_paid', 'advance_tax']),
		selfAssessmentTax: pick(
			[r, taxComputation],
			['self_assessment_tax', 'self_assessment_tax_paid'],
		),
		refundAmount: pick([r, taxComputation], ['refund_amount', 'refund', 'refund_due']),
		demandAmount: pick(
			[r, taxComputation],
			['demand_amount', 'demand', 'tax_due', 'balance_tax_payable'],
		),
		incomeHeads: incomeHeads([headsObject, incomeSummary]),
		downloadLink: toText(r.download_link),
	};
}

function joinAddress(raw: unknown): string | null {
	if (!isObject(raw)) return toText(raw);
	const parts = [
		'door_number',
		'street',
		'locality',
		'post_office',
		'city',
		'state',
		'pin_code',
		'country',
	]
		.map((k) => toText(raw[k]))
		.filter((p): p is string => p !== null);
	return parts.length ? parts.join(', ') : null;
}

/**
 * A return's identity: its acknowledgement number, else its assessment year and form (null when
 * neither is known: a deep-equal copy is then unknown, see distinctEntries).
 */
function filingIdentity(f: ItrFiling): string | null {
	if (f.acknowledgementNumber !== null) return `ack|${f.acknowledgementNumber}`;
	return f.assessmentYear !== null && f.form !== null ? `ay|${f.assessmentYear}|${f.form}` : null;
}

/** Two copies of one return say the same thing (their download links may differ: signed URLs). */
const sameFiling = (a: ItrFiling, b: ItrFiling): boolean =>
	canonical({ ...a, downloadLink: null }) === canonical({ ...b, downloadLink: null });

/**
 * The newest return of a list sorted newest assessment year first: null when a return's assessment
 * year is unknown (it could be the newest), or when two returns share the newest year (an original
 * and a revised one) and their filing dates do not say which came last.
 */
function latestOf(filings: ItrFiling[]): ItrFiling | null {
	if (filings.length === 0 || filings.some((f) => f.assessmentYear === null)) return null;
	const newest = filings.filter((f) => f.assessmentYear === filings[0].assessmentYear);
	if (newest.length === 1) return newest[0];
	const dates = newest.map((f) => f.filingDate);
	if (dates.some((d) => d === null)) return null;
	const last = [...(dates as string[])].sort().reverse();
	return last[0] === last[1] ? null : newest[dates.indexOf(last[0])];
}

/**
 * Get Data (operation itrData), either shape. Reference:
 * `data.{job_id, pan, name, filing_status, itr_records[]}`. Sample:
 * `data.{job_id, pan, status, profile, filings[], tds_26as[], outstanding_demands[]}`. Filings are
 * sorted newest assessment year first.
 */
export function normalizeItrData(body: unknown): ItrData {
	const data = unwrap(body);
	const isSample =
		isObject(data.profile) || Array.isArray(data.filings) || Array.isArray(data.tds_26as);
	const profileRaw = asObject(data.profile);
	const address = profileRaw.address;
	const addressObject = asObject(address);
	const pan = toUpperText(first(data.pan, profileRaw.pan));
	const name = toText(first(data.name, profileRaw.name));
	const profile: ItrProfile = {
		pan,
		name,
		dateOfBirth: toIsoDate(profileRaw.dob),
		gender: toText(profileRaw.gender),
		category: toText(profileRaw.category),
		status: toStatusText(profileRaw.status),
		mobile: toText(profileRaw.mobile),
		email: toText(profileRaw.email),
		address: joinAddress(address),
		city: toText(addressObject.city),
		state: toText(addressObject.state),
		pinCode: toText(first(addressObject.pin_code, addressObject.zip_code)),
		aadhaarNumber: toText(profileRaw.aadhaar_number),
		aadhaarStatus: toText(profileRaw.aadhaar_status),
	};
	const list = Array.isArray(data.itr_records) ? data.itr_records : data.filings;
	// a null entry is a return the answer lost: the count and which return is latest are unknown
	const lostEntry = asArray<unknown>(list).some((entry) => !isObject(entry));
	const listed = asArray(list).map(filing);
	// a return listed twice counts once; two copies of one return that disagree: unknown
	const distinct = distinctEntries(listed, filingIdentity, sameFiling).entries;
	const filings = [...(distinct ?? listed)].sort((a, b) =>
		(b.assessmentYear ?? '').localeCompare(a.assessmentYear ?? ''),
	);
	return {
		shape: isSample ? 'sample' : 'reference',
		jobId: toText(data.job_id),
		pan,
		name,
		status: toStatusWord(data.status),
		filingStatus: toStatusText(data.filing_status),
		profile,
		filings,
		filingCount: filings.length > 0 && !lostEntry && distinct !== null ? filings.length : null,
		latestFiling: distinct === null || lostEntry ? null : latestOf(filings),
		tds: asArray(data.tds_26as).map((row) => {
			const t = asObject(row);
			return {
				financialYear: toText(t.financial_year),
				deductorName: toText(t.deductor_name),
				deductorTan: toText(t.deductor_tan),
				amount: toAmount(t.tds_amount),
				certificateNumber: toText(t.certificate_no),
				incomeType: toText(t.income_type),
			};
		}),
		outstandingDemands: asArray(data.outstanding_demands).map((row) => {
			const d = asObject(row);
			return {
				assessmentYear: toAssessmentYear(first(d.assessment_year, d.year)),
				amount: toAmount(first(d.amount, d.demand_amount, d.outstanding_amount)),
				section: toText(d.section),
				status: toStatusText(d.status),
				details: d,
			};
		}),
	};
}

/** One item per filing, each carrying the taxpayer it belongs to. */
export function splitFilings(data: ItrData): IDataObject[] {
	return data.filings.map((f) => ({ jobId: data.jobId, pan: data.pan, name: data.name, ...f }));
}

/** What a Get Data answer must carry: the taxpayer (PAN or name), the job or a return. */
export const ITR_DATA_REQUIRED = (body: unknown): string | undefined => {
	const data = normalizeItrData(body);
	return (data.pan ?? data.name ?? data.jobId ?? data.filingCount) !== null
		? undefined
		: 'a PAN, name, job id or return (data.pan, data.job_id, data.itr_records or data.filings)';
};
