import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENTITY_REQUIRED, normalizeEntity } from '../../helpers/normalize/company';
import { assertPan } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { decisionOutputFields, panField } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';

const properties: INodeProperties[] = [
	{
		...panField,
		description:
			'PAN of the company, LLP, trust or firm: 5 letters, 4 digits, 1 letter. Lowercase is accepted ' +
			'and uppercased.',
	},
	...decisionOutputFields,
];

const displayOptions = { show: { resource: ['company'], operation: ['getEntityByPan'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface EntityRequest {
	pan: string;
	simplify: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): EntityRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		pan: assertPan(ctx, this.getNodeParameter('pan', itemIndex, '')),
		simplify: isNormalizedOutput(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ pan, simplify }: EntityRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'corporate/pan-lookup',
		body: { pan },
		requiredField: ENTITY_REQUIRED,
		itemIndex,
	});
	return [{ json: simplify ? normalizeEntity(response) : response }];
}
