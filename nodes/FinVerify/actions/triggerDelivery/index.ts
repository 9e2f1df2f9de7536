import type { INodeProperties } from 'n8n-workflow';

import * as processOnce from './processOnce.operation';
import { defineOperation } from '../operation';

export const operations = {
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
				name: 'Process Once',
				value: 'processOnce',
				description:
					"Pass on a FinVerify Trigger's delivery only the first time its deliveryKey arrives, also after n8n restarts; repeats are dropped",
				action: 'Pass on new deliveries only',
			},
		],
		default: 'processOnce',
	},
	...processOnce.description,
];
