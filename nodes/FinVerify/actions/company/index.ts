import type { INodeProperties } from 'n8n-workflow';

import * as getByCin from './getByCin.operation';
import * as getEntityByPan from './getEntityByPan.operation';
import * as getLlpByLlpin from './getLlpByLlpin.operation';
import * as searchByName from './searchByName.operation';
import { defineOperation } from '../operation';

export const operations = {
	getByCin: defineOperation(getByCin),
	getLlpByLlpin: defineOperation(getLlpByLlpin),
	getEntityByPan: defineOperation(getEntityByPan),
	searchByName: defineOperation(searchByName),
};

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
				description: 'Get company or LLP details by CIN or LLPIN',
				action: 'Get company by CIN or LLPIN',
			},
			{
				name: 'Get Entity by PAN',
				value: 'getEntityByPan',
				description: 'Get a company, LLP, trust or firm by its PAN',
				action: 'Get entity by PAN',
			},
			{
				name: 'Get LLP by LLPIN',
				value: 'getLlpByLlpin',
				description: 'Get limited liability partnership details by LLPIN',
				action: 'Get LLP by LLPIN',
			},
			{
				name: 'Search by Name',
				value: 'searchByName',
				description: 'Find companies and LLPs by full or partial name, one item per match',
				action: 'Search companies by name',
			},
		],
		default: 'getByCin',
	},
	...getByCin.description,
	...getLlpByLlpin.description,
	...getEntityByPan.description,
	...searchByName.description,
];
