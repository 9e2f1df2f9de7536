import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, MAX_RETRIES, isNodeStop } from '../transport';
import { apiErrorCode, toNodeError } from '../transport/errors';
import { FAILED_ROUNDS_TO_OPEN, RequestGate } from '../transport/gate';
import * as apiRequest from './apiRequest';
import * as bankStatementJourney from './bankStatementJourney';
import * as collectionSession from './collectionSession';
import * as company from './company';
import {
	assertCanWaitForCallbacks,
	putToWaitForCallbacks,
	readCallbackWait,
	waitsForCallbacks as putsToWait,
} from '../completion/putToWait';
import * as creditReport from './creditReport';
import * as employment from './employment';
import * as incomeTaxReturn from './incomeTaxReturn';
import type { FinVerifyOperation, FinVerifyResource, FinVerifyType } from './node.type';
import type { Operation, OperationRequest } from './operation';
import type { OutputMode } from '../helpers/outputChoice';
import { outputMode, personalDataChoice } from '../helpers/outputChoice';
import { consentRecord } from '../helpers/consentRecord';
import type { PullContext } from '../helpers/consentRecord';
import { simplifyOutput } from '../helpers/normalize/simplified';
import type { PersonalDataChoice } from '../helpers/personalData';
import { maskPersonalData } from '../helpers/personalData';

type Registry = { [R in FinVerifyResource]: Record<FinVerifyOperation<R>, Operation> };

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
/** Items in Parallel at most (the rate limit is the real bound: docs/reliability.md, failing fast). */
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
	const items = `item${done.length > 1 ? 's' : ''} ${done.join(', ')}`;
	const note =
		ids.length > 0
			? `Done before the node stopped, not in the output: ${items} (created: ${ids.join(', ')}). ` +
				'Look these up before running those items again, so nothing is created twice.'
			: `Done before the node stopped, not in the output: ${items}. Running them again repeats ` +
				'their requests.';
	const before = error.description?.trim();
	// the error's own text may end without a full stop ("… HTTP 404"): end its sentence first
	error.description = before ? `${before}${/[.!?]$/.test(before) ? '' : '.'} ${note}` : note;
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

/** How the router shapes an item's output, read with the item before anything is sent. */
interface ItemOutput {
	mode: OutputMode;
	/** Absent for Raw output (nothing is masked). */
	personalData?: PersonalDataChoice;
	/** A credit pull's Consent Reference, copied into the consent record. */
	consentReference?: unknown;
}

/** One input item, read and checked: what its operation sends and how its output is shaped. */
interface ReadItem {
	request: OperationRequest;
	output: ItemOutput;
}

/**
 * Owns the item loop in two passes. First every item is read (its operation's `read`: parameters
 * checked, nothing sent), so an invalid item 4 never leaves journeys created or reports paid for
 * items 0-3 that no output names. Then each item's request is sent (its operation's `execute`)
 * with bounded concurrency, keeping output order and `pairedItem`; failures become error items when
 * the node continues on fail.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as FinVerifyResource;
	const operation = this.getNodeParameter('operation', 0) as string;
	const finVerify = { resource, operation } as FinVerifyType;
	const operations = registry[finVerify.resource] as Record<string, Operation>;
	const module = operations?.[finVerify.operation];
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	// Wait for Completion on callbacks (or Wait for Journey / Session): checked before anything is started
	const waitsForCallbacks = putsToWait.call(this, module.completion);
	if (waitsForCallbacks)
		await assertCanWaitForCallbacks.call(this, module.completion!, items.length);
	const callbackWait = waitsForCallbacks ? readCallbackWait.call(this) : undefined;

	// operations that return records have the Output choice; Simplified is picked here, after the
	// operation, then personal data is masked (every mode but Raw), then a credit pull's consent record
	// is added (every mode)
	const key = `${resource}.${operation}`;
	const hasOutputChoice = module.description.some((p) => p.name === 'outputMode');
	const readOutput = (itemIndex: number): ItemOutput => {
		const mode = hasOutputChoice ? outputMode(this, itemIndex) : 'raw';
		return {
			mode,
			personalData: mode !== 'raw' ? personalDataChoice(this, itemIndex) : undefined,
			consentReference:
				module.consentPurpose !== undefined
					? this.getNodeParameter('consentReference', itemIndex, '')
					: undefined,
		};
	};
	const pull: PullContext = {
		workflowId: this.getWorkflow().id ?? null,
		workflowName: this.getWorkflow().name ?? null,
		executionId: this.getExecutionId() ?? null,
		nodeName: this.getNode().name,
	};
	const shapeOutput = (json: IDataObject, output: ItemOutput, sentAt: Date): IDataObject => {
		let shaped = json;
		if (output.mode === 'simplified') shaped = simplifyOutput(key, shaped);
		if (output.personalData) shaped = maskPersonalData(shaped, output.personalData);
		if (module.consentPurpose !== undefined) {
			shaped = {
				...shaped,
				consentRecord: consentRecord(
					module.consentPurpose,
					key,
					sentAt,
					pull,
					output.consentReference,
				),
			};
		}
		return shaped;
	};

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

	// Pass 1, reading: every item's parameters are read and checked before the first request of any
	// item. An invalid item stops the node, or (Continue on error) becomes an error item.
	const read: Array<ReadItem | undefined> = new Array(items.length);
	const readFailures: typeof failures = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			read[itemIndex] = {
				request: module.read.call(this, itemIndex),
				output: readOutput(itemIndex),
			};
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (!continueOnFail) throw forModel.call(this, nodeError);
			readFailures.push({ index: itemIndex, error: nodeError });
			results[itemIndex] = [errorItem(nodeError, itemIndex)];
		}
	}

	// Pass 2, sending: each read item's request, a few at a time. The node stops for every item (a
	// rejected credential, an open circuit, a 429 storm): no item is started after it, whatever the
	// error setting
	let nodeStop: NodeApiError | NodeOperationError | undefined;
	const itemFailures: typeof failures = [];
	let next = 0;
	const worker = async () => {
		while (next < items.length && failures.length === 0 && !nodeStop) {
			const itemIndex = next++;
			const item = read[itemIndex];
			if (!item) continue;
			try {
				// when the request asserting the subject's consent was sent
				const sentAt = new Date();
				const output = await module.execute.call(this, item.request, policy, itemIndex);
				results[itemIndex] = output.map((outputItem) => ({
					...outputItem,
					json: shapeOutput(outputItem.json, item.output, sentAt),
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
	const failed = new Set([...readFailures, ...itemFailures].map((f) => f.index));
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
		[...readFailures, ...itemFailures],
		items.length,
	);
	if (tooManyFailed) throw stop(tooManyFailed);
	if (waitsForCallbacks) {
		const { completion } = module;
		const ownCallbackUrl = (itemIndex: number) => {
			const item = read[itemIndex];
			return item !== undefined && completion!.usesOwnCallbackUrl(item.request);
		};
		return await putToWaitForCallbacks.call(
			this,
			completion!,
			callbackWait!,
			results,
			ownCallbackUrl,
		);
	}
	return [results.flat()];
}
