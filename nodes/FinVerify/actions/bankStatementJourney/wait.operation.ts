import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { fetchJourneyResults } from '../../helpers/journeyResults';
import { journeyStatusRequest, normalizeJourneyStatus } from '../../helpers/normalize/journey';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { journeyClientIdField } from '../common.descriptions';
import { callbackWaitOptionsField } from '../../completion/fields';
import type { CompletionSupport } from '../../completion/putToWait';
import { journeyFinalFromLookup } from '../../completion/waiting';
import { readClientId } from './shared';

/**
 * Wait for Journey: the second step of "start, send the consent link, wait". The journey was started
 * (Start Journey, Don't Wait) with `{{ $execution.resumeUrl }}` as its Webhook URL; this operation
 * looks its status up once and, unless it is final already, puts the execution to wait until the
 * service's signed final callback for it arrives (the completion machinery of Wait for Completion).
 */
const properties: INodeProperties[] = [
	{
		...journeyClientIdField,
		hint: 'Start Journey must have Webhook URL {{ $execution.resumeUrl }}; send its journeyUrl before this node',
		description:
			'The clientId that Start Journey (Webhook URL: the resume URL) returned earlier in this execution',
	},
	callbackWaitOptionsField({ fetchResults: true }),
];

const displayOptions = { show: { resource: ['bankStatementJourney'], operation: ['wait'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface WaitRequest {
	clientId: string;
	/** Fetch Results When Complete. */
	fetchResults: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): WaitRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const options = this.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	return {
		clientId: readClientId(ctx, this.getNodeParameter('clientId', itemIndex, '')),
		fetchResults: options.fetchResults === true,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ clientId, fetchResults }: WaitRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// one lookup: an unknown id fails here, and a journey that finished before the wait (its final
	// callback met a running execution) is output at once instead of waiting for a call that is over
	const raw = await apiRequest.call(this, {
		...policy,
		...journeyStatusRequest(clientId),
		itemIndex,
	});
	const summary = normalizeJourneyStatus(raw);
	if (!summary.isFinal) return [{ json: { clientId, status: summary.status, isFinal: false } }];

	const json = journeyFinalFromLookup({}, clientId, summary, 0);
	if (fetchResults && summary.isSuccessful)
		Object.assign(json, await fetchJourneyResults.call(this, clientId));
	return [{ json }];
}

/** Every journey that is not final yet waits for its own final callback. */
export const completion: CompletionSupport = {
	kind: 'journey',
	operationName: 'Wait for Journey',
	alwaysWaits: true,
	usesOwnCallbackUrl: () => false,
};
