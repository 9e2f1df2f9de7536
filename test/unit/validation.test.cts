/**
 * The input checks (helpers/validation.ts) alone: each field's format, what is normalized (PAN and CIN
 * uppercased, mobile numbers in their usual spellings, URLs), that a rejection names the field, the item and
 * the expected format, and that nothing with a control character, markup or a number in disguise gets
 * through; then property-based fuzzing (fast-check, fixed seed: reproducible) of every validator: whatever a
 * field receives, a check returns a value in the service's format or throws a NodeOperationError naming the
 * field, never anything else. The same checks through the engine: test/integration/reliability/fuzz.test.cts.
 */
import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';

import { readAssessmentYears } from '../../nodes/FinVerify/actions/incomeTaxReturn/shared';
import {
	assertBureaus,
	assertCin,
	assertConsent,
	assertDeliveryKey,
	assertEmail,
	assertGender,
	assertHttpUrl,
	assertIdentifier,
	assertLlpin,
	assertMobile,
	assertOtp,
	assertPan,
	assertPositiveInteger,
	normalizeMobile,
	parseJsonObject,
	requireText,
} from '../../nodes/FinVerify/helpers/validation';
import { redactPassword } from '../../nodes/FinVerify/transport/redact';
import { node } from './support.cjs';

const ctx = { node, itemIndex: 2 };
const item0 = { node, itemIndex: 0 };

/** Runs a validator expecting it to throw; returns the error for inspection. */
function rejection(fn: () => unknown): NodeOperationError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('expected the validator to reject');
}

describe('PAN', () => {
	test('uppercases and trims valid PANs', () =>
		expect(assertPan(ctx, ' abcde1234f ')).toBe('ABCDE1234F'));
	test.each(['ABCDE1234', 'ABCD01234F', '12345ABCDE', 'ABCDE-1234F', '', null, 42])(
		'rejects %p naming field, item and format',
		(value) => {
			const error = rejection(() => assertPan(ctx, value));
			expect(error.message).toMatch(/^Invalid PAN in item 2/);
			expect(error.description).toContain('5 letters, 4 digits, 1 letter, e.g. ABCDE1234F');
			expect(error.context.itemIndex).toBe(2);
		},
	);
});

describe('CIN and LLPIN', () => {
	test('valid values are uppercased', () => {
		expect(assertCin(ctx, 'l17110mh1973plc019786')).toBe('L17110MH1973PLC019786');
		expect(assertLlpin(ctx, 'aab-1234')).toBe('AAB-1234');
	});
	test('invalid values name the expected format', () => {
		expect(rejection(() => assertCin(ctx, 'L17110MH1973PLC01978')).description).toContain(
			'21 letters and digits',
		);
		expect(rejection(() => assertLlpin(ctx, 'AAB1234')).description).toContain(
			'three letters, a hyphen and four digits',
		);
		expect(rejection(() => assertLlpin(ctx, 'AB-12345')).message).toContain('LLPIN');
	});
});

describe('mobile numbers', () => {
	test.each([
		['9876543210', '9876543210'],
		['+91 98765 43210', '9876543210'],
		['+91-98765-43210', '9876543210'],
		['919876543210', '9876543210'],
		['098765 43210', '9876543210'],
		['(987) 654-3210', '9876543210'],
	])('%s → %s', (input, expected) => expect(normalizeMobile(input)).toBe(expected));

	test.each([
		'12345',
		'5876543210',
		'+1 987 654 3210',
		'98765432101',
		'phone 9876543210',
		'',
		'+44 7911 123456',
	])('rejects %p', (input) => {
		expect(normalizeMobile(input)).toBeUndefined();
		expect(rejection(() => assertMobile(ctx, input)).description).toContain(
			'10-digit Indian mobile number',
		);
	});
});

describe('consent, gender, bureaus', () => {
	test('consent must be explicitly on', () => {
		expect(assertConsent(ctx, true)).toBe('Y');
		for (const value of [false, 'true', 'Y', undefined]) {
			const error = rejection(() => assertConsent(ctx, value));
			expect(error.message).toBe('Subject Has Consented is required in item 2');
			expect(error.description).toContain('Nothing was sent');
		}
	});
	test('gender: CRM spellings accepted, no default, nothing else', () => {
		for (const [input, expected] of [
			['Female', 'female'],
			['F', 'female'],
			['woman', 'female'],
			[' MALE ', 'male'],
			['m', 'male'],
			['Man', 'male'],
		])
			expect(assertGender(ctx, input)).toBe(expected);
		expect(rejection(() => assertGender(ctx, 'other')).description).toContain('"female" or "male"');
		for (const empty of ['', undefined, null, '  ']) {
			const error = rejection(() => assertGender(ctx, empty));
			expect(error.message).toBe('Gender is required in item 2');
			expect(error.description).toContain('choose Female or Male');
		}
	});
	test('bureaus: at least one known bureau, deduplicated, lowercased', () => {
		expect(assertBureaus(ctx, ['CIBIL', 'crif', 'cibil'])).toEqual(['cibil', 'crif']);
		expect(assertBureaus(ctx, 'equifax, experian')).toEqual(['equifax', 'experian']);
		expect(rejection(() => assertBureaus(ctx, [])).description).toContain(
			'at least one of equifax, experian, cibil, crif',
		);
		expect(rejection(() => assertBureaus(ctx, ['cibil', 'transunion'])).message).toContain(
			'Bureaus',
		);
	});
});

describe('text, e-mail, URL, numbers, identifiers', () => {
	test('minimum lengths', () => {
		expect(requireText(ctx, 'Business Name', ' Ac ', { minLength: 2 })).toBe('Ac');
		expect(
			rejection(() => requireText(ctx, 'Company Name', 'ab', { minLength: 3 })).description,
		).toContain('at least 3 characters');
	});
	test('secrets are never echoed', () => {
		const error = rejection(() => requireText(ctx, 'New Password', '', { secret: true }));
		expect(error.message).toBe('Invalid New Password in item 2');
	});
	test('e-mail', () => {
		expect(assertEmail(ctx, ' a.b@example.in ')).toBe('a.b@example.in');
		expect(rejection(() => assertEmail(ctx, 'a@b')).description).toContain('e-mail address');
	});
	test('http(s) URLs only', () => {
		expect(assertHttpUrl(ctx, 'https://example.com/x?y=1', 'Callback URL')).toBe(
			'https://example.com/x?y=1',
		);
		expect(
			rejection(() => assertHttpUrl(ctx, 'ftp://example.com', 'Callback URL')).message,
		).toContain('Callback URL');
		expect(
			rejection(() => assertHttpUrl(ctx, 'example.com', 'Callback URL')).description,
		).toContain('http:// or https://');
	});
	test('positive integers', () => {
		expect(assertPositiveInteger(ctx, 86400, 'Expires In')).toBe(86400);
		expect(assertPositiveInteger(ctx, '3600', 'Expires In')).toBe(3600);
		for (const value of [0, -5, 1.5, 'abc', ''])
			expect(rejection(() => assertPositiveInteger(ctx, value, 'Expires In')).message).toContain(
				'Expires In',
			);
	});
	test('identifiers and OTPs', () => {
		expect(assertIdentifier(ctx, 'aa_123', 'Journey Client ID', 'aa_1')).toBe('aa_123');
		expect(
			rejection(() => assertIdentifier(ctx, 'has space', 'Job ID', 'itr_1')).message,
		).toContain('Job ID');
		expect(assertOtp(ctx, '123456')).toBe('123456');
		expect(rejection(() => assertOtp(ctx, '12a456')).description).toContain('6 digits');
	});
	test('JSON objects', () => {
		expect(parseJsonObject(ctx, '{"a":1}', 'Metadata')).toEqual({ a: 1 });
		expect(parseJsonObject(ctx, { b: 2 }, 'Metadata')).toEqual({ b: 2 });
		expect(parseJsonObject(ctx, '', 'Metadata')).toEqual({});
		expect(rejection(() => parseJsonObject(ctx, '[1]', 'Metadata')).description).toContain(
			'JSON object',
		);
		expect(rejection(() => parseJsonObject(ctx, '{oops', 'Metadata')).message).toContain(
			'Metadata',
		);
	});
});

const SEED = 20261122;
const RUNS = 400;

const rejects = (check: () => unknown) => {
	try {
		check();
	} catch (error) {
		return error instanceof NodeOperationError;
	}
	return false;
};

describe("the FinVerify Trigger's deliveryKey (Process Once)", () => {
	test.each(['event:3q2sX0aZ', 'signed:abc', 'body:x', '  event:padded  '])(
		'%j is accepted, trimmed',
		(key) => {
			expect(assertDeliveryKey(ctx, key)).toBe(key.trim());
		},
	);

	test.each([undefined, null, '', '   ', 42, {}, ['event:a'], 'a\nb', 'x'.repeat(201)])(
		'%j is refused, naming the field and where it comes from',
		(value) => {
			const error = rejection(() => assertDeliveryKey(ctx, value));
			expect(error.message).toMatch(/^Invalid deliveryKey in item 2 \(got /);
			expect(error.description).toContain('FinVerify Trigger');
			expect(error.context.code).toBe('INVALID_INPUT');
		},
	);
});

describe('URL fields send the checked, normalized value; no CR/LF/tab/NUL/markup', () => {
	test.each([
		'https://example.com/cb\r\nX-Injected: 1',
		'https://example.com/cb\nx',
		'https://example.com/\tcb',
		'https://example.com/cb\u0000',
		'https://example.com/<script>alert(1)</script>',
		'https://example.com/"onmouseover="x',
		"https://example.com/'x'",
		'https://exa mple.com/',
		'javascript:alert(1)',
		'https://example.com/`x`',
	])('%j is refused', (url) => {
		expect(rejects(() => assertHttpUrl(item0, url, 'Redirect URL'))).toBe(true);
	});

	test('the normalized URL is what comes back', () => {
		expect(assertHttpUrl(item0, ' HTTPS://Example.COM/a/../b?x=1 ', 'Redirect URL')).toBe(
			'https://example.com/b?x=1',
		);
	});
});

describe('Assessment Years of a wrong type is an error, not "all years"', () => {
	test.each([2024, true, { year: '2024-25' }, [2024], ['2024-25', 5]])('%j is refused', (value) => {
		expect(rejects(() => readAssessmentYears(item0, value))).toBe(true);
	});
	test('empty means all years; text and arrays of text are read', () => {
		expect(readAssessmentYears(item0, '')).toEqual([]);
		expect(readAssessmentYears(item0, undefined)).toEqual([]);
		expect(readAssessmentYears(item0, '2024-25, 2023-24')).toEqual(['2024-25', '2023-24']);
		expect(readAssessmentYears(item0, ['2024-25'])).toEqual(['2024-25']);
	});
});

describe('an echoed password is redacted by field, not by value', () => {
	test('a short password under a password field is redacted', () => {
		expect(redactPassword({ data: { password: 'ab1', status: 'otp_sent' } }, 'ab1')).toEqual({
			data: { password: '[redacted]', status: 'otp_sent' },
		});
	});
	test('a password equal to a status word does not clobber the status', () => {
		expect(
			redactPassword(
				{ data: { status: 'processing', portal_password: 'processing' } },
				'processing',
			),
		).toEqual({ data: { status: 'processing', portal_password: '[redacted]' } });
	});
	test('a password embedded in a message is cut out', () => {
		expect(redactPassword({ message: 'login with Hunter2Secret failed' }, 'Hunter2Secret')).toEqual(
			{
				message: 'login with [redacted] failed',
			},
		);
	});
});

describe('look-alike input: numbers in disguise, dotless letters', () => {
	test('"0x10", "1e3" and unsafe numbers are not positive integers', () => {
		for (const value of ['0x10', '1e3', ' 0b11', '1_000', 2 ** 60, Infinity, '9'.repeat(30)])
			expect(rejects(() => assertPositiveInteger(item0, value, 'Expires In'))).toBe(true);
		expect(assertPositiveInteger(item0, ' 3600 ', 'Expires In')).toBe(3600);
	});
	test('a dotless-i PAN is refused, not upper-cased into a valid one', () => {
		expect(rejects(() => assertPan(item0, 'ıBCDE1234F'))).toBe(true);
		expect(rejects(() => assertCin(item0, 'ı17110MH1973PLC019786'))).toBe(true);
		expect(rejects(() => assertLlpin(item0, 'ıAB-1234'))).toBe(true);
		expect(assertPan(item0, ' abcde1234f ')).toBe('ABCDE1234F');
	});
	test('a typed CIN/LLPIN with surrounding spaces is accepted and trimmed', () => {
		expect(assertCin(item0, '  L17110MH1973PLC019786 ')).toBe('L17110MH1973PLC019786');
		expect(assertLlpin(item0, ' aab-1234 ')).toBe('AAB-1234');
	});
	test('a negative number is not a mobile number', () => {
		expect(rejects(() => assertMobile(item0, -9876543210))).toBe(true);
		expect(rejects(() => assertMobile(item0, '-9876543210'))).toBe(true);
		expect(assertMobile(item0, 9876543210)).toBe('9876543210');
		expect(assertMobile(item0, '+91 98765-43210')).toBe('9876543210');
	});
	test('control characters and NUL in free text are refused', () => {
		for (const text of ['Priya\u0000', 'Priya\r\nBcc: x', 'a\tb', '\u007f'])
			expect(rejects(() => requireText(item0, 'Customer Name', text))).toBe(true);
	});
	test('e-mails and identifiers as strict as the service', () => {
		for (const email of ['a@b', 'a b@c.com', 'a@b.c<script>', 'a@-b.com', 'a@b..com'])
			expect(rejects(() => assertEmail(item0, email))).toBe(true);
		expect(assertEmail(item0, 'priya.sharma+kyc@example.co.in')).toBe(
			'priya.sharma+kyc@example.co.in',
		);
		for (const id of ['a', 'aa_1:2', 'x.y.z', 'id with space', 'x'.repeat(65)])
			expect(rejects(() => assertIdentifier(item0, id, 'Job ID', 'itr_1'))).toBe(true);
	});
	test('OTP: 6 digits, the rule of the sandbox and the portal', () => {
		expect(assertOtp(item0, '123456')).toBe('123456');
		for (const otp of ['1234', '12345678', '12345', '12a456'])
			expect(rejects(() => assertOtp(item0, otp))).toBe(true);
	});
});

describe('property-based fuzzing of every validator (seeded)', () => {
	// anything a field can receive from an expression: text of any Unicode, numbers, objects, arrays…
	const anyInput = fc.oneof(
		fc.string({ unit: 'binary', maxLength: 40 }),
		fc.string({ unit: 'grapheme', maxLength: 40 }),
		fc.anything({ maxDepth: 2 }),
		fc.constantFrom('ıBCDE1234F', '0x10', '-9876543210', 'https://x.com/\r\n', '\u0000'),
	);
	const CONTROL = {
		test: (t: string) => [...t].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f'),
	};
	const checks: Array<[string, (v: unknown) => unknown, (out: unknown) => boolean]> = [
		['PAN', (v) => assertPan(item0, v), (o) => /^[A-Z]{5}[0-9]{4}[A-Z]$/.test(String(o))],
		['CIN', (v) => assertCin(item0, v), (o) => /^[A-Z0-9]{21}$/.test(String(o))],
		['LLPIN', (v) => assertLlpin(item0, v), (o) => /^[A-Z]{3}-[0-9]{4}$/.test(String(o))],
		['Mobile', (v) => assertMobile(item0, v), (o) => /^[6-9][0-9]{9}$/.test(String(o))],
		[
			'Email',
			(v) => assertEmail(item0, v),
			(o) => !CONTROL.test(String(o)) && !/\s/.test(String(o)),
		],
		[
			'URL',
			(v) => assertHttpUrl(item0, v),
			(o) =>
				/^https?:\/\//.test(String(o)) && !CONTROL.test(String(o)) && !/[<>"'\s]/.test(String(o)),
		],
		['OTP', (v) => assertOtp(item0, v), (o) => /^[0-9]{6}$/.test(String(o))],
		[
			'Identifier',
			(v) => assertIdentifier(item0, v, 'ID', 'x'),
			(o) => /^[A-Za-z0-9_-]{3,64}$/.test(String(o)),
		],
		[
			'Text',
			(v) => requireText(item0, 'Name', v),
			(o) => !CONTROL.test(String(o)) && String(o).length > 0,
		],
		[
			'Positive integer',
			(v) => assertPositiveInteger(item0, v, 'N'),
			(o) => Number.isSafeInteger(o) && (o as number) > 0,
		],
		['Gender', (v) => assertGender(item0, v), (o) => o === 'male' || o === 'female'],
		['Consent', (v) => assertConsent(item0, v), (o) => o === 'Y'],
		['Bureaus', (v) => assertBureaus(item0, v), (o) => Array.isArray(o) && o.length > 0],
		[
			'JSON object',
			(v) => parseJsonObject(item0, v, 'Extra'),
			(o) => typeof o === 'object' && o !== null && !Array.isArray(o),
		],
		['Assessment Years', (v) => readAssessmentYears(item0, v), (o) => Array.isArray(o)],
	];

	test.each(checks)(
		'%s: a value in the service format, or a NodeOperationError; never a crash',
		(_name, check, valid) => {
			fc.assert(
				fc.property(anyInput, (input) => {
					let out: unknown;
					try {
						out = check(input);
					} catch (error) {
						return error instanceof NodeOperationError;
					}
					return valid(out);
				}),
				{ seed: SEED, numRuns: RUNS },
			);
		},
	);
});
