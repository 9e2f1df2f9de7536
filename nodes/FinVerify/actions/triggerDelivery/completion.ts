import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { markProcessedInProcess } from '../../../shared/unanswered';
import { runExclusive } from '../../helpers/exclusive';

/**
 * The record behind Process Once's *Mark as Processed: When Marked Processed* and the Mark Processed operation
 * (claim until finished, issue 43).
 *
 * - **Done**, durable: `finverify:done:<deliveryKey>` in n8n's deduplication store, scope `workflow` (so both
 *   nodes of a workflow share it), recorded by Mark Processed only, when the workflow reached it.
 * - **Claimed**, in this process's memory: Process Once claims a key it passes on, so a copy arriving while
 *   the first is still on its way is dropped; Mark Processed releases it. A crash of n8n frees every claim with
 *   the process, so the sender's re-send after a restart passes again (the delivery was not done).
 *
 * n8n's store has no read-only check: its one check records the value when it is new. Process Once therefore
 * checks "done" in two writes, each one atomic (one row written): first it records the probe
 * `finverify:probe:<key>` together with the done value, then it removes what it added (both when the done value
 * was new, else the probe). A crash between the two leaves both values: the next check then finds its probe
 * already there, cannot tell a real mark from its own, and reads "not done" (the delivery is processed again,
 * and Mark Processed drops the second completion). So "done" is never read where Mark Processed did not record
 * it: a crash can cost a repeat of the steps before the mark, never a delivery.
 *
 * Every call of one workflow's record goes through one lock of this process (helpers/exclusive.ts): n8n reads,
 * changes and writes the whole row without a transaction.
 */

export const DONE_PREFIX = 'finverify:done:';
export const PROBE_PREFIX = 'finverify:probe:';

/** Claims of this process: workflow id + "\n" + delivery key. */
const claims = new Set<string>();

/** How many keys are claimed in this process (for tests). */
export function claimedKeys(): number {
	return claims.size;
}

/** Drops every claim: what a restart of n8n does (for tests). */
export function forgetClaims(): void {
	claims.clear();
}

type Store = Pick<DeduplicationHelperFunctions, 'checkProcessedAndRecord' | 'removeProcessed'>;

export interface RecordContext {
	store: Store;
	workflowId: string;
	historySize: number;
}

/** The deduplication store and the saved workflow's id, or the error naming what is missing. */
export function recordContext(
	fn: IExecuteFunctions,
	itemIndex: number,
	historySize: number,
	operation: string,
): RecordContext {
	const node = fn.getNode();
	const helpers = fn.helpers as Partial<DeduplicationHelperFunctions>;
	if (
		typeof helpers.checkProcessedAndRecord !== 'function' ||
		typeof helpers.removeProcessed !== 'function'
	) {
		throw new NodeOperationError(
			node,
			`This n8n offers nodes no deduplication store, which ${operation} keeps its delivery keys in`,
			{
				itemIndex,
				description: `${operation} keeps its keys where n8n's Remove Duplicates node (version 2) keeps its own: use an n8n version that has that node.`,
			},
		);
	}
	const workflowId = fn.getWorkflow().id;
	if (!workflowId) {
		throw new NodeOperationError(node, `Save the workflow before running ${operation}`, {
			itemIndex,
			description: 'n8n keeps the delivery keys per saved workflow.',
		});
	}
	return {
		store: helpers as Store,
		workflowId,
		historySize,
	};
}

const lockKey = (workflowId: string) => `${workflowId}\nfinverify:completion`;
const claimKey = (workflowId: string, deliveryKey: string) => `${workflowId}\n${deliveryKey}`;
/** n8n's record of the newest `historySize` keys (what Remove Duplicates keeps). */
export const options = (historySize: number): ICheckProcessedOptions => ({
	mode: 'entries',
	maxEntries: historySize,
});

/** Whether Mark Processed recorded the key, in two atomic writes that leave nothing behind (see above). */
async function isDone({ store, historySize }: RecordContext, deliveryKey: string) {
	const probe = PROBE_PREFIX + deliveryKey;
	const done = DONE_PREFIX + deliveryKey;
	const found = await store.checkProcessedAndRecord(
		[probe, done],
		'workflow',
		options(historySize),
	);
	const fresh = found.new.map(String);
	if (fresh.includes(done)) {
		await store.removeProcessed([probe, done], 'workflow', options(historySize));
		return false;
	}
	await store.removeProcessed([probe], 'workflow', options(historySize));
	// a probe already there: an earlier check was cut off after recording the done value, which may be its own
	return fresh.includes(probe);
}

export type ClaimOutcome = 'claimed' | 'done' | 'inProgress';

/**
 * Process Once with *When Marked Processed*: claims the key unless it is done, or claimed by an execution still
 * running in this process. n8n's Retry of an execution (`retry`) honours only "done": it is how an operator
 * finishes a delivery whose execution crashed or failed, which may still hold the claim.
 */
export async function claim(
	record: RecordContext,
	deliveryKey: string,
	retry: boolean,
): Promise<ClaimOutcome> {
	const key = claimKey(record.workflowId, deliveryKey);
	return await runExclusive(lockKey(record.workflowId), async () => {
		if (!retry && claims.has(key)) return 'inProgress';
		if (await isDone(record, deliveryKey)) return 'done';
		claims.add(key);
		return 'claimed';
	});
}

/**
 * Frees the claim of a delivery whose execution ended in error, so the sender's re-send is processed: the FinVerify
 * Trigger (version 1.3) calls it when n8n answered that delivery with an error (the workflow failed). The key is
 * the trigger's deliveryKey, what Process Once claims by default.
 */
export function releaseClaim(workflowId: string, deliveryKey: string): void {
	claims.delete(claimKey(workflowId, deliveryKey));
}

/** Mark Processed: records the key as done and releases its claim; true when it was not done before. */
export async function markDone(record: RecordContext, deliveryKey: string): Promise<boolean> {
	return await runExclusive(lockKey(record.workflowId), async () => {
		const found = await record.store.checkProcessedAndRecord(
			[DONE_PREFIX + deliveryKey],
			'workflow',
			options(record.historySize),
		);
		claims.delete(claimKey(record.workflowId, deliveryKey));
		// the trigger (1.3) answers a copy of it "duplicate" from now on, not "being processed"
		markProcessedInProcess(record.workflowId, deliveryKey);
		return found.new.length > 0;
	});
}

/** The item passed on as it came (its binary data too): what Process Once and Mark Processed let through. */
export function passOn(item: INodeExecutionData): INodeExecutionData[] {
	return [{ json: item.json, ...(item.binary ? { binary: item.binary } : {}) }];
}
