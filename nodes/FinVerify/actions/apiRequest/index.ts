import type { INodeProperties } from 'n8n-workflow';

import * as send from './send.operation';
import { defineOperation } from '../operation';

export const operations = {
	send: defineOperation(send),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['apiRequest'] } },
		options: [
			{
				name: 'Send',
				value: 'send',
				description:
					'Send a request to any path under /api/v1/services/ with the credential applied, e.g. ' +
					'operations this node has no dedicated action for (GST analyser, bank statement upload)',
				action: 'Call any endpoint',
			},
		],
		default: 'send',
	},
	...send.description,
];
