import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LLP_REQUIRED, normalizeLlp } from '../../helpers/normalize/company';
import { assertLlpin } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { llpLocatorField, outputModeFields, isNormalizedOutput } from '../common.descriptions';

const properties: INodeProperties[] = [llpLocatorField, ...outputModeFields];

const displayOptions = { show: { resource: ['company'], operation: ['getLlpByLlpin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const ctx = { node: this.getNode(), itemIndex };
	const llpin = assertLlpin(
		ctx,
		this.getNodeParameter('llp', itemIndex, '', { extractValue: true }),
		'LLP (LLPIN)',
	);
	const simplify = isNormalizedOutput(this, itemIndex);

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
