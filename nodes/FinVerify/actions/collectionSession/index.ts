import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as wait from './wait.operation';
import { defineOperation } from '../operation';

export const operations = {
	create: defineOperation(create),
	wait: defineOperation(wait),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['collectionSession'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a time-limited hosted link, e-mailed to a recipient, through which they submit ITR ' +
					'or GST data',
				action: 'Create collection session',
			},
			{
				name: 'Wait for Session',
				value: 'wait',
				description:
					"Wait (in n8n, no worker held) until a session created with this execution's resume URL " +
					'is completed, abandoned or expired',
				action: 'Wait for session',
			},
		],
		default: 'create',
	},
	...create.description,
	...wait.description,
];
