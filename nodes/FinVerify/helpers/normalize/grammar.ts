import { toNumber } from './common';

/**
 * The grammar every decision reader shares: what a count, an amount, a score or a percentage may be,
 * and when two entries of a list are the same entry. What the service sends is untrusted input: a
 * value outside its field's range is unknown (null), never clamped, skipped or read as 0. The ranges
 * are documented in docs/output.md ("Plausibility ranges"); each reader names the range it applies.
 */

/** A documented range of a figure: inclusive bounds, and whether it must be a whole number. */
export interface Range {
	min: number;
	max: number;
	integer?: boolean;
}

/**
 * The ranges of the figures the readers take as facts. An amount's bound is far above any Indian
 * person's or company's figure (₹10^13, ten lakh crore) and far below what a broken encoding gives
 * (1e21); balances may be negative (an overdraft), incomes and counts may not.
 */
export const RANGES = {
	/** A count of entries, events or months: a whole number, never negative. */
	count: { min: 0, max: 1_000_000, integer: true },
	/** Days past due of one month: bureaus cap the figure at 999. */
	daysPastDue: { min: 0, max: 999, integer: true },
	/** A bureau score. */
	score: { min: 300, max: 900, integer: true },
	/** A health score or any percentage. */
	percent: { min: 0, max: 100 },
	/** Months of employment or of a credit history: at most 70 years. */
	tenureMonths: { min: 0, max: 840, integer: true },
	/** An amount that is never negative (income, credits, sanctioned, outstanding, wages). */
	amount: { min: 0, max: 1e13 },
	/** An amount that may be negative (a balance, a net flow, a profit). */
	signedAmount: { min: -1e13, max: 1e13 },
} satisfies Record<string, Range>;

/** `value` read as a number inside `range`, else null (unknown). Numeric strings are read too. */
export function inRange(value: unknown, range: Range): number | null {
	const n = toNumber(typeof value === 'string' ? value.trim() : value);
	if (n === null) return null;
	if (n < range.min || n > range.max) return null;
	if (range.integer && !Number.isInteger(n)) return null;
	return n;
}

/** A count: a whole number from 0 (a negative or fractional count is unknown). */
export const toCount = (value: unknown): number | null => inRange(value, RANGES.count);

/** A non-negative amount within the documented bound. */
export const toAmount = (value: unknown): number | null => inRange(value, RANGES.amount);

/** A signed amount (balance, net flow, profit) within the documented bound. */
export const toSignedAmount = (value: unknown): number | null =>
	inRange(value, RANGES.signedAmount);

/** A percentage or a 0-100 score. */
export const toPercent = (value: unknown): number | null => inRange(value, RANGES.percent);

/** A value as text with its object keys sorted: two values with the same text say the same thing. */
export function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (typeof value === 'object' && value !== null)
		return `{${Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
			.join(',')}}`;
	return value === undefined ? 'undefined' : JSON.stringify(value);
}

const sameValue = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/** The result of removing the repeats of a list: the entries, or null when a repeat is uncertain. */
export interface Distinct<T> {
	/** Each entry once; null when two entries may be one entry or two (see distinctEntries). */
	entries: T[] | null;
	/** How many repeats were dropped. */
	repeats: number;
}

/**
 * Each entry of a list once. Entries with the same identity (`identityOf`: account number and lender,
 * a month, an acknowledgement number) are one entry when they say the same thing; two entries with one
 * identity that disagree make the list unknown (which one is right?). An entry without an identity
 * (`identityOf` null) that is a deep-equal copy of another may be a repeat or a second like entry: the
 * list is unknown then; distinct entries without an identity are kept.
 */
export function distinctEntries<T>(
	list: readonly T[],
	identityOf: (entry: T) => string | null,
	sameEntry: (a: T, b: T) => boolean = sameValue,
): Distinct<T> {
	const byIdentity = new Map<string, T>();
	const anonymous: T[] = [];
	const entries: T[] = [];
	let repeats = 0;
	for (const entry of list) {
		const identity = identityOf(entry);
		if (identity === null) {
			if (anonymous.some((other) => sameValue(other, entry)))
				return { entries: null, repeats: repeats + 1 };
			anonymous.push(entry);
			entries.push(entry);
			continue;
		}
		const seen = byIdentity.get(identity);
		if (seen === undefined) {
			byIdentity.set(identity, entry);
			entries.push(entry);
		} else if (sameEntry(seen, entry)) repeats++;
		else return { entries: null, repeats: repeats + 1 };
	}
	return { entries, repeats };
}

/**
 * A summary's count against the list it summarises: the count when both agree or only one is sent,
 * null when they disagree (a contradiction is unknown).
 */
export function agreeingCount(declared: number | null, listed: number | null): number | null {
	if (declared === null) return listed;
	if (listed === null) return declared;
	return declared === listed ? declared : null;
}
