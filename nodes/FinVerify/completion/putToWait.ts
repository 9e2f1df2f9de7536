import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	assertCanBeCalledBack,
	hasSigningSecret,
	resumeUrl,
	SIGNING_SECRET_HELP,
} from './callbackUrl';
import type { WaitMode } from './fields';
import type { CompletionKind, OnTimeout, WaitingEntry } from './waiting';
import { idFromOutput, statusFromOutput, waitDurationMs, waitingItemJson } from './waiting';
import { isObject } from '../../shared/values';

/** What a start operation tells the router about waiting for its callbacks. */
export interface CompletionSupport<R = unknown> {
	kind: CompletionKind;
	/** The operation as the user chose it (Start Journey, Wait for Journey, …): messages name it. */
	operationName: string;
	/**
	 * Whether the user gave this item their own callback URL (then that item does not wait), from
	 * the item's request.
	 */
	usesOwnCallbackUrl: (request: R) => boolean;
	/**
	 * Wait for Journey / Wait for Session: the operation always waits (it has no Wait for Completion
	 * field).
	 */
	alwaysWaits?: boolean;
}

/** The completion support of any operation, whatever its request. */
type AnyCompletionSupport = CompletionSupport<never>;

/** Whether this run of the operation puts the execution to wait for status callbacks. */
export function waitsForCallbacks(
	this: IExecuteFunctions,
	support: AnyCompletionSupport | undefined,
): support is AnyCompletionSupport {
	if (support === undefined) return false;
	return support.alwaysWaits === true || readWaitMode.call(this) === 'callback';
}

/** Wait for Completion of the node (one value for all items: the field takes no expressions). */
export function readWaitMode(this: IExecuteFunctions): WaitMode {
	const value = this.getNodeParameter('waitForCompletion', 0, 'no');
	return value === 'callback' || value === 'poll' ? value : 'no';
}

export { resumeUrl };

/**
 * Checks, before anything is started, that waiting for callbacks can work: the credential must hold
 * the webhook signing secret (callbacks are verified with it), a collection session waits alone
 * (the service has no session status lookup, so one execution cannot tell when several are all
 * done), and Wait for Journey / Wait for Session follow a start node that calls this execution back.
 */
export async function assertCanWaitForCallbacks(
	this: IExecuteFunctions,
	support: AnyCompletionSupport,
	itemCount: number,
): Promise<void> {
	const operation = support.alwaysWaits
		? support.operationName
		: `${support.operationName} with Wait for Completion "Until the Service Calls Back"`;
	if (support.alwaysWaits) assertCanBeCalledBack.call(this, support.kind);
	if (!(await hasSigningSecret.call(this))) {
		throw new NodeOperationError(
			this.getNode(),
			`${operation} needs the Webhook Signing Secret of the FinVerify API credential`,
			{
				description: support.alwaysWaits
					? `${SIGNING_SECRET_HELP} Nothing was looked up or waited for.`
					: `${SIGNING_SECRET_HELP} Or set Wait for Completion to "Don't Wait". Nothing was started.`,
			},
		);
	}
	if (support.kind === 'session' && itemCount > 1) {
		throw new NodeOperationError(
			this.getNode(),
			`${operation} waits for one collection session per execution, and this node received ${itemCount} items`,
			{
				description:
					'n8n resumes a waiting execution once, and the service offers no session status lookup to ' +
					'tell when several sessions are all done. Run one item per execution, e.g. with an Execute ' +
					'Workflow node (Mode: Run once for each item) calling a workflow that creates and waits for ' +
					`one session. ${support.alwaysWaits ? 'Nothing waits.' : 'Nothing was created.'}`,
			},
		);
	}
}

/** The node's Wait Options for callbacks (one set for all items): how long to wait, and what then. */
export interface CallbackWait {
	timeLimitMs: number;
	onTimeout: OnTimeout;
}

/** Reads the Wait Options of waiting for callbacks, before anything is started. */
export function readCallbackWait(this: IExecuteFunctions): CallbackWait {
	const options = this.getNodeParameter('waitOptions', 0, {}) as IDataObject;
	return {
		timeLimitMs: waitDurationMs(options.waitAmount, options.waitUnit),
		onTimeout: options.onTimeout === 'returnLastStatus' ? 'returnLastStatus' : 'error',
	};
}

/**
 * After every item was started: leaves one waiting item per started journey or session as the input
 * n8n keeps for this node (see waiting.ts), and puts the execution to wait until the time limit.
 * Items that do not wait (own callback URL, error items) are kept as they are. Returns what the
 * node shows while waiting; when nothing waits, the execution simply goes on.
 */
export async function putToWaitForCallbacks(
	this: IExecuteFunctions,
	support: AnyCompletionSupport,
	{ timeLimitMs, onTimeout }: CallbackWait,
	results: INodeExecutionData[][],
	ownCallbackUrl: (itemIndex: number) => boolean,
): Promise<INodeExecutionData[][]> {
	const nowMs = Date.now();
	const since = new Date(nowMs).toISOString();
	const until = new Date(nowMs + timeLimitMs);

	const stored: INodeExecutionData[] = [];
	let waiting = 0;
	results.forEach((outputs, itemIndex) => {
		for (const item of outputs ?? []) {
			const id = idFromOutput(support.kind, item.json);
			// an error item of the router ({ error: { message, code, … }, message }) waits for nothing
			const isError = isObject(item.json.error);
			// a journey Wait for Journey found final already has its result: nothing to wait for
			const isFinal = item.json.isFinal === true;
			if (isError || isFinal || !id || ownCallbackUrl(itemIndex)) {
				stored.push(item);
				continue;
			}
			const entry: WaitingEntry = {
				kind: support.kind,
				id,
				status: statusFromOutput(item.json),
				started: item.json,
				since,
				until: until.toISOString(),
				timeLimitMs,
				onTimeout,
			};
			stored.push({ json: waitingItemJson(entry), pairedItem: item.pairedItem });
			waiting++;
		}
	});
	const shown = results.flat();
	if (waiting === 0) return [shown];

	// n8n keeps this stack entry while the execution waits: its items are what the node outputs if the
	// time limit passes, and what webhook() reads to know which ids it waits for
	this.getExecuteData().data = { main: [stored] };
	this.setMetadata({ resumeUrl: resumeUrl.call(this) });
	await this.putExecutionToWait(until);
	return [shown];
}
