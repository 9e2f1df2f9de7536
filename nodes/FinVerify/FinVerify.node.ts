import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as apiRequest from './actions/apiRequest';
import * as bankStatementJourney from './actions/bankStatementJourney';
import * as collectionSession from './actions/collectionSession';
import {
	failedItemsField,
	failedItemsNotice,
	requestOptionsField,
} from './actions/common.descriptions';
import { completionKindOf } from './actions/completionKind';
import { completionWebhook, resumeWebhooks } from './completion/webhook';
import * as company from './actions/company';
import * as creditReport from './actions/creditReport';
import * as employment from './actions/employment';
import * as incomeTaxReturn from './actions/incomeTaxReturn';
import * as triggerDelivery from './actions/triggerDelivery';
import { router } from './actions/router';
import { versionNotice } from './actions/versionNotice';
import { FINVERIFY_DEFAULT_VERSION, FINVERIFY_VERSIONS } from '../shared/versions';
import { operationSubtitle } from './actions/subtitle';
import { listSearch } from './methods';

/** The resources, alphabetical. */
const RESOURCES = [
	{
		name: 'Bank Statement Journey',
		value: 'bankStatementJourney',
		description: 'Account-aggregator consent journey and bank statement analysis',
	},
	{
		name: 'Collection Session',
		value: 'collectionSession',
		description: 'Hosted link that collects ITR or GST data from a recipient',
	},
	{
		name: 'Company',
		value: 'company',
		description: 'Company registry: CIN, LLPIN, PAN and name search',
	},
	{
		name: 'Credit Report',
		value: 'creditReport',
		description: 'Individual multi-bureau and business commercial reports',
	},
	{
		name: 'Employment',
		value: 'employment',
		description: 'EPFO provident-fund employment records',
	},
	{
		name: 'Income Tax Return',
		value: 'incomeTaxReturn',
		description: 'ITR analysis, data and taxpayer portal password reset',
	},
	{
		name: 'Trigger Delivery',
		value: 'triggerDelivery',
		description: "The FinVerify Trigger's deliveries: each processed once, also after n8n restarts",
	},
];

/**
 * One way to call any endpoint: this node's own request (value `apiRequest`, which saved workflows
 * keep), listed last under the name n8n gives its automatic entry. n8n adds its own "Custom API
 * Call" (which turns the node into an HTTP Request) only when the last option is not already called
 * that, so the list shows one entry, and it keeps the credential's base address, retries and the
 * refresh-token cookie.
 */
const CUSTOM_API_CALL = {
	name: 'Custom API Call',
	value: 'apiRequest',
	description:
		'Any endpoint of the service by path, with the credential, retries and cookie applied',
};

/**
 * The node's outputs, from its parameters (n8n evaluates this in the editor and the engine, with
 * every displayed parameter's default filled in). n8n keeps a wire by its output's NUMBER, so on
 * version 3 the positions never depend on an option: the decision operations always have Complete (0),
 * Incomplete (1) and Failed (2), whatever Incomplete Answers, Output or Failed Items say (an output the
 * options leave unused stays, empty); the other operations have Success (0) and Failed (1) with Failed
 * Items on "Send to the Failed Output", one output otherwise. Versions 1 and 2, and the operations that
 * wait for a callback, have one output. Self-contained: n8n runs its source text as an expression
 * (so the decision operations are listed here; test/unit/outputPositions.test.cts checks the list).
 */
export function configuredOutputs(parameters: {
	resource?: unknown;
	operation?: unknown;
	incompleteAnswers?: unknown;
	failedItems?: unknown;
}) {
	const decisionOperations = [
		'creditReport.getMultiBureauReport',
		'company.getByCin',
		'company.getLlpByLlpin',
		'company.getEntityByPan',
		'employment.getEpfoRecord',
		'employment.getEpfoRecordWithCredit',
		'incomeTaxReturn.getData',
		'bankStatementJourney.getAnalysis',
	];
	// Failed Items is shown on version 3 only (and not where the node waits for a callback)
	const version3 = parameters.failedItems !== undefined;
	const decision =
		version3 &&
		decisionOperations.indexOf(String(parameters.resource) + '.' + String(parameters.operation)) >=
			0;
	if (decision)
		return [
			{
				type: 'main',
				// Keep in the Output and Raw (no verdict) put every answer here
				displayName:
					parameters.incompleteAnswers === 'separateOutput' ||
					parameters.incompleteAnswers === 'fail'
						? 'Complete'
						: 'Success',
			},
			{ type: 'main', displayName: 'Incomplete' },
			{ type: 'main', displayName: 'Failed' },
		];
	if (parameters.failedItems === 'failedOutput')
		return [
			{ type: 'main', displayName: 'Success' },
			{ type: 'main', displayName: 'Failed' },
		];
	return [{ type: 'main' }];
}

export class FinVerify implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FinVerify',
		name: 'finVerify',
		icon: { light: 'file:../../icons/finverify.svg', dark: 'file:../../icons/finverify.dark.svg' },
		group: ['transform'],
		// 2: Output (Simplified / Normalized / Raw) in place of Simplify; version 1 keeps Simplify
		// 3: the decision verdict (decisionReady, incomplete) and Incomplete Answers on the operations a
		// lender's rule decides on, and the Failed output; versions 1 and 2 keep their output and their one
		// output
		version: FINVERIFY_VERSIONS,
		defaultVersion: FINVERIFY_DEFAULT_VERSION,
		// the canvas shows the dropdowns' names ("Company · Get by CIN"): the constructor derives them from
		// the properties (actions/subtitle.ts); this plain form is only what the literal says
		subtitle: '={{ $parameter["operation"] }}',
		description:
			'Verify people and businesses in India: credit bureaus, company registry, EPFO, ITR, ' +
			'account-aggregator bank statements and hosted data collection',
		defaults: { name: 'FinVerify' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: `={{(${configuredOutputs})($parameter)}}`,
		credentials: [{ name: 'finVerifyApi', required: true }],
		webhooks: resumeWebhooks,
		waitingNodeTooltip:
			'={{ "Waiting for the service to report a final status on " + $execution.resumeUrl }}',
		properties: [
			versionNotice,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [...RESOURCES, CUSTOM_API_CALL],
				default: 'company',
			},
			...creditReport.description,
			...company.description,
			...employment.description,
			...incomeTaxReturn.description,
			...bankStatementJourney.description,
			...collectionSession.description,
			...triggerDelivery.description,
			...apiRequest.description,
			failedItemsField,
			failedItemsNotice,
			requestOptionsField,
		],
	};

	methods = { listSearch };

	constructor() {
		this.description.subtitle = operationSubtitle(this.description.properties);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await completionWebhook.call(this, completionKindOf);
	}
}
