import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { JOB_STATUS_REQUIRED, normalizeAnalysisJob } from '../../helpers/normalize/incomeTax';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import type { StatusRequest } from '../../completion/finalStatus';
import {
	readStatusRequest,
	statusOutput,
	waitForFinalStatusField,
	waitOptionsField,
} from '../../completion/finalStatus';
import { jobIdField, outputModeFields } from '../common.descriptions';
import { readJobId } from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { ITR_JOB } from '../../helpers/normalize/simplified';

const properties: INodeProperties[] = [
	jobIdField,
	waitForFinalStatusField(
		'Wait for Completion',
		'Whether to keep polling (no faster than every 5 seconds) until the job is completed or failed',
	),
	waitOptionsField,
	...outputModeFields,
];

const displayOptions = {
	show: { resource: ['incomeTaxReturn'], operation: ['getAnalysisStatus'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: ITR_JOB };

interface JobStatusRequest extends StatusRequest {
	jobId: string;
}

export function read(this: IExecuteFunctions, itemIndex: number): JobStatusRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		jobId: readJobId(ctx, this.getNodeParameter('jobId', itemIndex, '')),
		...readStatusRequest.call(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ jobId, ...status }: JobStatusRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await statusOutput.call(
		this,
		itemIndex,
		status,
		`ITR analysis job ${jobId}`,
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
}
