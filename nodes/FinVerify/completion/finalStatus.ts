import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	DEFAULT_POLL_INTERVAL_SECONDS,
	DEFAULT_TIME_LIMIT_SECONDS,
	MAX_TIME_LIMIT_SECONDS,
	MIN_POLL_INTERVAL_SECONDS,
} from '../helpers/polling';
import { onTimeoutOption } from './fields';
import { pollToFinal, readPolling, type Polling, type StatusSummary } from './poll';
import { isNormalizedOutput } from '../helpers/outputChoice';

export type { StatusSummary };

/**
 * "Wait for a final status" for status operations (journey status, ITR analysis status): the fields
 * and the loop. Polls no faster than every 5 seconds, as the service requires.
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
		onTimeoutOption(),
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS },
			default: DEFAULT_POLL_INTERVAL_SECONDS,
			description:
				'Seconds between two status requests. The service allows at most one every 5 seconds; ' +
				'smaller values are raised to 5.',
		},
		{
			displayName: 'Time Limit (Seconds)',
			name: 'timeLimit',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_TIME_LIMIT_SECONDS },
			default: DEFAULT_TIME_LIMIT_SECONDS,
			description:
				'Longest time to keep polling (at most 3600). For longer waits, use a webhook URL with the ' +
				'FinVerify Trigger or a Wait node instead.',
		},
	],
};

/**
 * What a status operation's item asks for: its output form, and whether (and how) to wait for a
 * final status.
 */
export interface StatusRequest {
	simplify: boolean;
	/** Absent: one status request. */
	polling?: Polling;
}

/** The output and Wait for a Final Status fields of a status operation's item. */
export function readStatusRequest(this: IExecuteFunctions, itemIndex: number): StatusRequest {
	const simplify = isNormalizedOutput(this, itemIndex);
	const wait = this.getNodeParameter('waitForFinalStatus', itemIndex, false) as boolean;
	return wait ? { simplify, polling: readPolling.call(this, itemIndex) } : { simplify };
}

/**
 * Output of a status operation: one status request, or, with "Wait for a Final Status" on, requests
 * until the status is final or the time limit is reached (then fails or returns the last status, as
 * the options say). Simplified or raw as the Simplify field says; when waiting, `polls`,
 * `waitedSeconds` and `timedOut` are added.
 */
export async function statusOutput(
	this: IExecuteFunctions,
	itemIndex: number,
	{ simplify, polling }: StatusRequest,
	subject: string,
	fetchStatus: () => Promise<IDataObject>,
	summarize: (raw: IDataObject) => StatusSummary,
): Promise<INodeExecutionData[]> {
	const output = (raw: IDataObject, extra?: IDataObject): INodeExecutionData[] => {
		const json = simplify ? summarize(raw) : raw;
		return [{ json: extra ? { ...json, ...extra } : json }];
	};
	if (!polling) return output(await fetchStatus());

	const last = await pollToFinal.call(
		this,
		itemIndex,
		polling,
		subject,
		fetchStatus,
		summarize,
		"let a webhook (FinVerify Trigger or a Wait node's resume URL) tell you when it is done",
	);
	return output(last.raw, last.progress);
}
