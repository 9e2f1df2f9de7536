import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { createdIdsOf, withCreatedIds } from '../helpers/createdIds';
import type { PollPlan } from '../helpers/polling';
import { planPolling, pollUntil } from '../helpers/polling';

/** A simplified status: any object that says whether it is final and what the status is. */
export type StatusSummary = IDataObject & { isFinal: boolean; status: string | null };

/** How an item polls: the Wait Options read before anything is sent. */
export interface Polling {
	plan: PollPlan;
	onTimeout: 'error' | 'returnLastStatus';
}

/** The item's Wait Options (Poll Interval, Time Limit, On Time Limit) as a polling plan. */
export function readPolling(this: IExecuteFunctions, itemIndex: number): Polling {
	const options = this.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	return {
		plan: planPolling(options.pollInterval, options.timeLimit),
		onTimeout: (options.onTimeout ?? 'error') === 'error' ? 'error' : 'returnLastStatus',
	};
}

/**
 * Status requests until the status is final or the time limit is reached: no faster than every 5
 * seconds (the service's rule), at most one hour, inside the running execution. On the time limit
 * it fails (naming the last status, with `timeLimitHint` saying what else to do) or returns the
 * last status, as the Wait Options say. Shared by the start operations' "By Polling" and the status
 * operations' "Wait for a Final Status".
 */
export async function pollToFinal(
	this: IExecuteFunctions,
	itemIndex: number,
	{ plan, onTimeout }: Polling,
	subject: string,
	fetchStatus: () => Promise<IDataObject>,
	summarize: (raw: IDataObject) => StatusSummary,
	timeLimitHint: string,
): Promise<{ raw: IDataObject; summary: StatusSummary; progress: IDataObject }> {
	const outcome = await pollUntil(
		async () => {
			const raw = await fetchStatus();
			return { raw, summary: summarize(raw) };
		},
		(poll) => poll.summary.isFinal,
		plan,
		{ now: () => Date.now(), sleep: async (ms) => await sleep(ms) },
	);
	if (outcome.timedOut && onTimeout === 'error') {
		throw new NodeOperationError(
			this.getNode(),
			`${subject} did not reach a final status within ${plan.timeLimitMs / 1000} seconds`,
			{
				itemIndex,
				description: `Last status: ${outcome.last.summary.status ?? 'unknown'} after ${outcome.polls} status request(s). Raise "Time Limit", choose "Return Last Status" under "On Time Limit", or ${timeLimitHint}.`,
			},
		);
	}
	const progress = {
		polls: outcome.polls,
		waitedSeconds: Math.round(outcome.elapsedMs / 1000),
		timedOut: outcome.timedOut,
	};
	return { ...outcome.last, progress };
}

/**
 * Wait for Completion "By Polling" after a start operation (the execution stays running meanwhile).
 * Returns the start output (`simplify`: merged with the last status) and the last status.
 */
export async function pollAfterStart(
	this: IExecuteFunctions,
	itemIndex: number,
	polling: Polling,
	simplify: boolean,
	subject: string,
	started: IDataObject,
	fetchStatus: () => Promise<IDataObject>,
	summarize: (raw: IDataObject) => StatusSummary,
): Promise<IDataObject> {
	let last: Awaited<ReturnType<typeof pollToFinal>>;
	try {
		last = await pollToFinal.call(
			this,
			itemIndex,
			polling,
			subject,
			fetchStatus,
			summarize,
			'set Wait for Completion to "Until the Service Calls Back" where the service calls back',
		);
	} catch (error) {
		// the service created it: a failed status poll must not lose its id
		throw withCreatedIds(error, createdIdsOf(started));
	}
	if (!simplify) return { start: started, status: last.raw, ...last.progress };
	return { ...started, ...last.summary, ...last.progress };
}
