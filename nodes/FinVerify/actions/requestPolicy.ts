import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, MAX_RETRIES } from '../transport';
import { FAILED_ROUNDS_TO_OPEN, RequestGate } from '../transport/gate';

const DEFAULT_CONCURRENCY = 3;
const MAX_TIMEOUT_MS = 3_600_000;
/** Items in Parallel at most (the rate limit is the real bound: docs/reliability.md, failing fast). */
const MAX_CONCURRENCY = 100;

/** How one execution of the node sends its requests: Request Options, read once for every item. */
export interface RequestSetup {
	/** The Request Options as set (Fail the Node When Items Fail reads them too). */
	options: IDataObject;
	/** Items in Parallel, 1 to 100. */
	concurrency: number;
	/** Timeout and retries of each request, and the gate every item's requests pass. */
	policy: RequestPolicy;
}

/**
 * Reads Request Options into the execution's request policy. Out-of-range values are brought into range
 * rather than refused (they often come from expressions): an empty or too small timeout would mean "wait
 * forever", so it is the default; one above an hour is cut to an hour (timers overflow past ~24.8 days
 * into 1 ms). One gate serves every item of the execution: a rejected credential, an outage or a 429
 * storm holds back every item (transport/gate.ts).
 */
export function readRequestSetup(context: IExecuteFunctions): RequestSetup {
	const options = context.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const concurrency = Math.max(
		1,
		Math.min(Number(options.concurrency ?? DEFAULT_CONCURRENCY) || 1, MAX_CONCURRENCY),
	);
	const retries = Number(options.maxRetries ?? DEFAULT_MAX_RETRIES);
	const policy: RequestPolicy = {
		timeoutMs:
			Number(options.timeout) >= 1000
				? Math.min(Number(options.timeout), MAX_TIMEOUT_MS)
				: DEFAULT_TIMEOUT_MS,
		maxRetries: Number.isInteger(retries) ? retries : DEFAULT_MAX_RETRIES,
	};
	const attemptsPerItem = Math.max(0, Math.min(policy.maxRetries!, MAX_RETRIES)) + 1;
	policy.gate = new RequestGate({
		rateLimitedRoundsToStop: attemptsPerItem,
		// one item's whole retry schedule, and never fewer than 3 rounds
		failedRoundsToOpen: Math.max(FAILED_ROUNDS_TO_OPEN, attemptsPerItem),
		wait: async (ms) => await sleep(ms),
	});
	return { options, concurrency, policy };
}
