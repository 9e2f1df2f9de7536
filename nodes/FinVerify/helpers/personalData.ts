import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { FROM_VERSION_2 } from '../../shared/versions';

/**
 * Masking of personal data in the node's Simplified and Normalized output. Pure: takes a record,
 * returns a masked copy. Fields are recognised by their key at any depth (`pan`, `aadhaarNumber`,
 * `mobile_number`, `ACCT-NUMBER`, `emailAddress`, `dateOfBirth`, a bureau's `PAN-VARIATIONS`…), so
 * fields a normalizer adds later are covered by their names; everything under a recognised key (a
 * list of numbers, a bureau's variation entries) is masked the same way, except its dates.
 *
 * - Aadhaar: always masked (all but the last 4 digits), whatever the Personal Data choice.
 * - PAN, mobile and phone numbers, account numbers (and the EPFO UAN), other identity document
 *   numbers: all but the last 4 letters and digits become `X`. A business's PAN (a company's, LLP's,
 *   firm's or trust's: its fourth character) is not personal data and stays as it is.
 * - E-mail: the first character of the local part is kept, the rest of it becomes `X`; the domain is
 *   kept.
 * - Date of birth: the year is kept, the day and month become `X`.
 *
 * Under Masked, a PAN is also masked wherever else it appears in a text (a report link that names it).
 *
 * Values without a digit (a status such as `aadhaar_status: "linked"`, an empty string) are not
 * identifiers and stay as they are; so do values of 4 digits or fewer (a type code) and booleans.
 */

export type PersonalDataChoice = 'full' | 'masked';

/**
 * Personal Data in Output: how personal data appears in the Simplified and Normalized output of the
 * FinVerify node (version 2, in its output fields) and in the FinVerify Trigger's items (1.2, which
 * words it for events), applied by `maskPersonalData` below. Masked by default: the execution log
 * keeps every output n8n saves, and a decision needs the scores and statuses, not the identifiers
 * (docs/privacy.md).
 */
export const personalDataField: INodeProperties = {
	displayName: 'Personal Data in Output',
	name: 'personalData',
	type: 'options',
	default: 'masked',
	options: [
		{
			name: 'Masked',
			value: 'masked',
			description:
				'PAN, Aadhaar, mobile, account and ID numbers show their last 4 characters, e-mail its first ' +
				'letter and domain, date of birth its year',
		},
		{
			name: 'Full',
			value: 'full',
			description:
				'As the service sent them, except Aadhaar, which stays masked to its last 4 digits',
		},
	],
	description:
		'Whether PAN, mobile, account numbers, e-mail and date of birth appear in full in the output ' +
		'(and so in the saved execution). Aadhaar is always masked.',
	displayOptions: {
		show: FROM_VERSION_2,
		hide: { '/outputMode': ['raw'] },
	},
};

export type PersonalDataKind =
	| 'aadhaar'
	| 'pan'
	| 'mobile'
	| 'accountNumber'
	| 'identityNumber'
	| 'email'
	| 'dateOfBirth';

const MASK = 'X';
const KEEP = 4;

/** A key in one spelling: lowercase letters and digits (`ACCT-NUMBER` → `acctnumber`). */
const compact = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Words that end in "pan" and are not a PAN. */
const NOT_PAN = ['span', 'japan', 'expan'];

/** Keys already classified (a statement repeats the same few keys thousands of times); bounded. */
const known = new Map<string, PersonalDataKind | null>();
const KNOWN_MAX = 5000;

/** What kind of personal data a key names, or undefined. A bureau's `*-VARIATIONS` counts as its field. */
export function kindOfKey(key: string): PersonalDataKind | undefined {
	const cached = known.get(key);
	if (cached !== undefined) return cached ?? undefined;
	const kind = classifyKey(key);
	if (known.size < KNOWN_MAX) known.set(key, kind ?? null);
	return kind;
}

function classifyKey(key: string): PersonalDataKind | undefined {
	const k = compact(key).replace(/variations?$/, '');
	if (k === '') return undefined;
	if (k.includes('aadhaar') || k.includes('aadhar') || k === 'uid') return 'aadhaar';
	if (
		/pan(number|no|card|id)?s?$/.test(k) &&
		!NOT_PAN.some((word) => k.endsWith(word) || k.endsWith(`${word}s`))
	)
		return 'pan';
	if (k.includes('mobile') || k.includes('phone') || k === 'msisdn') return 'mobile';
	if (k.includes('email')) return 'email';
	if (
		/(account|acct|acc)(number|no|num)/.test(k) ||
		k === 'uan' ||
		/^uan(number|no|list|s)$/.test(k)
	)
		return 'accountNumber';
	if (k === 'dob' || k.includes('dateofbirth') || k.includes('birthdate')) return 'dateOfBirth';
	if (/passport|voterid|drivinglicen[cs]e|rationcard/.test(k)) return 'identityNumber';
	return undefined;
}

/** Keys under a personal field that hold a date of the record (when it was reported), not the data. */
const isRecordDateKey = (key: string) => /date|time|reported/i.test(key);

/** All but the last 4 letters and digits become X (values without a digit are left as they are). */
export function maskAllButLast4(value: string): string {
	if (!/[0-9]/.test(value)) return value;
	let keep = KEEP;
	const chars = [...value];
	for (let i = chars.length - 1; i >= 0; i--) {
		if (!/[A-Za-z0-9]/.test(chars[i])) continue;
		if (keep > 0) keep--;
		else chars[i] = MASK;
	}
	return chars.join('');
}

/** `priya.sharma@example.com` → `pXXXXXXXXXXX@example.com`, for every address in the text. */
export function maskEmail(value: string): string {
	return value.replace(
		/([^\s@<>(),;:"]+)@([^\s@<>(),;:"]+)/g,
		(_match, local: string, domain: string) =>
			`${local[0]}${MASK.repeat(local.length - 1)}@${domain}`,
	);
}

/** The year (a 19xx or 20xx run of four digits) is kept; every other digit becomes X. */
export function maskDateOfBirth(value: string): string {
	const year = /(?<![0-9])(19|20)[0-9]{2}(?![0-9])/.exec(value);
	return [...value]
		.map((char, i) =>
			/[0-9]/.test(char) && !(year && i >= year.index && i < year.index + 4) ? MASK : char,
		)
		.join('');
}

/** A PAN's form: 5 letters, 4 digits, 1 letter, standing alone (not inside a longer word). */
const PAN_IN_TEXT = /(?<![A-Za-z0-9])[A-Za-z]{5}[0-9]{4}[A-Za-z](?![A-Za-z0-9])/g;

/**
 * Every PAN in a text that is not a PAN field (a report link that names the PAN, a message), masked
 * like a PAN field. Its form is distinctive enough to find in any text; other numbers are not.
 */
export const maskPansInText = (value: string): string =>
	value.replace(PAN_IN_TEXT, (pan) => (isBusinessPan(pan) ? pan : maskAllButLast4(pan)));

/**
 * The PAN holder types that are not a person (the PAN's fourth character): C company, F firm or LLP,
 * T trust, A association of persons, B body of individuals, G government, L local authority, J
 * artificial juridical person. Such a PAN is a business identifier, passed on unmasked so the next
 * lookup can use it; an individual's (P), a family's (H) or any other stays personal data.
 */
const BUSINESS_HOLDERS = new Set(['C', 'F', 'T', 'A', 'B', 'G', 'L', 'J']);

/** Whether a value is a PAN of a business holder (a company's, an LLP's, a trust's…). */
export const isBusinessPan = (value: string): boolean =>
	/^[A-Za-z]{5}[0-9]{4}[A-Za-z]$/.test(value.trim()) &&
	BUSINESS_HOLDERS.has(value.trim().charAt(3).toUpperCase());

function maskScalar(kind: PersonalDataKind, value: string): string {
	if (kind === 'pan' && isBusinessPan(value)) return value;
	if (kind === 'email') return maskEmail(value);
	if (kind === 'dateOfBirth') return maskDateOfBirth(value);
	return maskAllButLast4(value);
}

/** Whether a kind of field is masked under a choice: Aadhaar always, the rest when Masked. */
export const isMasked = (kind: PersonalDataKind, choice: PersonalDataChoice): boolean =>
	kind === 'aadhaar' || choice === 'masked';

function maskValue(
	value: unknown,
	kind: PersonalDataKind | undefined,
	choice: PersonalDataChoice,
): unknown {
	if (Array.isArray(value)) return value.map((entry) => maskValue(entry, kind, choice));
	if (typeof value === 'object' && value !== null) {
		const masked: IDataObject = {};
		for (const [key, entry] of Object.entries(value as IDataObject)) {
			const own = kindOfKey(key);
			// under a personal field, its entries are that field's data, except the dates they were reported
			const inherited =
				kind && (kind === 'dateOfBirth' || !isRecordDateKey(key)) ? kind : undefined;
			masked[key] = maskValue(entry, own ?? inherited, choice) as IDataObject[string];
		}
		return masked;
	}
	if (!kind || !isMasked(kind, choice))
		return typeof value === 'string' && choice === 'masked' ? maskPansInText(value) : value;
	if (typeof value === 'string') return maskScalar(kind, value);
	// a number with more than 4 digits is an identifier written as a number (a mobile number)
	if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= 10 ** KEEP)
		return maskScalar(kind, String(value));
	return value;
}

/**
 * A copy of `record` with its personal data masked under `choice` (Aadhaar is masked under both).
 * Keys are kept, so downstream expressions keep working; the values are masked.
 */
export function maskPersonalData(record: IDataObject, choice: PersonalDataChoice): IDataObject {
	return maskValue(record, undefined, choice) as IDataObject;
}
