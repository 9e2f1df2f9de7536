import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { normalizeAnalysis } from '../../helpers/normalize/journey';
import { ANALYSIS_FACTS } from '../../helpers/answerFacts';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { journeyClientIdField, decisionOutputFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { readClientId } from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { ANALYSIS_DECISION_VIEW, ANALYSIS_VIEW } from '../../helpers/normalize/simplified';
import type { Decider } from '../../helpers/normalize/decision';
import { ANALYSIS_DECIDER } from '../../helpers/normalize/decision';

const properties: INodeProperties[] = [journeyClientIdField, ...decisionOutputFields];

const displayOptions = { show: { resource: ['bankStatementJourney'], operation: ['getAnalysis'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = {
	simplified: ANALYSIS_VIEW,
	decision: ANALYSIS_DECISION_VIEW,
};

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = ANALYSIS_DECIDER;

interface AnalysisRequest {
	clientId: string;
	simplify: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): AnalysisRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		clientId: readClientId(ctx, this.getNodeParameter('clientId', itemIndex, '')),
		simplify: isNormalizedOutput(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ clientId, simplify }: AnalysisRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'GET',
		path: 'aa-bsa-journey/analysis-json',
		qs: { client_id: clientId },
		requiredField: ANALYSIS_FACTS,
		itemIndex,
	});
	return [{ json: simplify ? normalizeAnalysis(response) : response }];
}
