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
import { requestOptionsField } from './actions/common.descriptions';
import { completionWebhook, resumeWebhooks } from './actions/completion/webhook';
import * as company from './actions/company';
import * as creditReport from './actions/creditReport';
import * as employment from './actions/employment';
import * as incomeTaxReturn from './actions/incomeTaxReturn';
import { router } from './actions/router';
import { listSearch } from './methods';

export class FinVerify implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FinVerify',
		name: 'finVerify',
		icon: { light: 'file:../../icons/finverify.svg', dark: 'file:../../icons/finverify.dark.svg' },
		group: ['transform'],
		// 2: Output (Simplified / Normalized / Raw) in place of Simplify; version 1 keeps Simplify
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Verify people and businesses in India: credit bureaus, company registry, EPFO, ITR, account-aggregator bank statements and hosted data collection',
		defaults: { name: 'FinVerify' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'finVerifyApi', required: true }],
		webhooks: resumeWebhooks,
		waitingNodeTooltip:
			'={{ "Waiting for the service to report a final status on " + $execution.resumeUrl }}',
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'API Request',
						value: 'apiRequest',
						description: 'Any endpoint of the service, with the credential applied',
					},
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
				],
				default: 'company',
			},
			...creditReport.description,
			...company.description,
			...employment.description,
			...incomeTaxReturn.description,
			...bankStatementJourney.description,
			...collectionSession.description,
			...apiRequest.description,
			requestOptionsField,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await completionWebhook.call(this);
	}
}
