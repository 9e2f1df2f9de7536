/**
 * The kinds of invalid input that reached the service (51 of 5,972 fuzzed runs): what a field can
 * never be, the service never receives. Each validator refuses the kind with an error naming the field and
 * the expected format, and still accepts the values next to it.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import {
	assertEmail,
	assertIdentifier,
	assertMobile,
	assertPan,
	assertPassword,
	assertPositiveInteger,
	isPlaceholderWord,
	requireText,
	visibleLength,
} from '../../nodes/FinVerify/helpers/validation';
import { BASE_URL_EXPECTED, checkBaseUrl } from '../../nodes/shared/baseUrl';
import { node } from './support.cjs';

const ctx = { node, itemIndex: 3 };

function rejection(fn: () => unknown): NodeOperationError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('expected the validator to reject');
}

describe('passwords: no NUL or other control character, not only blanks', () => {
	test.each([
		['a NUL inside', 'Secr3t\u0000pass'],
		['a NUL alone', '\u0000'],
		['a NUL at the end', 'Secr3tpass\u0000'],
		['a line break', 'Secr3t\npass'],
		['a tab', 'Secr3t\tpass'],
		['DEL', 'Secr3t\u007fpass'],
		['zero-width spaces only', '\u200b\u200b\u200b'],
		['spaces only', '    '],
	])('%s is refused without showing the password', (_, password) => {
		const error = rejection(() => assertPassword(ctx, password, 'Portal Password'));
		expect(error.message).toBe('Invalid Portal Password in item 3');
		expect(error.description).toBe(
			'Portal Password: expected a password of at most 128 characters, not only spaces, without ' +
				'control characters (NUL, line breaks, tabs). Nothing was sent to the service.',
		);
		expect(error.context.code).toBe('INVALID_INPUT');
	});
	test('spaces, symbols and non-ASCII letters are kept exactly', () => {
		for (const password of [' Secr3t! pass ', 'pässwörd€', 'x'.repeat(128)])
			expect(assertPassword(ctx, password, 'Portal Password')).toBe(password);
	});
});

describe('identifiers: "null", "undefined", NaN and the like are no id', () => {
	test.each([
		'null',
		'NULL',
		' null ',
		'undefined',
		'NaN',
		'nan',
		'None',
		'nil',
		'Infinity',
		'-Infinity',
		'true',
		'false',
		NaN,
		Infinity,
		-Infinity,
	])('%p is refused naming the field and the format', (value) => {
		const error = rejection(() =>
			assertIdentifier(ctx, value, 'Job ID', 'itr_5f2c0b7e9a1d4c3b8e6f0a2d'),
		);
		expect(error.message).toMatch(/^Invalid Job ID in item 3/);
		expect(error.description).toContain('e.g. itr_5f2c0b7e9a1d4c3b8e6f0a2d');
		expect(error.description).toContain('not a placeholder such as null, undefined or NaN');
	});
	test('NaN is shown as NaN, not as JSON null', () => {
		expect(rejection(() => assertIdentifier(ctx, NaN, 'Job ID', 'itr_1')).message).toBe(
			'Invalid Job ID in item 3 (got "NaN")',
		);
	});
	test('ids that merely contain such a word, and numeric ids, are accepted', () => {
		for (const id of ['itr_null_1', 'nullable', 'aa_nan', 'none-1', '12345'])
			expect(assertIdentifier(ctx, id, 'Job ID', 'itr_1')).toBe(id);
		expect(assertIdentifier(ctx, 12345, 'Job ID', 'itr_1')).toBe('12345');
	});
	test('isPlaceholderWord', () => {
		expect(isPlaceholderWord(' Undefined ')).toBe(true);
		expect(isPlaceholderWord('nullify')).toBe(false);
	});
});

describe('names: invisible or blank characters only are no name', () => {
	test.each([
		['zero-width spaces', '\u200b\u200b\u200b'],
		['a zero-width joiner and a word joiner', '\u200d\u2060'],
		['a byte-order mark', '\ufeff'],
		['Hangul fillers', '\u3164\u3164'],
		['Braille blanks', '\u2800\u2800\u2800'],
		['soft hyphens', '\u00ad\u00ad'],
		['no-break and ideographic spaces', '\u00a0\u3000'],
		['a mix', ' \u200b\u3164\u2800 '],
	])('%s are refused, naming the field', (_, name) => {
		const error = rejection(() => requireText(ctx, 'Customer Name', name));
		expect(error.message).toMatch(/^Invalid Customer Name in item 3/);
		expect(error.description).toBe(
			'Customer Name: expected a non-empty text, not only spaces or invisible characters. ' +
				'Nothing was sent to the service.',
		);
	});
	test('a minimum length counts visible characters', () => {
		const error = rejection(() => requireText(ctx, 'Full Name', 'P\u200b\u200b', { minLength: 2 }));
		expect(error.description).toContain('at least 2 characters');
		expect(requireText(ctx, 'Full Name', 'Pr\u200b', { minLength: 2 })).toBe('Pr\u200b');
	});
	test('names with letters of any script are accepted', () => {
		for (const name of ['Priya Sharma', 'प्रिया शर्मा', '李', 'Ng'])
			expect(requireText(ctx, 'Customer Name', name)).toBe(name);
	});
	test('visibleLength', () => {
		expect(visibleLength('\u200b a\u3164b \u2800')).toBe(2);
		expect(visibleLength('')).toBe(0);
	});
});

describe('e-mail: no dot at the start or end of the name, no two dots in a row', () => {
	test.each([
		'.priya@example.com',
		'priya.@example.com',
		'pri..ya@example.com',
		'..@example.com',
		'.@example.com',
	])('%s is refused naming the field and the rule', (email) => {
		const error = rejection(() => assertEmail(ctx, email, 'Recipient Email'));
		expect(error.message).toMatch(/^Invalid Recipient Email in item 3/);
		expect(error.description).toContain(
			'an e-mail address, e.g. name@example.com (no dot at the start or end of the name, no two dots in a row)',
		);
	});
	test('dots inside the name and the domain are fine', () => {
		for (const email of ['priya.sharma@example.com', 'p.r.i@mail.example.co.in', 'a+b@x.io'])
			expect(assertEmail(ctx, email, 'Recipient Email')).toBe(email);
	});
});

describe('whole numbers with an upper bound (Expires In: at most 604800 seconds)', () => {
	const expiresIn = (value: unknown) =>
		assertPositiveInteger(ctx, value, 'Expires In (Seconds)', {
			max: 604800,
			expected: 'a whole number of seconds from 1 to 604800 (7 days), e.g. 86400 for 24 hours',
		});
	test.each([604801, '604801', 86400 * 365, Number.MAX_SAFE_INTEGER, 1e21, 0, -1])(
		'%p is refused naming the bound',
		(value) => {
			const error = rejection(() => expiresIn(value));
			expect(error.message).toMatch(/^Invalid Expires In \(Seconds\) in item 3/);
			expect(error.description).toContain('from 1 to 604800 (7 days)');
		},
	);
	test('1 to 604800 are accepted', () => {
		expect(expiresIn(1)).toBe(1);
		expect(expiresIn('604800')).toBe(604800);
	});
	test('without a bound the default message stays', () => {
		expect(rejection(() => assertPositiveInteger(ctx, 0, 'Limit')).description).toContain(
			'a whole number greater than 0',
		);
		expect(assertPositiveInteger(ctx, 10 ** 9, 'Limit')).toBe(10 ** 9);
	});
});

describe('Base URL: only the service address (or with exactly /api/v1/services)', () => {
	test.each([
		['https://api.example.com', 'https://api.example.com'],
		['https://api.example.com/', 'https://api.example.com'],
		['api.example.com:8443', 'https://api.example.com:8443'],
		['https://api.example.com/api/v1/services', 'https://api.example.com'],
		['https://api.example.com/api/v1/services//', 'https://api.example.com'],
		['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
	])('%s → %s', (raw, url) => expect(checkBaseUrl(raw)).toEqual({ ok: true, url }));

	test.each([
		'/api',
		'/api/v1',
		'/api/v1.0/services',
		'/api//v1/services',
		'/v1/services',
		'/api/services',
		'/api/v1/service',
		'/api/v2/services',
		'/services',
		'/api%2Fv1%2Fservices',
		'/api/v1%2fservices',
		'//api/v1/services',
		'/api/v1/services/corporate',
	])('the API-prefix typo %s is refused as one', (path) => {
		const checked = checkBaseUrl(`https://api.example.com${path}`);
		expect(checked).toEqual({
			ok: false,
			problem: expect.stringMatching(
				/^The Base URL has a mistyped API prefix \(.+\): the node adds \/api\/v1\/services itself/,
			),
		});
	});

	test.each(['/finverify', '/finverify/', '/gateway/api/v1/services', '/a/b'])(
		'the path %s is refused: the service has none',
		(path) => {
			expect(checkBaseUrl(`https://api.example.com${path}`)).toEqual({
				ok: false,
				problem: expect.stringMatching(
					/^The Base URL has a path \(.+\): the service has none before \/api\/v1\/services\.$/,
				),
			});
		},
	);

	test('the expected form names the field and an example', () => {
		expect(BASE_URL_EXPECTED).toBe(
			'Base URL: expected the service address alone, https:// (or http://), the host and an optional port, e.g. https://api.example.com',
		);
	});
});

describe('what an input error shows back follows Personal Data in Output', () => {
	const v2 = (parameters: INodeParameters = {}) => ({
		node: { ...node, typeVersion: 2, parameters },
		itemIndex: 0,
	});
	test('Masked (version 2 default): PAN, mobile and e-mail masked like the output', () => {
		expect(rejection(() => assertPan(v2(), 'ABCDE12345')).message).toBe(
			'Invalid PAN in item 0 (got "XXXXXX2345")',
		);
		expect(rejection(() => assertMobile(v2(), '+44 7700 900123')).message).toBe(
			'Invalid Mobile Number in item 0 (got "+XX XXXX XX0123")',
		);
		expect(
			rejection(() =>
				assertEmail(v2({ personalData: 'masked' }), '.priya@example.com', 'Recipient Email'),
			).message,
		).toBe('Invalid Recipient Email in item 0 (got ".XXXXX@example.com")');
		// a PAN inside another field's value too
		expect(
			rejection(() => requireText(v2(), 'Customer Name', 'ABCDE1234F\u0000x')).message,
		).not.toContain('ABCDE1234F');
		// what is no personal data stays as typed
		expect(rejection(() => assertIdentifier(v2(), 'null', 'Job ID', 'itr_1')).message).toBe(
			'Invalid Job ID in item 0 (got "null")',
		);
	});
	test('Full, and version 1 (no such field): as typed', () => {
		expect(rejection(() => assertPan(v2({ personalData: 'full' }), 'ABCDE12345')).message).toBe(
			'Invalid PAN in item 0 (got "ABCDE12345")',
		);
		expect(rejection(() => assertMobile(ctx, '+44 7700 900123')).message).toBe(
			'Invalid Mobile Number in item 3 (got "+44 7700 900123")',
		);
	});
});
