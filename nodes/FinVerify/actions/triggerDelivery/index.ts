import type { INodeProperties } from 'n8n-workflow';

import * as markProcessed from './markProcessed.operation';
import * as processOnce from './processOnce.operation';
import { defineOperation } from '../operation';

export const operations = {
	markProcessed: defineOperation(markProcessed),
	processOnce: defineOperation(processOnce),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['triggerDelivery'] } },
		options: [
			{
				name: 'Mark Processed',
				value: 'markProcessed',
				description:
					'Record a delivery as done at the end of the workflow, for Process Once set to Mark as Processed: When Marked Processed; passes it on only the first time',
				action: 'Mark a delivery as processed',
			},
			{
				name: 'Process Once',
				value: 'processOnce',
				description:
					"Pass on a FinVerify Trigger's delivery only the first time its deliveryKey arrives, also after n8n restarts; repeats are dropped",
				action: 'Pass on new deliveries only',
			},
		],
		default: 'processOnce',
	},
	...markProcessed.description,
	...processOnce.description,
];
