import type { IDataObject } from 'n8n-workflow';

/**
 * Small pure helpers shared by the per-area normalizers. The service documents two response shapes
 * for many operations (reference and sample); normalizers use these to read either one tolerantly.
 */

export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export const asObject = (value: unknown): IDataObject => (isObject(value) ? value : {});

export const asArray = <T = IDataObject>(value: unknown): T[] =>
	Array.isArray(value) ? (value as T[]) : [];

/** First value that is neither undefined, null nor an empty string. */
export function first<T = unknown>(...values: unknown[]): T | null {
	for (const v of values) if (v !== undefined && v !== null && v !== '') return v as T;
	return null;
}

/** Text or null. Numbers become text; empty strings become null. */
export function toText(value: unknown): string | null {
	if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/** Text in upper case (PAN, IFSC, CIN…) or null. */
export const toUpperText = (value: unknown): string | null => toText(value)?.toUpperCase() ?? null;

/** Text in lower case (statuses, bureau names…) or null. */
export const toLowerText = (value: unknown): string | null => toText(value)?.toLowerCase() ?? null;

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

/** A timestamp as ISO 8601 (UTC, milliseconds), or null when it cannot be read. */
export function toIsoTimestamp(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const time = Date.parse(text);
	if (Number.isNaN(time)) return null;
	return new Date(time).toISOString();
}

/** `YYYY-MM` month. */
export function toIsoMonth(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const m = /^(\d{4})-(\d{2})/.exec(text);
	return m ? `${m[1]}-${m[2]}` : null;
}

export { pad };

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

/**
 * Monthly payment statuses, newest first, from the bureaus' payment-history strings: `000|030|...`
 * (reference shape), CRIF's `MM:YYYY,STD/XXX|MM:YYYY,030/XXX` and CIBIL's run-together `000030000`.
 * Numbers become 3-digit days past due (`STD`, standard, is `000`); other codes (`XXX`: not
 * reported, `SUB`, `DBT`, `LSS`…) are kept as they are.
 */
export function paymentStatuses(value: unknown): string[] {
	const text = toText(value);
	if (!text) return [];
	const parts = /[|;,:]/.test(text) ? text.split(/[|;]/) : (text.match(/.{1,3}/g) ?? []);
	return parts
		.map((part) => {
			const status = part.includes(',') ? part.slice(part.indexOf(',') + 1) : part;
			const code = status.split('/')[0].trim().toUpperCase();
			if (code === 'STD') return '000';
			return /^\d+$/.test(code) ? code.padStart(3, '0') : code;
		})
		.filter((code) => code !== '');
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
