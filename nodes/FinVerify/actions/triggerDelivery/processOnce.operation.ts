import type {
	DeduplicationHelperFunctions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { runExclusive } from '../../helpers/exclusive';
import { assertDeliveryKey, assertPositiveInteger } from '../../helpers/validation';

/** Delivery keys n8n keeps per node by default: as many as n8n's Remove Duplicates node keeps. */
export const DEFAULT_HISTORY_SIZE = 10_000;
/**
 * At most: n8n reads, parses, serialises and writes the whole record for every delivery, so its cost grows with
 * it (`npm run bench`, processOnceHistory, at 687a3c1: per Process Once execution 1.4x the default's CPU at
 * 20,000 keys, 2.2x at 50,000, 4.9x at 100,000, 90x at 1,000,000; issue 43 measured 5.7 s a delivery and 1.2 GB
 * more for n8n at 1,000,000 in the app). A saved workflow with more is read as this many.
 */
export const MAX_HISTORY_SIZE = 20_000;

const properties: INodeProperties[] = [
	{
		displayName:
			'Put this node right after the FinVerify Trigger: it passes on a delivery only the first time its deliveryKey arrives, also after n8n restarts, and drops repeats',
		name: 'processOnceNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Deliveries Remembered',
		name: 'historySize',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_HISTORY_SIZE },
		default: DEFAULT_HISTORY_SIZE,
		description:
			'How many delivery keys n8n keeps for this node in its database (at most 20,000); past that the oldest are forgotten',
		hint: "n8n reads and writes the whole list for every delivery: keep it to what the service's retries and replays can reach",
	},
];

const displayOptions = { show: { resource: ['triggerDelivery'], operation: ['processOnce'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface ProcessOnceRequest {
	deliveryKey: string;
	historySize: number;
	item: INodeExecutionData;
}

export function read(this: IExecuteFunctions, itemIndex: number): ProcessOnceRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const item = this.getInputData()[itemIndex];
	return {
		deliveryKey: assertDeliveryKey(ctx, item.json.deliveryKey),
		// a workflow saved when the maximum was 1,000,000 keeps running, at the maximum
		historySize: Math.min(
			MAX_HISTORY_SIZE,
			assertPositiveInteger(
				ctx,
				this.getNodeParameter('historySize', itemIndex, DEFAULT_HISTORY_SIZE),
				'Deliveries Remembered',
			),
		),
		item,
	};
}

/**
 * Records the item's delivery key in n8n's deduplication store (the database record n8n's Remove Duplicates
 * node keeps, scoped to this node) and passes the item on only when the key was not there before. The store
 * reads the node's record, adds the key and writes it back without a transaction; calls of one workflow's
 * node are therefore made one at a time in this process (helpers/exclusive.ts), so concurrent executions
 * neither lose a key nor both create the record. Sends nothing to the service.
 */
export async function execute(
	this: IExecuteFunctions,
	{ deliveryKey, historySize, item }: ProcessOnceRequest,
	_policy: unknown,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const helpers = this.helpers as Partial<DeduplicationHelperFunctions>;
	if (typeof helpers.checkProcessedAndRecord !== 'function') {
		throw new NodeOperationError(
			node,
			'This n8n offers nodes no deduplication store, which Process Once keeps its delivery keys in',
			{
				itemIndex,
				description:
					"Process Once keeps its keys where n8n's Remove Duplicates node (version 2) keeps its own: use an n8n version that has that node.",
			},
		);
	}
	const workflowId = this.getWorkflow().id;
	if (!workflowId) {
		throw new NodeOperationError(node, 'Save the workflow before running Process Once', {
			itemIndex,
			description: 'n8n keeps the delivery keys per saved workflow and node.',
		});
	}
	const { new: fresh } = await runExclusive(
		`${workflowId}\n${node.id}`,
		async () =>
			await helpers.checkProcessedAndRecord!([deliveryKey], 'node', {
				mode: 'entries',
				maxEntries: historySize,
			}),
	);
	return fresh.length > 0
		? [{ json: item.json, ...(item.binary ? { binary: item.binary } : {}) }]
		: [];
}
