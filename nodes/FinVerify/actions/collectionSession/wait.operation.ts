import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertIdentifier } from '../../helpers/validation';
import { callbackWaitOptionsField } from '../../completion/fields';
import type { CompletionSupport } from '../../completion/putToWait';

/**
 * Wait for Session: the second step of "create, send the hosted link, wait". The session was created
 * (Create, Don't Wait) with `{{ $execution.resumeUrl }}` as its Callback URL; this operation puts the
 * execution to wait until the service's signed final callback for it arrives. The service has no
 * session status lookup, so nothing is sent here, and one session waits per execution.
 */
const properties: INodeProperties[] = [
	{
		displayName: 'Session ID',
		name: 'sessionId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. cs_5f2c0b7e9a1d4c3b',
		hint: 'Create must have Callback URL {{ $execution.resumeUrl }}; send its hostedUrl before this node',
		description:
			'The sessionId that Create (Callback URL: the resume URL) returned earlier in this execution',
	},
	callbackWaitOptionsField({ fetchResults: false }),
];

const displayOptions = { show: { resource: ['collectionSession'], operation: ['wait'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface WaitRequest {
	sessionId: string;
}

export function read(this: IExecuteFunctions, itemIndex: number): WaitRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		sessionId: assertIdentifier(
			ctx,
			this.getNodeParameter('sessionId', itemIndex, ''),
			'Session ID',
			'cs_5f2c0b7e9a1d4c3b',
		),
	};
}

/** Nothing to send: the item is the session the execution waits for. */
export async function execute({ sessionId }: WaitRequest): Promise<INodeExecutionData[]> {
	return [{ json: { sessionId, status: null, isFinal: false } }];
}

/** The session waits for its own final callback. */
export const completion: CompletionSupport = {
	kind: 'session',
	operationName: 'Wait for Session',
	alwaysWaits: true,
	usesOwnCallbackUrl: () => false,
};
