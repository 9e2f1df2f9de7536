import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { JOB_STATUS_REQUIRED, normalizeAnalysisJob } from '../../helpers/normalize/incomeTax';
import { assertPan } from '../../helpers/validation';
import { redactPassword } from '../../transport/redact';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { extraBodyField, outputModeFields, panField, readExtraBody } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { completionOptionsField, waitForCompletionField } from '../../completion/fields';
import type { Polling } from '../../completion/poll';
import { pollAfterStart, readPolling } from '../../completion/poll';
import { readWaitMode } from '../../completion/putToWait';
import { readAssessmentYears, readJobId, readPassword, withPasswordRedacted } from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { ITR_JOB } from '../../helpers/normalize/simplified';

const properties: INodeProperties[] = [
	{ ...panField, description: 'PAN of the taxpayer, which is also their income-tax portal login' },
	{
		displayName: 'Portal Password',
		name: 'portalPassword',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			"The taxpayer's income-tax portal password. Sent to the service only, never shown in the " +
			'output or in errors.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			extraBodyField,
			{
				displayName: 'Assessment Years',
				name: 'assessmentYears',
				type: 'string',
				placeholder: 'e.g. 2024-25, 2023-24',
				default: '',
				description:
					'Only analyse these assessment years (comma-separated). Empty means all years the portal has.',
			},
		],
	},
	// the service documents no callback for analysis jobs, so waiting here means polling
	waitForCompletionField(
		['no', 'poll'],
		'Whether to output the started job at once or poll until it is completed or failed',
	),
	completionOptionsField({ fetchResults: false }),
	...outputModeFields,
];

const displayOptions = { show: { resource: ['incomeTaxReturn'], operation: ['startAnalysis'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: ITR_JOB };

interface StartAnalysisRequest {
	body: IDataObject & { pan: string; password: string };
	simplify: boolean;
	/** Wait for Completion By Polling; absent otherwise. */
	polling?: Polling;
}

export function read(this: IExecuteFunctions, itemIndex: number): StartAnalysisRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const pan = assertPan(ctx, this.getNodeParameter('pan', itemIndex, ''));
	const password = readPassword(
		ctx,
		this.getNodeParameter('portalPassword', itemIndex, ''),
		'Portal Password',
	);
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const extra = readExtraBody(ctx, fields.extraBody);
	const years = readAssessmentYears(ctx, fields.assessmentYears);
	const body: StartAnalysisRequest['body'] = { ...extra, pan, password };
	if (years.length) body.assessment_years = years;
	return {
		body,
		simplify: isNormalizedOutput(this, itemIndex),
		polling: readWaitMode.call(this) === 'poll' ? readPolling.call(this, itemIndex) : undefined,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ body, simplify, polling }: StartAnalysisRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { pan, password } = body;
	const response = await withPasswordRedacted(
		this.getNode(),
		password,
		async () =>
			await apiRequest.call(this, {
				...policy,
				method: 'POST',
				path: 'itr-analyzer/analyze',
				body,
				idempotent: false,
				requiredField: 'data.job_id|data.jobId|job_id|jobId',
				itemIndex,
			}),
	);
	// the service has no reason to echo the password; if it ever does, it does not reach the output
	const safe = redactPassword(response, password);
	const job = normalizeAnalysisJob(safe);
	const started = simplify ? { ...job, pan } : safe;
	if (!polling) return [{ json: started }];

	const jobId = readJobId({ node: this.getNode(), itemIndex }, job.jobId);
	const json = await pollAfterStart.call(
		this,
		itemIndex,
		polling,
		simplify,
		`ITR analysis job ${jobId}`,
		started,
		async () =>
			await apiRequest.call(this, {
				...policy,
				method: 'POST',
				path: 'itr-analyzer/status',
				body: { job_id: jobId },
				requiredField: JOB_STATUS_REQUIRED,
				itemIndex,
			}),
		normalizeAnalysisJob,
	);
	return [{ json }];
}
