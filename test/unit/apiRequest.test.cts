import { readQuery } from '../../nodes/FinVerify/actions/apiRequest/send.operation';
import { normalizeServicePath } from '../../nodes/FinVerify/actions/apiRequest/servicePath';
import { node } from './support.cjs';

describe('normalizeServicePath', () => {
	it.each([
		['corporate/cin-lookup', 'corporate/cin-lookup'],
		['/corporate/cin-lookup', 'corporate/cin-lookup'],
		['  aa-bsa-journey/status  ', 'aa-bsa-journey/status'],
		['/api/v1/services/corporate/cin-lookup', 'corporate/cin-lookup'],
		['api/v1/services/gst-analyser/analyze', 'gst-analyser/analyze'],
		['itr-analyzer/forget-password/submit-otp/', 'itr-analyzer/forget-password/submit-otp'],
		['bank_statement.upload~v2', 'bank_statement.upload~v2'],
	])('accepts %p as %p', (input, path) => {
		expect(normalizeServicePath(input)).toEqual({ path });
	});

	it.each([
		['', /a path such as/],
		['   ', /a path such as/],
		[undefined, /a path such as/],
		[42, /a path such as/],
		['https://evil.example.com/x', /not a full URL/],
		['http:corporate', /not a full URL/],
		['javascript:alert(1)', /not a full URL/],
		['//evil.example.com/x', /not a full URL/],
		['../admin', /\.\. segments/],
		['corporate/../../admin', /\.\. segments/],
		['corporate/./cin-lookup', /\.\. segments/],
		['corporate/%2e%2e/admin', /\.\. segments/],
		['corporate/%2E%2E', /\.\. segments/],
		['corporate/a%2fb', /\.\. segments/],
		['corporate//cin-lookup', /empty segments/],
		['corporate/cin-lookup?x=1', /Query Parameters/],
		['corporate/cin-lookup#frag', /without \? or #/],
		['corporate\\cin-lookup', /backslashes/],
		['corporate/cin lookup', /spaces/],
		['corporate/%zz', /percent-encoding/],
		['corporate/<script>', /letters, digits/],
		['/api/v1/services/', /below \/api\/v1\/services/],
	])('rejects %p', (input, reason) => {
		const result = normalizeServicePath(input);
		expect('error' in result && result.error).toMatch(reason);
	});
});

describe('readQuery', () => {
	const ctx = { node, itemIndex: 0 };
	it('turns the fixed collection into a query object', () => {
		expect(
			readQuery(ctx, {
				parameters: [
					{ name: ' client_id ', value: 'aa_1' },
					{ name: 'n', value: 5 },
					{ name: 'e', value: null },
				],
			}),
		).toEqual({
			client_id: 'aa_1',
			n: '5',
			e: '',
		});
	});
	it('is empty without parameters', () => {
		expect(readQuery(ctx, {})).toEqual({});
		expect(readQuery(ctx, undefined)).toEqual({});
	});
	it('rejects a parameter without a name', () => {
		expect(() => readQuery(ctx, { parameters: [{ name: '', value: 'x' }] })).toThrow(
			/Invalid Query Parameters in item 0/,
		);
	});
});
