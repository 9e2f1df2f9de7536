import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runExclusive } from '../../helpers/exclusive';
import { assertDeliveryKey, assertOneOf, assertPositiveInteger } from '../../helpers/validation';
import { claim, options, passOn, recordContext } from './completion';

/** Delivery keys n8n keeps per node by default: as many as n8n's Remove Duplicates node keeps. */
export const DEFAULT_HISTORY_SIZE = 10_000;
/**
 * At most: n8n reads, parses, serialises and writes the whole record for every delivery, so its cost grows with
 * it (`npm run bench`, processOnceHistory, at 687a3c1: per Process Once execution 1.4x the default's CPU at
 * 20,000 keys, 2.2x at 50,000, 4.9x at 100,000, 90x at 1,000,000; issue 43 measured 5.7 s a delivery and 1.2 GB
 * more for n8n at 1,000,000 in the app). A saved workflow with more is read as this many.
 */
export const MAX_HISTORY_SIZE = 20_000;

/** When a delivery counts as processed: when it passes (as before 0.2.0), or when Mark Processed records it. */
export const MARK_MODES = ['onArrival', 'whenMarked'] as const;
export type MarkMode = (typeof MARK_MODES)[number];

/** Deliveries Remembered, shared by Process Once and Mark Processed. */
export const historySizeField: INodeProperties = {
	displayName: 'Deliveries Remembered',
	name: 'historySize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_HISTORY_SIZE },
	default: DEFAULT_HISTORY_SIZE,
	description:
		'How many delivery keys n8n keeps for this node in its database (at most 20,000); past that the oldest are forgotten',
	hint: "n8n reads and writes the whole list for every delivery: keep it to what the service's retries and replays can reach",
};

/** Deliveries Remembered of an item, at most MAX_HISTORY_SIZE. */
export function readHistorySize(fn: IExecuteFunctions, itemIndex: number): number {
	const ctx = { node: fn.getNode(), itemIndex };
	// a workflow saved when the maximum was 1,000,000 keeps running, at the maximum
	return Math.min(
		MAX_HISTORY_SIZE,
		assertPositiveInteger(
			ctx,
			fn.getNodeParameter('historySize', itemIndex, DEFAULT_HISTORY_SIZE),
			'Deliveries Remembered',
		),
	);
}

const properties: INodeProperties[] = [
	{
		displayName:
			'Put this node right after the FinVerify Trigger: it passes on a delivery only the first time its deliveryKey arrives, also after n8n restarts, and drops repeats',
		name: 'processOnceNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Mark as Processed',
		name: 'markProcessed',
		type: 'options',
		options: [
			{
				name: 'On Arrival',
				value: 'onArrival',
				description:
					'The key is recorded when the delivery passes: a crash of n8n while the workflow runs loses that delivery',
			},
			{
				name: 'When Marked Processed',
				value: 'whenMarked',
				description:
					'The key is recorded by Trigger Delivery · Mark Processed at the end of the workflow: a delivery whose execution crashed passes again',
			},
		],
		default: 'onArrival',
		description: 'When a delivery counts as processed, so that a repeat of it is dropped',
	},
	{
		displayName:
			'End the workflow with Trigger Delivery · Mark Processed, with the same Deliveries Remembered. Repeats are dropped while the first is on its way and once it is marked; the steps in between may run again after a crash, so make them safe to repeat',
		name: 'markProcessedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { markProcessed: ['whenMarked'] } },
	},
	historySizeField,
];

const displayOptions = { show: { resource: ['triggerDelivery'], operation: ['processOnce'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface ProcessOnceRequest {
	deliveryKey: string;
	historySize: number;
	markProcessed: MarkMode;
	item: INodeExecutionData;
}

export function read(this: IExecuteFunctions, itemIndex: number): ProcessOnceRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const item = this.getInputData()[itemIndex];
	return {
		deliveryKey: assertDeliveryKey(ctx, item.json.deliveryKey),
		historySize: readHistorySize(this, itemIndex),
		// saved before the choice existed: on arrival, as then
		markProcessed: assertOneOf(
			ctx,
			this.getNodeParameter('markProcessed', itemIndex, 'onArrival'),
			'Mark as Processed',
			MARK_MODES,
		),
		item,
	};
}

/**
 * When Marked Processed: passes the item on when its delivery is neither done (recorded by Mark Processed) nor
 * claimed by an execution still running in this process, and claims it (completion.ts).
 *
 * On Arrival: records the item's delivery key in n8n's deduplication store (the database record n8n's Remove
 * Duplicates node keeps, scoped to this node) and passes the item on only when the key was not there before. The store
 * reads the node's record, adds the key and writes it back without a transaction; calls of one workflow's
 * node are therefore made one at a time in this process (helpers/exclusive.ts), so concurrent executions
 * neither lose a key nor both create the record. Sends nothing to the service.
 */
export async function execute(
	this: IExecuteFunctions,
	{ deliveryKey, historySize, markProcessed, item }: ProcessOnceRequest,
	_policy: unknown,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const record = recordContext(this, itemIndex, historySize, 'Process Once');
	if (markProcessed === 'whenMarked') {
		const outcome = await claim(record, deliveryKey, this.getMode() === 'retry');
		return outcome === 'claimed' ? passOn(item) : [];
	}
	const node = this.getNode();
	const { new: fresh } = await runExclusive(
		`${record.workflowId}\n${node.id}`,
		async () =>
			await record.store.checkProcessedAndRecord([deliveryKey], 'node', options(historySize)),
	);
	return fresh.length > 0 ? passOn(item) : [];
}
