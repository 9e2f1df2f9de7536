import { NodeOperationError } from 'n8n-workflow';

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
	normalizeMobile,
	parseJsonObject,
	requireText,
} from '../../nodes/FinVerify/helpers/validation';
import { node } from './support.cjs';

const ctx = { node, itemIndex: 2 };

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
