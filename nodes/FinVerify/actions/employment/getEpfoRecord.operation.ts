import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { EPFO_REQUIRED, normalizeEpfo } from '../../helpers/normalize/employment';
import { assertMobile } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	mobileNumberField,
	outputModeFields,
	isNormalizedOutput,
	normalizedOutputOnly,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		...mobileNumberField,
		description:
			"The member's 10-digit Indian mobile number, as registered with EPFO. Forms like +91 98765 " +
			'43210 are accepted and normalized.',
	},
	...outputModeFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: normalizedOutputOnly,
		options: [
			{
				displayName: 'Include Passbook',
				name: 'includePassbook',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the month-by-month passbook entries (employee, employer and pension shares) ' +
					'in a passbook field',
			},
		],
	},
];

const displayOptions = { show: { resource: ['employment'], operation: ['getEpfoRecord'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const ctx = { node: this.getNode(), itemIndex };
	const mobile = assertMobile(ctx, this.getNodeParameter('mobileNumber', itemIndex, ''));
	const simplify = isNormalizedOutput(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'epfo-combined/fetch',
		body: { mobile_number: mobile },
		requiredField: EPFO_REQUIRED,
		itemIndex,
	});
	if (!simplify) return [{ json: response }];
	const { passbook, ...summary } = normalizeEpfo(response, mobile);
	return [{ json: options.includePassbook === true ? { ...summary, passbook } : summary }];
}
