/**
 * The KYB example (examples/kyb-decision.json) in the real n8n 2.41.1 app (`n8n start`, each run started through
 * its REST API the way the editor's "Execute workflow" runs it), against the project's simulator in both
 * layouts: one simulator per layout, each with its own credential, so one n8n start runs both (issue 45).
 *
 * The companies are the simulator's, sorted by what its registry says of them (./helpers/kyb.cts): active
 * and clean, struck off, in litigation, an EPF delay not stated, and truly unknown (the registry states no
 * status: the simulator's `nostatus` magic). Per layout and per Decide On policy (Status, Age and Risk Flags;
 * Status and Age), read from the execution n8n STORED (GET /rest/executions/:id, its run data):
 *
 * - every company reaches exactly one of Approve, Decline, Refer to a person, the one the table in
 *   ./helpers/kyb.cts expects: clean → approve under Status and Age in both layouts and under the full policy
 *   where the layout carries the risk flags (sample); struck off → decline; unknown → refer; litigation →
 *   refer (sample layout, the example's rule on the record's pending cases);
 * - 0 companies without an outcome, none with two, and nothing else reaches the outcome nodes;
 * - the execution ends green with every node's output it used wired (an item on an unwired output would stop
 *   it).
 */
import { startTestSandbox } from '../harness/sandbox.cjs';
import { PATIENCE_MS } from '../harness/patience.cjs';
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
import { CREDENTIAL, N8nStack, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(900_000);

// scripts/lib is plain CommonJS without types
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lib = require('../../scripts/lib/user-folder') as {
	stableId(seed: string): string;
	sandboxCredentialData(url: string): Record<string, unknown>;
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHAPES: Shape[] = ['sample', 'reference'];
const POLICIES: Policy[] = ['all', 'statusAndAge'];
/** The reference layout's simulator and its credential (the stack's own simulator answers in the sample layout). */
const REFERENCE_CREDENTIAL = {
	id: 'finVerifySandboxRef',
	name: 'FinVerify sandbox (reference layout)',
	type: CREDENTIAL.type,
};

let stack: N8nStack;
let referenceSandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let leads: Lead[] = [];
const variants = new Map<string, Workflow>();

/** The example as imported, with its policy, its layout's credential and the leads pinned on "Business lead". */
function variant(example: Workflow, shape: Shape, policy: Policy): Workflow {
	const wf = JSON.parse(JSON.stringify(example)) as Workflow;
	wf.id = lib.stableId(`kybApp:${shape}|${policy}`);
	wf.name = `KYB decision ${shape} ${policy}`;
	for (const node of wf.nodes as Json[]) {
		if (node.name === 'Company check') node.parameters.decideOn = policy;
		if (shape === 'reference' && node.credentials?.finVerifyApi)
			node.credentials.finVerifyApi = {
				id: REFERENCE_CREDENTIAL.id,
				name: REFERENCE_CREDENTIAL.name,
			};
	}
	wf.pinData = {
		'Business lead': leads.map(({ leadId, companyName, pan }) => ({
			json: { leadId, companyName, pan },
		})),
	};
	return wf;
}

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'kyb-app', sandbox: { shape: 'sample' } });
	referenceSandbox = await startTestSandbox({ shape: 'reference', clock: 'real' });
	leads = await findLeads(stack.sandbox.url);
	const example = stack.example('kyb-decision.json');
	for (const shape of SHAPES)
		for (const policy of POLICIES)
			variants.set(`${shape}|${policy}`, variant(example, shape, policy));
	await stack.importCredential({
		...REFERENCE_CREDENTIAL,
		data: lib.sandboxCredentialData(referenceSandbox.url),
	});
	await stack.importAll([...variants.values()]);
	await stack.start();
}, 900_000);

afterAll(async () => {
	await stack?.stop();
	await referenceSandbox?.close();
});

test('the simulator has companies of every kind, the truly unknown among them', () => {
	expect([...new Set(leads.map((l) => l.kind))].sort()).toEqual(KINDS);
});

/** Every item of every run of a node's output `output` in the stored run data. */
const itemsOf = (data: Json, node: string, output = 0): Json[] =>
	((data.resultData?.runData?.[node] ?? []) as Json[]).flatMap((task) =>
		((task.data?.main?.[output] ?? []) as Json[]).map((item) => item.json),
	);

const rows = SHAPES.flatMap((shape) => POLICIES.map((policy) => [shape, policy] as const));

describe.each(rows)('the KYB example in n8n, %s layout, Decide On %s', (shape, policy) => {
	test('every company reaches exactly the expected outcome; 0 without one', async () => {
		const wf = variants.get(`${shape}|${policy}`)!;
		const id = await stack.runManually(wf);
		const execution = await stack.waitForExecution(id, { timeoutMs: PATIENCE_MS * 6 });
		const data = execution.run.data as Json;
		expect({ status: execution.status, error: data.resultData?.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});

		// the outcomes n8n stored, per lead
		const reached: Record<string, Outcome[]> = {};
		let outcomes = 0;
		for (const [outcome, node] of Object.entries(OUTCOME_NODES) as Array<[Outcome, string]>)
			for (const json of itemsOf(data, node)) {
				outcomes++;
				(reached[String(json.leadId)] ??= []).push(outcome);
			}
		const table = leads.map(({ leadId, kind }) => ({
			leadId,
			kind,
			reached: reached[leadId] ?? [],
		}));
		expect(table).toEqual(
			leads.map(({ leadId, kind }) => ({
				leadId,
				kind,
				reached: [expected(kind, shape, policy)],
			})),
		);
		const without = table.filter((row) => row.reached.length === 0);
		expect({ withoutOutcome: without.length, outcomes }).toEqual({
			withoutOutcome: 0,
			outcomes: leads.length,
		});

		// what the check decided on, and why the unknown and the struck off went where they went
		const checked = [...itemsOf(data, 'Company check', 0), ...itemsOf(data, 'Company check', 1)];
		expect(checked).toHaveLength(leads.length);
		for (const json of checked) expect(json.decidedOn).toEqual(DECIDED_ON[policy]);
		const referred = itemsOf(data, OUTCOME_NODES.refer);
		for (const { leadId } of leads.filter((l) => l.kind === 'unknown'))
			expect(referred.find((j) => j.leadId === leadId)?.reason).toContain(
				'Not decision-ready: status unknown',
			);
		const declined = itemsOf(data, OUTCOME_NODES.decline);
		for (const { leadId } of leads.filter((l) => l.kind === 'struckOff'))
			expect(declined.find((j) => j.leadId === leadId)?.reason).toMatch(
				/^Registry: (Company|Entity): struck off \(status 'Struck Off'\)$/,
			);
		// the approved companies' own PANs came unmasked from the registry
		for (const json of itemsOf(data, OUTCOME_NODES.approve))
			expect(json.pan).toMatch(/^[A-Z]{3}C[A-Z]\d{4}[A-Z]$/);
	});
});
