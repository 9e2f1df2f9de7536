import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	JOURNEY_STATUS_REQUIRED,
	journeyStatusRequest,
	normalizeJourneyStart,
	normalizeJourneyStatus,
} from '../../helpers/normalize/journey';
import type { FieldContext } from '../../helpers/validation';
import {
	assertEmail,
	assertHttpUrl,
	assertMobile,
	assertOneOf,
	requireText,
} from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	extraBodyField,
	mobileNumberField,
	outputModeFields,
	readExtraBody,
	statusCallbackUrlField,
} from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { completionOptionsField, waitForCompletionField } from '../../completion/fields';
import type { Polling } from '../../completion/poll';
import { pollAfterStart, readPolling } from '../../completion/poll';
import type { CompletionSupport } from '../../completion/putToWait';
import { readWaitMode, resumeUrl } from '../../completion/putToWait';
import {
	assertCanVerifyResumeCallback,
	assertWaitAfterCanBeCalledBack,
	isResumeUrl,
} from '../../completion/callbackUrl';
import { idFromOutput } from '../../completion/waiting';
import { readClientId } from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { JOURNEY_START_VIEW } from '../../helpers/normalize/simplified';

/** Consent types: the field's option value and the value the service expects. */
const CONSENT_TYPES = {
	loanUnderwriting: 'loan_underwriting',
	loanMonitoring: 'loan_monitoring',
} as const;

/**
 * The service's consent_type for an option value (or for the service's own spelling, from an
 * expression).
 */
export function consentTypeOf(ctx: FieldContext, value: unknown): string {
	const api = Object.values(CONSENT_TYPES) as string[];
	if (typeof value === 'string' && api.includes(value)) return value;
	const key = assertOneOf(
		ctx,
		value,
		'Consent Type',
		Object.keys(CONSENT_TYPES) as Array<keyof typeof CONSENT_TYPES>,
	);
	return CONSENT_TYPES[key];
}

const properties: INodeProperties[] = [
	{
		...mobileNumberField,
		description:
			'Mobile number of the account holder; the consent request goes to it. 10 digits; +91 and ' +
			'spaces are accepted and normalized.',
	},
	{
		displayName: 'Consent Type',
		name: 'consentType',
		type: 'options',
		default: 'loanUnderwriting',
		// the service's own spelling (loan_underwriting) from an expression is accepted too
		allowArbitraryValues: true,
		options: [
			{
				name: 'Loan Monitoring',
				value: 'loanMonitoring',
				description: 'Ongoing monitoring of an existing loan',
			},
			{
				name: 'Loan Underwriting',
				value: 'loanUnderwriting',
				description: 'One-time look at the statements to decide on a loan',
			},
		],
		description:
			'Purpose of the data request, shown to the account holder on the consent screen. From an ' +
			"expression, the service's spelling is accepted too (loan_underwriting, loan_monitoring).",
	},
	{
		...waitForCompletionField(
			['no', 'callback', 'poll'],
			'Whether to output the started journey at once or only once it is final (analysis complete, ' +
				'consent denied, failed, expired)',
		),
		hint: "To send the consent link yourself, choose Don't Wait and add Wait for Journey after the node that sends it",
	},
	completionOptionsField({ fetchResults: true }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				...extraBodyField,
				description:
					'Further fields to send with the request, as a JSON object (for example {"auto_consent": ' +
					'true} on the sandbox). They never replace the fields above.',
			},
			{
				displayName: 'Customer Email',
				name: 'customerEmail',
				type: 'string',
				placeholder: 'e.g. name@example.com',
				default: '',
				description: 'E-mail address of the account holder',
			},
			{
				displayName: 'Customer Name',
				name: 'customerName',
				type: 'string',
				placeholder: 'e.g. Priya Sharma',
				default: '',
				description: 'Name of the account holder, shown on the consent screen',
			},
			{
				displayName: 'Redirect URL',
				name: 'redirectUrl',
				type: 'string',
				placeholder: 'e.g. https://example.com/consent-done',
				default: '',
				description: 'Where the account holder is sent after the consent screen',
			},
			statusCallbackUrlField(
				{
					displayName: 'Webhook URL',
					name: 'webhookUrl',
					description:
						'The service POSTs here on every journey status change. With Wait for Completion set to ' +
						'callbacks, leave it empty: a URL here means this item does not wait.',
				},
				'journey',
			),
		],
	},
	...outputModeFields,
];

const displayOptions = { show: { resource: ['bankStatementJourney'], operation: ['start'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: JOURNEY_START_VIEW };

interface StartRequest {
	body: IDataObject;
	/** The item has its own Webhook URL (then it does not wait for callbacks). */
	ownWebhookUrl: boolean;
	/**
	 * The item's own Webhook URL is this execution's resume URL (a later Wait for Journey waits for
	 * the callback): the credential must be able to verify it before the journey is created.
	 */
	callsBackHere: boolean;
	mobile: string;
	consentType: string;
	simplify: boolean;
	/** Wait for Completion By Polling; absent otherwise. */
	polling?: Polling;
}

export function read(this: IExecuteFunctions, itemIndex: number): StartRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const mobile = assertMobile(ctx, this.getNodeParameter('mobileNumber', itemIndex, ''));
	const consentType = consentTypeOf(ctx, this.getNodeParameter('consentType', itemIndex, ''));
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		...readExtraBody(ctx, fields.extraBody),
		mobile_number: mobile,
		consent_type: consentType,
	};
	const waitMode = readWaitMode.call(this);
	if (fields.webhookUrl) body.webhook_url = assertHttpUrl(ctx, fields.webhookUrl, 'Webhook URL');
	else if (waitMode === 'callback') body.webhook_url = resumeUrl.call(this);
	if (fields.redirectUrl)
		body.redirect_url = assertHttpUrl(ctx, fields.redirectUrl, 'Redirect URL');
	if (fields.customerName)
		body.customer_name = requireText(ctx, 'Customer Name', fields.customerName);
	if (fields.customerEmail)
		body.customer_email = assertEmail(ctx, fields.customerEmail, 'Customer Email');
	// a Wait for Journey after this node needs the service to call this execution back
	assertWaitAfterCanBeCalledBack.call(this, 'journey', itemIndex);
	return {
		body,
		ownWebhookUrl: Boolean(fields.webhookUrl),
		callsBackHere: Boolean(fields.webhookUrl) && isResumeUrl.call(this, body.webhook_url),
		mobile,
		consentType,
		simplify: isNormalizedOutput(this, itemIndex),
		polling: waitMode === 'poll' ? readPolling.call(this, itemIndex) : undefined,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ body, callsBackHere, mobile, consentType, simplify, polling }: StartRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// before the journey exists: a callback to the resume URL must be verifiable, or the customer
	// would hold a consent link that no execution can be resumed by
	if (callsBackHere) await assertCanVerifyResumeCallback.call(this, 'journey', itemIndex);
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'aa-bsa-journey/init',
		body,
		idempotent: false,
		requiredField: 'data.client_id|data.clientId|client_id|clientId',
		itemIndex,
	});
	const started = simplify
		? { ...normalizeJourneyStart(response), mobileNumber: mobile, consentType }
		: response;
	if (!polling) return [{ json: started }];

	const clientId = readClientId(
		{ node: this.getNode(), itemIndex },
		idFromOutput('journey', started),
	);
	const json = await pollAfterStart.call(
		this,
		itemIndex,
		polling,
		simplify,
		`Journey ${clientId}`,
		started,
		async () =>
			await apiRequest.call(this, {
				...policy,
				...journeyStatusRequest(clientId),
				requiredField: JOURNEY_STATUS_REQUIRED,
				itemIndex,
			}),
		normalizeJourneyStatus,
	);
	return [{ json }];
}

/**
 * Each journey started with Wait for Completion on callbacks waits, unless the item has its own
 * Webhook URL.
 */
export const completion: CompletionSupport<StartRequest> = {
	kind: 'journey',
	operationName: 'Start Journey',
	usesOwnCallbackUrl: (request) => request.ownWebhookUrl,
};
