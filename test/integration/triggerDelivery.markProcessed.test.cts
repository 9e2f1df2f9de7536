/**
 * Trigger Delivery · Process Once with *Mark as Processed: When Marked Processed*, and Trigger Delivery · Mark
 * Processed, through n8n-core's real engine and deduplication helper (the store of test/harness/processedData.cts
 * behaves like n8n's `processed_data` table). Asserted: a delivery counts as done only once Mark Processed ran;
 * an execution that stopped before it (a crash: the claims of the process gone; a failure: n8n's Retry) leaves
 * the delivery to pass again; copies in flight together pass one at a time and complete once; a check cut off
 * between its two writes never reads "done" (the crash window of the probe); nothing of the probe stays behind.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { loadBaseNodes } from '../harness/baseNodes.cjs';
import { Engine, nodeWorkflow, sandboxCredentials } from '../harness/index.cjs';
import type { RunResult, WorkflowJson } from '../harness/index.cjs';
import { hash, processedDataStore } from '../harness/processedData.cjs';
import type { ProcessedDataStore } from '../harness/processedData.cjs';
import { exclusiveKeysInUse } from '../../nodes/FinVerify/helpers/exclusive';
import {
	claimedKeys,
	DONE_PREFIX,
	forgetClaims,
	PROBE_PREFIX,
} from '../../nodes/FinVerify/actions/triggerDelivery/completion';
import { NODE, NOTHING_SENT } from './support.cjs';

let engine: Engine;
let store: ProcessedDataStore;

beforeAll(async () => {
	engine = await Engine.create();
	loadBaseNodes(engine.nodeTypes);
	engine.setCredentials(sandboxCredentials('http://127.0.0.1:9'));
});
beforeEach(async () => {
	store = await processedDataStore();
	forgetClaims();
});

const MARK = 'Mark Processed';
const STEP = 'Step';

/**
 * Start (pinned items) → Process Once (When Marked Processed) → Step (No Op) → Mark Processed; without `mark`
 * the workflow ends after Step (an execution that crashed or failed before the end).
 */
function onceWorkflow(
	items: IDataObject[],
	{ mark = true, markParameters = {} }: { mark?: boolean; markParameters?: IDataObject } = {},
): WorkflowJson {
	const wf = nodeWorkflow({
		parameters: {
			resource: 'triggerDelivery',
			operation: 'processOnce',
			markProcessed: 'whenMarked',
		},
		items,
	});
	const nodes: INode[] = wf.nodes.map((n) => (n.name === NODE ? { ...n, typeVersion: 3 } : n));
	const finverify = nodes.find((n) => n.name === NODE)!;
	nodes.push({
		id: 'step',
		name: STEP,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [400, 0],
		parameters: {},
	});
	const connections: WorkflowJson['connections'] = {
		...wf.connections,
		[NODE]: { main: [[{ node: STEP, type: 'main', index: 0 }]] },
	};
	if (mark) {
		nodes.push({
			...finverify,
			id: 'mark-processed',
			name: MARK,
			position: [600, 0],
			parameters: { resource: 'triggerDelivery', operation: 'markProcessed', ...markParameters },
		});
		connections[STEP] = { main: [[{ node: MARK, type: 'main', index: 0 }]] };
	}
	return { ...wf, nodes, connections };
}

const keysOf = (result: RunResult, node: string) =>
	result.run.data.resultData.runData[node] ? result.json(node).map((json) => json.deliveryKey) : [];

/** The workflow's shared record (scope workflow), as hashes. */
const workflowRow = () =>
	[...store.rows.entries()].filter(([key]) => key.endsWith('\n')).map(([, row]) => row.data)[0] ??
	[];

describe('Process Once, Mark as Processed: When Marked Processed', () => {
	test('a delivery is done once Mark Processed ran: a repeat is dropped, nothing but the done mark is recorded', async () => {
		const first = await engine.run(onceWorkflow([{ deliveryKey: 'event:a' }]));
		expect(first.error).toBeUndefined();
		expect(keysOf(first, NODE)).toEqual(['event:a']);
		expect(keysOf(first, MARK)).toEqual(['event:a']);
		expect(workflowRow()).toEqual([hash(`${DONE_PREFIX}event:a`)]);
		expect(claimedKeys()).toBe(0);

		const repeat = await engine.run(onceWorkflow([{ deliveryKey: 'event:a' }]));
		expect(keysOf(repeat, NODE)).toEqual([]);
		expect(keysOf(repeat, MARK)).toEqual([]);
		// the probe of the check left nothing behind
		expect(workflowRow()).toEqual([hash(`${DONE_PREFIX}event:a`)]);
		expect(exclusiveKeysInUse()).toBe(0);
	});

	test('an execution that stopped before Mark Processed: a copy is dropped while the claim lives; after a restart (claims gone) it passes and completes once', async () => {
		const crashed = await engine.run(onceWorkflow([{ deliveryKey: 'event:b' }], { mark: false }));
		expect(keysOf(crashed, STEP)).toEqual(['event:b']);
		expect(claimedKeys()).toBe(1);
		// a copy while the first is (as far as this process knows) still on its way
		const copy = await engine.run(onceWorkflow([{ deliveryKey: 'event:b' }]));
		expect(keysOf(copy, NODE)).toEqual([]);

		forgetClaims(); // n8n killed and started again
		const resent = await engine.run(onceWorkflow([{ deliveryKey: 'event:b' }]));
		expect(keysOf(resent, STEP)).toEqual(['event:b']);
		expect(keysOf(resent, MARK)).toEqual(['event:b']);
		const again = await engine.run(onceWorkflow([{ deliveryKey: 'event:b' }]));
		expect(keysOf(again, NODE)).toEqual([]);
	});

	test("n8n's Retry of an execution that failed after Process Once passes the delivery (claims ignored, only done honoured); a retry of a done delivery is dropped", async () => {
		const failed = await engine.run(onceWorkflow([{ deliveryKey: 'event:c' }], { mark: false }));
		expect(keysOf(failed, STEP)).toEqual(['event:c']);
		expect(claimedKeys()).toBe(1);
		const retry = await engine.run(onceWorkflow([{ deliveryKey: 'event:c' }]), { mode: 'retry' });
		expect(keysOf(retry, MARK)).toEqual(['event:c']);
		expect(claimedKeys()).toBe(0);
		const retryAgain = await engine.run(onceWorkflow([{ deliveryKey: 'event:c' }]), {
			mode: 'retry',
		});
		expect(keysOf(retryAgain, NODE)).toEqual([]);
	});

	test('a check cut off between its two writes (probe and done value left): read as not done, never as done; the next check clears the probe', async () => {
		// the first delivery's execution crashed in the middle of Process Once's check: both values recorded
		await engine.run(onceWorkflow([{ deliveryKey: 'event:seed' }]));
		const row = () => [...store.rows.values()][0];
		row().data.push(hash(`${PROBE_PREFIX}event:d`), hash(`${DONE_PREFIX}event:d`));
		const resent = await engine.run(onceWorkflow([{ deliveryKey: 'event:d' }]));
		expect(keysOf(resent, STEP)).toEqual(['event:d']);
		// Mark Processed finds its value there (the cut-off check's): the completion is not passed on twice …
		expect(keysOf(resent, MARK)).toEqual([]);
		expect(row().data).not.toContain(hash(`${PROBE_PREFIX}event:d`));
		// … and from now on the delivery reads done
		const again = await engine.run(onceWorkflow([{ deliveryKey: 'event:d' }]));
		expect(keysOf(again, NODE)).toEqual([]);
	});

	test('a done delivery with a probe left from a cut-off check: the steps run again, the completion is not passed on twice', async () => {
		await engine.run(onceWorkflow([{ deliveryKey: 'event:e' }]));
		[...store.rows.values()][0].data.push(hash(`${PROBE_PREFIX}event:e`));
		const resent = await engine.run(onceWorkflow([{ deliveryKey: 'event:e' }]));
		expect(keysOf(resent, STEP)).toEqual(['event:e']);
		expect(keysOf(resent, MARK)).toEqual([]);
	});

	test('5 deliveries, 6 copies of each at once: each completes once, the copies dropped, no execution failed, nothing held afterwards', async () => {
		const keys = Array.from({ length: 5 }, (_, i) => `event:many-${i}`);
		const runs = await Promise.all(
			keys.flatMap((deliveryKey) =>
				Array.from({ length: 6 }, () => engine.run(onceWorkflow([{ deliveryKey }]))),
			),
		);
		expect(runs.filter((run) => run.error)).toHaveLength(0);
		expect(runs.flatMap((run) => keysOf(run, MARK)).sort()).toEqual(keys);
		expect(runs.flatMap((run) => keysOf(run, STEP)).sort()).toEqual(keys);
		expect(store.uniqueViolations).toBe(0);
		expect(workflowRow().sort()).toEqual(keys.map((k) => hash(DONE_PREFIX + k)).sort());
		expect(claimedKeys()).toBe(0);
		expect(exclusiveKeysInUse()).toBe(0);
	});

	test("Mark Processed takes its key from Delivery Key: an item a node in between replaced is marked by the trigger's key", async () => {
		const wf = onceWorkflow([{ deliveryKey: 'event:f' }], {
			markParameters: { deliveryKey: `={{ $('${NODE}').item.json.deliveryKey }}` },
		});
		const step = wf.nodes.find((n) => n.name === STEP)!;
		Object.assign(step, {
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'raw',
				jsonOutput: '={"replaced": true}',
				options: {},
			},
		});
		const result = await engine.run(wf);
		expect(result.error).toBeUndefined();
		expect(result.json(MARK)).toEqual([{ replaced: true }]);
		expect(workflowRow()).toEqual([hash(`${DONE_PREFIX}event:f`)]);
	});

	test('Mark Processed with an item without a key: the item fails naming Delivery Key, nothing recorded', async () => {
		const result = await engine.run(
			onceWorkflow([{ deliveryKey: 'event:g' }], {
				markParameters: { deliveryKey: '={{ $json.missing }}' },
			}),
		);
		// its one item failed: the node stops (Fail the Node When Items Fail: When All Items Fail)
		const error = JSON.stringify(result.run.data.resultData.error);
		expect(error).toContain('Invalid Delivery Key in item 0');
		expect(error).toContain(NOTHING_SENT);
		expect(workflowRow()).toEqual([]);
	});

	test('an invalid Mark as Processed (through an expression) stops Process Once before anything is recorded', async () => {
		const wf = onceWorkflow([{ deliveryKey: 'event:h' }]);
		wf.nodes.find((n) => n.name === NODE)!.parameters.markProcessed = '={{ "later" }}';
		const result = await engine.run(wf);
		expect(JSON.stringify(result.run.data.resultData.error)).toContain(
			'Invalid Mark as Processed in item 0',
		);
		expect(store.calls).toBe(0);
	});
});
