import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export const operations = { create };

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
				action: 'Create a hosted link that collects ITR or GST data',
			},
		],
		default: 'create',
	},
	...create.description,
];
