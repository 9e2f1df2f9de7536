import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LLP_REQUIRED, normalizeLlp } from '../../helpers/normalize/company';
import { assertLlpin } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { llpLocatorField, decisionOutputFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';

const properties: INodeProperties[] = [llpLocatorField, ...decisionOutputFields];

const displayOptions = { show: { resource: ['company'], operation: ['getLlpByLlpin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface LlpRequest {
	llpin: string;
	simplify: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): LlpRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		llpin: assertLlpin(
			ctx,
			this.getNodeParameter('llp', itemIndex, '', { extractValue: true }),
			'LLP (LLPIN)',
		),
		simplify: isNormalizedOutput(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ llpin, simplify }: LlpRequest,
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
	return [{ json: simplify ? normalizeLlp(response) : response }];
}
