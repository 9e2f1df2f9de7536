/**
 * No field of the two nodes or of the credential hands n8n a pattern to run: a `validation` of type regex, an
 * `extractValue` regex or a `regex` display condition. n8n runs those (n8n-workflow's safeRegex) under a 250 ms budget
 * per call, also in the app, and on a machine whose cores are busy a plain pattern can miss it: the run then fails
 * with "Regular expression execution timed out" before the node starts. The node checks every value itself in
 * `read` (helpers/validation.ts), naming the field and the format; test/integration/company.test.cts runs the
 * pickers' typed values with every timed pattern failing.
 */
import { FinVerifyApi } from '../../credentials/FinVerifyApi.credentials';
import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { FinVerifyTrigger } from '../../nodes/FinVerifyTrigger/FinVerifyTrigger.node';

/** Where in a description n8n would run a pattern, as paths like `properties[3].modes[1].validation[0]`. */
function timedPatterns(value: unknown, where = ''): string[] {
	if (Array.isArray(value)) return value.flatMap((v, i) => timedPatterns(v, `${where}[${i}]`));
	if (typeof value !== 'object' || value === null) return [];
	const found: string[] = [];
	const record = value as Record<string, unknown>;
	// { type: 'regex', properties: { regex } } in `validation`, { type: 'regex', regex } as `extractValue`
	if (record.type === 'regex') found.push(where);
	// displayOptions: { show: { field: [{ _cnd: { regex: '…' } }] } }
	const condition = record._cnd as Record<string, unknown> | undefined;
	if (condition && 'regex' in condition) found.push(`${where}._cnd.regex`);
	for (const [key, child] of Object.entries(record))
		found.push(...timedPatterns(child, where ? `${where}.${key}` : key));
	return found;
}

test('the search finds each kind of timed pattern (the negative case)', () => {
	const described = {
		properties: [
			{
				name: 'company',
				modes: [
					{ name: 'cin', validation: [{ type: 'regex', properties: { regex: '[A-Z]{21}' } }] },
				],
			},
			{ name: 'url', modes: [{ name: 'url', extractValue: { type: 'regex', regex: '/(\\d+)' } }] },
			{ name: 'shown', displayOptions: { show: { other: [{ _cnd: { regex: '^a' } }] } } },
		],
	};
	expect(timedPatterns(described)).toEqual([
		'properties[0].modes[0].validation[0]',
		'properties[1].modes[0].extractValue',
		'properties[2].displayOptions.show.other[0]._cnd.regex',
	]);
});

test.each([
	['FinVerify', new FinVerify().description],
	['FinVerify Trigger', new FinVerifyTrigger().getNodeType().description],
	['FinVerify API credential', new FinVerifyApi()],
])('%s: no pattern for n8n to run before the node does', (_name, described) => {
	expect(timedPatterns(described)).toEqual([]);
});
