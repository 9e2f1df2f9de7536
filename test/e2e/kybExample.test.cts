/**
 * The KYB example (examples/kyb-decision.json: Search by Name → Get by CIN, version 3, Output Normalized,
 * Decide On → n8n's own Switch → approve / decline / refer, Incomplete and Failed to "Refer to a person",
 * the approved company's directors split into items) run through n8n-core's real engine with n8n's real
 * Switch, Set, Split Out and No Operation nodes (n8n-nodes-base 2.41.1 from the app's runtime), against the
 * simulator in both response layouts (issue 45).
 *
 * The companies are found by name in the simulator and sorted by what its registry says of them, read
 * from the simulator's own answers (not through the node): active and clean, struck off, in litigation
 * (pending cases), an EPF delay the registry does not state, and unknown (no status stated: the
 * simulator's `nostatus` magic). What must hold, per layout and per policy: every company reaches exactly
 * one outcome, the one a lender's onboarding team expects (the table in ./helpers/kyb.cts).
 * test/e2e/kybApp.test.cts runs the same example in the real n8n app.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	Engine,
	loadWorkflow,
	sandboxCredentials,
	startTestSandbox,
	type WorkflowJson,
} from '../harness/index.cjs';
import { loadBaseNodes } from '../harness/baseNodes.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import {
	DECIDED_ON,
	expected,
	findLeads,
	KINDS,
	OUTCOME_NODES,
	type Lead,
	type Outcome,
	type Policy,
	type Shape,
} from './helpers/kyb.cjs';

const SHAPES = ['sample', 'reference'] as const;

const EXAMPLE = loadWorkflow('../examples/kyb-decision.json');

let engine: Engine;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let shape: Shape = 'sample';

/** Up to two companies of each kind, by the names that find them. */
let leads: Lead[] = [];

beforeAll(async () => {
	engine = await Engine.create();
	loadBaseNodes(engine.nodeTypes);
	sandbox = await startTestSandbox({ shape: 'sample' });
	leads = await findLeads(sandbox.url);
});
afterAll(async () => await sandbox?.close());

function exampleWith(policy: Policy): WorkflowJson {
	return {
		...EXAMPLE,
		nodes: EXAMPLE.nodes.map(
			(node): INode =>
				node.name === 'Company check'
					? { ...node, parameters: { ...node.parameters, decideOn: policy } }
					: node,
		),
		pinData: {
			'Business lead': leads.map(({ leadId, companyName, pan }) => ({
				json: { leadId, companyName, pan },
			})),
		},
	};
}

type Result = Awaited<ReturnType<Engine['run']>>;

const itemsOf = (result: Result, node: string, outputIndex = 0): IDataObject[] =>
	(result.run.data.resultData.runData[node] ?? []).flatMap((task) =>
		(task.data?.main?.[outputIndex] ?? []).map((item) => item.json),
	);

function outcomes(result: Result): Record<string, Array<{ outcome: Outcome; reason: unknown }>> {
	const reached: Record<string, Array<{ outcome: Outcome; reason: unknown }>> = {};
	for (const [outcome, node] of Object.entries(OUTCOME_NODES) as Array<[Outcome, string]>)
		for (const json of itemsOf(result, node))
			(reached[String(json.leadId)] ??= []).push({ outcome, reason: json.reason });
	return reached;
}

test('the simulator has companies of every kind', () => {
	const kinds = new Set(leads.map((l) => l.kind));
	expect([...kinds].sort()).toEqual(KINDS);
});

describe.each(SHAPES)('the KYB example, %s layout', (current) => {
	beforeAll(async () => {
		shape = current;
		await sandbox.close();
		sandbox = await startTestSandbox({ shape });
		engine.setCredentials(sandboxCredentials(sandbox.url));
	});

	test.each(['all', 'statusAndAge'] as const)(
		'Decide On %s: every company reaches exactly the expected outcome, none without one',
		async (policy) => {
			const flow = exampleWith(policy);
			const result = await engine.run(flow);
			expect(result.error).toBeUndefined();
			const check = flow.nodes.find((n) => n.name === 'Company check')!;
			checkNodeOutput(
				flow.nodes.find((n) => n.name === 'Company record')!,
				itemsOf(result, 'Company record'),
			);
			checkNodeOutput(check, itemsOf(result, 'Company check', 0));
			checkNodeOutput(check, itemsOf(result, 'Company check', 1));
			const reached = outcomes(result);
			const table = leads.map(({ leadId }) => ({
				leadId,
				reached: (reached[leadId] ?? []).map((r) => r.outcome),
			}));
			expect(table).toEqual(
				leads.map(({ leadId, kind }) => ({ leadId, reached: [expected(kind, shape, policy)] })),
			);
			// each answer names the facts it was decided on
			for (const json of [
				...itemsOf(result, 'Company check', 0),
				...itemsOf(result, 'Company check', 1),
			])
				expect(json.decidedOn).toEqual(DECIDED_ON[policy]);
			// a struck-off company is declined on its status, even where the risk flags are unknown
			for (const { leadId } of leads.filter((l) => l.kind === 'struckOff'))
				expect(reached[leadId][0].reason).toMatch(
					/^Registry: (Company|Entity): struck off \(status 'Struck Off'\)$/,
				);
			// the truly unknown is referred for its unknown status, under every policy and layout
			for (const { leadId } of leads.filter((l) => l.kind === 'unknown'))
				expect(reached[leadId][0].reason).toContain('Not decision-ready: status unknown');
			// the reasons travel to the person who decides
			if (policy === 'all')
				for (const { leadId } of leads.filter((l) => l.kind === 'litigation'))
					expect(reached[leadId][0].reason).toContain(
						shape === 'sample' ? 'Litigation' : 'risk flags unknown',
					);
			// the approved companies' directors, one item each (the reference layout lists none: null)
			const approved = leads.filter((l) => expected(l.kind, shape, policy) === 'approve');
			const directors = itemsOf(result, 'Each director (per-director check)');
			if (shape === 'sample') {
				expect(directors.length).toBeGreaterThanOrEqual(approved.length * 2);
				for (const item of directors)
					expect(item.director).toMatchObject({
						din: expect.stringMatching(/^\d{8}$/),
						name: expect.any(String),
						designation: expect.any(String),
						appointedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
						ceasedOn: null,
						current: true,
					});
			} else {
				expect(directors).toHaveLength(approved.length);
				for (const item of directors) expect(item.director).toBeNull();
			}
			// the approved company's own PAN comes unmasked: the next lookup can use it
			for (const json of itemsOf(result, 'Approve'))
				expect(json.pan).toMatch(/^[A-Z]{3}C[A-Z]\d{4}[A-Z]$/);
		},
	);
});
