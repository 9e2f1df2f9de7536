/**
 * Issue 42 in the real n8n app (`n8n start`, workflows run through its REST API as the editor runs them;
 * 2.41.1, and 1.123.81 with FINVERIFY_N8N_LINE=1): no applicant who enters a shipped example is silently lost.
 * Outcomes are counted from n8n's stored execution data: the items of every node with nothing after it (the
 * terminal nodes a person sees: approve, decline, refer, the failed / retry queue), keyed by the applicant's
 * own id (`applicationId`, or the company's `cin`). n8n runs with its default settings (not `npm start`'s burst
 * settings), as a user's own n8n does.
 *
 * - every shipped example with a FinVerify decision node that takes a batch (credit-decision,
 *   individual-underwriting, error-handling, retry-queue-decide; the company examples company-onboarding and
 *   kyb-decision with 3 business leads from the sandbox's registry; credit-decision-record, whose every branch
 *   ends in one Data Table, by its stored rows) run with 3 applicants: one answered,
 *   one refused (HTTP 422; the company leads' search 404 NO_RESULTS), one incomplete: each applicant on
 *   exactly one terminal node;
 * - the Failed output unwired: the run is red, the message names the output and the item;
 * - Incomplete Answers switched to Keep and back on a saved workflow (n8n's REST API, as the editor saves):
 *   the wires stay, the Failed wire carries only the refused applicant, nobody is lost;
 * - the service down (connection refused) with Fail the Node When Items Fail = Never: red;
 * - what n8n's execution list shows of a batch with failed items (the list vs the execution);
 * - the retry pattern (n8n Data Tables; on 1.x made in *Data tables* and picked by ID, ./helpers/dataTables.cts):
 *   5 applicants, 2 refused once: the retry run pulls only the 2,
 *   7 pulls in all, every applicant with one outcome, the queue empty.
 *
 * The error-handling example's refused and incomplete company answers come from a loopback stub (by CIN); the
 * company leads and the credit pulls from the
 * sandbox (PAN ZZZZZ0422Z answers 422, a name with "nohit" an answer without any bureau record).
 */
import type { IDataObject } from 'n8n-workflow';

import { startStubServer, type StubServer } from '../harness/stub-server.cjs';
import { batchOfApplicants } from './helpers/batch.cjs';
import { findLeads } from './helpers/kyb.cjs';
import { createTable, declaredTables, forN8n1, N8N1, saveWorkflow } from './helpers/dataTables.cjs';
import { N8nStack, freePort, log, sandboxApi, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(240_000);

// scripts/lib is plain CommonJS without types
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lib = require('../../scripts/lib/user-folder') as {
	stableId(seed: string): string;
	sandboxCredentialData(url: string): Record<string, unknown>;
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const CIN_PATH = '/api/v1/services/corporate/cin-lookup';
const PULL_PATH = 'multi-bureau';
const GOOD_CIN = 'L17110MH1973PLC019786';
const REFUSED_CIN = 'U72200KA2015PTC081202';
const INCOMPLETE_CIN = 'U72200KA2015PTC081203';
const REFUSED_PAN = 'ZZZZZ0422Z';

/** The batch of 3 applicants of the credit examples: answered, refused (422), incomplete (no bureau record). */
const APPLICANTS = [
	{ applicationId: 'APP-1', name: 'Priya Sharma', pan: 'AFZPS7190K' },
	{ applicationId: 'APP-2', name: 'Refused Person', pan: REFUSED_PAN },
	{ applicationId: 'APP-3', name: 'Nohit Person', pan: 'ABCPN1234K' },
].map((a) => ({
	...a,
	mobile: '+91 98765 43210',
	gender: 'female',
	consentGiven: true,
	loanAmount: 500000,
}));

/**
 * The batch of 3 business leads of the company examples, from the sandbox's registry (filled in beforeAll by
 * ./helpers/kyb.cts, each with the company's own PAN): a clean active company (answered), a name the registry
 * refuses (`nomatch`: 404 NO_RESULTS) and a company whose status the registry does not state (an incomplete
 * answer).
 */
const LEADS: Array<{ leadId: string; companyName: string; pan: string; contactEmail: string }> = [
	'LEAD-1',
	'LEAD-2',
	'LEAD-3',
].map((leadId) => ({ leadId, companyName: '', pan: '', contactEmail: 'finance@example.com' }));

const STUB_CREDENTIAL = { id: 'finVerifyStub42', name: 'FinVerify stub', type: 'finVerifyApi' };
const DOWN_CREDENTIAL = { id: 'finVerifyDown42', name: 'FinVerify down', type: 'finVerifyApi' };

let stack: N8nStack;
let stub: StubServer;
let goodAnswer: Json = {};
const workflows = new Map<string, Workflow>();
/** n8n 1.x: the Data Tables made before the runs, by name. */
const tableIds: Record<string, string> = {};
const clone = <T,>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** The example, renamed and re-identified, with `edit` applied. */
function variant(file: string, key: string, edit: (wf: Workflow) => void): Workflow {
	const wf = clone(stack.example(file));
	wf.id = lib.stableId(`noItemLost:${key}`);
	wf.name = `no item lost: ${key}`;
	edit(wf);
	workflows.set(key, wf);
	return wf;
}

const node = (wf: Workflow, name: string): Json => {
	const found = wf.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`${wf.name} has no node "${name}"`);
	return found;
};

/** Nodes with nothing connected after them (sticky notes and triggers aside). */
function terminalNodes(wf: Workflow): string[] {
	return wf.nodes
		.filter((n) => n.type !== 'n8n-nodes-base.stickyNote' && !/trigger/i.test(n.type))
		.filter((n) => !(wf.connections[n.name]?.main ?? []).some((o: Json[]) => o?.length))
		.map((n) => n.name);
}

/** Each applicant's terminal nodes in a stored run, keyed by `key`; items without it under "?". */
function outcomes(wf: Workflow, data: Json, key: string): Record<string, string[]> {
	const seen: Record<string, string[]> = {};
	for (const name of terminalNodes(wf)) {
		const runs: Json[] = data.resultData?.runData?.[name] ?? [];
		for (const run of runs)
			for (const output of run.data?.main ?? [])
				for (const item of output ?? []) (seen[String(item.json?.[key] ?? '?')] ??= []).push(name);
	}
	return seen;
}

async function runAndWait(wf: Workflow) {
	const t0 = Date.now();
	const id = await stack.runManually(wf);
	const execution = await stack.waitForExecution(id, { timeoutMs: 180_000 });
	log(`${wf.name}: ${execution.status} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	return { id, execution, data: execution.run.data as Json };
}

/** The company's status removed (an incomplete answer), its CIN replaced, at any depth. */
function withoutStatus(value: unknown, cin: string): void {
	if (!value || typeof value !== 'object') return;
	const record = value as Json;
	for (const key of Object.keys(record)) {
		if (key === 'status' || key === 'company_status') delete record[key];
		else if (key === 'cin' && typeof record[key] === 'string') record[key] = cin;
		else withoutStatus(record[key], cin);
	}
}

const pulls = async () => (await stack.control.requests(PULL_PATH)).length;

beforeAll(async () => {
	stub = await startStubServer();
	stub.answer(CIN_PATH, (request) => {
		const cin = String((request.body as IDataObject).cin);
		if (cin === REFUSED_CIN)
			return {
				status: 422,
				body: {
					success: false,
					error: { code: 'INVALID_CIN', message: 'The CIN is not in the registry format' },
				},
			};
		// the sandbox's answer for the good CIN with a registry status (complete); the incomplete one without
		const body = clone(goodAnswer);
		if (cin === GOOD_CIN) ((body.data as Json).result as Json).company.status = 'Active';
		else withoutStatus(body.data, cin);
		return { body };
	});
	// n8n's default settings, as a user's own n8n runs (not npm start's burst settings): the outcome of each
	// applicant must not depend on tuning
	stack = await N8nStack.create({ name: 'no-item-lost', n8nDefaults: true });
	expect(stack.env.N8N_CONCURRENCY_PRODUCTION_LIMIT).toBeUndefined();
	const found = await findLeads(stack.sandbox.url, 1);
	const clean = found.find((l) => l.kind === 'clean')!;
	const unknown = found.find((l) => l.kind === 'unknown')!;
	Object.assign(LEADS[0], { companyName: clean.companyName, pan: clean.pan });
	Object.assign(LEADS[1], { companyName: 'Acme nomatch Traders', pan: 'AAACA1234K' });
	Object.assign(LEADS[2], { companyName: unknown.companyName, pan: unknown.pan });
	goodAnswer = (await sandboxApi(stack.sandbox.url, 'corporate/cin-lookup', { cin: GOOD_CIN }))
		.json;
	expect(((goodAnswer.data as Json).result as Json).company.cin).toBe(GOOD_CIN);
	const closedPort = await freePort(); // reserved, nothing listens: connection refused

	const credit = (key: string, edit: (wf: Workflow) => void = () => {}) =>
		variant('credit-decision.json', key, (wf) => {
			batchOfApplicants(wf, APPLICANTS);
			edit(wf);
		});
	credit('credit-decision batch');
	variant('individual-underwriting.json', 'individual-underwriting batch', (wf) =>
		batchOfApplicants(wf, APPLICANTS),
	);
	variant('error-handling.json', 'error-handling batch', (wf) => {
		node(wf, 'Companies to check').parameters.assignments.assignments[0].value =
			`={{ ${JSON.stringify([GOOD_CIN, REFUSED_CIN, INCOMPLETE_CIN])} }}`;
		node(wf, 'Get company by CIN').credentials = {
			finVerifyApi: { id: STUB_CREDENTIAL.id, name: STUB_CREDENTIAL.name },
		};
	});
	variant('credit-decision-record.json', 'credit-decision-record batch', (wf) =>
		batchOfApplicants(wf, APPLICANTS),
	);
	variant('company-onboarding.json', 'company-onboarding batch', (wf) =>
		batchOfApplicants(wf, LEADS, 'New business lead'),
	);
	variant('kyb-decision.json', 'kyb-decision batch', (wf) =>
		batchOfApplicants(wf, LEADS, 'Business lead'),
	);
	variant('retry-queue-decide.json', 'retry-queue-decide batch', (wf) => {
		node(wf, 'Applicants').parameters.assignments.assignments[0].value =
			`={{ ${JSON.stringify(APPLICANTS)} }}`;
		// its own queue: the retry test below counts the shipped queue's rows
		node(wf, 'Retry queue table').parameters.tableName = 'finverify_retry_queue_batch';
		node(wf, 'Queue for retry').parameters.dataTableId.value = 'finverify_retry_queue_batch';
	});
	credit('failed unwired', (wf) => {
		wf.connections['Credit report'].main[2] = [];
	});
	credit('option change');
	credit('outage, threshold Never', (wf) => {
		const report = node(wf, 'Credit report');
		report.parameters.requestOptions = { failNodeWhen: 'never' };
		report.credentials = { finVerifyApi: { id: DOWN_CREDENTIAL.id, name: DOWN_CREDENTIAL.name } };
	});
	await stack.importCredential({
		...STUB_CREDENTIAL,
		data: { environment: 'custom', baseUrl: stub.url, apiKey: 'k', apiSecret: 's' },
	});
	await stack.importCredential({
		...DOWN_CREDENTIAL,
		data: {
			environment: 'custom',
			baseUrl: `http://127.0.0.1:${closedPort}`,
			apiKey: 'k',
			apiSecret: 's',
		},
	});
	await stack.importAll([...workflows.values()]);
	await stack.start();
	// the decision-record example's table, made in *Data tables* as docs/examples.md says (both lines)
	tableIds.credit_decisions = (
		await createTable(
			stack,
			'credit_decisions',
			['applicationId', 'decision', 'reason', 'reasons', 'decisionRecord'].map((name) => ({
				name,
				type: 'string' as const,
			})),
		)
	).tableId;
	if (N8N1) {
		const record = forN8n1(workflows.get('credit-decision-record batch')!, tableIds);
		workflows.set('credit-decision-record batch', record);
		await saveWorkflow(stack, record);
	}
	if (N8N1) {
		// n8n 1.x: the retry queues made in *Data tables* and picked by ID (./helpers/dataTables.cts)
		const columns = declaredTables(stack.example('retry-queue-decide.json')).get(
			'finverify_retry_queue',
		)!;
		for (const name of ['finverify_retry_queue', 'finverify_retry_queue_batch'])
			tableIds[name] = (await createTable(stack, name, columns)).tableId;
		const batch = forN8n1(workflows.get('retry-queue-decide batch')!, tableIds);
		workflows.set('retry-queue-decide batch', batch);
		await saveWorkflow(stack, batch);
	}
}, 900_000);

afterAll(async () => {
	await stack?.stop();
	await stub?.close();
});

interface BatchExample {
	key: string;
	/** The field naming the applicant on the terminal nodes' items. */
	idKey: string;
	/** The batch in order: answered, refused, incomplete. */
	ids: string[];
	/** Where the refused and the incomplete applicant must end. */
	refused: RegExp;
	incomplete: RegExp;
	/** Where the answered applicant must end, when the example's outcome for it is fixed. */
	answered?: RegExp;
	/** Terminal nodes that fan one applicant out into several items (the KYB example's per-director check). */
	fanOut?: string[];
}

const CREDIT = { idKey: 'applicationId', ids: APPLICANTS.map((a) => a.applicationId) };
const FAILED = /failed|Record failure|Queue for retry/;
const COMPANY = {
	idKey: 'leadId',
	ids: LEADS.map((l) => l.leadId),
	refused: /^Refer to a person$/,
	incomplete: /^Refer to a person$/,
};

const EXAMPLES: BatchExample[] = [
	{ key: 'credit-decision batch', ...CREDIT, refused: FAILED, incomplete: /incomplete/ },
	{ key: 'individual-underwriting batch', ...CREDIT, refused: FAILED, incomplete: /incomplete/ },
	{
		key: 'error-handling batch',
		idKey: 'cin',
		ids: [GOOD_CIN, REFUSED_CIN, INCOMPLETE_CIN],
		refused: FAILED,
		incomplete: /incomplete/,
	},
	{ key: 'company-onboarding batch', ...COMPANY, answered: /^Onboarding file ready$/ },
	{
		key: 'kyb-decision batch',
		...COMPANY,
		answered: /^Each director/,
		fanOut: ['Each director (per-director check)'],
	},
	{ key: 'retry-queue-decide batch', ...CREDIT, refused: FAILED, incomplete: /incomplete/ },
];

describe('every shipped example with a decision node, 3 applicants (answered, refused, incomplete)', () => {
	test.each(EXAMPLES.map((e) => [e.key, e] as const))(
		'%s: each applicant on exactly one terminal node',
		async (key, example) => {
			const { idKey, ids } = example;
			const wf = workflows.get(key)!;
			const { execution, data } = await runAndWait(wf);
			expect({ status: execution.status, error: data.resultData?.error?.message }).toEqual({
				status: 'success',
				error: undefined,
			});
			const seen = outcomes(wf, data, idKey);
			log(`${key}: ${JSON.stringify(seen)}`);
			// a fan-out node's items of one applicant count as one outcome (its per-director items)
			for (const id of Object.keys(seen))
				seen[id] = seen[id].filter(
					(n, i, all) => !example.fanOut?.includes(n) || all.indexOf(n) === i,
				);
			// exactly the batch, each applicant once: nobody without an outcome, nobody twice, nothing unnamed
			expect(Object.keys(seen).sort()).toEqual([...ids].sort());
			for (const id of ids)
				expect({ id, nodes: seen[id] }).toEqual({ id, nodes: [expect.any(String)] });
			// the refused applicant is referred or queued, never decided on; the incomplete one is referred
			expect(seen[ids[1]][0]).toMatch(example.refused);
			expect(seen[ids[2]][0]).toMatch(example.incomplete);
			expect(seen[ids[0]][0]).not.toMatch(/failed|incomplete|Queue for retry/);
			if (example.answered) expect(seen[ids[0]][0]).toMatch(example.answered);
		},
	);
});

test('credit-decision-record, 3 applicants: one stored decision each, the refused and the incomplete referred', async () => {
	const wf = workflows.get('credit-decision-record batch')!;
	const { execution, data } = await runAndWait(wf);
	expect({ status: execution.status, error: data.resultData?.error?.message }).toEqual({
		status: 'success',
		error: undefined,
	});
	// every applicant reaches the one terminal node (the table) exactly once
	const seen = outcomes(wf, data, 'applicationId');
	expect(seen).toEqual(
		Object.fromEntries(APPLICANTS.map((a) => [a.applicationId, ['Store decision and record']])),
	);
	// and the table holds one row each, with the decision the branch wrote
	const project = await stack.rest<{ data: { id: string } }>('GET', '/rest/projects/personal');
	const rows = await stack.rest<{ data: { data: Json[] } }>(
		'GET',
		`/rest/projects/${project.data.id}/data-tables/${tableIds.credit_decisions}/rows?skip=0&take=50`,
	);
	const decisions = Object.fromEntries(
		rows.data.data.map((row) => [String(row.applicationId), row.decision]),
	);
	log(`credit-decision-record rows: ${JSON.stringify(decisions)}`);
	expect(rows.data.data).toHaveLength(3);
	expect(decisions).toEqual({ 'APP-1': 'approve', 'APP-2': 'refer', 'APP-3': 'refer' });
});

test('the Failed output unwired: red, the message names the output and the item', async () => {
	const wf = workflows.get('failed unwired')!;
	const { execution, data } = await runAndWait(wf);
	expect(execution.status).toBe('error');
	const message: string = data.resultData.error.message;
	log(`unwired: ${message}`);
	expect(message).toMatch(/went to the Failed output, which has nothing connected/);
	// 1-based, by the applicant's own id
	expect(message).toMatch(/item 2 \((PAN XXXXXX422Z|reference APP-2)\)/);
	expect(data.resultData.lastNodeExecuted).toBe('Credit report');
});

test('Incomplete Answers switched to Keep and back on the saved workflow: every kind of item stays on its wire', async () => {
	const wf = workflows.get('option change')!;
	const wires = async () =>
		(await stack.rest<{ data: Json }>('GET', `/rest/workflows/${wf.id}`)).data.connections[
			'Credit report'
		];
	const save = async (incompleteAnswers: string | undefined) => {
		const saved = (await stack.rest<{ data: Json }>('GET', `/rest/workflows/${wf.id}`)).data;
		const report = saved.nodes.find((n: Json) => n.name === 'Credit report');
		if (incompleteAnswers === undefined) delete report.parameters.incompleteAnswers;
		else report.parameters.incompleteAnswers = incompleteAnswers;
		await stack.rest('PATCH', `/rest/workflows/${wf.id}`, {
			nodes: saved.nodes,
			connections: saved.connections,
			versionId: saved.versionId,
			name: saved.name,
		});
		const now = (await stack.rest<{ data: Json }>('GET', `/rest/workflows/${wf.id}`)).data;
		const reportNow = now.nodes.find((n: Json) => n.name === 'Credit report');
		expect(reportNow.parameters.incompleteAnswers).toBe(incompleteAnswers);
		return { ...wf, nodes: now.nodes, connections: now.connections } as Workflow;
	};
	const before = await wires();
	const run = async (saved: Workflow) => {
		const { execution, data } = await runAndWait(saved);
		expect(execution.status).toBe('success');
		const out = (o: number) =>
			(data.resultData.runData['Credit report'][0].data.main[o] ?? []).map(
				(i: Json) => APPLICANTS[i.pairedItem.item].applicationId,
			);
		return { wires: [out(0), out(1), out(2)], seen: outcomes(saved, data, 'applicationId') };
	};
	const keep = await run(await save('keep'));
	expect(await wires()).toEqual(before);
	const back = await run(await save(undefined));
	expect(await wires()).toEqual(before);
	log(`option change: keep ${JSON.stringify(keep)}; back ${JSON.stringify(back)}`);
	// Keep: answers (complete and incomplete) on the first wire, the refused applicant still on Failed
	expect(keep.wires).toEqual([['APP-1', 'APP-3'], [], ['APP-2']]);
	// the incomplete answer reaches the rule, which refers it (never approves or declines it)
	expect(keep.seen['APP-3']).toEqual(['Refer to underwriter']);
	expect(keep.seen['APP-2']).toEqual(['Refer: lookup failed']);
	// back to the default: each kind on its own wire again
	expect(back.wires).toEqual([['APP-1'], ['APP-3'], ['APP-2']]);
	expect(back.seen['APP-3']).toEqual(['Refer: incomplete answer']);
	expect(back.seen['APP-2']).toEqual(['Refer: lookup failed']);
	for (const r of [keep, back])
		expect(Object.keys(r.seen).sort()).toEqual(['APP-1', 'APP-2', 'APP-3']);
});

test('the service down (connection refused) with Fail the Node When Items Fail = Never: red', async () => {
	const wf = workflows.get('outage, threshold Never')!;
	const { execution, data } = await runAndWait(wf);
	expect(execution.status).toBe('error');
	log(`outage: ${data.resultData.error.message}`);
	expect(data.resultData.error.message).toMatch(/The FinVerify service is unavailable/);
	// nobody decided on: nothing reached a decision node
	for (const name of ['Approve', 'Decline', 'Refer to underwriter'])
		expect(data.resultData.runData[name]).toBeUndefined();
});

test("what n8n's execution list shows of a batch with failed items", async () => {
	const wf = workflows.get('credit-decision batch')!;
	const { id } = await runAndWait(wf);
	const list = await stack.executions(wf.id);
	const entry = list.find((e) => String(e.id) === id)!;
	log(`execution list entry: ${JSON.stringify(entry)}`);
	// the list: green, nothing of the failed applicant (no custom data in the list's fields)
	expect(entry.status).toBe('success');
	expect(JSON.stringify(entry)).not.toMatch(/finverify_failed|INVALID|failed:/);
	// the execution itself carries the custom data (n8n 2.x; 1.x has no execution custom data from nodes)
	const full = (await stack.rest<{ data: Json }>('GET', `/rest/executions/${id}`)).data;
	log(`execution customData: ${JSON.stringify(full.customData)}`);
	if (N8N1) return;
	expect(full.customData).toMatchObject({
		finverify_failed: expect.stringMatching(/^Credit report: 1 of 3 failed .*item 2/),
		finverify_incomplete: expect.stringMatching(/^Credit report: 1 of 3 incomplete/),
	});
});

test('the retry pattern (n8n Data Tables): 5 applicants, 2 refused once; the retry pulls only those 2', async () => {
	const decide = N8N1
		? forN8n1(stack.example('retry-queue-decide.json'), tableIds)
		: clone(stack.example('retry-queue-decide.json'));
	const retry = N8N1
		? forN8n1(stack.example('retry-queue-retry.json'), tableIds)
		: clone(stack.example('retry-queue-retry.json'));
	if (N8N1) await saveWorkflow(stack, retry);
	const five = ['A', 'B', 'C', 'D', 'E'].map((x, i) => ({
		applicationId: `RETRY-${x}`,
		name: `Applicant ${x}`,
		pan: `ABCP${x}${1000 + i}K`,
		mobile: '+91 98765 43210',
		gender: 'female',
		consentGiven: true,
	}));
	node(decide, 'Applicants').parameters.assignments.assignments[0].value =
		`={{ ${JSON.stringify(five)} }}`;
	await saveWorkflow(stack, decide);
	const before = await pulls();
	// the service refuses the next 2 pulls once (HTTP 422), then answers
	await stack.control.fault({ path: `/api/v1/services/${PULL_PATH}/*`, status: 422, times: 2 });
	const first = await runAndWait(decide);
	expect(first.execution.status).toBe('success');
	const afterFirst = await pulls();
	const seen1 = outcomes(decide, first.data, 'applicationId');
	const queued = Object.keys(seen1).filter((k) => seen1[k].includes('Queue for retry'));
	expect(afterFirst - before).toBe(5);
	expect(queued).toHaveLength(2);

	const second = await runAndWait(retry);
	expect(second.execution.status).toBe('success');
	const afterRetry = await pulls();
	const seen2 = outcomes(retry, second.data, 'applicationId');
	log(
		`retry: pulls ${afterFirst - before} + ${afterRetry - afterFirst}; first run ${JSON.stringify(seen1)}; retry run ${JSON.stringify(seen2)}`,
	);
	// only the 2 queued applicants pulled again: 5 + 2
	expect(afterRetry - before).toBe(7);
	const retried = (await stack.control.requests(PULL_PATH))
		.slice(-2)
		.map((r) => (r.body as Json).pan)
		.sort();
	expect(retried).toEqual(
		five
			.filter((a) => queued.includes(a.applicationId))
			.map((a) => a.pan)
			.sort(),
	);
	// each applicant one final outcome: decided in the first run, or queued then decided by the retry
	const final: Record<string, string[]> = {};
	for (const [k, v] of Object.entries(seen1))
		for (const n of v) if (n !== 'Queue for retry') (final[k] ??= []).push(n);
	for (const [k, v] of Object.entries(seen2)) for (const n of v) (final[k] ??= []).push(n);
	expect(Object.keys(final).sort()).toEqual(five.map((a) => a.applicationId));
	for (const a of five) expect(final[a.applicationId]).toHaveLength(1);
	expect(Object.keys(seen2).sort()).toEqual([...queued].sort());

	// the queue is empty: a second retry run pulls nothing
	const third = await runAndWait(retry);
	expect(third.execution.status).toBe('success');
	expect(await pulls()).toBe(afterRetry);
});
