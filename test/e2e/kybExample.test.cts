/**
 * The KYB example (examples/kyb-decision.json: Search by Name → Get by CIN, version 3, Output Normalized,
 * Decide On → n8n's own Switch → approve / decline / refer, Incomplete and Failed to "Refer to a person",
 * the approved company's directors split into items) run through n8n-core's real engine with n8n's real
 * Switch, Set, Split Out and No Operation nodes (n8n-nodes-base 2.41.1 from the app's runtime), against the
 * simulator in both response layouts (issue 45).
 *
 * The companies are found by name in the simulator and sorted by what its registry says of them, read
 * from the simulator's own answer (not through the node): active and clean, struck off, in litigation
 * (pending cases), unknown (a risk flag the registry does not state). What must hold, per layout and per
 * policy: every company reaches exactly one outcome, the one a lender's onboarding team expects:
 *
 * | Company | Status, Age and Risk Flags (default) | Status and Age |
 * |---|---|---|
 * | active, clean | approve (sample layout); refer (reference: it states no risk flags) | approve |
 * | struck off | decline | decline |
 * | litigation | refer | approve (the policy does not decide on litigation) |
 * | unknown flag | refer | approve |
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	Engine,
	loadWorkflow,
	SANDBOX_KEYS,
	sandboxCredentials,
	startTestSandbox,
	type WorkflowJson,
} from '../harness/index.cjs';
import { loadBaseNodes } from '../harness/baseNodes.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';

const SHAPES = ['sample', 'reference'] as const;
type Shape = (typeof SHAPES)[number];
type Kind = 'clean' | 'struckOff' | 'litigation' | 'unknown';
type Outcome = 'approve' | 'decline' | 'refer';
type Policy = 'all' | 'statusAndAge';

const EXAMPLE = loadWorkflow('../examples/kyb-decision.json');
const OUTCOME_NODES: Record<Outcome, string> = {
	approve: 'Approve',
	decline: 'Decline',
	refer: 'Refer to a person',
};

function expected(kind: Kind, shape: Shape, policy: Policy): Outcome {
	if (kind === 'struckOff') return 'decline';
	// the example refers litigation under every policy (its own rule on the registry record, which
	// only the sample layout states: the reference layout's record has no pending cases)
	if (kind === 'litigation' && shape === 'sample') return 'refer';
	if (policy === 'statusAndAge') return 'approve';
	// the check decides on the PAN lookup's facts: the EPF delay it lacks is none of them, so an
	// 'unknown' company (EPF delay not stated by Get by CIN) is as clean as a clean one for this policy
	return shape === 'sample' ? 'approve' : 'refer';
}

let engine: Engine;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let shape: Shape = 'sample';

async function post(path: string, body: IDataObject, asShape: Shape): Promise<IDataObject> {
	const response = await fetch(`${sandbox.url}/api/v1/services/corporate/${path}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': SANDBOX_KEYS.apiKey,
			'x-api-secret': SANDBOX_KEYS.apiSecret,
			'x-sandbox-shape': asShape,
		},
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as IDataObject;
}

/** What the registry says of the first company a name search finds (the simulator's own sample answer). */
async function kindOf(name: string): Promise<{ kind: Kind; pan: string } | undefined> {
	const found = (await post('company-autocomplete', { company_name: name }, 'reference'))
		.data as IDataObject[];
	const company = found.find((entry) => entry.entity_type === 'Company');
	if (!company) return undefined;
	const cin = String(company.cin);
	const record = (await post('cin-lookup', { cin }, 'reference')).data as IDataObject;
	const { status } = record;
	const pan = String(record.pan);
	const entity = ((await post('pan-lookup', { pan }, 'sample')).data as IDataObject)
		.result as IDataObject;
	const tds = (entity.tds_tcs_compliance as IDataObject).tds_defaults;
	const result = ((await post('cin-lookup', { cin }, 'sample')).data as IDataObject)
		.result as IDataObject;
	const flags = result.key_indicators as IDataObject;
	const values = [
		flags.pending_cases_filed_against_this_corporate,
		flags.bureau_defaults,
		flags.gst_filing_delay,
		flags.epf_payment_delay,
	];
	if (status === 'Struck Off') return { kind: 'struckOff', pan };
	if (status !== 'Active' || tds !== false) return undefined;
	if (values.every((v) => v === false)) return { kind: 'clean', pan };
	if (values[0] === true && values.slice(1).every((v) => v === false))
		return { kind: 'litigation', pan };
	if (values.slice(0, 3).every((v) => v === false) && values[3] === null)
		return { kind: 'unknown', pan };
	return undefined;
}

/** Up to two companies of each kind, by the names that find them. */
const leads: Array<{ leadId: string; companyName: string; pan: string; kind: Kind }> = [];

beforeAll(async () => {
	engine = await Engine.create();
	loadBaseNodes(engine.nodeTypes);
	sandbox = await startTestSandbox({ shape: 'sample' });
	const words = [
		'Acme',
		'Shree',
		'Bharat',
		'Globe',
		'Sunrise',
		'Delta',
		'Ganesh',
		'Lotus',
		'Nova',
		'Orbit',
		'Kaveri',
		'Indus',
		'Vista',
		'Apex',
		'Zenith',
		'Royal',
	];
	const names = words.flatMap((a) =>
		['Agro', 'Tech', 'Steel', 'Foods', 'Motors'].map((b) => `${a} ${b}`),
	);
	const count: Record<Kind, number> = { clean: 0, struckOff: 0, litigation: 0, unknown: 0 };
	for (const companyName of names) {
		const found = await kindOf(companyName);
		if (!found || count[found.kind] >= 2) continue;
		const { kind, pan } = found;
		count[kind]++;
		leads.push({ leadId: `${kind}-${count[kind]}`, companyName, pan, kind });
	}
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
	expect([...kinds].sort()).toEqual(['clean', 'litigation', 'struckOff', 'unknown']);
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
				expect(json.decidedOn).toEqual(
					policy === 'all'
						? ['status', 'age', 'bureauDefaults', 'gstFilingDelay', 'tdsDefaults']
						: ['status', 'age'],
				);
			// a struck-off company is declined on its status, even where the risk flags are unknown
			for (const { leadId } of leads.filter((l) => l.kind === 'struckOff'))
				expect(reached[leadId][0].reason).toBe('Registry: status: Struck Off');
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
