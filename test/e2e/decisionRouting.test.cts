/**
 * Every decision operation of node version 3, in both response shapes, in a workflow as a builder makes
 * it: FinVerify (Incomplete Answers at its default) → its Complete output into n8n's own IF
 * ("decisionReady is true": Decide, else Refer) and its Incomplete output into a Set "Refer". n8n's real
 * IF and Set (n8n-nodes-base 2.41.1 from the app's runtime) through n8n-core's engine, against a loopback
 * service answering each item with a body from the sandbox's generators, complete or with one decision
 * fact lost: an employment without dates, a history missing, a part of the answer missing, a special
 * score, a status missing, risk flags missing, an account not analysed, a flag missing, a return's figure
 * or status missing. Complete answers reach Decide; every other one reaches Refer on the Incomplete output,
 * and none reaches Decide.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	CREDENTIAL_REF,
	Engine,
	FINVERIFY_NODE,
	startStubServer,
	type StubRequest,
	type StubServer,
	type WorkflowJson,
} from '../harness/index.cjs';
import { loadBaseNodes } from '../harness/baseNodes.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import {
	NameRegistry,
	companyReference,
	companySample,
	panReference,
	panSample,
} from '../../sandbox/data/corporate.cjs';
import { epfoCrifReference, epfoCrifSample, epfoRecord } from '../../sandbox/data/epfo.cjs';
import { itrReference, itrSample } from '../../sandbox/data/itr.cjs';
import { analysisReference, analysisSample, bankAccounts } from '../../sandbox/data/statements.cjs';

type Shape = 'sample' | 'reference';
type Body = IDataObject;
const at = (body: Body, path: string): IDataObject =>
	path.split('.').reduce<IDataObject>((o, k) => o[k] as IDataObject, body);

interface Case {
	label: string;
	/** What `incomplete` must name; absent for a complete answer. */
	unknown?: string;
	mutate?: (body: Body) => void;
}

interface OperationTable {
	parameters: IDataObject;
	/** The path the operation asks, under /api/v1/services/. */
	path: string;
	/** The request field that names the case (the stub answers by it), and the item value of case i. */
	key: (request: StubRequest) => string;
	itemValue: (index: number) => string;
	/** The node parameters that take the item value. */
	input: IDataObject;
	body: (shape: Shape, value: string) => Body;
	cases: Record<Shape, Case[]>;
}

const registry = new NameRegistry();
const mobileOf = (i: number) => `90000001${String(i).padStart(2, '0')}`;
const journey = (clientId: string) => ({
	clientId,
	status: 'completed',
	failedAtStage: null,
	errorMessage: null,
	createdAt: '2025-03-01T10:00:00.000Z',
	updatedAt: '2025-03-01T10:05:00.000Z',
});
const epfoEmployers = (body: Body, shape: Shape | 'record') =>
	(shape === 'record'
		? at(body, 'data').employment_history
		: at(body, 'data.epfo').employment_history) as IDataObject[];

const TABLES: Record<string, OperationTable> = {
	'employment.getEpfoRecord': {
		parameters: { resource: 'employment', operation: 'getEpfoRecord' },
		path: 'epfo-combined/fetch',
		key: (r) => String((r.body as IDataObject).mobile_number),
		itemValue: mobileOf,
		input: { mobileNumber: '={{ $json.value }}' },
		body: (_shape, mobile) => epfoRecord(mobile) as Body,
		// one layout: the same cases under both shape names
		cases: {
			sample: [
				{ label: 'complete' },
				{
					label: 'an employment without its dates',
					unknown: 'employment dates unknown',
					mutate: (b) => delete epfoEmployers(b, 'record')[1].date_of_joining,
				},
				{
					label: 'the employment history missing',
					unknown: 'employment history unknown',
					mutate: (b) => delete at(b, 'data').employment_history,
				},
			],
			reference: [
				{
					label: 'whether the jobs have ended unknown',
					unknown: 'current employment unknown',
					mutate: (b) => {
						for (const e of epfoEmployers(b, 'record')) {
							delete e.is_current;
							delete e.date_of_exit;
						}
					},
				},
			],
		},
	},
	'employment.getEpfoRecordWithCredit': {
		parameters: { resource: 'employment', operation: 'getEpfoRecordWithCredit', consent: true },
		path: 'epfo-crif-combined/fetch',
		key: (r) => String((r.body as IDataObject).mobile_number),
		itemValue: mobileOf,
		input: { mobileNumber: '={{ $json.value }}' },
		body: (shape, mobile) =>
			(shape === 'sample' ? epfoCrifSample(mobile) : epfoCrifReference(mobile)) as Body,
		cases: {
			sample: [
				{ label: 'complete' },
				{
					label: 'the EPFO part missing',
					unknown: 'EPFO record not in the answer',
					mutate: (b) => delete at(b, 'data').epfo,
				},
				{
					label: 'the credit part missing',
					unknown: 'credit report not in the answer',
					mutate: (b) => delete at(b, 'data').credit_report,
				},
				{
					label: 'CIBIL-style -1 (no credit history)',
					unknown: 'credit: no credit history (score -1)',
					mutate: (b) => (at(b, 'data.credit_report').credit_score = '-1'),
				},
			],
			reference: [
				{ label: 'complete' },
				{
					label: 'the credit part missing',
					unknown: 'credit report not in the answer',
					mutate: (b) => delete at(b, 'data').crif,
				},
				{
					label: 'a score of 0 (new to credit)',
					unknown: 'credit: new to credit (score 0)',
					mutate: (b) => (at(b, 'data.crif').credit_score = 0),
				},
				{
					label: 'an employment without its dates',
					unknown: 'EPFO: employment dates unknown',
					mutate: (b) => delete epfoEmployers(b, 'reference')[0].date_of_joining,
				},
			],
		},
	},
	'company.getByCin': {
		parameters: { resource: 'company', operation: 'getByCin' },
		path: 'corporate/cin-lookup',
		key: (r) => String((r.body as IDataObject).cin),
		itemValue: (i) => `U72200KA2015PTC0812${String(i).padStart(2, '0')}`,
		input: { company: { __rl: true, mode: 'cin', value: '={{ $json.value }}' } },
		body: (shape, cin) =>
			(shape === 'sample'
				? companySample(cin, registry, 'http://127.0.0.1:1/company.pdf')
				: companyReference(cin, registry)) as Body,
		cases: {
			sample: [
				{
					label: 'complete (a status stated)',
					mutate: (b) => {
						at(b, 'data.result.company').status = 'Active';
						// every risk flag stated (the simulator leaves some companies' EPF delay unknown)
						const flags = at(b, 'data.result.key_indicators');
						for (const [name, value] of Object.entries(flags))
							if (value === null && /(_delay|_defaults|pending_cases)/.test(name))
								flags[name] = false;
					},
				},
				{ label: 'the layout without a status', unknown: 'status unknown' },
				{
					label: 'the risk indicators missing',
					unknown: 'risk flags unknown: pending cases, bureau defaults',
					mutate: (b) => {
						at(b, 'data.result.company').status = 'Active';
						delete at(b, 'data.result').key_indicators;
					},
				},
			],
			reference: [
				{
					label: 'the layout without risk flags',
					unknown:
						'risk flags unknown: pending cases, bureau defaults, GST filing delay, EPF payment delay',
				},
				{
					label: 'the status missing too',
					unknown: 'status unknown',
					mutate: (b) => delete at(b, 'data').status,
				},
			],
		},
	},
	'company.getEntityByPan': {
		parameters: { resource: 'company', operation: 'getEntityByPan' },
		path: 'corporate/pan-lookup',
		key: (r) => String((r.body as IDataObject).pan),
		itemValue: (i) => `AABCA12${String(i).padStart(2, '0')}F`,
		input: { pan: '={{ $json.value }}' },
		body: (shape, pan) =>
			(shape === 'sample' ? panSample(pan, registry) : panReference(pan, registry)) as Body,
		cases: {
			sample: [
				{ label: 'complete' },
				{
					label: 'the status missing',
					unknown: 'status unknown',
					mutate: (b) => delete at(b, 'data.result').status,
				},
			],
			reference: [
				{ label: 'the layout without risk flags', unknown: 'risk flags unknown: bureau defaults' },
			],
		},
	},
	'incomeTaxReturn.getData': {
		parameters: { resource: 'incomeTaxReturn', operation: 'getData' },
		path: 'itr-analyzer/data',
		key: (r) => String((r.body as IDataObject).job_id),
		itemValue: (i) => `itr_decision_${i}`,
		input: { jobId: '={{ $json.value }}' },
		body: (shape, jobId) =>
			(shape === 'sample'
				? itrSample({ jobId, pan: 'ABCPS1234K' }, (ack: string) => `http://127.0.0.1:1/${ack}`)
				: itrReference({ jobId, pan: 'ABCPS1234K' })) as Body,
		cases: {
			sample: [
				{ label: 'complete' },
				{
					label: "the latest return's status missing",
					unknown: 'latest return: status unknown',
					mutate: (b) => delete (at(b, 'data').filings as IDataObject[])[0].itr_status,
				},
				{
					label: 'no return listed',
					unknown: 'returns not in the answer',
					mutate: (b) => (at(b, 'data').filings = []),
				},
			],
			reference: [
				{ label: 'complete' },
				{
					label: "the latest return's gross income missing",
					unknown: 'latest return: gross total income unknown',
					mutate: (b) => delete (at(b, 'data').itr_records as IDataObject[])[0].gross_total_income,
				},
			],
		},
	},
	'bankStatementJourney.getAnalysis': {
		parameters: { resource: 'bankStatementJourney', operation: 'getAnalysis' },
		path: 'aa-bsa-journey/analysis-json',
		key: (r) => String(r.query.client_id),
		itemValue: (i) => `aa_decision_${i}`,
		input: { clientId: '={{ $json.value }}' },
		body: (shape, clientId) => {
			const accounts = bankAccounts('9876543210');
			return (
				shape === 'sample'
					? analysisSample(journey(clientId), accounts)
					: analysisReference(clientId, accounts)
			) as Body;
		},
		cases: {
			sample: [
				{ label: 'complete' },
				{
					label: 'an account not analysed',
					unknown: 'not analysed',
					mutate: (b) => delete (at(b, 'data').accounts as IDataObject[])[0].analysis_json,
				},
			],
			reference: [
				{ label: 'complete' },
				{
					label: 'the cheque-return flag missing',
					unknown: 'flags unknown: inward cheque returns',
					mutate: (b) => delete at(b, 'data.flags').inward_cheque_return,
				},
			],
		},
	},
};

/** Start (one item per case) → FinVerify → Complete: IF decisionReady → Decide / Refer; Incomplete: Refer. */
function workflow(table: OperationTable, count: number): WorkflowJson {
	return {
		name: 'decision routing',
		nodes: [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'f',
				name: 'FinVerify',
				type: FINVERIFY_NODE,
				typeVersion: 3,
				position: [200, 0],
				parameters: { ...table.parameters, ...table.input } as INodeParameters,
				credentials: CREDENTIAL_REF,
			},
			{
				id: 'i',
				name: 'Decision-ready?',
				type: 'n8n-nodes-base.if',
				typeVersion: 2.2,
				position: [400, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								id: 'c1',
								leftValue: '={{ $json.decisionReady }}',
								rightValue: '',
								operator: { type: 'boolean', operation: 'true', singleValue: true },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			{
				id: 'd',
				name: 'Decide',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [600, -100],
				parameters: {},
			},
			{
				id: 'g',
				name: 'Refer (guard)',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [600, 100],
				parameters: {},
			},
			{
				id: 'r',
				name: 'Refer',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [400, 200],
				parameters: {
					assignments: {
						assignments: [
							{ id: 'a1', name: 'decision', value: 'refer', type: 'string' },
							{
								id: 'a2',
								name: 'reason',
								value: "={{ $json.incomplete.join('; ') }}",
								type: 'string',
							},
							{
								id: 'a3',
								name: 'case',
								value: "={{ $('Start').item.json.value }}",
								type: 'string',
							},
						],
					},
					options: {},
				},
			},
		],
		connections: {
			Start: { main: [[{ node: 'FinVerify', type: 'main', index: 0 }]] },
			FinVerify: {
				main: [
					[{ node: 'Decision-ready?', type: 'main', index: 0 }],
					[{ node: 'Refer', type: 'main', index: 0 }],
				],
			},
			'Decision-ready?': {
				main: [
					[{ node: 'Decide', type: 'main', index: 0 }],
					[{ node: 'Refer (guard)', type: 'main', index: 0 }],
				],
			},
		},
		pinData: {
			Start: Array.from({ length: count }, (_, i) => ({ json: { value: table.itemValue(i) } })),
		},
	};
}

let engine: Engine;
let stub: StubServer;

beforeAll(async () => {
	engine = await Engine.create();
	loadBaseNodes(engine.nodeTypes);
	stub = await startStubServer();
	engine.setCredentials({
		finVerifyApi: { environment: 'custom', baseUrl: stub.url, apiKey: 'k', apiSecret: 's' },
	});
});
afterAll(async () => await stub?.close());

const rows = Object.entries(TABLES).flatMap(([operation, table]) =>
	(['sample', 'reference'] as const).map((shape) => [operation, shape, table] as const),
);

describe.each(rows)('%s, %s shape', (_operation, shape, table) => {
	test('complete answers reach the decision; every answer with an unknown fact reaches Refer, on the Incomplete output', async () => {
		const cases = table.cases[shape];
		const values = cases.map((_, i) => table.itemValue(i));
		stub.answer(`/api/v1/services/${table.path}`, (request) => {
			const index = values.indexOf(table.key(request));
			const body = table.body(shape, values[index]);
			cases[index].mutate?.(body);
			return { body };
		});
		const flow = workflow(table, cases.length);
		const result = await engine.run(flow);
		expect(result.error).toBeUndefined();
		// both outputs match the version 3 Simplified schema the package ships for the operation
		const finVerify = flow.nodes.find((n) => n.name === 'FinVerify')!;
		for (const output of [0, 1]) checkNodeOutput(finVerify, result.json('FinVerify', output));
		const ran = (node: string) => result.run.data.resultData.runData[node] !== undefined;
		const decided = ran('Decide') ? result.json('Decide') : [];
		const referred = ran('Refer') ? result.json('Refer') : [];
		// the IF's false branch never runs: nothing incomplete is on the Complete output
		expect(ran('Refer (guard)') ? result.json('Refer (guard)') : []).toEqual([]);
		const complete = cases.filter((c) => c.unknown === undefined);
		expect(decided).toHaveLength(complete.length);
		for (const json of decided) {
			expect(json.decisionReady).toBe(true);
			expect(json.incomplete).toEqual([]);
		}
		const incomplete = cases.filter((c) => c.unknown !== undefined);
		expect(referred).toHaveLength(incomplete.length);
		// each referral names what is unknown (the case traced back to its Start item by n8n's pairing)
		for (const c of incomplete) {
			const value = values[cases.indexOf(c)];
			expect({ case: c.label, reason: referred.find((j) => j.case === value)?.reason }).toEqual({
				case: c.label,
				reason: expect.stringContaining(c.unknown!),
			});
		}
	});
});
