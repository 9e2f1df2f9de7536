import type { Faker } from './random.cjs';

/** Dates are generated relative to a fixed anchor so that the same input always gives the same output. */
export const ANCHOR = new Date(Date.UTC(2025, 2, 31));

export const iso = (d: Date): string => d.toISOString().slice(0, 10);
export const ddmmyy = (d: Date): string =>
	`${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${String(d.getUTCFullYear()).slice(2)}`;
export const ddmmyyyy = (d: Date): string =>
	`${pad(d.getUTCDate())}-${pad(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
export const yearMonth = (d: Date): string => iso(d).slice(0, 7);
const pad = (n: number): string => String(n).padStart(2, '0');

export const addDays = (d: Date, days: number): Date => new Date(d.getTime() + days * 86_400_000);
export const addMonths = (d: Date, months: number): Date =>
	new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate()));

/** A date between `yearsAgoMax` and `yearsAgoMin` years before the anchor. */
export function pastDate(f: Faker, yearsAgoMin: number, yearsAgoMax: number): Date {
	return f.date.between({
		from: addMonths(ANCHOR, -12 * yearsAgoMax),
		to: addMonths(ANCHOR, -12 * yearsAgoMin),
	});
}

/** Financial years ending in March before the anchor, newest first: `['2024-25', '2023-24', ...]`. */
export function assessmentYears(count: number): string[] {
	const last = ANCHOR.getUTCFullYear();
	return Array.from(
		{ length: count },
		(_, i) => `${last - i}-${String((last - i + 1) % 100).padStart(2, '0')}`,
	);
}

/** `2024-25` → the financial year `2023-24`. */
export const financialYearOf = (assessmentYear: string): string => {
	const start = Number(assessmentYear.slice(0, 4)) - 1;
	return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
};

export const round2 = (n: number): number => Math.round(n * 100) / 100;
export const rupees = (n: number): number => Math.round(n);
