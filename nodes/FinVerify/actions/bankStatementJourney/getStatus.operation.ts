import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	JOURNEY_STATUS_REQUIRED,
	journeyStatusRequest,
	normalizeJourneyStatus,
} from '../../helpers/normalize/journey';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { journeyClientIdField, outputModeFields } from '../common.descriptions';
import { readClientId } from './shared';
import type { StatusRequest } from '../../completion/finalStatus';
import {
	readStatusRequest,
	statusOutput,
	waitForFinalStatusField,
	waitOptionsField,
} from '../../completion/finalStatus';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { JOURNEY_STATUS_VIEW } from '../../helpers/normalize/simplified';

const properties: INodeProperties[] = [
	journeyClientIdField,
	waitForFinalStatusField(
		'Wait for a Final Status',
		'Whether to keep polling (no faster than every 5 seconds) until the journey is ' +
			'analysis_complete, consent_denied, failed or expired',
	),
	waitOptionsField,
	...outputModeFields,
];

const displayOptions = { show: { resource: ['bankStatementJourney'], operation: ['getStatus'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: JOURNEY_STATUS_VIEW };

interface JourneyStatusRequest extends StatusRequest {
	clientId: string;
}

export function read(this: IExecuteFunctions, itemIndex: number): JourneyStatusRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		clientId: readClientId(ctx, this.getNodeParameter('clientId', itemIndex, '')),
		...readStatusRequest.call(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ clientId, ...status }: JourneyStatusRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await statusOutput.call(
		this,
		itemIndex,
		status,
		`Journey ${clientId}`,
		async () =>
			await apiRequest.call(this, {
				...policy,
				...journeyStatusRequest(clientId),
				requiredField: JOURNEY_STATUS_REQUIRED,
				itemIndex,
			}),
		normalizeJourneyStatus,
	);
}
