import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeBaseDescription,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, VersionedNodeType } from 'n8n-workflow';

import type { FinVerifyCredentials } from '../FinVerify/transport';
import { maskPersonalData, personalDataField } from '../FinVerify/helpers/personalData';
import { CREDENTIAL_TYPE } from '../shared/constants';
import {
	claimInProcess,
	clearInProcess,
	DEFAULT_DEDUPE_WINDOW_MINUTES,
	deliveryKey,
	releaseInProcess,
} from './dedupe';
import { isUnanswered, markAnswered, markUnanswered } from '../shared/unanswered';
import { releaseClaim } from '../FinVerify/actions/triggerDelivery/completion';
import {
	forgetSecrets,
	requiredSigningSecret,
	verifyWithSigningSecret,
} from '../shared/signingSecret';
import type { EventFilter, EventType } from '../shared/events';
import { applyFilter, eventOwnTime, normalizeEvent, parseJsonBody } from '../shared/events';
import { fetchJourneyResults, fetchResultsField } from '../FinVerify/helpers/journeyResults';
import {
	DEFAULT_SIGNATURE_HEADERS,
	FAILURE_MESSAGES,
	headerValue,
	verifySignature,
	verifyToken,
} from '../shared/signature';
import {
	TRIGGER_DEFAULT_VERSION,
	TRIGGER_FROM_VERSION_1_2,
	TRIGGER_VERSIONS,
	triggerAnswersWhenFinished,
	triggerMasksPersonalData,
} from '../shared/versions';

type Verification = 'hmacSignature' | 'urlToken' | 'none';

interface TriggerOptions {
	dedupeWindowMinutes?: number;
	idHeader?: string;
	eventHeader?: string;
	signatureHeader?: string;
	timestampHeader?: string;
	toleranceSeconds?: number;
}

/**
 * What n8n answers to an accepted delivery once it created the execution. A plain value, not an
 * expression: n8n would start its expression engine for it on every delivery.
 */
const ACCEPTED_ANSWER = { received: true };

/** Seconds a copy of a delivery still being processed is asked to wait before it is sent again (version 1.3). */
const IN_PROGRESS_RETRY_AFTER_S = 30;

/** Where this trigger's in-memory records (recent deliveries, signing secret) are kept. */
function triggerScope(this: IHookFunctions | IWebhookFunctions): string {
	return `${this.getWorkflow().id}:${this.getNode().id}:`;
}

/**
 * Answers a delivery that starts no execution (rejected, duplicate, filtered out) directly;
 * `noWebhookResponse` tells n8n the response is done. An accepted delivery is answered by n8n
 * itself, once it has created the execution (see `webhooks` in the description).
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
		const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as FinVerifyCredentials;
		if (!credentials.webhookSecret) {
			throw new NodeOperationError(
				this.getNode(),
				'The FinVerify credential has no Webhook Signing Secret',
				{
					description:
						'HMAC Signature verification needs the signing secret of your account. Add it to the ' +
						'credential, or choose another Verification.',
				},
			);
		}
	}
	// a filter that lets nothing through would acknowledge and drop every delivery without a trace
	const events = this.getNodeParameter('events', []) as unknown;
	if (Array.isArray(events) && events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'No Events are selected', {
			description:
				'Choose Journey Status Changed, Session Status Changed or both; otherwise every delivery is ' +
				'ignored.',
		});
	}
	const statuses = this.getNodeParameter('statuses', []) as unknown;
	if (
		this.getNodeParameter('statusFilter', 'all') === 'selected' &&
		Array.isArray(statuses) &&
		statuses.length === 0
	) {
		throw new NodeOperationError(this.getNode(), 'Selected Statuses needs at least one status', {
			description:
				'Choose the statuses that should start the workflow under Statuses, or set Status Filter to ' +
				'All Statuses.',
		});
	}
	if (verification === 'urlToken' && !(this.getNodeParameter('token', '') as string)) {
		throw new NodeOperationError(this.getNode(), 'Secret Token in URL needs a Token', {
			description:
				'Enter a long random token and add ?token= followed by it to the URL you give the service.',
		});
	}
}

const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Copy the Production URL from "Webhook URLs" above. Paste it as the Webhook URL when you ' +
			'start a bank statement journey, and as the Callback URL when you create a collection ' +
			'session (FinVerify node or API). The service has no API to register webhooks, so nothing ' +
			'is registered for you; the URL receives events once this workflow is published.',
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: [
			{
				name: 'Journey Status Changed',
				value: 'journey',
				description: 'A bank statement (account-aggregator) journey changed status',
			},
			{
				name: 'Session Status Changed',
				value: 'session',
				description: 'A hosted collection session changed status',
			},
		],
		default: ['journey', 'session'],
		description: 'Which notifications start the workflow; others are acknowledged and ignored',
	},
	{
		displayName: 'Status Filter',
		name: 'statusFilter',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'All Statuses', value: 'all', description: 'Every status change' },
			{
				name: 'Only Final Statuses',
				value: 'finalOnly',
				description:
					'Journeys: analysis complete, consent denied, failed, expired. Sessions: completed, ' +
					'expired, abandoned.',
			},
			{
				name: 'Selected Statuses',
				value: 'selected',
				description: 'Only the statuses chosen below',
			},
		],
		default: 'all',
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		// required while shown: with Selected Statuses and none chosen, the editor marks the field
		required: true,
		options: [
			{
				name: 'Journey: Analysis Complete',
				value: 'journey:analysis_complete',
				description:
					'Final: statement result and analysis are ready (some deliveries say "completed" instead)',
			},
			{
				name: 'Journey: Consent Denied',
				value: 'journey:consent_denied',
				description: 'Final: the customer declined consent',
			},
			{
				name: 'Journey: Consent Granted',
				value: 'journey:consent_granted',
				description: 'Consent given, bank data being fetched',
			},
			{
				name: 'Journey: Consent Pending',
				value: 'journey:consent_pending',
				description: 'Consent link opened, consent not finished',
			},
			{
				name: 'Journey: Data Fetched',
				value: 'journey:data_fetched',
				description: 'Bank data fetched, analysis being generated',
			},
			{
				name: 'Journey: Expired',
				value: 'journey:expired',
				description: 'Final: the journey expired before consent was completed',
			},
			{
				name: 'Journey: Failed',
				value: 'journey:failed',
				description: 'Final: system or network error',
			},
			{
				name: 'Journey: Initiated',
				value: 'journey:initiated',
				description: 'Journey created, consent link not yet opened',
			},
			{
				name: 'Session: Abandoned',
				value: 'session:abandoned',
				description: 'Final: the recipient left without submitting',
			},
			{
				name: 'Session: Completed',
				value: 'session:completed',
				description: 'Final: the recipient submitted their data',
			},
			{
				name: 'Session: Created',
				value: 'session:created',
				description: 'Session created and link emailed',
			},
			{
				name: 'Session: Expired',
				value: 'session:expired',
				description: 'Final: the link expired unused',
			},
		],
		default: [],
		description:
			'Status changes that start the workflow; any other status is acknowledged and ignored',
		displayOptions: { show: { statusFilter: ['selected'] } },
	},
	{
		displayName: 'Verification',
		name: 'verification',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'HMAC Signature',
				value: 'hmacSignature',
				description:
					'Checks the sha256 HMAC the service sends, with the Webhook Signing Secret of the ' +
					'credential',
			},
			{
				name: 'None',
				value: 'none',
				description: 'Accept every request (not recommended)',
			},
			{
				name: 'Secret Token in URL',
				value: 'urlToken',
				description:
					'Checks a ?token= query parameter you add to the URL; works with senders that do not sign',
			},
		],
		default: 'hmacSignature',
		description:
			'How the trigger checks that a request really comes from the service. Failed checks get a ' +
			'401 and start nothing.',
	},
	{
		displayName:
			'Anyone who knows this URL can start the workflow with made-up events. Use HMAC Signature ' +
			'or Secret Token in URL unless the URL is not reachable from outside.',
		name: 'noVerificationNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { verification: ['none'] } },
	},
	{
		displayName: 'Token',
		name: 'token',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'A long random value. Add it to the URL you paste into the service: &lt;Production ' +
			'URL&gt;?token=&lt;this value&gt;.',
		displayOptions: { show: { verification: ['urlToken'] } },
	},
	fetchResultsField,
	{
		...personalDataField,
		description:
			'Whether PAN, mobile, account numbers, e-mail and date of birth in the event and the ' +
			'fetched results appear in full in the item (and so in the saved execution). Aadhaar is ' +
			'always masked.',
		displayOptions: { show: TRIGGER_FROM_VERSION_1_2 },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Deduplication Window (Minutes)',
				name: 'dedupeWindowMinutes',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 60,
				description:
					'A delivery whose event (its signed ID, or its signed content) was already received ' +
					'within this window is acknowledged and ignored. 0 turns deduplication off.',
			},
			{
				displayName: 'Delivery ID Header',
				name: 'idHeader',
				type: 'string',
				default: 'X-Webhook-Id',
				description:
					'Header carrying the delivery ID, shown as deliveryId when the body has no ID ' +
					'(deduplication uses signed content only)',
			},
			{
				displayName: 'Event Header',
				name: 'eventHeader',
				type: 'string',
				default: 'X-Webhook-Event',
				description: 'Header carrying the event name, used when the body has no "event" field',
			},
			{
				displayName: 'Signature Header',
				name: 'signatureHeader',
				type: 'string',
				default: 'X-Webhook-Signature',
				description: 'Header carrying sha256=&lt;hex HMAC&gt;',
				displayOptions: { show: { '/verification': ['hmacSignature'] } },
			},
			{
				displayName: 'Timestamp Header',
				name: 'timestampHeader',
				type: 'string',
				default: 'X-Webhook-Timestamp',
				description:
					'Header carrying the unix time (seconds) that is signed together with the body',
				displayOptions: { show: { '/verification': ['hmacSignature'] } },
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 300,
				description:
					'Signed requests whose timestamp differs from now by more than this are rejected (replay ' +
					'protection). 0 turns the check off.',
				displayOptions: { show: { '/verification': ['hmacSignature'] } },
			},
		],
	},
];

/**
 * How n8n answers an accepted delivery (deliveries that start no execution are answered by the node: 401, 400,
 * duplicate, ignored). Fixed per version, never an expression: n8n would evaluate it on every delivery.
 * - Before 1.3, when n8n created the execution (as n8n's Webhook node): a 2xx means the execution exists.
 * - From 1.3, when the workflow has finished (or reached a wait): a 2xx means the workflow ran to its end, and a
 *   workflow that failed is answered 500 by n8n, so the sender sends the delivery again. A crash of n8n leaves
 *   the delivery unanswered, and the sender's re-send is processed after the restart (docs/trigger.md).
 */
function triggerWebhooks(version: number): IWebhookDescription[] {
	return [
		{
			name: 'default',
			httpMethod: 'POST',
			...(triggerAnswersWhenFinished(version)
				? { responseMode: 'lastNode', responseData: 'noData' }
				: // n8n sends an object as JSON (a string would be sent as text)
					{ responseMode: 'onReceived', responseData: ACCEPTED_ANSWER as unknown as string }),
			path: 'finverify',
		},
	];
}

/**
 * One version of the trigger. 1.1 behaves as 1: n8n 2.41.1 evaluates an expression (its Webhook node v1's
 * binaryData option) for every delivery to a version-1 start node (docs/trigger.md). 1.2 masks personal data in
 * the item by default; 1.3 answers the sender when the workflow has finished (nodes/shared/versions.ts).
 */
class FinVerifyTriggerVersion implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FinVerify Trigger',
		name: 'finVerifyTrigger',
		icon: { light: 'file:../../icons/finverify.svg', dark: 'file:../../icons/finverify.dark.svg' },
		group: ['trigger'],
		version: TRIGGER_VERSIONS.filter((v) => !triggerAnswersWhenFinished(v)),
		defaultVersion: TRIGGER_DEFAULT_VERSION,
		subtitle: '={{"Events: " + ($parameter["events"] || []).join(", ")}}',
		// n8n's nodes panel shows the trigger's description for the merged FinVerify entry, so it
		// describes both
		description:
			'Verify people and businesses in India (credit, company registry, EPFO, ITR, bank ' +
			'statements); the trigger starts a workflow when a journey or collection session changes ' +
			'status',
		defaults: { name: 'FinVerify Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'finVerifyApi', required: true }],
		webhooks: triggerWebhooks(1.2),
		properties: triggerProperties,
	};

	/** Without a version: 1, 1.1 and 1.2 (answered on receipt); with one that answers when finished: that one. */
	constructor(version?: number) {
		if (version !== undefined)
			this.description = { ...this.description, version, webhooks: triggerWebhooks(version) };
	}

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
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				clearInProcess(triggerScope.call(this));
				forgetSecrets(triggerScope.call(this));
				const staticData = this.getWorkflowStaticData('node');
				delete staticData.webhookUrl;
				delete staticData.activatedAt; // stored (and never read) by 0.1.0
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
		// Both answer the sender directly and start no execution: `reject` with an error status (not
		// authentic, not an event, still being processed), `ignore` with 200 (a duplicate, or filtered out) so it is not
		// re-sent.
		const reject = (status: 400 | 401 | 503, body: IDataObject): IWebhookResponseData => {
			respond.call(this, status, body);
			return { noWebhookResponse: true };
		};
		const ignore = (body: IDataObject): IWebhookResponseData => {
			respond.call(this, 200, { received: true, ...body });
			return { noWebhookResponse: true };
		};

		// 1. Authenticity, before anything is read from the body
		if (verification === 'hmacSignature') {
			const check = (secret: string) =>
				verifySignature({
					rawBody,
					signature: header(options.signatureHeader, DEFAULT_SIGNATURE_HEADERS.signature),
					timestamp: header(options.timestampHeader, DEFAULT_SIGNATURE_HEADERS.timestamp),
					secret,
					toleranceSeconds: options.toleranceSeconds,
					nowMs,
				});
			const result = await verifyWithSigningSecret.call(this, nowMs, check, requiredSigningSecret);
			if (!result.valid) {
				return reject(401, {
					error: 'unauthorized',
					reason: result.reason,
					message: FAILURE_MESSAGES[result.reason],
				});
			}
		} else if (verification === 'urlToken') {
			const expected = this.getNodeParameter('token', '') as string;
			if (!expected)
				throw new NodeOperationError(this.getNode(), 'Secret Token in URL needs a Token');
			if (!verifyToken((this.getQueryData() as IDataObject).token, expected)) {
				return reject(401, {
					error: 'unauthorized',
					reason: 'invalid_token',
					message: FAILURE_MESSAGES.invalid_token,
				});
			}
		}

		// 2. A journey or session event?
		const parsed = parseJsonBody(rawBody, this.getBodyData());
		if (!parsed.ok)
			return reject(400, { error: 'bad_request', reason: parsed.reason, message: parsed.message });
		const normalized = normalizeEvent(parsed.body, {
			eventHeader: header(options.eventHeader, DEFAULT_SIGNATURE_HEADERS.event),
			deliveryId: header(options.idHeader, DEFAULT_SIGNATURE_HEADERS.id),
			timestamp: header(options.timestampHeader, DEFAULT_SIGNATURE_HEADERS.timestamp),
			nowMs,
		});
		if (!normalized.ok) {
			return reject(400, {
				error: 'bad_request',
				reason: normalized.reason,
				message: normalized.message,
			});
		}
		const event = normalized.event;

		// 3. Seen before? (redelivery after a timeout, a retry signed anew, or a replay of a captured request)
		// Keyed on the event itself: the body's signed event id, else the event's own fields (never the
		// signature's timestamp, which a sender may renew on every attempt).
		const windowMinutes = Number(options.dedupeWindowMinutes ?? DEFAULT_DEDUPE_WINDOW_MINUTES);
		const answersWhenFinished = triggerAnswersWhenFinished(this.getNode().typeVersion);
		const key = deliveryKey(parsed.body.id, {
			type: event.type,
			id: event.id,
			status: event.status,
			previousStatus: event.previousStatus,
			ownTime: eventOwnTime(parsed.body),
		});
		if (windowMinutes > 0 && key) {
			const windowMs = windowMinutes * 60_000;
			const scope = triggerScope.call(this);
			// the claim is synchronous: of simultaneous copies, exactly one gets through. The record is
			// in this n8n process's memory only: n8n does not save static data that a webhook call which
			// starts an execution changed (docs/trigger.md), so a restart forgets it.
			if (!claimInProcess(scope, key, nowMs, windowMs)) {
				// version 1.3: the first copy's workflow has not finished; were it to crash or fail, a 200 to
				// this copy would lose the delivery, so the sender is asked to come back
				if (answersWhenFinished && isUnanswered(scope, key, nowMs)) {
					const res = this.getResponseObject();
					res.setHeader('Retry-After', String(IN_PROGRESS_RETRY_AFTER_S));
					return reject(503, {
						received: false,
						inProgress: true,
						message:
							'This event is being processed; send it again later (its first delivery is answered when its workflow has finished)',
					});
				}
				return ignore({ duplicate: true, message: 'duplicate, ignored' });
			}
			if (answersWhenFinished) markUnanswered(scope, key, nowMs);
			// n8n answers after creating the execution (from 1.3: after the workflow finished); an error answer
			// (it could not, or the workflow failed) frees the key, so the sender's retry is accepted instead of
			// being taken for a duplicate, and, from 1.3, frees the claim a Process Once of the failed execution
			// holds on the same key. A sender that hung up before any answer keeps the key claimed: n8n still
			// goes on with the execution.
			const res = this.getResponseObject();
			const workflowId = this.getWorkflow().id;
			res.once('close', () => {
				if (!res.headersSent) return;
				if (answersWhenFinished) markAnswered(scope, key);
				if (res.statusCode < 200 || res.statusCode >= 300) {
					releaseInProcess(scope, key);
					if (answersWhenFinished && workflowId) releaseClaim(workflowId, key);
				}
			});
		}

		// 4. Wanted?
		const filter: EventFilter = {
			events: this.getNodeParameter('events', ['journey', 'session']) as EventType[],
			statusFilter: this.getNodeParameter('statusFilter', 'all') as EventFilter['statusFilter'],
			statuses: this.getNodeParameter('statuses', []) as string[],
		};
		const decision = applyFilter(event, filter);
		if (!decision.pass) {
			return ignore({ ignored: true, reason: decision.reason });
		}

		// 5. Accepted: n8n answers once the execution exists
		const item: IDataObject = { ...event, deliveryKey: key };
		const fetchResults = this.getNodeParameter('fetchResults', false) as boolean;
		if (fetchResults && event.type === 'journey' && event.status === 'analysis_complete') {
			Object.assign(item, await fetchJourneyResults.call(this, event.id));
		}
		// version 1.2: masked unless Full is chosen; earlier versions output what they received
		const masked = triggerMasksPersonalData(this.getNode().typeVersion)
			? maskPersonalData(
					item,
					this.getNodeParameter('personalData', 'masked') === 'full' ? 'full' : 'masked',
				)
			: item;
		return { workflowData: [this.helpers.returnJsonArray([masked])] };
	}
}

/**
 * The FinVerify Trigger: one class per way of answering the sender (n8n reads the webhook's answer mode from the
 * version's description, so it cannot be a parameter without an expression evaluated on every delivery).
 */
export class FinVerifyTrigger extends VersionedNodeType {
	constructor() {
		const answersOnStart = new FinVerifyTriggerVersion();
		const nodeVersions: Record<number, INodeType> = {};
		for (const version of TRIGGER_VERSIONS)
			nodeVersions[version] = triggerAnswersWhenFinished(version)
				? new FinVerifyTriggerVersion(version)
				: answersOnStart;
		const { displayName, name, icon, group, description, defaultVersion } =
			answersOnStart.description;
		const base: INodeTypeBaseDescription = {
			displayName,
			name,
			icon,
			group,
			description,
			defaultVersion,
		};
		super(nodeVersions, base);
	}
}
