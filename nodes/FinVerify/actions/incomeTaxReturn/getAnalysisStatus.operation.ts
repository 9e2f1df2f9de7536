import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { assertAnswerIdentifies } from '../../helpers/answer';
import { updateDisplayOptions } from 'n8n-workflow';

import { jobStatusAnswerLacks, normalizeAnalysisJob } from '../../helpers/normalize/incomeTax';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { statusOutput, waitForFinalStatusField, waitOptionsField } from '../completion/finalStatus';
import { isNormalizedOutput, jobIdField, outputModeFields } from '../common.descriptions';
import { readJobId } from './shared';

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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const ctx = { node: this.getNode(), itemIndex };
	const jobId = readJobId(ctx, this.getNodeParameter('jobId', itemIndex, ''));

	const checked =
		isNormalizedOutput(this, itemIndex) ||
		(this.getNodeParameter('waitForFinalStatus', itemIndex, false) as boolean);
	return await statusOutput.call(
		this,
		itemIndex,
		`ITR analysis job ${jobId}`,
		async () => {
			const raw = await apiRequest.call(this, {
				...policy,
				method: 'POST',
				path: 'itr-analyzer/status',
				body: { job_id: jobId },
				itemIndex,
			});
			// the status is the answer: without one there is nothing to output or wait on (Raw output
			// without a wait returns the body as it came)
			if (checked)
				assertAnswerIdentifies(
					this.getNode(),
					itemIndex,
					jobStatusAnswerLacks(raw),
					'ITR analysis job',
				);
			return raw;
		},
		normalizeAnalysisJob,
	);
}
