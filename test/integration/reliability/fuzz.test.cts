/**
 * Property-based fuzzing of every operation's inputs through n8n-core's real engine: seeded
 * fast-check values that break each field's format (wrong types, control characters, markup, look-alike
 * letters, numbers in disguise) arrive as item data through an expression; with the error output on, each
 * item must come back as an error item, the run must not crash, and nothing may reach the service.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { Engine, loadWorkflow, startStubServer, withParameters } from '../../harness/index.cjs';
import type { StubServer, WorkflowJson } from '../../harness/index.cjs';
import { Figures } from './figures.cjs';

const SEED = 20261122;
const PER_FIELD = 12;

/** Values no field of the service accepts in any format (empty optional fields are simply not sent). */
const CONTROL = fc
	.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\r\n', '\t', '\u001b', '\u007f'))
	.map(([a, c]) => `${a}${c}${a}`);
const hostile = fc.oneof(
	CONTROL,
	fc.constantFrom(
		'   ',
		'<script>alert(1)</script>',
		'ıBCDE1234F',
		'0x10',
		'-9876543210',
		'https://example.com/cb\r\nX-Injected: 1',
		'a\u0000b',
	),
	fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { minKeys: 1, maxKeys: 3 }),
	fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
);

/** Values that are well-formed for a free-text or identifier field, so not hostile there. */
const ID = (v: unknown) => typeof v === 'string' && /^\s*[A-Za-z0-9_-]{3,64}\s*$/.test(v);
const TEXT = (v: unknown) =>
	typeof v === 'string' &&
	v.trim() !== '' &&
	![...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');

/** [operation fixture, field, how the field is set to the item's value, values legitimate there]. */
const FIELDS: Array<[string, string, (expr: string) => IDataObject, ((v: unknown) => boolean)?]> = [
	['company/getByCin', 'CIN', (e) => ({ company: { __rl: true, mode: 'cin', value: e } })],
	['company/getLlpByLlpin', 'LLPIN', (e) => ({ llp: { __rl: true, mode: 'llpin', value: e } })],
	['company/getEntityByPan', 'PAN', (e) => ({ pan: e })],
	[
		'creditReport/getMultiBureauReport',
		'PAN',
		(e) => ({ pan: e, name: 'Priya', mobileNumber: '9876543210' }),
	],
	[
		'creditReport/getMultiBureauReport',
		'Mobile',
		(e) => ({ pan: 'ABCDE1234F', name: 'Priya', mobileNumber: e }),
	],
	[
		'creditReport/getMultiBureauReport',
		'Name',
		(e) => ({ pan: 'ABCDE1234F', name: e, mobileNumber: '9876543210' }),
		TEXT,
	],
	['creditReport/getCommercialReport', 'PAN', (e) => ({ pan: e })],
	['employment/getEpfoRecord', 'Mobile', (e) => ({ mobileNumber: e })],
	['employment/getEpfoRecordWithCredit', 'Mobile', (e) => ({ mobileNumber: e })],
	['incomeTaxReturn/startAnalysis', 'PAN', (e) => ({ pan: e })],
	['incomeTaxReturn/getData', 'Job ID', (e) => ({ jobId: e }), ID],
	['incomeTaxReturn/getAnalysisStatus', 'Job ID', (e) => ({ jobId: e }), ID],
	['incomeTaxReturn/resetPortalPassword', 'Client ID', (e) => ({ portalClientId: e }), ID],
	['incomeTaxReturn/confirmPasswordReset', 'OTP', (e) => ({ otp: e })],
	['bankStatementJourney/start', 'Mobile', (e) => ({ mobileNumber: e })],
	['bankStatementJourney/start', 'Redirect URL', (e) => ({ additionalFields: { redirectUrl: e } })],
	['bankStatementJourney/getStatus', 'Client ID', (e) => ({ clientId: e }), ID],
	['bankStatementJourney/getAnalysis', 'Client ID', (e) => ({ clientId: e }), ID],
	['collectionSession/create', 'E-mail', (e) => ({ recipientEmail: e })],
	['collectionSession/create', 'Callback URL', (e) => ({ callbackUrl: e })],
];

let engine: Engine;
let stub: StubServer;
const figures = new Figures('Input fuzzing through the engine');
const tally = { inputs: 0, reached: 0, crashes: 0, notErrorItems: 0 };

beforeAll(async () => {
	engine = await Engine.create();
	stub = await startStubServer();
	engine.setCredentials({
		finVerifyApi: {
			environment: 'custom',
			baseUrl: stub.url,
			apiKey: 'k-fuzz',
			apiSecret: 's-fuzz',
			refreshToken: 'r-fuzz',
		},
	});
});
afterAll(async () => {
	figures.add(
		`fields fuzzed (${FIELDS.length} × ${PER_FIELD} inputs)`,
		tally.inputs,
		FIELDS.length * PER_FIELD,
	);
	figures.add('invalid inputs that reached the service', tally.reached, 0);
	figures.add('crashes (run failed instead of error items)', tally.crashes, 0);
	figures.add('inputs not turned into an error item', tally.notErrorItems, 0);
	figures.print();
	await stub.close();
});

test.each(FIELDS)(
	'%s · %s: every hostile value is refused before any request',
	// rest parameters: jest would take a 4th named parameter of a 3-entry row for its `done` callback
	async (...row) => {
		const [file, , set, legitimate] = row as (typeof FIELDS)[number];
		const values = fc
			.sample(hostile, { seed: SEED + file.length, numRuns: PER_FIELD * 3 })
			.filter((v) => !legitimate?.(v))
			.slice(0, PER_FIELD);
		const base = loadWorkflow(`integration/workflows/${file}.workflow.json`);
		const wf: WorkflowJson = withParameters(base, 'FinVerify', set('={{ $json.v }}'));
		const node = wf.nodes.find((n) => n.name === 'FinVerify')!;
		node.onError = 'continueErrorOutput';
		wf.pinData = {
			...(wf.pinData ?? {}),
			[wf.nodes[0].name]: values.map((v) => ({ json: { v } })),
		};
		stub.requests.splice(0);
		const result = await engine.run(wf);
		tally.inputs += values.length;
		tally.reached += stub.requests.length;
		if (result.error) tally.crashes++;
		const errors = result.error ? 0 : result.output('FinVerify', 1).length;
		tally.notErrorItems += values.length - errors;
		expect(result.error).toBeUndefined();
		expect(stub.requests.map((r) => JSON.stringify(r.body))).toEqual([]);
		expect(errors).toBe(values.length);
	},
);
