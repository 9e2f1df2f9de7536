import type { Faker } from './random.cjs';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const letters = (f: Faker, n: number): string => f.string.fromCharacters(LETTERS, n);
export const digits = (f: Faker, n: number): string =>
	f.string.numeric({ length: n, allowLeadingZeros: true });

/** PAN holder type, the 4th character of a PAN. */
export type PanHolder = 'P' | 'C' | 'F' | 'T' | 'H';

/** A valid-format PAN: 3 letters, holder type, initial of the surname or entity name, 4 digits, check letter. */
export function pan(f: Faker, holder: PanHolder = 'P', name?: string): string {
	const initial = name?.trim().charAt(0).toUpperCase();
	const fifth = initial && LETTERS.includes(initial) ? initial : letters(f, 1);
	return `${letters(f, 3)}${holder}${fifth}${digits(f, 4)}${letters(f, 1)}`;
}

/** State codes used by the ROC part of a CIN and the first two digits of a GSTIN. */
export const STATES: ReadonlyArray<{ name: string; code: string; gst: string; roc: string }> = [
	{ name: 'Maharashtra', code: 'MH', gst: '27', roc: 'RoC-Mumbai' },
	{ name: 'Karnataka', code: 'KA', gst: '29', roc: 'RoC-Bangalore' },
	{ name: 'Delhi', code: 'DL', gst: '07', roc: 'RoC-Delhi' },
	{ name: 'Tamil Nadu', code: 'TN', gst: '33', roc: 'RoC-Chennai' },
	{ name: 'Gujarat', code: 'GJ', gst: '24', roc: 'RoC-Ahmedabad' },
	{ name: 'Telangana', code: 'TG', gst: '36', roc: 'RoC-Hyderabad' },
	{ name: 'West Bengal', code: 'WB', gst: '19', roc: 'RoC-Kolkata' },
	{ name: 'Uttar Pradesh', code: 'UP', gst: '09', roc: 'RoC-Kanpur' },
	{ name: 'Rajasthan', code: 'RJ', gst: '08', roc: 'RoC-Jaipur' },
	{ name: 'Kerala', code: 'KL', gst: '32', roc: 'RoC-Ernakulam' },
];

export const stateByCode = (code: string) => STATES.find((s) => s.code === code);

/** A valid-format CIN: listing, 5-digit NIC code, state, year, company class, 6-digit registration number. */
export function cin(
	f: Faker,
	opts: { listed?: boolean; state?: string; year?: number; klass?: string } = {},
): string {
	const listing = (opts.listed ?? f.datatype.boolean(0.2)) ? 'L' : 'U';
	const state = opts.state ?? f.helpers.arrayElement(STATES).code;
	const year = opts.year ?? f.number.int({ min: 1975, max: 2022 });
	const klass =
		opts.klass ??
		(listing === 'L' ? 'PLC' : f.helpers.arrayElement(['PTC', 'PTC', 'PTC', 'PLC', 'OPC']));
	return `${listing}${digits(f, 5)}${state}${year}${klass}${digits(f, 6)}`;
}

export const llpin = (f: Faker): string => `${letters(f, 3)}-${digits(f, 4)}`;

/** GSTIN with a correct check character (base-36 weighted checksum). */
export function gstin(stateGstCode: string, entityPan: string, entityNumber = 1): string {
	const body = `${stateGstCode}${entityPan}${ALNUM36[entityNumber]}Z`;
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		const product = ALNUM36.indexOf(body[i]) * (i % 2 === 0 ? 1 : 2);
		sum += Math.floor(product / 36) + (product % 36);
	}
	return body + ALNUM36[(36 - (sum % 36)) % 36];
}

export const din = (f: Faker): string => `0${digits(f, 7)}`;
export const uan = (f: Faker): string => `10${digits(f, 10)}`;
export const tan = (f: Faker): string => `${letters(f, 4)}${digits(f, 5)}${letters(f, 1)}`;
export const ifsc = (f: Faker, bankCode: string): string => `${bankCode}0${digits(f, 6)}`;
export const mask = (value: string, visible = 4): string =>
	`${'X'.repeat(Math.max(0, value.length - visible))}${value.slice(-visible)}`;
export const maskMobile = (mobile: string): string => `${'X'.repeat(6)}${mobile.slice(-4)}`;
export const maskedAadhaar = (f: Faker): string => `XXXX XXXX ${digits(f, 4)}`;
export const pinCode = (f: Faker): string => `${f.number.int({ min: 1, max: 8 })}${digits(f, 5)}`;

export const BANKS: ReadonlyArray<{ name: string; code: string }> = [
	{ name: 'HDFC Bank', code: 'HDFC' },
	{ name: 'ICICI Bank', code: 'ICIC' },
	{ name: 'State Bank of India', code: 'SBIN' },
	{ name: 'Axis Bank', code: 'UTIB' },
	{ name: 'Kotak Mahindra Bank', code: 'KKBK' },
	{ name: 'Punjab National Bank', code: 'PUNB' },
	{ name: 'Bank of Baroda', code: 'BARB' },
];
