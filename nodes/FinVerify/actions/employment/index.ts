import type { INodeProperties } from 'n8n-workflow';

import * as getEpfoRecord from './getEpfoRecord.operation';
import * as getEpfoRecordWithCredit from './getEpfoRecordWithCredit.operation';
import { defineOperation } from '../operation';

export const operations = {
	getEpfoRecord: defineOperation(getEpfoRecord),
	getEpfoRecordWithCredit: defineOperation(getEpfoRecordWithCredit),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['employment'] } },
		options: [
			{
				name: 'Get EPFO Record',
				value: 'getEpfoRecord',
				description:
					'Get the provident-fund member profile, employers and contributions linked to a mobile number',
				action: 'Get EPFO record by mobile',
			},
			{
				name: 'Get EPFO Record with Credit Report',
				value: 'getEpfoRecordWithCredit',
				description:
					'Get the EPFO employment record and a CRIF credit report for a mobile number in one call; ' +
					'partial answers are flagged, not failed',
				action: 'Get EPFO and credit by mobile',
			},
		],
		default: 'getEpfoRecord',
	},
	...getEpfoRecord.description,
	...getEpfoRecordWithCredit.description,
];
