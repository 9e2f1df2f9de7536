import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LLP_REQUIRED, normalizeLlp } from '../../helpers/normalize/company';
import { assertLlpin } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { llpLocatorField, decisionOutputFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import type { DecideOptions, Decider } from '../../helpers/normalize/decision';
import { decidedRecord, decideOnFields, readDecideOn } from './decideOn';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { LLP_VIEW, V3_LLP_VIEW } from '../../helpers/normalize/simplified';
import { registryDecider } from '../../helpers/normalize/decision';

const properties: INodeProperties[] = [
	llpLocatorField,
	...decisionOutputFields,
	...decideOnFields('company.getLlpByLlpin'),
];

const displayOptions = { show: { resource: ['company'], operation: ['getLlpByLlpin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: LLP_VIEW, decision: V3_LLP_VIEW };

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = registryDecider('company.getLlpByLlpin');

interface LlpRequest {
	llpin: string;
	simplify: boolean;
	/** Decide On (version 3, normalized output). */
	decideOn?: DecideOptions;
}

export function read(this: IExecuteFunctions, itemIndex: number): LlpRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const simplify = isNormalizedOutput(this, itemIndex);
	return {
		llpin: assertLlpin(
			ctx,
			this.getNodeParameter('llp', itemIndex, '', { extractValue: true }),
			'LLP (LLPIN)',
		),
		simplify,
		decideOn: simplify ? readDecideOn(this, 'company.getLlpByLlpin', itemIndex) : undefined,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ llpin, simplify, decideOn }: LlpRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'corporate/llpin-lookup',
		body: { llpin },
		requiredField: LLP_REQUIRED,
		itemIndex,
	});
	return [
		{
			json: simplify ? decidedRecord(decider, normalizeLlp(response), decideOn) : response,
		},
	];
}
