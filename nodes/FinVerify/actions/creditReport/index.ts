import type { INodeProperties } from 'n8n-workflow';

import * as getCommercialReport from './getCommercialReport.operation';
import * as getMultiBureauReport from './getMultiBureauReport.operation';
import { defineOperation } from '../operation';

export const operations = {
	getMultiBureauReport: defineOperation(getMultiBureauReport),
	getCommercialReport: defineOperation(getCommercialReport),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['creditReport'] } },
		options: [
			{
				name: 'Get Commercial Report',
				value: 'getCommercialReport',
				description: 'Get the credit report of a business as an HTML document',
				action: 'Get commercial report by PAN',
			},
			{
				name: 'Get Multi-Bureau Report',
				value: 'getMultiBureauReport',
				description:
					'Get the credit reports and scores of a person from one or more bureaus in one call',
				action: 'Get bureau credit reports',
			},
		],
		default: 'getMultiBureauReport',
	},
	...getMultiBureauReport.description,
	...getCommercialReport.description,
];
