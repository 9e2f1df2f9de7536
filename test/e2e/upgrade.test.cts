/**
 * Moving a saved workflow from version 2 to version 3 of the FinVerify node in the real n8n app, as
 * docs/upgrading.md tells a user to (n8n 2.41.1; 1.123.81 with FINVERIFY_N8N_LINE=1).
 *
 * The workflow a version 2 user has: the quick-start decision (examples/credit-decision.json) with its FinVerify
 * node at version 2 and its one output wired to the rule, saved in n8n before the package was updated. With the
 * updated package:
 *
 * 1. the editor is served the version notice for that node (GET /types/nodes.json: the notice property, shown on
 *    versions 1 and 2 only, linking the guide);
 * 2. the saved workflow still runs as version 2 does: one output, and a refused applicant stops the node (red);
 * 3. the guide's "copy and edit" step (typeVersion 2 → 3) and its rewiring (Incomplete and Failed to the refer
 *    branches), saved through n8n's REST API as the editor saves: the same 3 applicants (answered, refused 422,
 *    incomplete) each reach the branch the guide names, and the run is green.
 */
import { log, N8nStack, NODE_TYPES, type Workflow } from './helpers/stack.cjs';
import { batchOfApplicants } from './helpers/batch.cjs';
import { saveWorkflow } from './helpers/dataTables.cjs';

jest.setTimeout(240_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const APPLICANTS = [
	{ applicationId: 'APP-1', name: 'Priya Sharma', pan: 'AFZPS7190K' },
	{ applicationId: 'APP-2', name: 'Refused Person', pan: 'ZZZZZ0422Z' },
	{ applicationId: 'APP-3', name: 'Nohit Person', pan: 'ABCPN1234K' },
].map((a) => ({ ...a, mobile: '+91 98765 43210', gender: 'female', consentGiven: true }));

let stack: N8nStack;
let saved: Workflow;

/** The quick-start example as a version 2 user saved it: the node at version 2, its one output to the rule. */
function asVersionTwo(example: Workflow): Workflow {
	const wf = JSON.parse(JSON.stringify(example)) as Workflow;
	wf.id = 'upgradeFromV2wf01';
	wf.name = 'saved with version 2';
	const report = wf.nodes.find((n) => n.name === 'Credit report')!;
	report.typeVersion = 2;
	wf.connections['Credit report'] = { main: [[{ node: 'Decide', type: 'main', index: 0 }]] };
	// the batch: one item per applicant into the example's Applicant node
	batchOfApplicants(wf, APPLICANTS);
	return wf;
}

/** Which nodes each applicant's items reached (the rule's and the refer branches' Set nodes). */
function branches(data: Json): Record<string, string[]> {
	const seen: Record<string, string[]> = {};
	for (const [name, runs] of Object.entries((data.resultData?.runData ?? {}) as Json))
		if (/^(Approve|Decline|Refer)/.test(name))
			for (const run of runs as Json[])
				for (const output of run.data?.main ?? [])
					for (const item of output ?? [])
						(seen[String(item.json?.applicationId)] ??= []).push(name);
	return seen;
}

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'upgrade' });
	saved = asVersionTwo(stack.example('credit-decision.json'));
	await stack.importAll([saved]);
	await stack.start();
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

test('the editor is served the version notice for a node saved at version 2, not for version 3', async () => {
	const res = await fetch(`${stack.url}/types/nodes.json`, { headers: { cookie: stack.cookie } });
	expect(res.status).toBe(200);
	const types = (await res.json()) as Json[];
	const action = types.filter((t) => t.name === NODE_TYPES.action);
	const versions = action.flatMap((t) => (Array.isArray(t.version) ? t.version : [t.version]));
	expect(versions).toEqual(expect.arrayContaining([2, 3]));
	const notice = action
		.flatMap((t) => t.properties as Json[])
		.find((p) => p.name === 'versionNotice');
	expect(notice).toBeDefined();
	expect(notice!.type).toBe('notice');
	expect(notice!.displayName).toContain('docs/upgrading.md');
	// shown on versions 1 and 2, on every resource and operation; hidden on version 3
	expect(notice!.displayOptions).toEqual({ show: { '@version': [1, 2] } });
});

test('the saved version 2 workflow runs as before; after the guide, version 3 routes each applicant', async () => {
	// before: version 2, one output; the refused applicant stops the node and the run is red
	const before = await stack.waitForExecution(await stack.runManually(saved), {
		timeoutMs: 180_000,
	});
	const beforeMessage = String((before.run.data as Json).resultData?.error?.message ?? '');
	log(`version 2: ${before.status}: ${beforeMessage}`);
	expect(before.status).toBe('error');
	// the node stopped on the service's refusal of that applicant
	expect((before.run.data as Json).resultData?.lastNodeExecuted).toBe('Credit report');
	expect(beforeMessage).toMatch(/could not be matched|could not process/);

	// the guide: typeVersion 2 → 3, Complete to the rule, Incomplete and Failed to the refer branches; saved
	const moved = JSON.parse(JSON.stringify(saved)) as Workflow;
	moved.nodes.find((n) => n.name === 'Credit report')!.typeVersion = 3;
	moved.connections['Credit report'] = {
		main: [
			[{ node: 'Decide', type: 'main', index: 0 }],
			[{ node: 'Refer: incomplete answer', type: 'main', index: 0 }],
			[{ node: 'Refer: lookup failed', type: 'main', index: 0 }],
		],
	};
	await saveWorkflow(stack, moved);
	const stored = await stack.rest<{ data: Json }>('GET', `/rest/workflows/${moved.id}`);
	expect((stored.data.nodes as Json[]).find((n) => n.name === 'Credit report')!.typeVersion).toBe(
		3,
	);

	const after = await stack.waitForExecution(await stack.runManually(moved), {
		timeoutMs: 180_000,
	});
	const seen = branches(after.run.data as Json);
	log(`version 3: ${after.status}: ${JSON.stringify(seen)}`);
	expect(after.status).toBe('success');
	expect(seen).toEqual({
		'APP-1': [expect.stringMatching(/^(Approve|Decline|Refer to underwriter)$/)],
		'APP-2': ['Refer: lookup failed'],
		'APP-3': ['Refer: incomplete answer'],
	});
});
