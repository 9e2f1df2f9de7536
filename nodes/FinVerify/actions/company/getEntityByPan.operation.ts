import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENTITY_REQUIRED, normalizeEntity } from '../../helpers/normalize/company';
import { assertPan } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { decisionOutputFields, panField } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import type { DecideOptions, Decider } from '../../helpers/normalize/decision';
import { decidedRecord, decideOnFields, readDecideOn } from './decideOn';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { ENTITY_DECISION_VIEW, ENTITY_VIEW } from '../../helpers/normalize/simplified';
import { registryDecider } from '../../helpers/normalize/decision';

const properties: INodeProperties[] = [
	{
		...panField,
		description:
			'PAN of the company, LLP, trust or firm: 5 letters, 4 digits, 1 letter. Lowercase is accepted ' +
			'and uppercased.',
	},
	...decisionOutputFields,
	...decideOnFields('company.getEntityByPan'),
];

const displayOptions = { show: { resource: ['company'], operation: ['getEntityByPan'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: ENTITY_VIEW, decision: ENTITY_DECISION_VIEW };

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = registryDecider('company.getEntityByPan');

interface EntityRequest {
	pan: string;
	simplify: boolean;
	/** Decide On (version 3, normalized output). */
	decideOn?: DecideOptions;
}

export function read(this: IExecuteFunctions, itemIndex: number): EntityRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const simplify = isNormalizedOutput(this, itemIndex);
	return {
		pan: assertPan(ctx, this.getNodeParameter('pan', itemIndex, '')),
		simplify,
		decideOn: simplify ? readDecideOn(this, 'company.getEntityByPan', itemIndex) : undefined,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ pan, simplify, decideOn }: EntityRequest,
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
	return [
		{
			json: simplify ? decidedRecord(decider, normalizeEntity(response), decideOn) : response,
		},
	];
}
