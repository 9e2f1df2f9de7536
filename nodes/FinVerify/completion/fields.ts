import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MAX_TIME_LIMIT_SECONDS, MIN_POLL_INTERVAL_SECONDS } from '../helpers/polling';
import { fetchResultsField } from '../helpers/journeyResults';
import { DEFAULT_WAIT_AMOUNT, DEFAULT_WAIT_UNIT, MAX_WAIT_DAYS } from './waiting';

/**
 * "Wait for Completion" on the operations that start something the service finishes later (Start
 * Journey, Create Session, ITR Start Analysis). `callback`: the execution waits in n8n's database
 * until a signed status callback on its resume URL reports a final status (docs/long-waits.md).
 * `poll`: the execution keeps running and asks for the status every few seconds, at most one hour.
 */
export type WaitMode = 'no' | 'callback' | 'poll';

const MODE_OPTIONS: Record<WaitMode, INodePropertyOptions> = {
	no: {
		name: "Don't Wait",
		value: 'no',
		description: 'Output what the service answered at once',
	},
	callback: {
		name: 'Until the Service Calls Back',
		value: 'callback',
		description:
			'The execution waits in n8n (no worker held, survives a restart) until a signed status ' +
			'callback reports a final status',
	},
	poll: {
		name: 'By Polling (Keeps the Execution Running)',
		value: 'poll',
		description:
			'Asks for the status every few seconds inside the running execution, at most one hour',
	},
};

export function waitForCompletionField(modes: WaitMode[], description: string): INodeProperties {
	return {
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'options',
		noDataExpression: true,
		default: 'no',
		options: modes.map((mode) => MODE_OPTIONS[mode]),
		description,
	};
}

/**
 * On Time Limit, the same option (name and values) for the start operations' Wait for Completion and
 * the status operations' Wait for a Final Status; `failDescription` says what Fail does there.
 */
export function onTimeoutOption(
	failDescription = 'An error naming the last known status',
): INodeProperties {
	return {
		displayName: 'On Time Limit',
		name: 'onTimeout',
		type: 'options',
		default: 'error',
		options: [
			{ name: 'Fail', value: 'error', description: failDescription },
			{
				name: 'Return Last Status',
				value: 'returnLastStatus',
				description: 'Output the last known status with timedOut set to true',
			},
		],
		description: 'What happens when no final status arrived within the time limit',
	};
}

const waitAmountField: INodeProperties = {
	displayName: 'Wait Amount',
	name: 'waitAmount',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: DEFAULT_WAIT_AMOUNT,
	description: `How long to wait for a final status (at most ${MAX_WAIT_DAYS} days)`,
};

const waitUnitField: INodeProperties = {
	displayName: 'Wait Unit',
	name: 'waitUnit',
	type: 'options',
	default: DEFAULT_WAIT_UNIT,
	options: [
		{ name: 'Seconds', value: 'seconds' },
		{ name: 'Minutes', value: 'minutes' },
		{ name: 'Hours', value: 'hours' },
		{ name: 'Days', value: 'days' },
	],
	description: 'Unit of Wait Amount',
};

const CALLBACK_FAIL_DESCRIPTION =
	'An error naming the last known status (with callbacks: an error item, see the docs)';

const byName = (fields: INodeProperties[]) =>
	fields.sort((a, b) => a.displayName.localeCompare(b.displayName));

/**
 * The options of a waiting start operation; `fetchResults` only where there are results to fetch.
 */
export function completionOptionsField(options: { fetchResults: boolean }): INodeProperties {
	const callbackOnly = { show: { '/waitForCompletion': ['callback'] } };
	const pollOnly = { show: { '/waitForCompletion': ['poll'] } };
	const fields: INodeProperties[] = [
		onTimeoutOption(CALLBACK_FAIL_DESCRIPTION),
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			typeOptions: { minValue: MIN_POLL_INTERVAL_SECONDS },
			default: MIN_POLL_INTERVAL_SECONDS,
			description:
				'Seconds between two status requests. The service allows at most one every 5 seconds; ' +
				'smaller values are raised to 5.',
			displayOptions: pollOnly,
		},
		{
			displayName: 'Time Limit (Seconds)',
			name: 'timeLimit',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_TIME_LIMIT_SECONDS },
			default: 300,
			description:
				'Longest time to keep polling (at most 3600); the execution stays running meanwhile',
			displayOptions: pollOnly,
		},
		{ ...waitAmountField, displayOptions: callbackOnly },
		{ ...waitUnitField, displayOptions: callbackOnly },
	];
	return {
		...waitOptionsCollection(fields, options),
		displayOptions: { hide: { waitForCompletion: ['no'] } },
	};
}

/**
 * The options of Wait for Journey / Wait for Session (they always wait for callbacks): the same
 * names and values as the start operations' callback options, so a workflow moved from the
 * one-node form keeps them.
 */
export function callbackWaitOptionsField(options: { fetchResults: boolean }): INodeProperties {
	return waitOptionsCollection(
		[onTimeoutOption(CALLBACK_FAIL_DESCRIPTION), waitAmountField, waitUnitField],
		options,
	);
}

/** The Wait Options collection holding `fields` (and Fetch Results When Complete when asked). */
function waitOptionsCollection(
	fields: INodeProperties[],
	options: { fetchResults: boolean },
): INodeProperties {
	return {
		displayName: 'Wait Options',
		name: 'waitOptions',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: byName(options.fetchResults ? [...fields, fetchResultsField] : fields),
	};
}
