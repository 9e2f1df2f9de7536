import type {
	IDataObject,
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import {
	DEFAULT_MAX_RETRIES,
	DEFAULT_TIMEOUT_MS,
	MAX_RETRIES,
	isCheckingStop,
	isNodeStop,
	setCheckingPass,
} from '../transport';
import { apiErrorCode, toNodeError } from '../transport/errors';
import { FAILED_ROUNDS_TO_OPEN, RequestGate } from '../transport/gate';
import * as apiRequest from './apiRequest';
import * as bankStatementJourney from './bankStatementJourney';
import * as collectionSession from './collectionSession';
import * as company from './company';
import {
	assertCanWaitForCallbacks,
	putToWaitForCallbacks,
	readWaitMode,
} from './completion/putToWait';
import * as creditReport from './creditReport';
import * as employment from './employment';
import * as incomeTaxReturn from './incomeTaxReturn';
import type { FinVerifyOperation, FinVerifyResource, FinVerifyType } from './node.type';
import type { OperationModule } from './operation';
import { outputMode } from './common.descriptions';
import { simplifyOutput } from '../helpers/normalize/simplified';

type Registry = { [R in FinVerifyResource]: Record<FinVerifyOperation<R>, OperationModule> };

/** Every operation of every resource; a missing or extra operation does not compile. */
export const registry: Registry = {
	creditReport: creditReport.operations,
	company: company.operations,
	employment: employment.operations,
	incomeTaxReturn: incomeTaxReturn.operations,
	bankStatementJourney: bankStatementJourney.operations,
	collectionSession: collectionSession.operations,
	apiRequest: apiRequest.operations,
};

const DEFAULT_CONCURRENCY = 3;
const MAX_TIMEOUT_MS = 3_600_000;
/** Items in Parallel at most (the service's rate limit is the real bound; see docs/scaling.md). */
const MAX_CONCURRENCY = 100;

/**
 * The item for a failed input item when the node continues on fail:
 * `{ error: { message, code, httpCode, description }, message }`. n8n 1.x sends an item to the
 * error output only when its json keys are exactly `error` and `message` (2.x also accepts
 * `details`), and it replaces the json of items that carry `item.error`; so the code and HTTP
 * status travel inside `error`.
 */
function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	// the same keys for every failure, so a Switch on error.code sees every case: the service's code
	// and HTTP status (a number) for its answers; INVALID_INPUT (set by the input checks) or
	// NODE_ERROR and no status for what the node stopped itself
	const isApi = error instanceof NodeApiError;
	const ownCode = (error.context as IDataObject | undefined)?.code;
	const httpCode = isApi && error.httpCode ? Number(error.httpCode) : null;
	const message = error.message || 'The item failed';
	const failure: IDataObject = {
		message,
		code: isApi
			? (apiErrorCode(error) ?? null)
			: typeof ownCode === 'string'
				? ownCode
				: 'NODE_ERROR',
		httpCode: httpCode !== null && Number.isFinite(httpCode) ? httpCode : null,
		description: error.description ?? null,
	};
	return { json: { error: failure, message }, pairedItem: { item: itemIndex } };
}

/** Fields of an output item that name something the service created (journey, session, ITR job). */
const CREATED_ID_FIELDS = ['clientId', 'client_id', 'sessionId', 'session_id', 'jobId', 'job_id'];

function createdIdsOf(json: IDataObject): string[] {
	const data = json.data as IDataObject | undefined;
	return CREATED_ID_FIELDS.flatMap((field) => [json[field], data?.[field]]).filter(
		(value): value is string => typeof value === 'string' && value !== '',
	);
}

/**
 * When the node stops after some items were done (Items in Parallel): the error names them and the
 * ids the service created for them, which would otherwise be lost with the output.
 */
function nameDoneItems(
	error: NodeApiError | NodeOperationError,
	results: INodeExecutionData[][],
	isFailure: (itemIndex: number) => boolean,
) {
	const done = results.flatMap((output, itemIndex) =>
		output && !isFailure(itemIndex) ? [itemIndex] : [],
	);
	if (done.length === 0) return error;
	const ids = [
		...new Set(done.flatMap((i) => results[i].flatMap((item) => createdIdsOf(item.json)))),
	];
	const note =
		`Done before the node stopped, not in the output: item${done.length > 1 ? 's' : ''} ` +
		`${done.join(', ')}${ids.length > 0 ? ` (created: ${ids.join(', ')})` : ''}. ` +
		'Look them up before running them again.';
	error.description = error.description ? `${error.description} ${note}` : note;
	return error;
}

type FailThreshold = 'never' | 'allItems' | 'share';

/**
 * Request Options → Fail the Node When Items Fail: with Continue on error, fails the node when the
 * failed items pass the chosen threshold (never by default: n8n's Continue semantics).
 */
function failedItemsError(
	this: IExecuteFunctions,
	options: IDataObject,
	failed: Array<{ index: number; error: NodeApiError | NodeOperationError }>,
	total: number,
): NodeOperationError | undefined {
	const threshold = (options.failNodeWhen ?? 'never') as FailThreshold;
	if (threshold === 'never' || failed.length === 0 || total === 0) return undefined;
	const sharePercent = Math.max(0, Math.min(Number(options.failedSharePercent ?? 50) || 0, 100));
	const exceeded =
		threshold === 'allItems'
			? failed.length === total
			: (failed.length / total) * 100 > sharePercent;
	if (!exceeded) return undefined;
	const first = failed.reduce((a, b) => (a.index <= b.index ? a : b));
	const rule = threshold === 'allItems' ? 'all items failed' : `more than ${sharePercent}% failed`;
	return new NodeOperationError(
		this.getNode(),
		`${failed.length} of ${total} items failed (Fail the Node When Items Fail: ${rule})`,
		{
			description: `First failure, item ${first.index}: ${first.error.message}${
				first.error.description ? `. ${first.error.description}` : ''
			}`,
		},
	);
}

/**
 * Run as an AI Agent tool (n8n names the tool variant of a node `<type>Tool`), a failure reaches
 * the model as its message alone (n8n 2.x hands the agent `{ error: message }`): the message then
 * also carries the description, which says what was expected (the format of a CIN, a PAN…) or what
 * the service answered.
 */
function forModel(this: IExecuteFunctions, error: NodeApiError | NodeOperationError) {
	const { description } = error;
	if (this.getNode().type.endsWith('Tool') && description && !error.message.includes(description))
		error.message = `${error.message}. ${description}`;
	return error;
}

/**
 * n8n's execution context with each parameter read remembered for this execution: the checking pass
 * and the sending pass evaluate an item's expressions once (half the expression work per item), and
 * what is sent is exactly what was checked. Everything else is n8n's own context (its prototype);
 * the memory goes with the execution.
 */
function rememberingParameters(context: IExecuteFunctions): IExecuteFunctions {
	const read = context.getNodeParameter.bind(context) as (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	) => unknown;
	const memo = new Map<string, unknown>();
	const remembering = Object.create(context) as IExecuteFunctions;
	remembering.getNodeParameter = ((
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	) => {
		const key = `${itemIndex}\u0000${name}\u0000${JSON.stringify(fallback) ?? ''}\u0000${JSON.stringify(options) ?? ''}`;
		if (memo.has(key)) return memo.get(key);
		const value = read(name, itemIndex, fallback, options);
		memo.set(key, value);
		return value;
	}) as IExecuteFunctions['getNodeParameter'];
	return remembering;
}

/**
 * Owns the item loop: runs the chosen operation for each item with bounded concurrency, keeps
 * output order and `pairedItem`, and turns failures into error items when the node continues on
 * fail.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as FinVerifyResource;
	const operation = this.getNodeParameter('operation', 0) as string;
	const finVerify = { resource, operation } as FinVerifyType;
	const operations = registry[finVerify.resource] as Record<string, OperationModule>;
	const module = operations?.[finVerify.operation];
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	// Wait for Completion on callbacks: checked before anything is started
	const waitsForCallbacks =
		module.completion !== undefined && readWaitMode.call(this) === 'callback';
	if (waitsForCallbacks)
		await assertCanWaitForCallbacks.call(this, module.completion!, items.length);

	// operations that return records have the Output choice; Simplified is picked here, after the
	// operation
	const key = `${resource}.${operation}`;
	const hasOutputModes =
		this.getNode().typeVersion >= 2 && module.description.some((p) => p.name === 'outputMode');

	const options = this.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const concurrency = Math.max(
		1,
		Math.min(Number(options.concurrency ?? DEFAULT_CONCURRENCY) || 1, MAX_CONCURRENCY),
	);
	const policy: RequestPolicy = {
		// an empty or too small timeout (e.g. from an expression) would mean "wait forever"
		// and one above an hour is cut to an hour (timers overflow past ~24.8 days into 1 ms)
		timeoutMs:
			Number(options.timeout) >= 1000
				? Math.min(Number(options.timeout), MAX_TIMEOUT_MS)
				: DEFAULT_TIMEOUT_MS,
		maxRetries: Number.isInteger(Number(options.maxRetries ?? DEFAULT_MAX_RETRIES))
			? Number(options.maxRetries ?? DEFAULT_MAX_RETRIES)
			: DEFAULT_MAX_RETRIES,
	};
	// one gate for all items of this execution: a rejected credential, an outage or a 429 storm
	// holds back every item (transport/gate.ts)
	const attemptsPerItem = Math.max(0, Math.min(policy.maxRetries!, MAX_RETRIES)) + 1;
	policy.gate = new RequestGate({
		rateLimitedRoundsToStop: attemptsPerItem,
		// one item's whole retry schedule, and never fewer than 3 rounds
		failedRoundsToOpen: Math.max(FAILED_ROUNDS_TO_OPEN, attemptsPerItem),
		wait: async (ms) => await sleep(ms),
	});

	const results: INodeExecutionData[][] = new Array(items.length);
	const continueOnFail = this.continueOnFail();
	const failures: Array<{ index: number; error: NodeApiError | NodeOperationError }> = [];

	// Checking pass: every item's inputs are checked before the first request of any item, so an
	// invalid item 4 never leaves journeys created or reports paid for items 0-3 that no output names.
	const invalid = new Set<number>();
	const checkFailures: typeof failures = [];
	const context = rememberingParameters(this);
	setCheckingPass(context, true);
	try {
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				await module.execute.call(context, itemIndex, policy);
			} catch (error) {
				if (isCheckingStop(error)) continue;
				const nodeError = toNodeError(this.getNode(), error, itemIndex);
				if (!continueOnFail) throw forModel.call(this, nodeError);
				invalid.add(itemIndex);
				checkFailures.push({ index: itemIndex, error: nodeError });
				results[itemIndex] = [errorItem(nodeError, itemIndex)];
			}
		}
	} finally {
		setCheckingPass(context, false);
	}

	// the node stops for every item (a rejected credential, an open circuit, a 429 storm): no item is
	// started after it, whatever the error setting
	let nodeStop: NodeApiError | NodeOperationError | undefined;
	const itemFailures: typeof failures = [];
	let next = 0;
	const worker = async () => {
		while (next < items.length && failures.length === 0 && !nodeStop) {
			const itemIndex = next++;
			if (invalid.has(itemIndex)) continue;
			try {
				const output = await module.execute.call(context, itemIndex, policy);
				const simplified = hasOutputModes && outputMode(this, itemIndex) === 'simplified';
				results[itemIndex] = output.map((item) => ({
					...item,
					...(simplified ? { json: simplifyOutput(key, item.json) } : {}),
					pairedItem: { item: itemIndex },
				}));
			} catch (error) {
				const nodeError = toNodeError(this.getNode(), error, itemIndex);
				if (isNodeStop(nodeError)) {
					nodeStop ??= nodeError;
				} else if (continueOnFail) {
					itemFailures.push({ index: itemIndex, error: nodeError });
					results[itemIndex] = [errorItem(nodeError, itemIndex)];
				} else {
					failures.push({ index: itemIndex, error: nodeError });
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
	const failed = new Set([...invalid, ...itemFailures.map((f) => f.index)]);
	const stop = (error: NodeApiError | NodeOperationError) =>
		forModel.call(
			this,
			nameDoneItems(error, results, (i) => failed.has(i)),
		);
	if (nodeStop) throw stop(nodeStop);
	// the failure of the lowest item index wins, so the error does not depend on timing
	if (failures.length > 0)
		throw stop(failures.reduce((a, b) => (a.index <= b.index ? a : b)).error);
	const tooManyFailed = failedItemsError.call(
		this,
		options,
		[...checkFailures, ...itemFailures],
		items.length,
	);
	if (tooManyFailed) throw stop(tooManyFailed);
	if (waitsForCallbacks) return await putToWaitForCallbacks.call(this, module.completion!, results);
	return [results.flat()];
}
