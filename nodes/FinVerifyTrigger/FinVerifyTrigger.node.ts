import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { FinVerifyCredentials } from '../FinVerify/transport';
import { checkDelivery, DEFAULT_DEDUPE_WINDOW_MINUTES, deliveryKey, readSeen } from './dedupe';
import { DEFAULT_HEADERS, triggerProperties } from './description';
import type { EventFilter, EventType } from './events';
import { applyFilter, normaliseEvent, parseJsonBody } from './events';
import { fetchJourneyResults } from './results';
import { FAILURE_MESSAGES, headerValue, verifySignature, verifyToken } from './signature';

type Verification = 'hmacSignature' | 'urlToken' | 'none';

interface TriggerOptions {
	dedupeWindowMinutes?: number;
	idHeader?: string;
	eventHeader?: string;
	signatureHeader?: string;
	timestampHeader?: string;
	toleranceSeconds?: number;
}

const CREDENTIAL = 'finVerifyApi';

/** Static data key of the delivery ids seen recently (see dedupe.ts). */
const SEEN_KEY = 'recentDeliveries';

/**
 * Answers the request directly. Every answer of this trigger is written here, so n8n never adds its
 * default body; `noWebhookResponse` tells n8n the response is done.
 */
function respond(this: IWebhookFunctions, status: number, body: IDataObject): void {
	const res = this.getResponseObject();
	if (!res.headersSent) res.status(status).json(body);
}

/**
 * Configuration that cannot work is refused when the workflow is published (and when a test
 * listener starts), instead of answering every delivery with 401.
 */
async function assertConfigured(this: IHookFunctions): Promise<void> {
	const verification = this.getNodeParameter('verification', 'hmacSignature') as Verification;
	if (verification === 'hmacSignature') {
		const credentials = (await this.getCredentials(CREDENTIAL)) as FinVerifyCredentials;
		if (!credentials.webhookSecret) {
			throw new NodeOperationError(this.getNode(), 'The FinVerify credential has no Webhook Signing Secret', {
				description:
					'HMAC Signature verification needs the signing secret of your account. Add it to the credential, or choose another Verification.',
			});
		}
	}
	if (verification === 'urlToken' && !(this.getNodeParameter('token', '') as string)) {
		throw new NodeOperationError(this.getNode(), 'Secret Token in URL needs a Token', {
			description: 'Enter a long random token and add ?token=<token> to the URL you give the service.',
		});
	}
}

export class FinVerifyTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FinVerify Trigger',
		name: 'finVerifyTrigger',
		icon: { light: 'file:../../icons/finverify.svg', dark: 'file:../../icons/finverify.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Events: " + ($parameter["events"] || []).join(", ")}}',
		description:
			'Starts the workflow when a bank statement journey or a collection session changes status',
		defaults: { name: 'FinVerify Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'finVerifyApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// the node writes every answer itself (noWebhookResponse); 'noData' keeps n8n from ever
				// sending its default body ("firstEntryJson") should a path not answer
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'finverify',
			},
		],
		properties: triggerProperties,
	};

	webhookMethods = {
		default: {
			// The service has no API to register webhooks: the user pastes the URL into each journey or
			// session. These methods only validate the configuration and remember the URL locally.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await assertConfigured.call(this);
				const staticData = this.getWorkflowStaticData('node');
				return staticData.webhookUrl === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await assertConfigured.call(this);
				const staticData = this.getWorkflowStaticData('node');
				staticData.webhookUrl = this.getNodeWebhookUrl('default');
				staticData.activatedAt = new Date().toISOString();
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node');
				delete staticData.webhookUrl;
				delete staticData.activatedAt;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const verification = this.getNodeParameter('verification', 'hmacSignature') as Verification;
		const options = this.getNodeParameter('options', {}) as TriggerOptions;
		const headers = this.getHeaderData() as IDataObject;
		const header = (name: string | undefined, fallback: string) =>
			headerValue(headers[(name?.trim() || fallback).toLowerCase()]);
		const rawBody = this.getRequestObject().rawBody as Buffer | undefined;
		const nowMs = Date.now();
		const refuse = (status: number, body: IDataObject): IWebhookResponseData => {
			respond.call(this, status, body);
			return { noWebhookResponse: true };
		};

		// 1. Authenticity, before anything is read from the body
		if (verification === 'hmacSignature') {
			const credentials = (await this.getCredentials(CREDENTIAL)) as FinVerifyCredentials;
			if (!credentials.webhookSecret) {
				throw new NodeOperationError(this.getNode(), 'The FinVerify credential has no Webhook Signing Secret');
			}
			const result = verifySignature({
				rawBody,
				signature: header(options.signatureHeader, DEFAULT_HEADERS.signature),
				timestamp: header(options.timestampHeader, DEFAULT_HEADERS.timestamp),
				secret: credentials.webhookSecret,
				toleranceSeconds: options.toleranceSeconds,
				nowMs,
			});
			if (!result.valid) {
				return refuse(401, { error: 'unauthorized', reason: result.reason, message: FAILURE_MESSAGES[result.reason] });
			}
		} else if (verification === 'urlToken') {
			const expected = this.getNodeParameter('token', '') as string;
			if (!expected) throw new NodeOperationError(this.getNode(), 'Secret Token in URL needs a Token');
			if (!verifyToken((this.getQueryData() as IDataObject).token, expected)) {
				return refuse(401, { error: 'unauthorized', reason: 'invalid_token', message: FAILURE_MESSAGES.invalid_token });
			}
		}

		// 2. A journey or session event?
		const parsed = parseJsonBody(rawBody, this.getBodyData());
		if (!parsed.ok) return refuse(400, { error: 'bad_request', reason: parsed.reason, message: parsed.message });
		const normalised = normaliseEvent(parsed.body, {
			eventHeader: header(options.eventHeader, DEFAULT_HEADERS.event),
			deliveryId: header(options.idHeader, DEFAULT_HEADERS.id),
			timestamp: header(options.timestampHeader, DEFAULT_HEADERS.timestamp),
			nowMs,
		});
		if (!normalised.ok) {
			return refuse(400, { error: 'bad_request', reason: normalised.reason, message: normalised.message });
		}
		const event = normalised.event;

		// 3. Seen before? (redelivery after a timeout, or a replay of a captured request)
		const windowMinutes = options.dedupeWindowMinutes ?? DEFAULT_DEDUPE_WINDOW_MINUTES;
		const key = deliveryKey(event.deliveryId, rawBody);
		if (windowMinutes > 0 && key) {
			const staticData = this.getWorkflowStaticData('node');
			const { duplicate, seen } = checkDelivery(readSeen(staticData[SEEN_KEY]), key, nowMs, windowMinutes * 60_000);
			staticData[SEEN_KEY] = seen as unknown as IDataObject[];
			if (duplicate) {
				return refuse(200, { received: true, duplicate: true, message: 'duplicate, ignored' });
			}
		}

		// 4. Wanted?
		const filter: EventFilter = {
			events: this.getNodeParameter('events', ['journey', 'session']) as EventType[],
			statusFilter: this.getNodeParameter('statusFilter', 'all') as EventFilter['statusFilter'],
			statuses: this.getNodeParameter('statuses', []) as string[],
		};
		const decision = applyFilter(event, filter);
		if (!decision.pass) {
			return refuse(200, { received: true, ignored: true, reason: decision.reason });
		}

		// 5. Accepted: answer now, so the sender does not wait for the result downloads
		respond.call(this, 200, { received: true });
		const item: IDataObject = { ...event };
		const fetchResults = this.getNodeParameter('fetchResults', false) as boolean;
		if (fetchResults && event.type === 'journey' && event.status === 'analysis_complete') {
			Object.assign(item, await fetchJourneyResults.call(this, event.id));
		}
		return { noWebhookResponse: true, workflowData: [this.helpers.returnJsonArray([item])] };
	}
}
