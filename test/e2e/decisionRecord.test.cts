/**
 * The decision-record example (examples/credit-decision-record.json) in the real n8n app (issue 46): n8n
 * started the way `npm start` does, the example imported with the CLI, an n8n Data Table created through
 * n8n's REST API, the workflow run as the editor's "Execute workflow" does, against the sandbox. The
 * applicant of the sandbox with a 60-day month is referred; the row stored in the Data Table holds the
 * decision, the reasons in words from `adverse` (each with its bureau, the account's last 4 only) and the
 * decision record (the verdict, the facts, the service's request id, the consent record, the execution).
 * n8n 2.41.1, and 1.123.81 (FINVERIFY_N8N_LINE=1) with the table picked by ID (./helpers/dataTables.cts).
 */
import { createTable, forN8n1, N8N1, saveWorkflow } from './helpers/dataTables.cjs';
import { log, N8nStack, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(180_000);

/** The sandbox's reports of this PAN have a 60-day month (test/e2e/decisionExample.test.cts). */
const LATE_PAN = 'BXZPM7788Q';
const COLUMNS = ['applicationId', 'decision', 'reason', 'reasons', 'decisionRecord'];

let stack: N8nStack;
let late: Workflow;

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'decision-record' });
	const example = stack.example('credit-decision-record.json');
	// the example with the late applicant: a copy of its own (its own id)
	late = {
		...example,
		id: `${example.id.slice(0, 12)}late`,
		name: `${example.name} (late applicant)`,
		nodes: example.nodes.map((node) =>
			node.name === 'Applicant'
				? {
						...node,
						parameters: {
							...node.parameters,
							assignments: {
								assignments: node.parameters.assignments.assignments.map(
									(a: { name: string; value: unknown }) =>
										a.name === 'pan' ? { ...a, value: LATE_PAN } : a,
								),
							},
						},
					}
				: node,
		),
	};
	await stack.importAll([late]);
	await stack.start();
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

test('the decision, its reasons from adverse and its record are stored in an n8n Data Table', async () => {
	const { projectId, tableId } = await createTable(
		stack,
		'credit_decisions',
		COLUMNS.map((name) => ({ name, type: 'string' as const })),
	);
	// n8n 1.x: the table picked by ID in the Data Table node (version 1), as docs/reliability.md says
	if (N8N1) {
		late = forN8n1(late, { credit_decisions: tableId });
		await saveWorkflow(stack, late);
	}

	const execution = await stack.waitForExecution(await stack.runManually(late));
	if (execution.status !== 'success') log(stack.logTail());
	expect(execution.status).toBe('success');
	const credit = execution.run.json('Credit report', 0);
	expect(credit).toHaveLength(1);
	expect(credit[0].decisionReady).toBe(true);

	const rows = await stack.rest<{ data: { data: Array<Record<string, unknown>> } }>(
		'GET',
		`/rest/projects/${projectId}/data-tables/${tableId}/rows?skip=0&take=10`,
	);
	expect(rows.data.data).toHaveLength(1);
	const row = rows.data.data[0];
	expect(row).toMatchObject({ applicationId: 'APP-2026-1127', decision: 'refer' });
	// the reasons: each bureau's 60-day month, in words, the account's last 4 only
	const reasons = String(row.reasons).split('; ');
	for (const bureau of ['CIBIL', 'Experian', 'CRIF'])
		expect(reasons.some((r) => r.startsWith(`${bureau}: `) && r.includes('60 days past due'))).toBe(
			true,
		);
	expect(String(row.reasons)).not.toContain(LATE_PAN);
	expect(String(row.reasons)).not.toMatch(/\d{8,}/);
	// the record, as stored: what an auditor reads back
	const record = JSON.parse(String(row.decisionRecord)) as Record<string, unknown>;
	expect(record).toMatchObject({
		operation: 'creditReport.getMultiBureauReport',
		nodeVersion: 3,
		decisionReady: true,
		incomplete: [],
		workflowId: late.id,
		executionId: execution.id,
		nodeName: 'Credit report',
		consentRecord: expect.objectContaining({ subjectConsented: true }),
	});
	expect(record.requestId).toEqual(expect.any(String));
	expect((record.adverse as Array<{ text: string }>).map((a) => a.text)).toEqual(reasons);
	expect(record.facts).toMatchObject({ maxDaysPastDue: 60 });
	// the PAN is masked in the stored record (Personal Data in Output: Masked, the default)
	expect(String(row.decisionRecord)).not.toContain(LATE_PAN);
});
