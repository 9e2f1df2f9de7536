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
	decisionOutputFields,
	normalizedOutputOnly,
} from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { EPFO_DECISION_VIEW, EPFO_VIEW } from '../../helpers/normalize/simplified';
import type { Decider } from '../../helpers/normalize/decision';
import { EPFO_DECIDER } from '../../helpers/normalize/decision';

const properties: INodeProperties[] = [
	{
		...mobileNumberField,
		description:
			"The member's 10-digit Indian mobile number, as registered with EPFO. Forms like +91 98765 " +
			'43210 are accepted and normalized.',
	},
	...decisionOutputFields,
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

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: EPFO_VIEW, decision: EPFO_DECISION_VIEW };

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = EPFO_DECIDER;

interface EpfoRequest {
	mobile: string;
	simplify: boolean;
	includePassbook: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): EpfoRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		mobile: assertMobile(ctx, this.getNodeParameter('mobileNumber', itemIndex, '')),
		simplify: isNormalizedOutput(this, itemIndex),
		includePassbook: options.includePassbook === true,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ mobile, simplify, includePassbook }: EpfoRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
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
	return [{ json: includePassbook ? { ...summary, passbook } : summary }];
}
