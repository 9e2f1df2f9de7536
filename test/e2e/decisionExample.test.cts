/**
 * The documented decision example (examples/credit-decision.json: Get Multi-Bureau Report, node version 3,
 * then n8n's own Switch deciding approve / decline / refer, first match) run through n8n-core's real engine
 * with n8n's real Switch and Set nodes (n8n-nodes-base 2.41.1 from the app's runtime), in both response
 * shapes, against a loopback service answering each applicant with a scripted multi-bureau body: the
 * issue's table of a first-draft rule, re-run.
 *
 * What must hold: a complete answer is approved, declined or referred by the rule; an answer with any
 * unknown or special fact (a bureau without a report, a payment history missing / null / empty, CIBIL -1
 * or 0, a bureau left out, no bureau at all) is never approved and never declined: it is referred, on the
 * Incomplete output (the default), by the Switch's own guard (Incomplete Answers: Keep in the Output), or
 * as a failed item on the error output (Treat as Failed).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	Engine,
	loadWorkflow,
	startStubServer,
	type StubServer,
	type WorkflowJson,
} from '../harness/index.cjs';
import { loadBaseNodes } from '../harness/baseNodes.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import {
	multiBureauReference,
	multiBureauSample,
	type Bureau,
} from '../../sandbox/data/bureau.cjs';

const SHAPES = ['sample', 'reference'] as const;
type Shape = (typeof SHAPES)[number];
const BUREAUS: Bureau[] = ['cibil', 'experian', 'crif'];
const PATH = '/api/v1/services/multi-bureau/fetch';
/** Generated reports of this PAN have no day past due; BXZPM7788Q's have a 60-day month. */
const CLEAN_PAN = 'ABCPS1234K';
const LATE_PAN = 'BXZPM7788Q';

type Body = IDataObject;
interface Case {
	/** The applicant's name: the service answers by it. */
	name: string;
	pan: string;
	/** The branch a lender's rule must take. */
	expected: 'approve' | 'decline' | 'refer';
	/** True for an answer with an unknown or special fact. */
	incomplete: boolean;
	mutate?: (body: Body, shape: Shape) => void;
}

const entries = (body: Body, shape: Shape) =>
	(shape === 'sample' ? body.results : body.data) as Record<string, IDataObject>;

function setScore(body: Body, shape: Shape, bureau: string, score: number) {
	const entry = entries(body, shape)[bureau];
	if (shape === 'sample') (entry.data as IDataObject).credit_score = String(score);
	else entry.score = score;
}
const setScores = (score: number) => (body: Body, shape: Shape) => {
	for (const bureau of BUREAUS) setScore(body, shape, bureau, score + BUREAUS.indexOf(bureau) * 10);
};

/** Experian's payment history replaced (removed, null, emptied); 40,000 overdue on its first account. */
function experianHistory(replace: 'remove' | 'null' | 'empty') {
	return (body: Body, shape: Shape) => {
		setScores(760)(body, shape);
		const entry = entries(body, shape).experian;
		const put = (holder: IDataObject, key: string) => {
			if (replace === 'remove') delete holder[key];
			else holder[key] = replace === 'null' ? null : [];
		};
		if (shape === 'sample') {
			const report = (entry.data as IDataObject).credit_report as IDataObject;
			const accounts = (report.CAIS_Account as IDataObject).CAIS_Account_DETAILS as IDataObject[];
			for (const account of accounts) {
				put(account, 'CAIS_Account_History');
				put(account, 'Payment_History_Profile');
			}
			accounts[0].Amount_Past_Due = 40000;
		} else {
			const report = entry.report as IDataObject;
			put(report, 'payment_history');
			(report.accounts as IDataObject[])[0].overdue_amount = 40000;
		}
	};
}

/** A bureau's entry as the service sends it when that bureau has no record of the PAN. */
function noRecord(bureaus: string[]) {
	return (body: Body, shape: Shape) => {
		setScores(760)(body, shape);
		const input = { pan: CLEAN_PAN, name: 'Nohit Person', mobile_number: '9876543210' };
		const empty =
			shape === 'sample'
				? multiBureauSample({ ...input, gender: 'female', bureaus: BUREAUS }, () => '')
				: multiBureauReference({ ...input, gender: 'female', bureaus: BUREAUS }, 'req_nohit');
		for (const bureau of bureaus)
			entries(body, shape)[bureau] = entries(empty as Body, shape)[bureau];
	};
}

const CASES: Case[] = [
	{
		name: 'Complete Approve',
		pan: CLEAN_PAN,
		expected: 'approve',
		incomplete: false,
		mutate: setScores(760),
	},
	{
		name: 'Complete Decline',
		pan: CLEAN_PAN,
		expected: 'decline',
		incomplete: false,
		mutate: setScores(540),
	},
	{
		name: 'Complete Between',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: false,
		mutate: setScores(650),
	},
	{
		name: 'Complete Late',
		pan: LATE_PAN,
		expected: 'refer',
		incomplete: false,
		mutate: setScores(760),
	},
	{
		name: 'Late Decline',
		pan: LATE_PAN,
		expected: 'decline',
		incomplete: false,
		mutate: setScores(540),
	},
	{
		name: 'Experian History Removed',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: experianHistory('remove'),
	},
	{
		name: 'Experian History Null',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: experianHistory('null'),
	},
	{
		name: 'Experian History Empty',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: experianHistory('empty'),
	},
	{
		name: 'Cibil No History',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: (body, shape) => {
			setScores(760)(body, shape);
			setScore(body, shape, 'cibil', -1);
		},
	},
	{
		name: 'Cibil New To Credit',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: (body, shape) => {
			setScores(760)(body, shape);
			setScore(body, shape, 'cibil', 0);
		},
	},
	{
		name: 'Crif Without Record',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: noRecord(['crif']),
	},
	{
		name: 'No Bureau Record',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: noRecord(BUREAUS),
	},
	{
		name: 'Crif Left Out',
		pan: CLEAN_PAN,
		expected: 'refer',
		incomplete: true,
		mutate: (body, shape) => {
			setScores(760)(body, shape);
			delete entries(body, shape).crif;
		},
	},
];

function answerFor(shape: Shape, request: IDataObject): Body {
	const name = String(request.name);
	const found = CASES.find((c) => c.name === name);
	if (!found) throw new Error(`no case named ${name}`);
	const input = {
		pan: String(request.pan),
		name,
		mobile_number: String(request.mobile_number),
		gender: request.gender as 'female' | 'male',
		bureaus: request.bureaus as Bureau[],
	};
	const body = (
		shape === 'sample'
			? multiBureauSample(input, (b) => `http://127.0.0.1:1/files/${b}`)
			: multiBureauReference(input, `req_${name}`)
	) as Body;
	found.mutate?.(body, shape);
	return body;
}

const EXAMPLE = loadWorkflow('../examples/credit-decision.json');
const OUTCOME_NODES = {
	approve: ['Approve'],
	decline: ['Decline'],
	refer: ['Refer to underwriter', 'Refer: incomplete answer', 'Refer: lookup failed'],
} as const;

/** The example with the applicants pinned on its Applicant node and the Credit report node adjusted. */
function exampleWith(parameters: IDataObject = {}, settings: Partial<INode> = {}): WorkflowJson {
	return {
		...EXAMPLE,
		nodes: EXAMPLE.nodes.map(
			(node): INode =>
				node.name === 'Credit report'
					? {
							...node,
							...settings,
							parameters: { ...node.parameters, ...parameters } as INode['parameters'],
						}
					: node,
		),
		pinData: {
			Applicant: CASES.map((c) => ({
				json: {
					applicationId: c.name,
					name: c.name,
					pan: c.pan,
					mobile: '+91 98765 43210',
					gender: 'female',
					consentGiven: true,
				},
			})),
		},
	};
}

let engine: Engine;
let stub: StubServer;
let shape: Shape = 'sample';

beforeAll(async () => {
	engine = await Engine.create();
	loadBaseNodes(engine.nodeTypes);
	stub = await startStubServer();
	stub.answer(PATH, (request) => ({ body: answerFor(shape, request.body as IDataObject) }));
	engine.setCredentials({
		finVerifyApi: {
			environment: 'custom',
			baseUrl: stub.url,
			apiKey: 'decision-key',
			apiSecret: 'decision-secret',
		},
	});
});
afterAll(async () => await stub?.close());

type Result = Awaited<ReturnType<Engine['run']>>;

/**
 * The items a node output over all its runs (a node fed by two outputs runs once for each); none when
 * it did not run.
 */
const itemsOf = (result: Result, node: string, outputIndex = 0): IDataObject[] =>
	(result.run.data.resultData.runData[node] ?? []).flatMap((task) =>
		(task.data?.main?.[outputIndex] ?? []).map((item) => item.json),
	);

/** Which outcome node each application reached. */
function outcomes(result: Result) {
	const reached: Record<string, string[]> = {};
	for (const [outcome, nodes] of Object.entries(OUTCOME_NODES))
		for (const node of nodes)
			for (const json of itemsOf(result, node))
				(reached[String(json.applicationId)] ??= []).push(outcome);
	return reached;
}

describe.each(SHAPES)('the decision example, %s shape', (current) => {
	beforeAll(() => {
		shape = current;
	});

	test('Incomplete Answers at its default: every unknown at refer on the Incomplete output, 0 approvals and 0 declines on unknown', async () => {
		const flow = exampleWith();
		const result = await engine.run(flow);
		expect(result.error).toBeUndefined();
		const creditReport = flow.nodes.find((n) => n.name === 'Credit report')!;
		for (const output of [0, 1])
			checkNodeOutput(creditReport, result.json('Credit report', output));
		const reached = outcomes(result);
		for (const c of CASES)
			expect({ case: c.name, reached: reached[c.name] }).toEqual({
				case: c.name,
				reached: [c.expected],
			});
		const incomplete = result.json('Refer: incomplete answer').map((j) => j.applicationId);
		expect(incomplete.sort()).toEqual(
			CASES.filter((c) => c.incomplete)
				.map((c) => c.name)
				.sort(),
		);
		// what the node said of each: the reason travels to the person who decides
		const reasons = Object.fromEntries(
			result.json('Refer: incomplete answer').map((j) => [j.applicationId, j.reason]),
		);
		expect(reasons['Experian History Removed']).toContain('Experian: payment history unknown');
		expect(reasons['Experian History Null']).toContain('Experian: payment history unknown');
		expect(reasons['Experian History Empty']).toContain('Experian: payment history unknown');
		expect(reasons['Cibil No History']).toContain('CIBIL: no credit history (score -1)');
		expect(reasons['Cibil New To Credit']).toContain('CIBIL: new to credit (score 0)');
		expect(reasons['Crif Without Record']).toContain('CRIF: no report');
		expect(reasons['Crif Left Out']).toContain('CRIF: no report');
		expect(reasons['No Bureau Record']).toContain('CIBIL: no report');
		// the Complete output carried only decision-ready answers, with the worst days past due over every bureau
		const complete = result.json('Credit report', 0);
		expect(complete.map((j) => j.decisionReady)).toEqual(complete.map(() => true));
		const late = result
			.json('Refer to underwriter')
			.find((j) => j.applicationId === 'Complete Late');
		expect(late?.reason).toContain('worst days past due 60');
	});

	test('the decline branch writes the reasons from adverse; the refer branches show incomplete and adverse (issue 46)', async () => {
		const result = await engine.run(exampleWith());
		expect(result.error).toBeUndefined();
		const by = (node: string) =>
			Object.fromEntries(result.json(node).map((j) => [String(j.applicationId), j]));
		const declined = by('Decline');
		// each bureau's 60-day month, in words with the bureau and the masked account
		const reasons = String(declined['Late Decline'].reasons).split('; ');
		expect(reasons.length).toBeGreaterThanOrEqual(3);
		for (const bureau of ['CIBIL', 'Experian', 'CRIF'])
			expect(
				reasons.some((r) => r.startsWith(`${bureau}: `) && r.includes('60 days past due')),
			).toBe(true);
		for (const reason of reasons) {
			expect(reason).not.toContain(LATE_PAN);
			expect(reason).not.toMatch(/\d{8,}/); // no full account or mobile number
		}
		// a decline on the score alone: nothing adverse in the reports, the score is the reason
		expect(declined['Complete Decline'].reasons).toBe('Lowest credit score 540');
		// the reviewer sees what stood out and what is unknown
		const referred = by('Refer to underwriter');
		expect(referred['Complete Late']).toMatchObject({ incomplete: '' });
		expect(String(referred['Complete Late'].adverse)).toContain('60 days past due');
		expect(referred['Complete Between']).toMatchObject({ incomplete: '', adverse: '' });
		const incomplete = by('Refer: incomplete answer');
		expect(String(incomplete['Experian History Removed'].incomplete)).toContain(
			'Experian: payment history unknown',
		);
		expect(typeof incomplete['Experian History Removed'].adverse).toBe('string');
	});

	test("Incomplete Answers: Keep in the Output: the Switch's decisionReady guard refers every unknown", async () => {
		const result = await engine.run(exampleWith({ incompleteAnswers: 'keep' }));
		expect(result.error).toBeUndefined();
		const reached = outcomes(result);
		for (const c of CASES)
			expect({ case: c.name, reached: reached[c.name] }).toEqual({
				case: c.name,
				reached: [c.expected],
			});
		expect(itemsOf(result, 'Refer: incomplete answer')).toEqual([]);
		// the Switch's first rule: not decision-ready → refer, with the node's reasons
		const referred = itemsOf(result, 'Refer to underwriter');
		expect(
			referred
				.filter((j) => String(j.reason).startsWith('Not decision-ready: '))
				.map((j) => j.applicationId)
				.sort(),
		).toEqual(
			CASES.filter((c) => c.incomplete)
				.map((c) => c.name)
				.sort(),
		);
		const one = result.json('Credit report', 0);
		expect(one).toHaveLength(CASES.length);
		expect(one.filter((j) => j.decisionReady === false)).toHaveLength(
			CASES.filter((c) => c.incomplete).length,
		);
	});

	test('Incomplete Answers: Treat as Failed: every unknown on the Failed output (its own wire, position 2), referred, none decided', async () => {
		const result = await engine.run(exampleWith({ incompleteAnswers: 'fail' }));
		expect(result.error).toBeUndefined();
		const reached = outcomes(result);
		for (const c of CASES)
			expect({ case: c.name, reached: reached[c.name] }).toEqual({
				case: c.name,
				reached: [c.expected],
			});
		// the Incomplete wire (1) keeps its meaning: with Treat as Failed it carries nothing
		expect(result.json('Credit report', 1)).toEqual([]);
		expect(
			itemsOf(result, 'Refer: lookup failed')
				.map((j) => j.applicationId)
				.sort(),
		).toEqual(
			CASES.filter((c) => c.incomplete)
				.map((c) => c.name)
				.sort(),
		);
		const failed = result.json('Credit report', 2);
		expect(failed).toHaveLength(CASES.filter((c) => c.incomplete).length);
		for (const json of failed) {
			expect((json.error as IDataObject).code).toBe('INCOMPLETE_ANSWER');
			expect(String(json.message)).toMatch(/^The answer is incomplete: /);
		}
	});
});
