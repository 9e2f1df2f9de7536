import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { DownloadSwitch } from '../helpers/documents';
import { personalDataField } from '../helpers/personalData';
import type { FieldContext } from '../helpers/validation';
import {
	assertConsent,
	assertGender,
	GENDER_SPELLINGS,
	assertSetByWorkflow,
	BUREAUS,
	parseJsonObject,
} from '../helpers/validation';
import {
	downloadFieldDefault,
	FROM_VERSION_2,
	FROM_VERSION_3,
	ON_VERSION_1,
} from '../../shared/versions';

/**
 * Fields used by more than one operation, declared once. The parameter `name` is the same
 * everywhere, so n8n keeps the user's value when they switch between operations that share a field.
 * Operations stamp their displayOptions with `updateDisplayOptions`.
 */

export const panField: INodeProperties = {
	displayName: 'PAN',
	name: 'pan',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. ABCDE1234F',
	description:
		'Permanent Account Number: 5 letters, 4 digits, 1 letter. Lowercase is accepted and uppercased.',
};

export const fullNameField: INodeProperties = {
	displayName: 'Full Name',
	name: 'name',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. Priya Sharma',
	description: 'Full legal name of the subject, used by the bureaus for identity matching',
};

export const mobileNumberField: INodeProperties = {
	displayName: 'Mobile Number',
	name: 'mobileNumber',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 9876543210',
	description:
		'10-digit Indian mobile number. Forms like +91 98765 43210 are accepted and normalized.',
};

/**
 * The subject's consent. An options field (not a boolean) so that n8n's AI Agent tool view never
 * offers "let the model define this" for it (the editor offers that for every expression-capable
 * parameter except options); expressions on the workflow's own data (a CRM record) still work. The
 * values stay true/false, so saved workflows keep their choice.
 */
export const consentField: INodeProperties = {
	displayName: 'Subject Has Consented',
	name: 'consent',
	type: 'options',
	default: false,
	required: true,
	options: [
		{
			name: 'No',
			value: false,
			description: 'Nothing is sent: the check needs consent',
		},
		{
			name: 'Yes',
			value: true,
			description: 'The person or business has given consent for this check',
		},
	],
	description:
		'Whether the person or business has consented to this check. Nothing is sent unless this is ' +
		'Yes (true); an AI model cannot set it.',
};

/**
 * The subject's gender. No default: the user chooses, or maps it from their data (the spellings of
 * GENDER_SPELLINGS are accepted at run time, so the editor does not mark them as unsupported). An
 * options field, so an AI model is never offered it.
 */
export const genderField: INodeProperties = {
	displayName: 'Gender',
	name: 'gender',
	type: 'options',
	default: '',
	required: true,
	allowArbitraryValues: true,
	options: [
		{
			name: 'Choose Female or Male',
			value: '',
			description: 'No default: the bureaus match on gender, so it must be chosen or mapped',
		},
		{ name: 'Female', value: 'female' },
		{ name: 'Male', value: 'male' },
	],
	description:
		'Gender of the subject, as the bureaus record it. Map it from your data with an expression: ' +
		`${GENDER_SPELLINGS.join(', ')} (any case) are accepted.`,
};

/**
 * The lender's own reference of the consent (a consent form, a ticket, an application ID), copied
 * into the output's consent record. Stated by the workflow, never by an AI model.
 */
export const consentReferenceField: INodeProperties = {
	displayName: 'Consent Reference',
	name: 'consentReference',
	type: 'string',
	default: '',
	placeholder: 'e.g. consent form CF-2026-00042',
	description:
		"Optional: your reference of the subject's consent (a form, an application ID), kept in the " +
		"output's consentRecord with when, by which workflow and execution, and for what the check ran",
};

/** Consent and gender are stated by the workflow, never by an AI model, and consent must be Yes. */
export function readConsent(ctx: FieldContext, value: unknown): 'Y' {
	assertSetByWorkflow(ctx, consentField.name, consentField.displayName);
	// the consent reference is part of the same assertion (the router copies it into the output)
	assertSetByWorkflow(ctx, consentReferenceField.name, consentReferenceField.displayName);
	return assertConsent(ctx, value, consentField.displayName);
}

export function readGender(ctx: FieldContext, value: unknown): 'male' | 'female' {
	assertSetByWorkflow(ctx, genderField.name, genderField.displayName);
	return assertGender(ctx, value, genderField.displayName);
}

export const bureausField: INodeProperties = {
	displayName: 'Bureaus',
	name: 'bureaus',
	type: 'multiOptions',
	default: ['cibil'],
	required: true,
	// an expression may give the names in any case, or as one comma-separated text
	allowArbitraryValues: true,
	options: BUREAUS.map((b) => ({
		name:
			b === 'cibil' ? 'CIBIL' : b === 'crif' ? 'CRIF High Mark' : b[0].toUpperCase() + b.slice(1),
		value: b,
	})),
	description:
		'Bureaus to pull a report from (at least one). Each bureau is a separate report and charge. ' +
		'From an expression: a list or comma-separated text, any case (e.g. "CIBIL, Experian").',
};

export const businessNameField: INodeProperties = {
	displayName: 'Business Name',
	name: 'businessName',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. Acme Traders Private Limited',
	description: 'Registered name of the business (at least 2 characters)',
};

export const companyNameField: INodeProperties = {
	displayName: 'Company Name',
	name: 'companyName',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. Infosys',
	description: 'Full or partial name to search for (at least 3 characters)',
};

/** Company picker: searched live through the autocomplete endpoint, or a CIN typed in. */
export const companyLocatorField: INodeProperties = {
	displayName: 'Company',
	name: 'company',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The company or LLP to look up: pick it from the list, or enter its CIN or LLPIN (an LLP has ' +
		'no CIN)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Type at least 3 letters of the name…',
			typeOptions: {
				searchListMethod: 'searchCompanies',
				searchable: true,
				searchFilterRequired: true,
			},
		},
		{
			// the mode keeps its name `cin` (saved workflows); it takes an LLPIN as well. No `validation` pattern:
			// n8n checks those under a 250 ms budget that a busy machine can miss, failing the run before the
			// node starts; the node's own check (helpers/validation.ts) names the field and the format instead.
			displayName: 'By CIN or LLPIN',
			name: 'cin',
			type: 'string',
			placeholder: 'e.g. L17110MH1973PLC019786 or AAB-1234',
		},
	],
};

/** LLP picker: searched live through the autocomplete endpoint, or an LLPIN typed in. */
export const llpLocatorField: INodeProperties = {
	displayName: 'LLP',
	name: 'llp',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The limited liability partnership to look up',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Type at least 3 letters of the name…',
			typeOptions: { searchListMethod: 'searchLlps', searchable: true, searchFilterRequired: true },
		},
		{
			// no `validation` pattern (see the company picker): the node checks the LLPIN itself
			displayName: 'By LLPIN',
			name: 'llpin',
			type: 'string',
			placeholder: 'e.g. AAB-1234',
		},
	],
};

export const jobIdField: INodeProperties = {
	displayName: 'Job ID',
	name: 'jobId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. itr_5f2c0b7e9a1d4c3b8e6f0a2d',
	description: 'ID of the ITR analysis job, returned by Start Analysis',
};

export const journeyClientIdField: INodeProperties = {
	displayName: 'Journey Client ID',
	name: 'clientId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. aa_5f2c0b7e9a1d4c3b8e6f0a2d',
	description: 'The client_id returned by Start Journey (or received by the FinVerify Trigger)',
};

/** Version 1 of the node: the Simplify switch (on: the Normalized record; off: the raw answer). */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a short, stable set of fields (the same whatever form the service answers ' +
		'in) instead of its full answer',
	displayOptions: { show: ON_VERSION_1 },
};

/**
 * Version 2 of the node: n8n's output modes. Simplified is the default: at most 10 decision fields
 * keep an AI agent's context small and are what the editor's schema preview shows; IF/Set workflows
 * that need every fact pick Normalized.
 */
export const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'outputMode',
	type: 'options',
	default: 'simplified',
	options: [
		{
			name: 'Simplified',
			value: 'simplified',
			description:
				'At most 10 key fields for a decision, the same whatever form the service answers in',
		},
		{
			name: 'Normalized',
			value: 'normalized',
			description:
				'Every fact the service sends, with stable names and types in both response forms',
		},
		{
			name: 'Raw',
			value: 'raw',
			description:
				'The answer exactly as the service sent it: personal data is not masked, Aadhaar included',
		},
	],
	description:
		'How much of the answer to return, and in which form. Simplified and Normalized mask personal ' +
		'data (see Personal Data in Output); Raw does not.',
	displayOptions: { show: FROM_VERSION_2 },
};

/**
 * The output choice of every operation that returns records: Simplify in version 1, Output from 2,
 * with how personal data appears.
 */
export const outputModeFields: INodeProperties[] = [simplifyField, outputField, personalDataField];

/**
 * Version 3, on the operations a lender's rule decides on (helpers/normalize/decision.ts): where an
 * answer goes whose decision facts are not all known. The node's outputs follow it (FinVerify.node.ts,
 * `configuredOutputs`), so it takes no expression. Hidden for Raw output, which has no verdict.
 */
export const incompleteAnswersField: INodeProperties = {
	displayName: 'Incomplete Answers',
	name: 'incompleteAnswers',
	type: 'options',
	noDataExpression: true,
	default: 'separateOutput',
	options: [
		{
			name: 'Send to the Incomplete Output',
			value: 'separateOutput',
			description:
				'A second output, Incomplete, receives every answer with decisionReady false: the first output only has answers whose decision facts are all known',
		},
		{
			name: 'Treat as Failed',
			value: 'fail',
			description:
				'An incomplete answer is a failed item (code INCOMPLETE_ANSWER, naming what is unknown): it goes to the error output with On Error set to Continue (using error output)',
		},
		{
			name: 'Keep in the Output',
			value: 'keep',
			description:
				'Every answer on the one output; test decisionReady before deciding on anything else',
		},
	],
	description:
		'Where answers go whose decision facts are not all known: decisionReady is false and incomplete lists what is unknown',
	hint: 'E.g. a bureau without a report, a payment history missing, a special score, an account not analysed, a status missing',
	displayOptions: {
		show: FROM_VERSION_3,
		hide: { '/outputMode': ['raw'] },
	},
};

/** Version 3: how to decide safely, where the builder picks the output (decision operations). */
export const decisionNotice: INodeProperties = {
	displayName:
		"Decide only on answers with decisionReady true, and send the others to a person (refer). n8n's IF and Switch compare an empty value like 0, so a rule that meets a null approves or declines what the node does not know. See the decision example in the docs.",
	name: 'decisionNotice',
	type: 'notice',
	default: '',
	displayOptions: {
		show: FROM_VERSION_3,
		hide: { '/outputMode': ['raw'] },
	},
};

/** The output choice of an operation a lender's rule decides on: the Output fields and the verdict's. */
export const decisionOutputFields: INodeProperties[] = [
	...outputModeFields,
	decisionNotice,
	incompleteAnswersField,
];

/**
 * displayOptions of fields that only shape the Simplified/Normalized output (hidden for the raw
 * answer).
 */
export const normalizedOutputOnly: NonNullable<INodeProperties['displayOptions']> = {
	hide: { '/simplify': [false], '/outputMode': ['raw'] },
};

export const binaryPropertyField: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
};

/**
 * The output-file field of a download: version 1 keeps the shared default `data` (saved workflows
 * rely on it); from version 2 each download has its own default, so two reports in one item never
 * overwrite each other downstream. `show` is when the field appears (e.g. only while downloading).
 */
export function versionedBinaryField(
	field: INodeProperties,
	v2Default: string,
	show: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties[] {
	return [
		{ ...field, displayOptions: { show: { ...show, ...ON_VERSION_1 } } },
		{
			...field,
			default: v2Default,
			displayOptions: { show: { ...show, ...FROM_VERSION_2 } },
		},
	];
}

/** The default of a versioned output-file field for the running node's version. */
export const binaryDefault = (context: IExecuteFunctions, v2Default: string): string =>
	downloadFieldDefault(context.getNode().typeVersion, v2Default);

/**
 * Version 3: where a failed item goes (actions/failurePolicy.ts). The Failed output lets one record fail
 * without stopping the batch and without reaching the success branch, and lets Fail the Node When Items
 * Fail end the execution red, which n8n's Continue settings never do (a node that throws under Continue
 * has its input items passed on as its output). Not offered where the node waits for a callback: a
 * waiting node resumes through its webhook, which has one output.
 */
const FAILED_ITEMS_DISPLAY: NonNullable<INodeProperties['displayOptions']> = {
	show: FROM_VERSION_3,
	hide: { operation: ['wait'], waitForCompletion: ['callback'] },
};

export const failedItemsField: INodeProperties = {
	displayName: 'Failed Items',
	name: 'failedItems',
	type: 'options',
	noDataExpression: true,
	default: 'failedOutput',
	options: [
		{
			name: 'Send to the Failed Output',
			value: 'failedOutput',
			description:
				'A Failed output receives each failed item with its input fields, error and message; the other items go on',
		},
		{
			name: 'Follow On Error in Settings',
			value: 'onError',
			description:
				'Settings → On Error decides: Stop Workflow stops at the first failed item; a Continue setting goes on, green',
		},
	],
	description: 'Where an item goes when its request failed or its input was invalid',
	hint: 'With the Failed output, Fail the Node When Items Fail (under Request Options) says when the workflow stops, red',
	displayOptions: FAILED_ITEMS_DISPLAY,
};

export const failedItemsNotice: INodeProperties = {
	displayName:
		'Keep Settings → On Error at Stop Workflow with the Failed output: n8n ends an execution green whatever a node does under a Continue setting, so Fail the Node When Items Fail could not stop it.',
	name: 'failedItemsNotice',
	type: 'notice',
	default: '',
	displayOptions: {
		...FAILED_ITEMS_DISPLAY,
		show: { ...FAILED_ITEMS_DISPLAY.show, failedItems: ['failedOutput'] },
	},
};

/** Node-wide request behaviour; shown for every operation that sends requests (not Process Once). */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { hide: { resource: ['triggerDelivery'] } },
	options: [
		{
			displayName: 'Fail the Node When Items Fail',
			name: 'failNodeWhen',
			type: 'options',
			options: [
				{
					name: 'Never',
					value: 'never',
					description: 'Failed items go on (to the Failed output, or as error items)',
				},
				{
					name: 'When All Items Fail',
					value: 'allItems',
					description: 'The node fails when not one item succeeded',
				},
				{
					name: 'When More Than a Share Fail',
					value: 'share',
					description: 'The node fails when more than Failed Share (%) of the items failed',
				},
			],
			default: 'allItems',
			description:
				'With the Failed output, whether the workflow stops, red, when too many items failed (nodes saved before version 3: Never)',
			hint: 'A rejected credential or an unavailable service always stops the node; a Continue setting never ends it red',
		},
		{
			displayName: 'Failed Share (%)',
			name: 'failedSharePercent',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 100 },
			default: 50,
			description:
				'Used with Fail the Node When Items Fail = When More Than a Share Fail: the node fails ' +
				'when more than this percentage of the items failed',
		},
		{
			displayName: 'Items in Parallel',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 3,
			description:
				'How many items are sent to the service at the same time (1-100; stay within your rate ' +
				'limit). Output order and item pairing are kept; a 429 or an outage holds back every item.',
		},
		{
			displayName: 'Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 5 },
			default: 3,
			description:
				'How often to retry on rate limits (429, honouring Retry-After), server errors (5xx) and network failures',
			hint: 'Never on 4xx input or authentication errors; a create is re-sent only when the service proved it did not act',
		},
		{
			displayName: 'Timeout (Ms)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000 },
			default: 30000,
			description: 'How long to wait for one answer before giving up on that attempt',
		},
	],
};

/**
 * Free-form extra body fields for operations whose request shape the service does not document
 * (Preview operations). Goes inside an operation's "Additional Fields" collection; the operation's
 * own fields win.
 */
export const extraBodyField: INodeProperties = {
	displayName: 'Additional Body Fields (JSON)',
	name: 'extraBody',
	type: 'json',
	default: '{}',
	description:
		'Further fields to send with the request, as a JSON object. They never replace the fields above.',
};

/**
 * The extraBody value of an "Additional Fields" collection as an object (empty when it is not set).
 */
export function readExtraBody(ctx: FieldContext, value: unknown): IDataObject {
	return parseJsonObject(ctx, value, extraBodyField.displayName) as IDataObject;
}

/**
 * A URL the service POSTs to when a journey or session changes status: a FinVerify Trigger's URL,
 * or a Wait node's resume URL. The journey's `webhookUrl` and the session's `callbackUrl` keep
 * their own parameter names (each follows the service's field, webhook_url and callback_url).
 */
export function statusCallbackUrlField(
	field: Pick<INodeProperties, 'displayName' | 'name' | 'description' | 'required'>,
	subject: 'journey' | 'session',
): INodeProperties {
	return {
		...field,
		type: 'string',
		placeholder: 'e.g. https://n8n.example.com/webhook/…',
		default: '',
		hint:
			`Gets ${subject} status changes, e.g. a FinVerify Trigger URL, or {{ $execution.resumeUrl }} ` +
			`for Wait for ${subject === 'journey' ? 'Journey' : 'Session'}`,
	};
}

/**
 * "Download …" switch plus the output binary field, shown only when downloading; read them with
 * `downloadProperty` (helpers/documents.ts). The switch is `download` for every operation from
 * version 2; an operation whose version 1 named it otherwise passes that `v1Name` (saved workflows
 * keep working), and one whose version 2 output field has its own default passes `v2Default`.
 */
export function downloadFields(
	displayName: string,
	description: string,
	outputField: Partial<INodeProperties>,
	{ v1Name = 'download', v2Default }: DownloadSwitch = {},
): INodeProperties[] {
	const toggle: INodeProperties = {
		displayName,
		name: 'download',
		type: 'boolean',
		default: false,
		description,
	};
	const output: INodeProperties = { ...binaryPropertyField, ...outputField };
	if (v1Name === 'download' && v2Default === undefined)
		return [toggle, { ...output, displayOptions: { show: { download: [true] } } }];
	const v1 = ON_VERSION_1;
	const v2 = FROM_VERSION_2;
	return [
		{ ...toggle, name: v1Name, displayOptions: { show: v1 } },
		{ ...toggle, displayOptions: { show: v2 } },
		{ ...output, displayOptions: { show: { [v1Name]: [true], ...v1 } } },
		{
			...output,
			default: v2Default ?? output.default,
			displayOptions: { show: { download: [true], ...v2 } },
		},
	];
}

/**
 * Shown above the fields of an operation the service documents only in part (its name stays plain
 * in the operation list; its description ends with "(preview)").
 */
export function previewNotice(resource: string, operations: string[]): INodeProperties {
	return {
		displayName:
			'Preview: the service documents this call only in part. What is sent and read follows this ' +
			"package's assumptions, so check the first results.",
		name: 'previewNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [resource], operation: operations } },
	};
}

/**
 * Shown first in an operation that pulls a credit report: what must be filled in before a first
 * run. Nothing is sent without it, so a builder learns the rules here rather than from a failed run.
 */
export function beforeRunningNotice(text: string): INodeProperties {
	return {
		displayName: `Before running: ${text}. Nothing is sent without them.`,
		name: 'beforeRunningNotice',
		type: 'notice',
		default: '',
	};
}
