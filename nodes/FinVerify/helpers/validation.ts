import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isPlaceholderWord, visibleLength } from '../../shared/values';
import type { PersonalDataChoice } from './personalData';
import { maskPersonalData } from './personalData';
import { hasOutputChoice } from '../../shared/versions';

export { isPlaceholderWord, visibleLength };

/**
 * Input checks run before any request leaves. Each returns the normalized value or throws a
 * NodeOperationError that names the field, the item and the expected format. Pure: they need only
 * the node (for the error) and the item index, so they are unit-tested alone.
 */
export interface FieldContext {
	node: INode;
	itemIndex: number;
}

// Checked on the text as typed (ASCII only, any case) before it is upper-cased: "ı".toUpperCase()
// is "I"
const PAN_PATTERN = /^[A-Za-z]{5}[0-9]{4}[A-Za-z]$/;
const CIN_PATTERN = /^[A-Za-z0-9]{21}$/;
const LLPIN_PATTERN = /^[A-Za-z]{3}-[0-9]{4}$/;
const MOBILE_PATTERN = /^[6-9][0-9]{9}$/;
// the HTML living standard's e-mail rule (ASCII, a dotted domain)
const EMAIL_PATTERN =
	/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** Control characters (C0, DEL): never part of a name, an identifier or a URL. */
const CONTROL_CHARACTERS = {
	test: (text: string): boolean => {
		for (let i = 0; i < text.length; i++) {
			const code = text.charCodeAt(i);
			if (code < 0x20 || code === 0x7f) return true;
		}
		return false;
	},
};
export const BUREAUS = ['equifax', 'experian', 'cibil', 'crif'] as const;
export type Bureau = (typeof BUREAUS)[number];

/**
 * The node's Personal Data in Output, as the input checks see it (the parameters of the node, before
 * any item): Full in version 1 (no such field) and when chosen, Masked otherwise (the default, and
 * Raw, which hides the choice).
 */
const personalDataOf = (node: INode): PersonalDataChoice =>
	!hasOutputChoice(node.typeVersion) || node.parameters?.personalData === 'full'
		? 'full'
		: 'masked';

/**
 * The value an error shows back, under the node's Personal Data choice: with Masked, a PAN, mobile
 * number or e-mail address typed into its field is masked like in the output (`XXXXXX3210`,
 * `.XXXXX@example.com`), and a PAN inside any other value too. The error is saved with the execution.
 */
const shownMasked = (ctx: FieldContext, field: string, value: unknown): string => {
	const text = shown(value);
	const masked = maskPersonalData({ [field]: text }, personalDataOf(ctx.node))[field];
	return typeof masked === 'string' ? masked : text;
};

const shown = (value: unknown): string => {
	if (value === undefined || value === null || value === '') return 'an empty value';
	const text =
		typeof value === 'string'
			? value
			: typeof value === 'number'
				? String(value)
				: JSON.stringify(value);
	return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
};

/** Marks an input-check error: error items carry `error.code` INVALID_INPUT (see the router). */
function inputError(error: NodeOperationError): NodeOperationError {
	error.context.code = 'INVALID_INPUT';
	return error;
}

export function invalidField(
	ctx: FieldContext,
	field: string,
	value: unknown,
	expected: string,
	options: { showValue?: boolean } = {},
): NodeOperationError {
	const got = options.showValue === false ? '' : ` (got ${shownMasked(ctx, field, value)})`;
	return inputError(
		new NodeOperationError(ctx.node, `Invalid ${field} in item ${ctx.itemIndex}${got}`, {
			itemIndex: ctx.itemIndex,
			description: `${field}: expected ${expected}.` + ' Nothing was sent to the service.',
		}),
	);
}

/** A text or a finite number as text, trimmed; anything else (NaN, Infinity, objects) is ''. */
const asText = (value: unknown): string =>
	typeof value === 'string'
		? value.trim()
		: typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: '';

export function requireText(
	ctx: FieldContext,
	field: string,
	value: unknown,
	options: { minLength?: number; maxLength?: number; expected?: string; secret?: boolean } = {},
): string {
	const text = asText(value);
	const min = options.minLength ?? 1;
	const max = options.maxLength ?? 1000;
	if (CONTROL_CHARACTERS.test(text)) {
		throw invalidField(
			ctx,
			field,
			value,
			'text without control characters (line breaks, tabs, NUL)',
			{
				showValue: !options.secret,
			},
		);
	}
	// spaces and zero-width characters count for nothing: a name of only those is no name
	const visible = visibleLength(text);
	if (visible < min || text.length > max) {
		const expected =
			options.expected ??
			(min > 1
				? `at least ${min} characters (spaces and invisible characters do not count)`
				: 'a non-empty text') + (options.maxLength ? ` and at most ${max}` : '');
		const invisibleOnly = visible === 0 && typeof value === 'string' && value !== '';
		throw invalidField(
			ctx,
			field,
			value,
			invisibleOnly ? `${expected}, not only spaces or invisible characters` : expected,
			{ showValue: !options.secret },
		);
	}
	return text;
}

export function assertPan(ctx: FieldContext, value: unknown, field = 'PAN'): string {
	const raw = asText(value);
	const pan = raw.toUpperCase();
	if (!PAN_PATTERN.test(raw)) {
		throw invalidField(
			ctx,
			field,
			value,
			'10 characters: 5 letters, 4 digits, 1 letter, e.g. ABCDE1234F',
		);
	}
	return pan;
}

export function assertCin(ctx: FieldContext, value: unknown, field = 'CIN'): string {
	const raw = asText(value);
	const cin = raw.toUpperCase();
	if (!CIN_PATTERN.test(raw)) {
		throw invalidField(ctx, field, value, '21 letters and digits, e.g. L17110MH1973PLC019786');
	}
	return cin;
}

export function assertLlpin(ctx: FieldContext, value: unknown, field = 'LLPIN'): string {
	const raw = asText(value);
	const llpin = raw.toUpperCase();
	if (!LLPIN_PATTERN.test(raw)) {
		throw invalidField(ctx, field, value, 'three letters, a hyphen and four digits, e.g. AAB-1234');
	}
	return llpin;
}

/**
 * Accepts the common ways people write an Indian mobile number ("+91 98765 43210", "098765-43210",
 * "(987) 654 3210") and returns the 10 digits the service wants; anything else is rejected.
 */
export function normalizeMobile(value: unknown): string | undefined {
	if (typeof value === 'number' && !(Number.isSafeInteger(value) && value > 0)) return undefined;
	const raw = asText(value);
	// starts with +, ( or a digit: "-9876543210" is a negative number, not a phone number
	if (!/^[+(\d][\d\s().-]*$/.test(raw)) return undefined;
	let digits = raw.replace(/[\s().-]/g, '');
	if (digits.startsWith('+')) {
		if (!digits.startsWith('+91')) return undefined;
		digits = digits.slice(3);
	} else if (digits.length === 12 && digits.startsWith('91')) {
		digits = digits.slice(2);
	} else if (digits.length === 11 && digits.startsWith('0')) {
		digits = digits.slice(1);
	}
	return MOBILE_PATTERN.test(digits) ? digits : undefined;
}

export function assertMobile(ctx: FieldContext, value: unknown, field = 'Mobile Number'): string {
	const mobile = normalizeMobile(value);
	if (mobile === undefined) {
		throw invalidField(
			ctx,
			field,
			value,
			'a 10-digit Indian mobile number starting with 6-9, e.g. 9876543210 (+91 and spaces are ' +
				'accepted)',
		);
	}
	return mobile;
}

export function assertConsent(
	ctx: FieldContext,
	value: unknown,
	field = 'Subject Has Consented',
): 'Y' {
	if (value !== true) {
		throw inputError(
			new NodeOperationError(ctx.node, `${field} is required in item ${ctx.itemIndex}`, {
				itemIndex: ctx.itemIndex,
				description:
					`${field}: expected Yes (true), confirming the subject has consented to this check.` +
					' Nothing was sent to the service.',
			}),
		);
	}
	return 'Y';
}

/** How CRMs and forms write the two genders the bureaus accept (compared lowercased). */
const GENDER_SYNONYMS: Record<string, 'male' | 'female'> = {
	female: 'female',
	f: 'female',
	woman: 'female',
	male: 'male',
	m: 'male',
	man: 'male',
};

/** The spellings Gender accepts, as the field's description lists them. */
export const GENDER_SPELLINGS = Object.keys(GENDER_SYNONYMS).map((word) =>
	word.length === 1 ? word.toUpperCase() : word[0].toUpperCase() + word.slice(1),
);

/**
 * The subject's gender as the bureaus want it. There is no default: an empty value is an error that
 * asks for a choice; M/F/Male/Female/Man/Woman in any case are accepted; anything else (the service
 * accepts only male and female) is rejected naming the accepted values.
 */
export function assertGender(
	ctx: FieldContext,
	value: unknown,
	field = 'Gender',
): 'male' | 'female' {
	const text = asText(value);
	if (text === '') {
		throw inputError(
			new NodeOperationError(ctx.node, `${field} is required in item ${ctx.itemIndex}`, {
				itemIndex: ctx.itemIndex,
				description:
					`${field}: choose Female or Male, or map it from your data (${GENDER_SPELLINGS.join(', ')} are accepted).` +
					' Nothing was sent to the service.',
			}),
		);
	}
	const gender = GENDER_SYNONYMS[text.toLowerCase()];
	if (gender === undefined) {
		throw invalidField(
			ctx,
			field,
			value,
			`"female" or "male" (${GENDER_SPELLINGS.join(', ')} in any case are accepted); the bureaus ` +
				'accept no other value',
		);
	}
	return gender;
}

/**
 * Fields that record a fact only the workflow's builder may state (the subject's consent, the
 * subject's gender) must not be filled by an AI model when the node runs as an AI Agent tool. The
 * editor never offers "let the model define this" for them; this refuses a hand-written $fromAI()
 * as well.
 */
export function assertSetByWorkflow(ctx: FieldContext, parameterName: string, field: string): void {
	const raw = ctx.node.parameters?.[parameterName];
	if (typeof raw === 'string' && /\bfromAI\s*\(/i.test(raw)) {
		throw inputError(
			new NodeOperationError(
				ctx.node,
				`${field} cannot be filled by an AI model (item ${ctx.itemIndex})`,
				{
					itemIndex: ctx.itemIndex,
					description:
						`${field}: set it in the workflow (a fixed choice or an expression on your own data), not with $fromAI().` +
						' Nothing was sent to the service.',
				},
			),
		);
	}
}

export function assertBureaus(ctx: FieldContext, value: unknown, field = 'Bureaus'): Bureau[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	const bureaus = [...new Set(list.map((b) => asText(b).toLowerCase()).filter(Boolean))];
	if (bureaus.length === 0 || !bureaus.every((b) => (BUREAUS as readonly string[]).includes(b))) {
		throw invalidField(ctx, field, value, `at least one of ${BUREAUS.join(', ')}`);
	}
	return bureaus as Bureau[];
}

/** A dot at the start or end of the local part, or two in a row: no mail server delivers it. */
const MISPLACED_DOT = /^\.|\.@|\.\./;

export function assertEmail(ctx: FieldContext, value: unknown, field = 'Email'): string {
	const email = asText(value);
	if (!EMAIL_PATTERN.test(email) || MISPLACED_DOT.test(email) || email.length > 254) {
		throw invalidField(
			ctx,
			field,
			value,
			'an e-mail address, e.g. name@example.com (no dot at the start or end of the name, no two dots in a row)',
		);
	}
	return email;
}

/**
 * An http(s) URL, returned as the parser normalized it (what was checked is what is sent). Control
 * characters, spaces and markup characters are refused outright: the URL parser would silently drop
 * a CR/LF or tab, and `<`, `>`, `"`, `'` and backticks have no place in a link a service stores and
 * shows.
 */
export function assertHttpUrl(ctx: FieldContext, value: unknown, field = 'URL'): string {
	const text = asText(value);
	let href: string | undefined;
	if (!CONTROL_CHARACTERS.test(text) && !/[\s<>"'`\\{}|^]/.test(text) && text.length <= 2048) {
		try {
			const url = new URL(text);
			if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '')
				href = url.href;
		} catch {
			href = undefined;
		}
	}
	if (href === undefined)
		throw invalidField(
			ctx,
			field,
			value,
			'an http:// or https:// URL without spaces, line breaks or markup characters, e.g. ' +
				'https://example.com/done',
		);
	return href;
}

/**
 * A whole number from 1 to `max` (decimal digits if given as text). `expected` replaces the format
 * the error names.
 */
export function assertPositiveInteger(
	ctx: FieldContext,
	value: unknown,
	field: string,
	options: { max?: number; expected?: string } = {},
): number {
	// decimal digits only: Number("0x10") is 16, Number("1e3") is 1000
	const number = typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) ? Number(value) : value;
	const max = options.max ?? Number.MAX_SAFE_INTEGER;
	if (typeof number !== 'number' || !Number.isSafeInteger(number) || number <= 0 || number > max) {
		throw invalidField(
			ctx,
			field,
			value,
			options.expected ??
				(options.max === undefined
					? 'a whole number greater than 0, e.g. 86400 for 24 hours'
					: `a whole number from 1 to ${options.max}`),
		);
	}
	return number;
}

/**
 * The FinVerify Trigger's `deliveryKey` on an item (Process Once): a text of 1 to 200 characters without
 * control characters. The trigger makes it from the event's identity (`event:…`, `fields:…`).
 */
export function assertDeliveryKey(
	ctx: FieldContext,
	value: unknown,
	field = 'deliveryKey',
): string {
	const key = typeof value === 'string' ? value.trim() : '';
	if (key === '' || key.length > 200 || CONTROL_CHARACTERS.test(key)) {
		throw invalidField(
			ctx,
			field,
			value,
			'the deliveryKey field the FinVerify Trigger puts on every item, e.g. "event:3q2sX0…" (a text ' +
				'of 1 to 200 characters): put this node right after the trigger, or keep deliveryKey on the ' +
				'items of the nodes in between',
		);
	}
	return key;
}

/** Service-issued identifiers (job_id, client_id): non-empty, no spaces. */
export function assertIdentifier(
	ctx: FieldContext,
	value: unknown,
	field: string,
	example: string,
): string {
	const id = asText(value);
	// "null", "undefined", "NaN": what a missing id becomes in an expression, never an id
	if (!/^[A-Za-z0-9_-]{3,64}$/.test(id) || isPlaceholderWord(id)) {
		throw invalidField(
			ctx,
			field,
			value,
			`the identifier the service returned, e.g. ${example} (3 to 64 letters, digits, _ and -; ` +
				'not a placeholder such as null, undefined or NaN)',
		);
	}
	return id;
}

/**
 * A password: up to 128 characters with at least one visible one, without control characters (a
 * NUL, a line break or a tab is never part of a portal password; a NUL would cut the text short in
 * the systems behind the service). Never trimmed (spaces may be part of it) and never shown back in
 * an error.
 */
export function assertPassword(ctx: FieldContext, value: unknown, field: string): string {
	if (
		typeof value !== 'string' ||
		visibleLength(value) === 0 ||
		value.length > 128 ||
		CONTROL_CHARACTERS.test(value)
	) {
		throw invalidField(
			ctx,
			field,
			undefined,
			'a password of at most 128 characters, not only spaces, without control characters ' +
				'(NUL, line breaks, tabs)',
			{ showValue: false },
		);
	}
	return value;
}

export function assertOtp(ctx: FieldContext, value: unknown, field = 'OTP'): string {
	const otp = asText(value);
	// the income-tax portal's OTPs are 6 digits (the sandbox applies the same rule)
	if (!/^[0-9]{6}$/.test(otp)) throw invalidField(ctx, field, value, '6 digits, e.g. 123456');
	return otp;
}

/** The binary property name the user chose for an output file, checked before any request. */
export function assertBinaryPropertyName(
	ctx: FieldContext,
	value: unknown,
	field = 'Put Output File in Field',
): string {
	return requireText(ctx, field, value, {
		maxLength: 100,
		expected: 'a field name of at most 100 characters, such as data',
	});
}

/** Parses a JSON object given as text or as an object (n8n JSON parameters arrive as either). */
export function parseJsonObject(
	ctx: FieldContext,
	value: unknown,
	field: string,
): Record<string, unknown> {
	if (value === undefined || value === null || value === '') return {};
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			throw invalidField(ctx, field, value, 'a JSON object, e.g. {"crm_id": "123"}');
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw invalidField(ctx, field, value, 'a JSON object, e.g. {"crm_id": "123"}');
	}
	return parsed as Record<string, unknown>;
}

/**
 * One of a fixed set of values (option fields can still receive anything through an expression).
 */
export function assertOneOf<T extends string>(
	ctx: FieldContext,
	value: unknown,
	field: string,
	allowed: readonly T[],
): T {
	const text = asText(value);
	if (!(allowed as readonly string[]).includes(text)) {
		throw invalidField(ctx, field, value, `one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
	}
	return text as T;
}
