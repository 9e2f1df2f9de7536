/**
 * Issue #10 Medium 10-12 and the Low list as unit regressions of the pure checks, and property-based
 * fuzzing (fast-check, fixed seed: reproducible) of every validator: whatever a field receives, a check
 * either returns a value in the service's format or throws a NodeOperationError naming the field; it never
 * crashes with anything else and never lets a control character through.
 */
import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { readAssessmentYears } from '../../../nodes/FinVerify/actions/incomeTaxReturn/shared';
import {
	assertBureaus,
	assertCin,
	assertConsent,
	assertEmail,
	assertGender,
	assertHttpUrl,
	assertIdentifier,
	assertLlpin,
	assertMobile,
	assertOtp,
	assertPan,
	assertPositiveInteger,
	parseJsonObject,
	requireText,
} from '../../../nodes/FinVerify/helpers/validation';
import { redactPassword } from '../../../nodes/FinVerify/transport/redact';

const node: INode = {
	id: 'n',
	name: 'FinVerify',
	type: 'n8n-nodes-finverify.finVerify',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const ctx = { node, itemIndex: 0 };
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

describe('Medium 11: URL fields send the checked, normalized value; no CR/LF/tab/NUL/markup', () => {
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
		expect(rejects(() => assertHttpUrl(ctx, url, 'Redirect URL'))).toBe(true);
	});

	test('the normalized URL is what comes back', () => {
		expect(assertHttpUrl(ctx, ' HTTPS://Example.COM/a/../b?x=1 ', 'Redirect URL')).toBe(
			'https://example.com/b?x=1',
		);
	});
});

describe('Medium 12: Assessment Years of a wrong type is an error, not "all years"', () => {
	test.each([2024, true, { year: '2024-25' }, [2024], ['2024-25', 5]])('%j is refused', (value) => {
		expect(rejects(() => readAssessmentYears(ctx, value))).toBe(true);
	});
	test('empty means all years; text and arrays of text are read', () => {
		expect(readAssessmentYears(ctx, '')).toEqual([]);
		expect(readAssessmentYears(ctx, undefined)).toEqual([]);
		expect(readAssessmentYears(ctx, '2024-25, 2023-24')).toEqual(['2024-25', '2023-24']);
		expect(readAssessmentYears(ctx, ['2024-25'])).toEqual(['2024-25']);
	});
});

describe('Medium 10: an echoed password is redacted by field, not by value', () => {
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

describe('Low list', () => {
	test('"0x10", "1e3" and unsafe numbers are not positive integers', () => {
		for (const value of ['0x10', '1e3', ' 0b11', '1_000', 2 ** 60, Infinity, '9'.repeat(30)])
			expect(rejects(() => assertPositiveInteger(ctx, value, 'Expires In'))).toBe(true);
		expect(assertPositiveInteger(ctx, ' 3600 ', 'Expires In')).toBe(3600);
	});
	test('a dotless-i PAN is refused, not upper-cased into a valid one', () => {
		expect(rejects(() => assertPan(ctx, 'ıBCDE1234F'))).toBe(true);
		expect(rejects(() => assertCin(ctx, 'ı17110MH1973PLC019786'))).toBe(true);
		expect(rejects(() => assertLlpin(ctx, 'ıAB-1234'))).toBe(true);
		expect(assertPan(ctx, ' abcde1234f ')).toBe('ABCDE1234F');
	});
	test('a typed CIN/LLPIN with surrounding spaces is accepted and trimmed', () => {
		expect(assertCin(ctx, '  L17110MH1973PLC019786 ')).toBe('L17110MH1973PLC019786');
		expect(assertLlpin(ctx, ' aab-1234 ')).toBe('AAB-1234');
	});
	test('a negative number is not a mobile number', () => {
		expect(rejects(() => assertMobile(ctx, -9876543210))).toBe(true);
		expect(rejects(() => assertMobile(ctx, '-9876543210'))).toBe(true);
		expect(assertMobile(ctx, 9876543210)).toBe('9876543210');
		expect(assertMobile(ctx, '+91 98765-43210')).toBe('9876543210');
	});
	test('control characters and NUL in free text are refused', () => {
		for (const text of ['Priya\u0000', 'Priya\r\nBcc: x', 'a\tb', '\u007f'])
			expect(rejects(() => requireText(ctx, 'Customer Name', text))).toBe(true);
	});
	test('e-mails and identifiers as strict as the service', () => {
		for (const email of ['a@b', 'a b@c.com', 'a@b.c<script>', 'a@-b.com', 'a@b..com'])
			expect(rejects(() => assertEmail(ctx, email))).toBe(true);
		expect(assertEmail(ctx, 'priya.sharma+kyc@example.co.in')).toBe(
			'priya.sharma+kyc@example.co.in',
		);
		for (const id of ['a', 'aa_1:2', 'x.y.z', 'id with space', 'x'.repeat(65)])
			expect(rejects(() => assertIdentifier(ctx, id, 'Job ID', 'itr_1'))).toBe(true);
	});
	test('OTP: 6 digits, the rule of the sandbox and the portal', () => {
		expect(assertOtp(ctx, '123456')).toBe('123456');
		for (const otp of ['1234', '12345678', '12345', '12a456'])
			expect(rejects(() => assertOtp(ctx, otp))).toBe(true);
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
		['PAN', (v) => assertPan(ctx, v), (o) => /^[A-Z]{5}[0-9]{4}[A-Z]$/.test(String(o))],
		['CIN', (v) => assertCin(ctx, v), (o) => /^[A-Z0-9]{21}$/.test(String(o))],
		['LLPIN', (v) => assertLlpin(ctx, v), (o) => /^[A-Z]{3}-[0-9]{4}$/.test(String(o))],
		['Mobile', (v) => assertMobile(ctx, v), (o) => /^[6-9][0-9]{9}$/.test(String(o))],
		['Email', (v) => assertEmail(ctx, v), (o) => !CONTROL.test(String(o)) && !/\s/.test(String(o))],
		[
			'URL',
			(v) => assertHttpUrl(ctx, v),
			(o) =>
				/^https?:\/\//.test(String(o)) && !CONTROL.test(String(o)) && !/[<>"'\s]/.test(String(o)),
		],
		['OTP', (v) => assertOtp(ctx, v), (o) => /^[0-9]{6}$/.test(String(o))],
		[
			'Identifier',
			(v) => assertIdentifier(ctx, v, 'ID', 'x'),
			(o) => /^[A-Za-z0-9_-]{3,64}$/.test(String(o)),
		],
		[
			'Text',
			(v) => requireText(ctx, 'Name', v),
			(o) => !CONTROL.test(String(o)) && String(o).length > 0,
		],
		[
			'Positive integer',
			(v) => assertPositiveInteger(ctx, v, 'N'),
			(o) => Number.isSafeInteger(o) && (o as number) > 0,
		],
		['Gender', (v) => assertGender(ctx, v), (o) => o === 'male' || o === 'female'],
		['Consent', (v) => assertConsent(ctx, v), (o) => o === 'Y'],
		['Bureaus', (v) => assertBureaus(ctx, v), (o) => Array.isArray(o) && o.length > 0],
		[
			'JSON object',
			(v) => parseJsonObject(ctx, v, 'Extra'),
			(o) => typeof o === 'object' && o !== null && !Array.isArray(o),
		],
		['Assessment Years', (v) => readAssessmentYears(ctx, v), (o) => Array.isArray(o)],
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
