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
	 * How many returns the answer lists; null when it carries no list, or an empty one (a finished
	 * analysis without a single return is not told apart from a lost list).
	 */
	filingCount: number | null;
	/**
	 * The newest return; null when a listed return has no readable assessment year (which one is
	 * newest is then unknown).
	 */
	latestFiling: ItrFiling | null;
	tds: IDataObject[];
	outstandingDemands: IDataObject[];
}

/**
 * An assessment year as `YYYY-YY`: from `2024-25`, `AY 2024-25`, `2024-2025` or `2024_25`. A bare
 * year is returned as given (the service does not say whether it is the assessment or financial
 * year).
 */
export function toAssessmentYear(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const m = /(\d{4})\s*[-_/]\s*(\d{2}|\d{4})\b/.exec(text);
	if (m) return `${m[1]}-${m[2].slice(-2)}`;
	return text;
}

/** Form name as `ITR-1`…`ITR-7`, from `ITR-1`, `ITR1`, `itr 1` or `1`. */
export function toItrForm(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const m = /^(?:itr)?\s*[-_ ]?\s*(\d)([A-Z])?$/i.exec(text);
	return m ? `ITR-${m[1]}${m[2]?.toUpperCase() ?? ''}` : text.toUpperCase();
}

/** First numeric value among the given keys of the given objects. */
function pick(sources: IDataObject[], keys: string[]): number | null {
	for (const source of sources) {
		for (const key of keys) {
			const n = toNumber(source[key]);
			if (n !== null) return n;
		}
	}
	return null;
}

function incomeHeads(sources: IDataObject[]): IncomeHeads {
	return {
		salary: pick(sources, ['salary', 'income_from_salary', 'salary_income']),
		houseProperty: pick(sources, [
			'house_property',
			'income_from_house_property',
			'house_property_income',
		]),
		businessProfession: pick(sources, [
			'business_profession',
			'business_or_profession',
			'income_from_business',
			'profits_and_gains_from_business',
			'business_income',
		]),
		capitalGains: pick(sources, ['capital_gains', 'income_from_capital_gains', 'capital_gain']),
		otherSources: pick(sources, ['other_sources', 'income_from_other_sources', 'other_income']),
	};
}

function latestStatus(raw: unknown): { status: string | null; date: string | null } {
	if (!Array.isArray(raw)) return { status: toStatusText(raw), date: null };
	const entries = raw
		.map((e) => asObject(e))
		.map((e) => ({
			status: toStatusText(e.status),
			date: toIsoDate(e.date) ?? toIsoTimestamp(e.date),
		}));
	if (entries.length === 0) return { status: null, date: null };
	const dated = entries.filter((e) => e.date !== null);
	// latest by date when dates are readable, otherwise the last entry
	const latest = dated.length
		? dated.reduce((a, b) => ((b.date as string) >= (a.date as string) ? b : a))
		: entries[entries.length - 1];
	return latest;
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
	const filings = asArray(list).map(filing);
	filings.sort((a, b) => (b.assessmentYear ?? '').localeCompare(a.assessmentYear ?? ''));
	return {
		shape: isSample ? 'sample' : 'reference',
		jobId: toText(data.job_id),
		pan,
		name,
		status: toStatusWord(data.status),
		filingStatus: toStatusText(data.filing_status),
		profile,
		filings,
		filingCount: filings.length > 0 && !lostEntry ? filings.length : null,
		latestFiling: filings.every((f) => f.assessmentYear !== null) ? (filings[0] ?? null) : null,
		tds: asArray(data.tds_26as).map((row) => {
			const t = asObject(row);
			return {
				financialYear: toText(t.financial_year),
				deductorName: toText(t.deductor_name),
				deductorTan: toText(t.deductor_tan),
				amount: toNumber(t.tds_amount),
				certificateNumber: toText(t.certificate_no),
				incomeType: toText(t.income_type),
			};
		}),
		outstandingDemands: asArray(data.outstanding_demands).map((row) => {
			const d = asObject(row);
			return {
				assessmentYear: toAssessmentYear(first(d.assessment_year, d.year)),
				amount: toNumber(first(d.amount, d.demand_amount, d.outstanding_amount)),
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
