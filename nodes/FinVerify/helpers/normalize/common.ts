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

// ------------------------------------------------- payment histories: the months' grammar

/**
 * The RBI asset classes a bureau may state for a month, from the best to the gravest: standard,
 * special mention (SMA or SMA-0, SMA-1, SMA-2), substandard, doubtful, loss.
 */
export const ASSET_CLASSES = ['STD', 'SMA', 'SMA-1', 'SMA-2', 'SUB', 'DBT', 'LSS'] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

/**
 * The least days past due each class means: SMA-1 is 31-60 days, SMA-2 61-90; SUB, DBT and LSS are
 * non-performing, at least as grave as 90+ days past due.
 */
export const ASSET_CLASS_FLOOR: Record<AssetClass, number> = {
	STD: 0,
	SMA: 1,
	'SMA-1': 31,
	'SMA-2': 61,
	SUB: 90,
	DBT: 90,
	LSS: 90,
};

/** The class a code names (`SMA-0` is `SMA`), or null for any other text. */
function assetClassOf(code: string): AssetClass | null {
	if (code === 'SMA-0') return 'SMA';
	return (ASSET_CLASSES as readonly string[]).includes(code) ? (code as AssetClass) : null;
}

/** The graver of two classes (null: none stated). */
export function graverAssetClass(a: AssetClass | null, b: AssetClass | null): AssetClass | null {
	if (a === null) return b;
	if (b === null) return a;
	return ASSET_CLASSES.indexOf(a) >= ASSET_CLASSES.indexOf(b) ? a : b;
}

/**
 * One reported month of a payment history: its days past due (the greater of the day count and the
 * floor of the asset class) and the asset class stated, if any.
 */
export interface HistoryMonth {
	days: number;
	assetClass: AssetClass | null;
}

/** A month's reading: a reported month, `notReported` (`XXX`), or null when it cannot be read. */
type MonthReading = HistoryMonth | 'notReported' | null;

/** Days past due as a whole number from 0 to 999 (any width: `30`, `030`, `0030`), else null. */
function dayCount(value: unknown): number | null {
	if (typeof value === 'number')
		return Number.isInteger(value) && value >= 0 && value <= 999 ? value : null;
	if (typeof value !== 'string' || !/^\d+$/.test(value)) return null;
	const days = Number(value);
	return days <= 999 ? days : null;
}

const CRIF_MONTH = /^(\d{2}):(\d{4}),(.*)$/s;

/**
 * One month's status as sent: a day count (`030`, `30`, ` 30 `), `XXX` (not reported), an asset
 * class alone (`STD`, `SMA-1`, `SUB`) or a day count and a class (`030/SUB`, `XXX/DBT`, `000/STD`,
 * CRIF's `030/XXX`: no class), with CRIF's month in front (`03:2025,030/XXX`). Anything else (a blank,
 * an unknown code, a count above 999, a class before a number) cannot be read.
 */
function readMonthToken(token: string): MonthReading {
	let text = token.trim().toUpperCase();
	const crif = CRIF_MONTH.exec(text);
	if (crif) text = crif[3].trim();
	if (text === '') return null;
	const parts = text.split('/').map((part) => part.trim());
	if (parts.length > 2) return null;
	const [left, right] = parts;
	let days: number | null = null;
	let assetClass: AssetClass | null = null;
	if (left !== 'XXX') {
		days = dayCount(left);
		if (days === null) {
			assetClass = assetClassOf(left);
			if (assetClass === null) return null;
		}
	}
	if (right !== undefined && right !== 'XXX') {
		const stated = assetClassOf(right);
		if (stated === null) return null;
		assetClass = graverAssetClass(assetClass, stated);
	}
	if (days === null && assetClass === null) return 'notReported';
	return {
		days: Math.max(days ?? 0, assetClass === null ? 0 : ASSET_CLASS_FLOOR[assetClass]),
		assetClass,
	};
}

/** Codes three characters wide that may stand for a month of CIBIL's run-together history. */
const RUN_TOGETHER_CODES = /^(\d{3}|XXX|STD|SMA|SUB|DBT|LSS)$/;

/**
 * The months of a payment-history string, newest first as sent: `000|030|...` (reference shape),
 * CRIF's `MM:YYYY,STD/XXX|MM:YYYY,030/XXX`, lists separated by commas, semicolons or spaces
 * (`0,30,0`), and CIBIL's run-together `000030000`: exactly three characters a month, so a line whose
 * length is not a multiple of 3, or a chunk neither three digits nor a three-letter code, is unreadable
 * (null). A single month written in a form that cannot run together (`SMA-1`, `030/SUB`) is one month.
 */
function historyTokens(text: string): string[] | null {
	const trimmed = text.trim();
	if (trimmed === '') return null;
	if (trimmed.includes('|')) return trimmed.split('|');
	if (CRIF_MONTH.test(trimmed)) return [trimmed];
	if (/[,;]/.test(trimmed)) return trimmed.split(/[,;]/);
	if (/\s/.test(trimmed)) return trimmed.split(/\s+/);
	if (/[/-]/.test(trimmed)) return [trimmed];
	if (trimmed.length % 3 !== 0) return null;
	const chunks = trimmed.toUpperCase().match(/.{3}/g) ?? [];
	return chunks.every((chunk) => RUN_TOGETHER_CODES.test(chunk)) ? chunks : null;
}

/** A month in the form the outputs show: `030`, `XXX`, `000` (standard), `030/SUB`, `XXX/DBT`. */
function monthCode(token: string): string {
	const reading = readMonthToken(token);
	if (reading === null) return token.trim().toUpperCase();
	if (reading === 'notReported') return 'XXX';
	const text = token.trim().toUpperCase();
	const left = (CRIF_MONTH.exec(text)?.[3] ?? text).split('/')[0].trim();
	const days = dayCount(left);
	const dayPart =
		days === null ? (reading.assetClass === 'STD' ? '000' : 'XXX') : String(days).padStart(3, '0');
	return reading.assetClass === null || reading.assetClass === 'STD'
		? dayPart
		: `${dayPart}/${reading.assetClass}`;
}

/**
 * Monthly payment statuses, newest first, from the bureaus' payment-history strings (the layouts of
 * historyTokens), in one form: 3-digit days past due, `XXX` for a month not reported, `/CLASS` after
 * it when a class other than standard is stated (`030/SUB`, `XXX/LSS`). Empty when the string's layout
 * cannot be read; a month that cannot be read is kept as sent.
 */
export function paymentStatuses(value: unknown): string[] {
	const text = toText(value);
	if (!text) return [];
	return (historyTokens(text) ?? []).map(monthCode);
}

/**
 * A payment history in one form whichever layout it came in: `000|030|XXX`, newest first; or null.
 */
export function normalizePaymentHistory(value: unknown): string | null {
	const statuses = paymentStatuses(value);
	return statuses.length ? statuses.join('|') : null;
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
/** Names under which a month entry states its asset class apart from its days (Equifax). */
const ASSET_CLASS_NAMES = [
	'asset_classification_status',
	'asset_classification',
	'asset_class',
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
 * One month's entry: a number (a day count), a status (see readMonthToken), or an object with one of
 * the DPD names and, optionally, an asset class of its own (Equifax's `AssetClassificationStatus`:
 * a class, or `*` / `XXX` / null for none stated). Null when unknown (no value, blank text, a code
 * outside the grammar).
 */
function readMonthEntry(entry: unknown): MonthReading {
	if (typeof entry === 'number') {
		const days = dayCount(entry);
		return days === null ? null : { days, assetClass: null };
	}
	if (typeof entry === 'string') return readMonthToken(entry);
	if (!isObject(entry)) return null;
	const value = field(entry, DPD_NAMES);
	const reading = value === undefined || value === null ? null : readMonthEntry(value);
	if (reading === null) return null;
	const sent = field(entry, ASSET_CLASS_NAMES);
	if (sent === undefined || sent === null) return reading;
	const code = typeof sent === 'string' ? sent.trim().toUpperCase() : null;
	if (code === '*' || code === 'XXX') return reading;
	const stated = code === null ? null : assetClassOf(code);
	if (stated === null) return null;
	const assetClass = graverAssetClass(
		reading === 'notReported' ? null : reading.assetClass,
		stated,
	);
	const days = reading === 'notReported' ? 0 : reading.days;
	return { days: Math.max(days, ASSET_CLASS_FLOOR[assetClass as AssetClass]), assetClass };
}

const sameReading = (a: MonthReading, b: MonthReading) =>
	a === b ||
	(typeof a === 'object' &&
		a !== null &&
		typeof b === 'object' &&
		b !== null &&
		a.days === b.days &&
		a.assetClass === b.assetClass);

/**
 * The reported months of a list of month entries. When every entry says its month, they are put
 * newest first and a month listed twice is read once when both say the same, and makes the history
 * unknown when they disagree; otherwise they are taken as listed (newest first). Null when any month
 * cannot be read.
 */
function readMonthEntries(
	entries: Array<{ month: string | null; value: unknown }>,
	dated = false,
): HistoryMonth[] | null {
	const readings = entries.map((e) => ({ month: e.month, reading: readMonthEntry(e.value) }));
	if (readings.some((r) => r.reading === null)) return null;
	let ordered = readings;
	if (readings.length > 0 && readings.every((r) => r.month !== null)) {
		// a month once (grammar.ts's distinctEntries, by month; kept here: grammar.ts reads this file)
		const byMonth = new Map<string, (typeof readings)[number]>();
		for (const r of readings) {
			const seen = byMonth.get(r.month as string);
			if (seen === undefined) byMonth.set(r.month as string, r);
			else if (!sameReading(seen.reading, r.reading)) return null;
		}
		const distinct = [...byMonth.values()];
		ordered = [...distinct].sort((a, b) => (b.month as string).localeCompare(a.month as string));
	}
	return ordered
		.filter((r) => r.reading !== null && r.reading !== 'notReported')
		.map((r) =>
			dated ? { ...(r.reading as HistoryMonth), month: r.month } : (r.reading as HistoryMonth),
		);
}

/**
 * The reported months, newest first, of a payment history in any of the layouts the bureaus use: a
 * status string (`000|030|XXX`, `MM:YYYY,030/XXX|…`, `000030000`, `0,30,0`), a list of numbers, codes
 * or month objects (`{PaymentStatus, AssetClassificationStatus}`, `{Days_Past_Due, Year, Month}`,
 * `{dpd}`), or a map of months (`{"2025-03": "030"}`). Months not reported (`XXX`) are left out. Null
 * when the history is missing, or any month of it cannot be read: a history with an unknown month is
 * unknown, never read as clean.
 */
export function readHistory(value: unknown): HistoryMonth[] | null {
	return readHistoryOf(value, false);
}

/**
 * readHistory, each month with the month it is (`YYYY-MM`, `month`) where the layout says it (CRIF's
 * `MM:YYYY`, Equifax's `key`, Experian's Year and Month, month maps), null where it does not (a run of
 * months without labels): the adverse facts name the month.
 */
export function readDatedHistory(value: unknown): DatedMonth[] | null {
	return readHistoryOf(value, true) as DatedMonth[] | null;
}

/** A reported month and, where the layout says it, which month it is (`YYYY-MM`). */
export interface DatedMonth extends HistoryMonth {
	month: string | null;
}

function readHistoryOf(value: unknown, dated: boolean): HistoryMonth[] | null {
	if (value === undefined || value === null) return null;
	if (typeof value === 'number') {
		const reading = readMonthEntry(value);
		if (reading === null || reading === 'notReported') return null;
		return [dated ? ({ ...reading, month: null } as DatedMonth) : reading];
	}
	if (typeof value === 'string') {
		const tokens = historyTokens(value);
		if (tokens === null) return null;
		return readMonthEntries(
			tokens.map((token) => {
				const crif = CRIF_MONTH.exec(token.trim());
				return { month: crif ? `${crif[2]}-${crif[1]}` : null, value: token };
			}),
			dated,
		);
	}
	if (Array.isArray(value))
		return readMonthEntries(
			value.map((entry) => ({ month: entryMonth(entry), value: entry })),
			dated,
		);
	if (isObject(value)) {
		const keys = Object.keys(value);
		if (keys.length > 0 && keys.every((k) => monthOf(k) !== null))
			return readMonthEntries(
				keys.map((k) => ({ month: monthOf(k), value: value[k] })),
				dated,
			);
		// an object holding the history under a name of its own
		const inner = field(value, [...HISTORY_NAMES, ...DPD_NAMES]);
		return inner === undefined ? null : readHistoryOf(inner, dated);
	}
	return null;
}

/**
 * How many months a history lists as sent, reported or not (`XXX`): the entries of a list or a month
 * map, the months of a string; null when its layout cannot be read. A single value is one month.
 */
export function historyMonthCount(value: unknown): number | null {
	if (typeof value === 'string') return historyTokens(value)?.length ?? null;
	if (typeof value === 'number') return 1;
	if (Array.isArray(value)) return value.length;
	if (isObject(value)) {
		const keys = Object.keys(value);
		if (keys.length > 0 && keys.every((k) => monthOf(k) !== null)) return keys.length;
		return historyMonthCount(field(value, HISTORY_NAMES));
	}
	return null;
}

/** Days past due per reported month, newest first (see readHistory); null when unknown. */
export function readDaysPastDue(value: unknown): number[] | null {
	return readHistory(value)?.map((month) => month.days) ?? null;
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
 * The reported months of one account (see readHistory), wherever its layout puts them; an Experian
 * account with only its Payment_History_Profile is read from that profile (it states no class).
 */
export function accountHistory(account: unknown): HistoryMonth[] | null {
	const history = field(account, HISTORY_NAMES);
	if (history !== undefined && history !== null) return readHistory(history);
	const profile = field(account, ['payment_history_profile']);
	if (profile === undefined) return null;
	return readExperianProfile(profile)?.map((days) => ({ days, assetClass: null })) ?? null;
}

/** accountHistory with each month's label where the layout states it (see readDatedHistory). */
export function datedAccountHistory(account: unknown): DatedMonth[] | null {
	const history = field(account, HISTORY_NAMES);
	if (history !== undefined && history !== null) return readDatedHistory(history);
	const profile = field(account, ['payment_history_profile']);
	if (profile === undefined) return null;
	return (
		readExperianProfile(profile)?.map((days) => ({ days, assetClass: null, month: null })) ?? null
	);
}

/** Days past due per month of one account (see accountHistory). */
export function accountDaysPastDue(account: unknown): number[] | null {
	return accountHistory(account)?.map((month) => month.days) ?? null;
}

/** Names under which an account states its number, in the bureaus' layouts. */
export const ACCOUNT_NUMBER_NAMES = ['account_number', 'acct_number'] as const;
/** Names under which an account names its lender (the bureau's member). */
export const LENDER_NAMES = [
	'lender_name',
	'lender',
	'credit_guarantor',
	'institution',
	'subscriber_name',
	'member_short_name',
	'member_name',
] as const;

/**
 * An account's identity: its number and its lender (`ACCT-NUMBER` and `CREDIT-GUARANTOR`,
 * `AccountNumber` and `Institution`, `Account_Number` and `Subscriber_Name`…), without case; null
 * when the account does not state both (see distinctEntries).
 */
export function accountIdentity(account: unknown): string | null {
	const number = toText(field(account, ACCOUNT_NUMBER_NAMES));
	const lender = toText(field(account, LENDER_NAMES));
	return number === null || lender === null
		? null
		: `${number.toUpperCase()}|${lender.toUpperCase().replace(/\s+/g, ' ')}`;
}

/**
 * The gravest class a file's months state below standard (`SMA` … `LSS`), or `none` when no month
 * states one: standard (`STD`) is the absence of an adverse class, and bureaus write it where others
 * write `000` (CRIF's `STD/XXX` is the reference layout's `000`), so both read the same.
 */
export type WorstAssetClass = Exclude<AssetClass, 'STD'> | 'none';

function worstBelowStandard(months: HistoryMonth[]): WorstAssetClass {
	const worst = months.reduce<AssetClass | null>(
		(gravest, m) => graverAssetClass(gravest, m.assetClass),
		null,
	);
	return worst === null || worst === 'STD' ? 'none' : worst;
}

/** What a file's payment histories say over their last 12 reported months. */
export interface HistoryFacts {
	/** Worst days past due (a class counts as its floor); null when unknown. */
	maxDaysPastDue: number | null;
	/** Account-months with any days past due; null when unknown. */
	delinquentMonths: number | null;
	/**
	 * The gravest asset class stated in those months (`STD` … `LSS`); `none` when the histories are
	 * known and no month states a class; null when unknown (exactly when maxDaysPastDue is).
	 */
	worstAssetClass: WorstAssetClass | null;
}

/**
 * Worst days past due, the number of account-months with any, and the gravest asset class, over the
 * `months` newest months of each history. Null when any history is unknown (one account without a
 * readable history, or without a single reported month, makes the figures unknown), or when there is
 * no history at all.
 */
export function knownHistoryFacts(
	histories: Array<HistoryMonth[] | null>,
	months = 12,
): HistoryFacts {
	if (histories.length === 0 || histories.some((h) => h === null || h.length === 0))
		return { maxDaysPastDue: null, delinquentMonths: null, worstAssetClass: null };
	const recent = (histories as HistoryMonth[][]).flatMap((h) => h.slice(0, months));
	return {
		maxDaysPastDue: Math.max(...recent.map((m) => m.days)),
		delinquentMonths: recent.filter((m) => m.days > 0).length,
		worstAssetClass: worstBelowStandard(recent),
	};
}

/**
 * Worst days past due and the number of account-months with any, over day counts per month (see
 * knownHistoryFacts).
 */
export function knownDelinquency(
	histories: Array<number[] | null>,
	months = 12,
): { maxDaysPastDue: number | null; delinquentMonths: number | null } {
	const { maxDaysPastDue, delinquentMonths } = knownHistoryFacts(
		histories.map((h) => h?.map((days) => ({ days, assetClass: null })) ?? null),
		months,
	);
	return { maxDaysPastDue, delinquentMonths };
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
	// a whole number as sent: `742`, `00742`, `000-1`; text with anything else in it (`7 42`, `74.2`,
	// `1,742`) is no score
	const text = typeof value === 'string' ? value.trim().replace(/^0+(?=-?\d)/, '') : value;
	if (typeof text === 'string' && !/^-?\d+$/.test(text))
		return { score: null, scoreKind: null, specialScore: null };
	const n = toNumber(text);
	if (n === null || !Number.isInteger(n))
		return { score: null, scoreKind: null, specialScore: null };
	if (n >= 300 && n <= 900) return { score: n, scoreKind: 'score', specialScore: null };
	if (n === -1) return { score: null, scoreKind: 'noHistory', specialScore: n };
	if (n >= 0 && n <= 5) return { score: null, scoreKind: 'new', specialScore: n };
	return { score: null, scoreKind: null, specialScore: null };
}
