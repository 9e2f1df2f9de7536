import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { normalizeCollectionSession } from '../../helpers/normalize/collectionSession';
import type { FieldContext } from '../../helpers/validation';
import {
	assertEmail,
	assertHttpUrl,
	assertOneOf,
	assertPositiveInteger,
	parseJsonObject,
	requireText,
} from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { outputModeFields, statusCallbackUrlField } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { completionOptionsField, waitForCompletionField } from '../../completion/fields';
import type { CompletionSupport } from '../../completion/putToWait';
import { readWaitMode, resumeUrl } from '../../completion/putToWait';
import {
	assertCanVerifyResumeCallback,
	assertWaitAfterCanBeCalledBack,
	isResumeUrl,
} from '../../completion/callbackUrl';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { SESSION_VIEW } from '../../helpers/normalize/simplified';

const FLOWS = ['itr', 'gst'] as const;

/** The longest a session link may stay usable: the service's maximum, 7 days (the contract's expires_in). */
export const MAX_EXPIRES_IN = 604_800;

/** The session flow, from the field or an expression in any case (ITR, Gst…). */
export function flowOf(ctx: FieldContext, value: unknown): (typeof FLOWS)[number] {
	const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
	const lowered = (FLOWS as readonly unknown[]).includes(text) ? text : value;
	return assertOneOf(ctx, lowered, 'Flow', FLOWS);
}

const properties: INodeProperties[] = [
	{
		displayName: 'Flow',
		name: 'flow',
		type: 'options',
		default: 'itr',
		required: true,
		// ITR / GST in capitals, as CRMs write them, are accepted from an expression
		allowArbitraryValues: true,
		options: [
			{ name: 'GST', value: 'gst', description: 'The recipient submits GST data' },
			{ name: 'ITR', value: 'itr', description: 'The recipient submits income-tax return data' },
		],
		description:
			'What the recipient is asked to submit through the hosted link. From an expression: itr or ' +
			'gst, any case.',
	},
	{
		displayName: 'Recipient Email',
		name: 'recipientEmail',
		type: 'string',
		placeholder: 'e.g. name@example.com',
		default: '',
		required: true,
		description: 'The hosted link is e-mailed to this address',
	},
	{
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		placeholder: 'e.g. https://example.com/thank-you',
		default: '',
		required: true,
		description: 'Where the recipient is sent after completing or leaving the session',
	},
	{
		...waitForCompletionField(
			['no', 'callback'],
			'Whether to output the created session at once or only once the recipient completed, abandoned ' +
				'or let it expire',
		),
		hint: "To send the hosted link yourself, choose Don't Wait and add Wait for Session after the node that sends it",
	},
	{
		...statusCallbackUrlField(
			{
				displayName: 'Callback URL',
				name: 'callbackUrl',
				required: true,
				description:
					'The service POSTs here when the session status changes (completed, abandoned, expired)',
			},
			'session',
		),
		displayOptions: { show: { waitForCompletion: ['no'] } },
	},
	completionOptionsField({ fetchResults: false }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Expires In (Seconds)',
				name: 'expiresIn',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_EXPIRES_IN },
				default: 86400,
				description:
					'How long the link stays usable, in seconds from now (86400 = 24 hours), at most 604800 (7 ' +
					'days, the service maximum). Without it the service uses its maximum.',
			},
			{
				displayName: 'Metadata (JSON)',
				name: 'metadata',
				type: 'json',
				default: '{}',
				description:
					'Key-value pairs kept with the session, as a JSON object, e.g. {"crm_id": "123"}',
			},
			{
				displayName: 'Recipient Name',
				name: 'recipientName',
				type: 'string',
				placeholder: 'e.g. Priya Sharma',
				default: '',
				description: 'Used to personalise the e-mail and the hosted page',
			},
			{
				displayName: 'Requester Name',
				name: 'requesterName',
				type: 'string',
				placeholder: 'e.g. Acme Finance',
				default: '',
				description: 'Who is asking for the data, shown on the hosted page',
			},
		],
	},
	...outputModeFields,
];

const displayOptions = { show: { resource: ['collectionSession'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: SESSION_VIEW };

interface CreateRequest {
	body: IDataObject;
	simplify: boolean;
	/**
	 * The Callback URL is this execution's resume URL given by the user (a later Wait for Session
	 * waits for the callback): the credential must be able to verify it before the session is created.
	 */
	callsBackHere: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): CreateRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const waitsHere = readWaitMode.call(this) === 'callback';
	const body: IDataObject = {
		flow: flowOf(ctx, this.getNodeParameter('flow', itemIndex, '')),
		redirect_url: assertHttpUrl(
			ctx,
			this.getNodeParameter('redirectUrl', itemIndex, ''),
			'Redirect URL',
		),
		callback_url: waitsHere
			? resumeUrl.call(this)
			: assertHttpUrl(ctx, this.getNodeParameter('callbackUrl', itemIndex, ''), 'Callback URL'),
		recipient_email: assertEmail(
			ctx,
			this.getNodeParameter('recipientEmail', itemIndex, ''),
			'Recipient Email',
		),
	};
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (fields.expiresIn !== undefined && fields.expiresIn !== '') {
		body.expires_in = assertPositiveInteger(ctx, fields.expiresIn, 'Expires In (Seconds)', {
			max: MAX_EXPIRES_IN,
			expected: `a whole number of seconds from 1 to ${MAX_EXPIRES_IN} (7 days), e.g. 86400 for 24 hours`,
		});
	}
	if (fields.metadata !== undefined) {
		const metadata = parseJsonObject(ctx, fields.metadata, 'Metadata (JSON)');
		if (Object.keys(metadata).length) body.metadata = metadata as IDataObject;
	}
	if (fields.recipientName)
		body.recipient_name = requireText(ctx, 'Recipient Name', fields.recipientName);
	if (fields.requesterName)
		body.requester_name = requireText(ctx, 'Requester Name', fields.requesterName);
	// a Wait for Session after this node needs the service to call this execution back
	assertWaitAfterCanBeCalledBack.call(this, 'session', itemIndex);
	return {
		body,
		simplify: isNormalizedOutput(this, itemIndex),
		// with Wait for Completion on callbacks the router checked the credential already
		callsBackHere: !waitsHere && isResumeUrl.call(this, body.callback_url),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ body, simplify, callsBackHere }: CreateRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// before the session exists: a callback to the resume URL must be verifiable, or the recipient
	// would hold a link that no execution can be resumed by
	if (callsBackHere) await assertCanVerifyResumeCallback.call(this, 'session', itemIndex);
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'collection/session/create',
		body,
		idempotent: false,
		requiredField: 'data.session_id|data.id|session_id|id',
		sendRefreshToken: true,
		itemIndex,
	});
	return [{ json: simplify ? normalizeCollectionSession(response) : response }];
}

/** With Wait for Completion on callbacks the Callback URL is the execution's resume URL. */
export const completion: CompletionSupport = {
	kind: 'session',
	operationName: 'Create Session',
	usesOwnCallbackUrl: () => false,
};
