import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { planPolling, pollUntil } from '../../helpers/polling';
import type { StatusSummary } from '../bankStatementJourney/wait';
import { shapedOutput } from '../common.descriptions';

/**
 * Wait for Completion "By Polling" after a start operation: status requests no faster than every 5
 * seconds, at most one hour, inside the running execution (which stays running meanwhile). Returns
 * the start output together with the last status; on the time limit fails or returns the last status
 * as the Wait Options say.
 */
export async function pollAfterStart(
	this: IExecuteFunctions,
	itemIndex: number,
	subject: string,
	started: IDataObject,
	fetchStatus: () => Promise<IDataObject>,
	summarize: (raw: IDataObject) => StatusSummary,
): Promise<IDataObject> {
	const simplify = shapedOutput(this, itemIndex);
	const options = this.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	const plan = planPolling(options.pollInterval, options.timeLimit);
	const outcome = await pollUntil(
		async () => {
			const raw = await fetchStatus();
			return { raw, summary: summarize(raw) };
		},
		(poll) => poll.summary.isFinal,
		plan,
		{ now: () => Date.now(), sleep: async (ms) => await sleep(ms) },
	);
	if (outcome.timedOut && (options.onTimeout ?? 'error') === 'error') {
		throw new NodeOperationError(
			this.getNode(),
			`${subject} did not reach a final status within ${plan.timeLimitMs / 1000} seconds`,
			{
				itemIndex,
				description: `Last status: ${outcome.last.summary.status ?? 'unknown'} after ${outcome.polls} status request(s). Raise "Time Limit", choose "Return Last Status" under "On Time Limit", or set Wait for Completion to "Until the Service Calls Back" where the service calls back.`,
			},
		);
	}
	const progress = {
		polls: outcome.polls,
		waitedSeconds: Math.round(outcome.elapsedMs / 1000),
		timedOut: outcome.timedOut,
	};
	if (!simplify) return { start: started, status: outcome.last.raw, ...progress };
	return { ...started, ...outcome.last.summary, ...progress };
}
