import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { DEFAULT_DEDUPE_WINDOW_MINUTES } from './dedupe';
import { JOURNEY_STATES, SESSION_STATES } from './events';
import { DEFAULT_TOLERANCE_SECONDS } from './signature';

export const DEFAULT_HEADERS = {
	signature: 'X-Webhook-Signature',
	timestamp: 'X-Webhook-Timestamp',
	id: 'X-Webhook-Id',
	event: 'X-Webhook-Event',
};

const titleCase = (state: string) =>
	state
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');

const JOURNEY_STATE_DESCRIPTIONS: Record<(typeof JOURNEY_STATES)[number], string> = {
	initiated: 'Journey created, consent link not yet opened',
	consent_pending: 'Consent link opened, consent not finished',
	consent_granted: 'Consent given, bank data being fetched',
	data_fetched: 'Bank data fetched, analysis being generated',
	analysis_complete: 'Final: statement result and analysis are ready (sample payloads say "completed")',
	consent_denied: 'Final: the customer declined consent',
	failed: 'Final: system or network error',
	expired: 'Final: the journey expired before consent was completed',
};

const SESSION_STATE_DESCRIPTIONS: Record<(typeof SESSION_STATES)[number], string> = {
	created: 'Session created and link emailed',
	completed: 'Final: the recipient submitted their data',
	expired: 'Final: the link expired unused',
	abandoned: 'Final: the recipient left without submitting',
};

/** Every journey and session state, as `journey:<state>` / `session:<state>` values, sorted by name. */
export const statusOptions: INodePropertyOptions[] = [
	...JOURNEY_STATES.map((state) => ({
		name: `Journey: ${titleCase(state)}`,
		value: `journey:${state}`,
		description: JOURNEY_STATE_DESCRIPTIONS[state],
	})),
	...SESSION_STATES.map((state) => ({
		name: `Session: ${titleCase(state)}`,
		value: `session:${state}`,
		description: SESSION_STATE_DESCRIPTIONS[state],
	})),
].sort((a, b) => a.name.localeCompare(b.name));

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			'Copy the Production URL from "Webhook URLs" above. Paste it as the Webhook URL when you start a bank statement journey, and as the Callback URL when you create a collection session (FinVerify node or API). The service has no API to register webhooks, so nothing is registered for you; the URL receives events once this workflow is published.',
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
					'Journeys: analysis complete, consent denied, failed, expired. Sessions: completed, expired, abandoned.',
			},
			{ name: 'Selected Statuses', value: 'selected', description: 'Only the statuses chosen below' },
		],
		default: 'all',
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: statusOptions,
		default: [],
		description: 'Status changes that start the workflow; any other status is acknowledged and ignored',
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
					'Checks the sha256 HMAC the service sends, with the Webhook Signing Secret of the credential',
			},
			{
				name: 'None',
				value: 'none',
				description: 'Accept every request (not recommended)',
			},
			{
				name: 'Secret Token in URL',
				value: 'urlToken',
				description: 'Checks a ?token= query parameter you add to the URL; works with senders that do not sign',
			},
		],
		default: 'hmacSignature',
		description: 'How the trigger checks that a request really comes from the service. Failed checks get a 401 and start nothing.',
	},
	{
		displayName:
			'Anyone who knows this URL can start the workflow with made-up events. Use HMAC Signature or Secret Token in URL unless the URL is not reachable from outside.',
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
			'A long random value. Add it to the URL you paste into the service: &lt;Production URL&gt;?token=&lt;this value&gt;.',
		displayOptions: { show: { verification: ['urlToken'] } },
	},
	{
		displayName: 'Fetch Results When Complete',
		name: 'fetchResults',
		type: 'boolean',
		default: false,
		description:
			'Whether to download the statement result and the analysis JSON when a journey reaches analysis complete, and add them to the item',
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
				default: DEFAULT_DEDUPE_WINDOW_MINUTES,
				description:
					'A delivery whose ID was already received within this window is acknowledged and ignored. 0 turns deduplication off.',
			},
			{
				displayName: 'Delivery ID Header',
				name: 'idHeader',
				type: 'string',
				default: 'X-Webhook-Id',
				description: 'Header carrying the unique delivery ID used for deduplication',
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
				description: 'Header carrying the unix time (seconds) that is signed together with the body',
				displayOptions: { show: { '/verification': ['hmacSignature'] } },
			},
			{
				displayName: 'Timestamp Tolerance (Seconds)',
				name: 'toleranceSeconds',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_TOLERANCE_SECONDS,
				description:
					'Signed requests whose timestamp differs from now by more than this are rejected (replay protection). 0 turns the check off.',
				displayOptions: { show: { '/verification': ['hmacSignature'] } },
			},
		],
	},
];
