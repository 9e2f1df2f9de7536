import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { PollOutcome } from '../../helpers/polling';
import {
	DEFAULT_POLL_INTERVAL_SECONDS,
	DEFAULT_TIME_LIMIT_SECONDS,
	MAX_TIME_LIMIT_SECONDS,
	MIN_POLL_INTERVAL_SECONDS,
	planPolling,
	pollUntil,
} from '../../helpers/polling';

/**
 * "Wait for a final status" for status operations (journey status, ITR analysis status): the fields and
 * the loop. Polls no faster than every 5 seconds, as the service requires.
 */

export function waitForFinalStatusField(displayName: string, description: string): INodeProperties {
	return {
		displayName,
		name: 'waitForFinalStatus',
		type: 'boolean',
		default: false,
		description,
	};
}

export const waitOptionsField: INodeProperties = {
	displayName: 'Wait Options',
	name: 'waitOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { show: { waitForFinalStatus: [true] } },
	options: [
		{
			displayName: 'On Time Limit',
			name: 'onTimeout',
			type: 'options',
			default: 'error',
			options: [
				{
					name: 'Fail',
					value: 'error',
					description: 'Stop with an error that names the last status seen',
				},
				{
					name: 'Return Last Status',
					value: 'returnLastStatus',
					description: 'Output the last status with timedOut set to true',
				},
			],
			description: 'What to do when no final status arrived within the time limit',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS },
			default: DEFAULT_POLL_INTERVAL_SECONDS,
			description:
				'Seconds between two status requests. The service allows at most one every 5 seconds; smaller values are raised to 5.',
		},
		{
			displayName: 'Time Limit (Seconds)',
			name: 'timeLimit',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_TIME_LIMIT_SECONDS },
			default: DEFAULT_TIME_LIMIT_SECONDS,
			description:
				'Longest time to keep polling (at most 3600). For longer waits, use a webhook URL with the FinVerify Trigger or a Wait node instead.',
		},
	],
};

export interface StatusPoll {
	raw: IDataObject;
	isFinal: boolean;
	status: string | null;
}

export interface WaitResult {
	raw: IDataObject;
	/** Present only when waiting was asked for. */
	wait?: { polls: number; waitedSeconds: number; timedOut: boolean };
}

/**
 * Runs `fetchStatus` once, or, with "Wait for a Final Status" on, until the status is final or the time
 * limit is reached (then fails or returns the last status, as the options say).
 */
export async function fetchStatusMaybeWaiting(
	this: IExecuteFunctions,
	itemIndex: number,
	fetchStatus: () => Promise<StatusPoll>,
	subject: string,
): Promise<WaitResult> {
	const wait = this.getNodeParameter('waitForFinalStatus', itemIndex, false) as boolean;
	if (!wait) return { raw: (await fetchStatus()).raw };

	const options = this.getNodeParameter('waitOptions', itemIndex, {}) as IDataObject;
	const plan = planPolling(options.pollInterval, options.timeLimit);
	const outcome: PollOutcome<StatusPoll> = await pollUntil(fetchStatus, (s) => s.isFinal, plan, {
		now: () => Date.now(),
		sleep: async (ms) => await sleep(ms),
	});
	const waitedSeconds = Math.round(outcome.elapsedMs / 1000);
	if (outcome.timedOut && (options.onTimeout ?? 'error') === 'error') {
		throw new NodeOperationError(
			this.getNode(),
			`${subject} did not reach a final status within ${plan.timeLimitMs / 1000} seconds`,
			{
				itemIndex,
				description: `Last status: ${outcome.last.status ?? 'unknown'} after ${outcome.polls} status request(s). Raise "Time Limit", choose "Return Last Status" under "On Time Limit", or let a webhook (FinVerify Trigger or a Wait node's resume URL) tell you when it is done.`,
			},
		);
	}
	return {
		raw: outcome.last.raw,
		wait: { polls: outcome.polls, waitedSeconds, timedOut: outcome.timedOut },
	};
}
