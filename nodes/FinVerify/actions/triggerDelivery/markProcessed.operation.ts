import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertDeliveryKey } from '../../helpers/validation';
import { markDone, passOn, recordContext } from './completion';
import { historySizeField, readHistorySize } from './processOnce.operation';

const properties: INodeProperties[] = [
	{
		displayName:
			'Put this node last, after the steps a delivery goes through, behind Trigger Delivery · Process Once set to Mark as Processed: When Marked Processed. It records the delivery as done and passes it on only the first time',
		name: 'markProcessedNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Delivery Key',
		name: 'deliveryKey',
		type: 'string',
		default: '={{ $json.deliveryKey }}',
		required: true,
		placeholder: "e.g. {{ $('FinVerify Trigger').item.json.deliveryKey }}",
		description:
			"The FinVerify Trigger's deliveryKey of the item; when a node in between replaced the item, take it from the trigger",
	},
	{
		...historySizeField,
		description: `${historySizeField.description}. Set what Process Once has.`,
	},
];

const displayOptions = { show: { resource: ['triggerDelivery'], operation: ['markProcessed'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface MarkProcessedRequest {
	deliveryKey: string;
	historySize: number;
	item: INodeExecutionData;
}

export function read(this: IExecuteFunctions, itemIndex: number): MarkProcessedRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		deliveryKey: assertDeliveryKey(
			ctx,
			this.getNodeParameter('deliveryKey', itemIndex, ''),
			'Delivery Key',
		),
		historySize: readHistorySize(this, itemIndex),
		item: this.getInputData()[itemIndex],
	};
}

/**
 * Records the delivery key as done in n8n's deduplication store (scope workflow, shared with Process Once; see
 * completion.ts), releases Process Once's claim on it, and passes the item on only when the key was not done
 * before: what follows this node runs once per delivery. Sends nothing to the service.
 */
export async function execute(
	this: IExecuteFunctions,
	{ deliveryKey, historySize, item }: MarkProcessedRequest,
	_policy: unknown,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const record = recordContext(this, itemIndex, historySize, 'Mark Processed');
	const first = await markDone(record, deliveryKey);
	return first ? passOn(item) : [];
}
