import type { INodeProperties } from 'n8n-workflow';

import * as getByCin from './getByCin.operation';

export const operations = { getByCin };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['company'] } },
		options: [
			{
				name: 'Get by CIN',
				value: 'getByCin',
				description: 'Get company details by corporate identification number',
				action: 'Get a company by CIN',
			},
		],
		default: 'getByCin',
	},
	...getByCin.description,
];
