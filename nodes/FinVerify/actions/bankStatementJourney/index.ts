import type { INodeProperties } from 'n8n-workflow';

import { previewNotice } from '../common.descriptions';

import * as getAnalysis from './getAnalysis.operation';
import * as getStatementResult from './getStatementResult.operation';
import * as getStatus from './getStatus.operation';
import * as start from './start.operation';
import * as wait from './wait.operation';
import { defineOperation } from '../operation';

export const operations = {
	start: defineOperation(start),
	getStatus: defineOperation(getStatus),
	getStatementResult: defineOperation(getStatementResult),
	getAnalysis: defineOperation(getAnalysis),
	wait: defineOperation(wait),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bankStatementJourney'] } },
		options: [
			{
				name: 'Get Analysis',
				value: 'getAnalysis',
				description:
					'Get the computed analysis of a finished journey: totals, income, obligations, flags',
				action: 'Get journey analysis',
			},
			{
				name: 'Get Statement Result',
				value: 'getStatementResult',
				description: 'Get the accounts and transactions fetched by a finished journey',
				action: 'Get journey statement',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Get the status of a journey, optionally waiting until it is final',
				action: 'Get journey status',
			},
			{
				name: 'Start Journey',
				value: 'start',
				description:
					'Start an account-aggregator consent journey and get its consent link (preview)',
				action: 'Start bank statement journey',
			},
			{
				name: 'Wait for Journey',
				value: 'wait',
				description:
					"Wait (in n8n, no worker held) until a journey started with this execution's resume URL " +
					'reports a final status',
				action: 'Wait for journey',
			},
		],
		default: 'start',
	},
	previewNotice('bankStatementJourney', ['start']),
	...start.description,
	...getStatus.description,
	...getStatementResult.description,
	...getAnalysis.description,
	...wait.description,
];
