/**
 * The kinds of invalid input that the fuzzing of 5,972 runs found reaching the service (NUL bytes
 * in passwords, "null" and NaN as ids, names of only invisible or blank characters that created journeys,
 * e-mail addresses with misplaced dots, Expires In without an upper bound), through n8n-core's real engine
 * against the sandbox. Each value arrives as item data through an expression, as a workflow would feed it;
 * with the error output on, every item comes back as an error item naming the field, and the sandbox's
 * request log (GET /__sandbox/requests) shows that nothing was sent. A valid item beside them is sent, so
 * the log would show a request that got through. (The Base URL kinds: test/integration/credential.test.cts.)
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow } from '../harness/index.cjs';
import { NODE, NOTHING_SENT, withSandbox } from './support.cjs';

/** One kind of invalid input on one field: the operation, how the field is set, the values, the fix. */
interface Kind {
	/** What the kind is, for the test name. */
	kind: string;
	/** The field as the error names it. */
	field: string;
	/** Parameters with the field set to `expression`. */
	parameters: (expression: string) => IDataObject;
	/** Expressions giving the invalid values (over `$json.v`). */
	invalid: string[];
	/** A valid value, sent once to show the log does record a request of this operation. */
	valid: string;
	/** The part of the service path this operation sends to. */
	path: string;
	/** What the error's description says is expected. */
	expected: RegExp;
}

const v = (value: unknown) => `={{ ${JSON.stringify(value)} }}`;
const ITR_JOB = 'itr_0123456789abcdef01234567';
const SESSION = {
	resource: 'collectionSession',
	operation: 'create',
	flow: 'gst',
	recipientEmail: 'priya@example.com',
	redirectUrl: 'https://example.com/thank-you',
	callbackUrl: 'https://n8n.example.com/webhook/finverify',
};

const KINDS: Kind[] = [
	{
		kind: 'a NUL byte in the portal password',
		field: 'Portal Password',
		parameters: (e) => ({
			resource: 'incomeTaxReturn',
			operation: 'startAnalysis',
			pan: 'ABCDE1234F',
			portalPassword: e,
		}),
		invalid: [v('Portal\u0000Pass1'), v('\u0000'), v('Portal#Pass1\u0000'), v('Pass\r\nword')],
		valid: v('Portal#Pass1'),
		path: 'itr-analyzer/analyze',
		expected: /without control characters \(NUL, line breaks, tabs\)/,
	},
	{
		kind: 'a NUL byte in the new portal password',
		field: 'New Password',
		parameters: (e) => ({
			resource: 'incomeTaxReturn',
			operation: 'resetPortalPassword',
			portalClientId: 'itr_client_123456',
			newPassword: e,
		}),
		invalid: [v('N3w#\u0000Pass'), v('\u0000\u0000\u0000')],
		valid: v('N3w#Portal-Pass'),
		path: 'itr-analyzer/forget-password',
		expected: /without control characters/,
	},
	{
		kind: '"null", "undefined" and NaN as the job id',
		field: 'Job ID',
		parameters: (e) => ({
			resource: 'incomeTaxReturn',
			operation: 'getAnalysisStatus',
			jobId: e,
			waitForFinalStatus: false,
		}),
		invalid: [v('null'), v('NULL'), '={{ String($json.missing) }}', '={{ NaN }}', '={{ 0 / 0 }}'],
		valid: v(ITR_JOB),
		path: 'itr-analyzer/status',
		expected: /not a placeholder such as null, undefined or NaN/,
	},
	{
		kind: '"null" and NaN as the journey client id',
		field: 'Journey Client ID',
		parameters: (e) => ({ resource: 'bankStatementJourney', operation: 'getStatus', clientId: e }),
		invalid: [v('null'), v('undefined'), v('NaN'), '={{ parseInt("x") }}'],
		valid: v('aa_0123456789abcdef01234567'),
		path: 'aa-bsa-journey/status',
		expected: /not a placeholder such as null, undefined or NaN/,
	},
	{
		kind: 'names of only invisible or blank characters that created journeys',
		field: 'Customer Name',
		parameters: (e) => ({
			resource: 'bankStatementJourney',
			operation: 'start',
			mobileNumber: '9876543210',
			consentType: 'loanUnderwriting',
			additionalFields: { customerName: e },
		}),
		invalid: [v('\u200b\u200b'), v('\u3164'), v('\u2800\u2800'), v('\ufeff\u200d'), v('\u00ad')],
		valid: v('Priya Sharma'),
		path: 'aa-bsa-journey/init',
		expected: /not only spaces or invisible characters/,
	},
	{
		kind: 'a recipient name of only invisible characters',
		field: 'Recipient Name',
		parameters: (e) => ({ ...SESSION, additionalFields: { recipientName: e } }),
		invalid: [v('\u200b'), v('\u3164\u3164')],
		valid: v('Priya Sharma'),
		path: 'collection/session/create',
		expected: /not only spaces or invisible characters/,
	},
	{
		kind: 'a full name of invisible characters (a billed pull)',
		field: 'Full Name',
		parameters: (e) => ({
			resource: 'creditReport',
			operation: 'getMultiBureauReport',
			pan: 'ABCDE1234F',
			name: e,
			mobileNumber: '9876543210',
			gender: 'female',
			bureaus: ['cibil'],
			consent: true,
		}),
		invalid: [v('\u200b\u200b\u200b'), v('P\u200b')],
		valid: v('Priya Sharma'),
		path: 'multi-bureau/fetch',
		expected: /at least 2 characters/,
	},
	{
		kind: 'e-mail addresses with a leading, trailing or double dot',
		field: 'Recipient Email',
		parameters: (e) => ({ ...SESSION, recipientEmail: e }),
		invalid: [v('.priya@example.com'), v('priya.@example.com'), v('pri..ya@example.com')],
		valid: v('priya.sharma@example.com'),
		path: 'collection/session/create',
		expected: /no dot at the start or end of the name, no two dots in a row/,
	},
	{
		kind: 'a customer e-mail with a double dot',
		field: 'Customer Email',
		parameters: (e) => ({
			resource: 'bankStatementJourney',
			operation: 'start',
			mobileNumber: '9876543210',
			consentType: 'loanUnderwriting',
			additionalFields: { customerEmail: e },
		}),
		invalid: [v('priya..sharma@example.com'), v('.p@example.com')],
		valid: v('priya.sharma@example.com'),
		path: 'aa-bsa-journey/init',
		expected: /no two dots in a row/,
	},
	{
		kind: 'Expires In above the service maximum (7 days)',
		field: 'Expires In (Seconds)',
		parameters: (e) => ({ ...SESSION, additionalFields: { expiresIn: e } }),
		invalid: ['={{ 604801 }}', '={{ 86400 * 365 }}', v('99999999999')],
		valid: '={{ 604800 }}',
		path: 'collection/session/create',
		expected: /a whole number of seconds from 1 to 604800 \(7 days\)/,
	},
];

describe.each(KINDS)('$kind', ({ field, parameters, invalid, valid, path, expected }) => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	test('every value is an error item naming the field; the request log shows nothing sent', async () => {
		const before = await sandbox.control.requests(path);
		const result = await sandbox.run(workflowWithValues(parameters, invalid));
		expect(result.error).toBeUndefined();
		const errors = result.output(NODE, 1);
		expect(errors).toHaveLength(invalid.length);
		errors.forEach((item, index) => {
			const error = item.json.error as IDataObject;
			expect(item.pairedItem).toEqual({ item: index });
			expect(error.code).toBe('INVALID_INPUT');
			expect(String(error.message)).toMatch(
				new RegExp(`^Invalid ${field.replace(/[()]/g, '\\$&')} in item ${index}`),
			);
			expect(String(error.description)).toMatch(expected);
			expect(String(error.description)).toContain(NOTHING_SENT);
		});
		expect(result.output(NODE, 0)).toHaveLength(0);
		expect(await sandbox.control.requests(path)).toEqual(before);
		expect(await sandbox.control.requests()).toEqual([]);
	});

	test('the valid value next to them is sent: the log would show a request that got through', async () => {
		const result = await sandbox.run(workflowWithValues(parameters, [valid]));
		// sent: it may still be the service's own error (no such journey), never an input error
		const refused = result
			.output(NODE, 1)
			.filter((item) => (item.json.error as IDataObject).code === 'INVALID_INPUT');
		expect(refused).toEqual([]);
		expect(await sandbox.control.requests(path)).toHaveLength(1);
	});
});

/**
 * Start → FinVerify with one item per value; the field's expression is the value's own (so NaN stays a
 * number, as an expression gives it), picked by the item's index.
 */
function workflowWithValues(parameters: Kind['parameters'], expressions: string[]) {
	const inner = expressions.map((e) => `(${e.replace(/^=\{\{\s*|\s*\}\}$/g, '')})`);
	const choice = `={{ [${inner.join(', ')}][$itemIndex] }}`;
	return nodeWorkflow({
		items: expressions.map((_, index) => ({ index })),
		onError: 'continueErrorOutput',
		parameters: { ...parameters(choice), requestOptions: { maxRetries: 0 } },
	});
}
