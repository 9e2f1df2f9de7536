import type { IDataObject } from 'n8n-workflow';

import { isObject, toText } from '../../../shared/values';

/**
 * Small pure helpers shared by the per-area normalizers. The service documents two response shapes
 * for many operations (reference and sample); normalizers use these to read either one tolerantly.
 */

export const asObject = (value: unknown): IDataObject => (isObject(value) ? value : {});

export const asArray = <T = IDataObject>(value: unknown): T[] =>
	Array.isArray(value) ? (value as T[]) : [];

/** First value that is neither undefined, null nor an empty string. */
export function first<T = unknown>(...values: unknown[]): T | null {
	for (const v of values) if (v !== undefined && v !== null && v !== '') return v as T;
	return null;
}

/** Text in upper case (PAN, IFSC, CIN…) or null. */
export const toUpperText = (value: unknown): string | null => toText(value)?.toUpperCase() ?? null;

/** Text in lower case (statuses, bureau names…) or null. */
export const toLowerText = (value: unknown): string | null => toText(value)?.toLowerCase() ?? null;

/**
 * A status word in lower case, or null: a status is text with a letter. A number or a code
 * (`200`, `"200"`: an envelope's HTTP status in the place of the record's) is no status, and blank
 * text says nothing.
 */
export function toStatusWord(value: unknown): string | null {
	if (typeof value !== 'string' || !/\p{L}/u.test(value)) return null;
	return toLowerText(value);
}

/**
 * Number or null. Accepts numeric strings ("742", "1,20,000.50", "₹ 500"); empty strings become
 * null.
 */
export function toNumber(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value !== 'string') return null;
	const cleaned = value.replace(/[,\s₹]/g, '').replace(/^INR/i, '');
	if (cleaned === '' || !/^-?\d+(\.\d+)?$/.test(cleaned)) return null;
	return Number(cleaned);
}

export function toBoolean(value: unknown): boolean | null {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'Y' || value === 'yes') return true;
	if (value === 'false' || value === 'N' || value === 'no') return false;
	return null;
}

/** Rounded to 2 decimals (rupees and paise). */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Sum of the non-null numbers, or null when all are null (or there are none). */
export function sumPresent(values: Array<number | null>): number | null {
	const present = values.filter((v): v is number => v !== null);
	return present.length === 0 ? null : present.reduce((s, v) => s + v, 0);
}

/** Count from a `{count}` object, an array's length, or a number. */
export function countOf(value: unknown): number | null {
	if (Array.isArray(value)) return value.length;
	if (isObject(value)) return toNumber(first(value.count, value.total, value.total_count));
	return toNumber(value);
}

/** Length of the first of the given values that is an array, else null. */
export function firstArrayLength(...values: unknown[]): number | null {
	for (const value of values) if (Array.isArray(value)) return value.length;
	return null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date as ISO `YYYY-MM-DD`, from `YYYY-MM-DD`, an ISO timestamp, `DD-MM-YYYY`, `DD/MM/YYYY` or
 * `DD-MM-YY` (two-digit years are read as 20YY up to the current year + 1, else 19YY). Null
 * otherwise.
 */
export function toIsoDate(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	let m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s])/.exec(text);
	if (m) return `${m[1]}-${m[2]}-${m[3]}`;
	m = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(text);
	if (m) return `${m[3]}-${m[2]}-${m[1]}`;
	m = /^(\d{2})[-/](\d{2})[-/](\d{2})$/.exec(text);
	if (m) {
		const yy = Number(m[3]);
		const century = yy <= (new Date().getUTCFullYear() % 100) + 1 ? 2000 : 1900;
		return `${century + yy}-${m[2]}-${m[1]}`;
	}
	return null;
}

/** `YYYY-MM` month. */
export function toIsoMonth(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const m = /^(\d{4})-(\d{2})/.exec(text);
	return m ? `${m[1]}-${m[2]}` : null;
}

/** The `data` object of a wrapped response, or the body itself when it has no wrapper. */
export function unwrap(body: unknown): IDataObject {
	const object = asObject(body);
	return isObject(object.data) ? object.data : object;
}

/** Which documented shape a body is in, for the `shape` field of simplified outputs. */
export type Shape = 'reference' | 'sample';

/** Today as `YYYY-MM-DD` (UTC): the end of a period that is still running, e.g. a current job. */
export function todayIsoDate(): string {
	const now = new Date();
	return `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;
}

/** One month's status code of a payment history: `030`, `000` (`STD`), `XXX` or another code. */
function statusCode(part: string): string {
	// CRIF's `MM:YYYY,030/XXX`: the month before the comma, days past due before the slash
	const status = part.includes(',') ? part.slice(part.indexOf(',') + 1) : part;
	const code = status.split('/')[0].trim().toUpperCase();
	if (code === 'STD') return '000';
	return /^\d+$/.test(code) ? code.padStart(3, '0') : code;
}

/**
 * Monthly payment statuses, newest first, from the bureaus' payment-history strings: `000|030|...`
 * (reference shape), CRIF's `MM:YYYY,STD/XXX|MM:YYYY,030/XXX`, CIBIL's run-together `000030000`,
 * and lists separated by commas, semicolons or spaces (`0,30,0`). Numbers become 3-digit days past
 * due (`STD`, standard, is `000`); other codes (`XXX`: not reported, `SUB`, `DBT`, `LSS`…) are kept
 * as they are.
 */
export function paymentStatuses(value: unknown): string[] {
	const text = toText(value);
	if (!text) return [];
	let parts: string[];
	if (/[|]/.test(text)) parts = text.split(/[|;]/);
	else if (/^\d{2}:\d{4},/.test(text)) parts = [text];
	else if (/[,;\s]/.test(text)) parts = text.split(/[,;\s]+/);
	else parts = text.match(/.{1,3}/g) ?? [];
	return parts.map(statusCode).filter((code) => code !== '');
}

/**
 * A payment history in one form whichever layout it came in: `000|030|XXX`, newest first; or null.
 */
export function normalizePaymentHistory(value: unknown): string | null {
	const statuses = paymentStatuses(value);
	return statuses.length ? statuses.join('|') : null;
}

/** Days past due per month (numbers only, newest first) of a payment history in any layout. */
export function parseDaysPastDue(value: unknown): number[] {
	return paymentStatuses(value)
		.filter((code) => /^\d+$/.test(code))
		.map(Number);
}

/**
 * Worst days-past-due and the number of months with any (over the `months` newest of each history).
 */
export function delinquencyOf(
	histories: number[][],
	months = 12,
): { maxDaysPastDue: number | null; delinquentMonths: number | null } {
	const recent = histories.map((h) => h.slice(0, months)).filter((h) => h.length > 0);
	if (recent.length === 0) return { maxDaysPastDue: null, delinquentMonths: null };
	const all = recent.flat();
	return {
		maxDaysPastDue: Math.max(...all),
		delinquentMonths: all.filter((d) => d > 0).length,
	};
}

// ------------------------------------------------- unknown is null: readers and aggregates

/**
 * Sum of all the values, or null when any of them is null or there are none: an aggregate over
 * entries of which one is unknown is unknown (compare sumPresent, which skips them).
 */
export function sumAll(values: Array<number | null>): number | null {
	if (values.length === 0 || values.some((v) => v === null)) return null;
	return (values as number[]).reduce((s, v) => s + v, 0);
}

/** A key name without case, dashes, underscores or spaces: `Days_Past_Due` → `dayspastdue`. */
const bareKey = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The value of the first of `names` the object has, whatever their case and separators
 * (`days_past_due`, `daysPastDue`, `DAYS-PAST-DUE`). Undefined when it has none; a null value is
 * returned as null (the field is there, its value unknown).
 */
export function field(value: unknown, names: readonly string[]): unknown {
	if (!isObject(value)) return undefined;
	const wanted = names.map(bareKey);
	for (const name of wanted) {
		const key = Object.keys(value).find((k) => bareKey(k) === name);
		if (key !== undefined) return value[key];
	}
	return undefined;
}

/** `YYYY-MM` of a month label: `2025-03`, `03-2025`, `03:2025`, `03-25`, `Mar-2025`, `Mar 25`. */
export function monthOf(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	let m = /^(\d{4})-(\d{2})/.exec(text);
	if (m) return `${m[1]}-${m[2]}`;
	m = /^(\d{2})[-/:](\d{4})$/.exec(text);
	if (m) return `${m[2]}-${m[1]}`;
	m = /^(\d{2})[-/:](\d{2})$/.exec(text);
	if (m) return `20${m[2]}-${m[1]}`;
	m = /^([A-Za-z]{3})[-\s]?(\d{2}|\d{4})$/.exec(text);
	if (m) {
		const month =
			['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(
				m[1].toLowerCase(),
			) + 1;
		if (month === 0) return null;
		const year = m[2].length === 2 ? `20${m[2]}` : m[2];
		return `${year}-${pad(month)}`;
	}
	return null;
}

/** Names under which a month's days past due come (any case and separators). */
const DPD_NAMES = [
	'dpd',
	'days_past_due',
	'dayspastdue',
	'payment_status',
	'paymentStatus',
	'status',
	'value',
] as const;
/** Names under which a month entry says which month it is. */
const MONTH_NAMES = ['month_year', 'monthYear', 'key', 'month', 'period', 'date', 'reported_date'];

/** The month of a history entry: a month label, or separate Year and Month fields. */
function entryMonth(entry: unknown): string | null {
	const label = monthOf(field(entry, MONTH_NAMES));
	if (label) return label;
	const year = toNumber(field(entry, ['year']));
	const month = toNumber(field(entry, ['month']));
	return year !== null && month !== null && month >= 1 && month <= 12
		? `${year}-${pad(month)}`
		: null;
}

/**
 * Days past due of one month's entry: a number, a status code (`030`, `STD`), or an object with
 * one of the DPD names. Undefined for a month not reported (`XXX`), null when unknown (no value,
 * blank text, or a code that is not a day count such as `SUB`).
 */
function monthDaysPastDue(entry: unknown): number | null | undefined {
	if (typeof entry === 'number') return Number.isInteger(entry) && entry >= 0 ? entry : null;
	if (typeof entry === 'string') {
		// a blank month is not `XXX` (not reported): the bureau said nothing of it
		if (entry.trim() === '') return null;
		const code = statusCode(entry);
		if (code === 'XXX' || code === '') return undefined;
		return /^\d+$/.test(code) ? Number(code) : null;
	}
	if (isObject(entry)) {
		const value = field(entry, DPD_NAMES);
		return value === undefined || value === null ? null : monthDaysPastDue(value);
	}
	return null;
}

/**
 * Days past due per reported month, newest first, from a payment history in any of the layouts the
 * bureaus use: a status string (`000|030|XXX`, `MM:YYYY,030/XXX|…`, `000030000`, `0,30,0`), a list of
 * numbers, codes or month objects (`{PaymentStatus}`, `{Days_Past_Due, Year, Month}`, `{dpd}`), or a
 * map of months (`{"2025-03": "030"}`). Months not reported (`XXX`) are left out. Null when the
 * history is missing, or any month of it cannot be read: a history with an unknown month is
 * unknown, never read as clean.
 */
export function readDaysPastDue(value: unknown): number[] | null {
	if (value === undefined || value === null) return null;
	if (typeof value === 'number') return monthDaysPastDue(value) === null ? null : [value];
	if (typeof value === 'string') {
		const codes = paymentStatuses(value);
		if (codes.length === 0) return null;
		const days: number[] = [];
		for (const code of codes) {
			const d = monthDaysPastDue(code);
			if (d === null) return null;
			if (d !== undefined) days.push(d);
		}
		return days;
	}
	let entries: Array<{ month: string | null; value: unknown }>;
	if (Array.isArray(value)) {
		entries = value.map((entry) => ({ month: entryMonth(entry), value: entry }));
	} else if (isObject(value)) {
		const keys = Object.keys(value);
		if (keys.length > 0 && keys.every((k) => monthOf(k) !== null)) {
			entries = keys.map((k) => ({ month: monthOf(k), value: value[k] }));
		} else {
			// an object holding the history under a name of its own
			const inner = field(value, [...HISTORY_NAMES, ...DPD_NAMES]);
			return inner === undefined ? null : readDaysPastDue(inner);
		}
	} else return null;
	if (entries.length === 0) return [];
	// newest first when every entry says its month; as listed otherwise
	if (entries.every((e) => e.month !== null))
		entries.sort((a, b) => (b.month as string).localeCompare(a.month as string));
	const days: number[] = [];
	for (const entry of entries) {
		const d = monthDaysPastDue(entry.value);
		if (d === null) return null;
		if (d !== undefined) days.push(d);
	}
	return days;
}

/** Names under which an account's payment history comes, in the bureaus' layouts. */
export const HISTORY_NAMES = [
	'payment_history',
	'combined_payment_history',
	'history48months',
	'history',
	'cais_account_history',
	'dpd_history',
	'dpd',
	'days_past_due',
	'payment_status_history',
	'monthly_payment_status',
] as const;

/**
 * Experian's `Payment_History_Profile`: one character per month, newest first. `0` is current (under
 * 30 days past due), `1` to `6` the buckets 30-59 … 180+ days (read as the bucket's lower bound, 30 ×
 * the digit); `N`, `-` and spaces are months without a report and are left out. Null for an empty
 * profile or any other character (an unknown month makes the history unknown).
 */
export function readExperianProfile(value: unknown): number[] | null {
	if (typeof value !== 'string' || value.trim() === '') return null;
	const days: number[] = [];
	for (const character of value.trim().toUpperCase()) {
		if (character === 'N' || character === '-' || character === ' ') continue;
		if (!/^[0-6]$/.test(character)) return null;
		days.push(Number(character) * 30);
	}
	return days;
}

/**
 * Days past due per month of one account (see readDaysPastDue), wherever its layout puts them; an
 * Experian account with only its Payment_History_Profile is read from that profile.
 */
export function accountDaysPastDue(account: unknown): number[] | null {
	const history = field(account, HISTORY_NAMES);
	if (history !== undefined && history !== null) return readDaysPastDue(history);
	const profile = field(account, ['payment_history_profile']);
	return profile === undefined ? null : readExperianProfile(profile);
}

/**
 * Worst days past due and the number of account-months with any, over the `months` newest months
 * of each history. Null when any history is unknown (one account without a readable history, or
 * without a single reported month, makes the worst unknown), or when there is no history at all.
 */
export function knownDelinquency(
	histories: Array<number[] | null>,
	months = 12,
): { maxDaysPastDue: number | null; delinquentMonths: number | null } {
	if (histories.length === 0 || histories.some((h) => h === null || h.length === 0))
		return { maxDaysPastDue: null, delinquentMonths: null };
	const recent = (histories as number[][]).flatMap((h) => h.slice(0, months));
	if (recent.length === 0) return { maxDaysPastDue: null, delinquentMonths: null };
	return {
		maxDaysPastDue: Math.max(...recent),
		delinquentMonths: recent.filter((d) => d > 0).length,
	};
}

/** What a bureau score means: a score (300 to 900), no credit history, or new to credit. */
export type ScoreKind = 'score' | 'noHistory' | 'new';

export interface ReadScore {
	/** The score (300 to 900); null for a special value, an out-of-range number or no score. */
	score: number | null;
	/** Null when no score came (or a number no bureau uses). */
	scoreKind: ScoreKind | null;
	/**
	 * The bureau's special value as sent: -1 no credit history; 0 less than six months of history;
	 * 1 to 5 the new-to-credit risk rank (1 is the highest risk). Null otherwise.
	 */
	specialScore: number | null;
}

/**
 * A bureau score as sent (a number, `"742"`, CIBIL's padded `"00742"` and `"000-1"`), kept apart
 * from the special values of thin files (CIBIL: -1 no history, 0 under six months, 1-5 new-to-credit
 * ranks): those are not scores and never compare with one.
 */
export function readScore(value: unknown): ReadScore {
	const text = typeof value === 'string' ? value.trim().replace(/^0+(?=-?\d)/, '') : value;
	const n = toNumber(text);
	if (n === null || !Number.isInteger(n))
		return { score: null, scoreKind: null, specialScore: null };
	if (n >= 300 && n <= 900) return { score: n, scoreKind: 'score', specialScore: null };
	if (n === -1) return { score: null, scoreKind: 'noHistory', specialScore: n };
	if (n >= 0 && n <= 5) return { score: null, scoreKind: 'new', specialScore: n };
	return { score: null, scoreKind: null, specialScore: null };
}
