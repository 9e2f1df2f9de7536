import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isNodeStop } from '../transport';
import { toNodeError } from '../transport/errors';
import { createdIdsOfError } from '../helpers/createdIds';
import type { Failure, NodeError } from './failurePolicy';
import {
	errorItem,
	failedItemsError,
	failedItemsOf,
	firstFailure,
	forModel,
	hintInsteadOfStop,
	namingDoneItems,
} from './failurePolicy';
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
import * as triggerDelivery from './triggerDelivery';
import type { FinVerifyOperation, FinVerifyResource, FinVerifyType } from './node.type';
import type { Operation, OperationRequest } from './operation';
import type { ItemOutput } from './itemOutput';
import { itemOutputOf } from './itemOutput';
import { incompleteFailure, isIncomplete } from './incompleteAnswers';
import { readRequestSetup } from './requestPolicy';
import { lostItemsError, outageOf, reportOutcomes, unwiredOutputs } from './outcomes';

type Registry = { [R in FinVerifyResource]: Record<FinVerifyOperation<R>, Operation> };

/** Every operation of every resource; a missing or extra operation does not compile. */
export const registry: Registry = {
	creditReport: creditReport.operations,
	company: company.operations,
	employment: employment.operations,
	incomeTaxReturn: incomeTaxReturn.operations,
	bankStatementJourney: bankStatementJourney.operations,
	collectionSession: collectionSession.operations,
	triggerDelivery: triggerDelivery.operations,
	apiRequest: apiRequest.operations,
};

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

	// how each item's answer is shaped (actions/itemOutput.ts) and how its requests are sent
	// (actions/requestPolicy.ts): read once, before either pass
	const itemOutput = itemOutputOf(this, `${resource}.${operation}`, module);
	const { options, concurrency, policy } = readRequestSetup(this);

	// Outputs n8n computed from the parameters (FinVerify.node.ts, configuredOutputs): Success or
	// Complete first, then Incomplete and Failed where version 3 asks for them; n8n's error output, when
	// On Error asks for it, comes after these and is not ours to fill
	const outputs = this.getNodeOutputs().filter((o) => o.type === 'main' && o.category !== 'error');
	const incompleteOutput = outputs.findIndex((o) => o.displayName === 'Incomplete');
	const failedOutput = outputs.findIndex((o) => o.displayName === 'Failed');
	const toFailedOutput =
		failedOutput > 0 && failedItemsOf(this, waitsForCallbacks) === 'failedOutput';
	const continueOnFail = this.continueOnFail();
	// the node makes a failed item an item of its own (the Failed output, or n8n's Continue) and goes on
	const keepsGoing = toFailedOutput || continueOnFail;

	const results: Array<INodeExecutionData[] | undefined> = new Array(items.length);
	const failures: Failure[] = [];

	// Pass 1, reading: every item's parameters are read and checked before the first request of any
	// item. An invalid item stops the node, or becomes a failed item.
	const read: Array<ReadItem | undefined> = new Array(items.length);
	// what names an item in messages: its request or its input fields (masked where personal)
	const identity = (itemIndex: number) => ({
		request: read[itemIndex]?.request,
		input: items[itemIndex]?.json,
	});
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			read[itemIndex] = {
				request: module.read.call(this, itemIndex),
				output: itemOutput.read(itemIndex),
			};
		} catch (error) {
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (!keepsGoing) throw forModel(this, nodeError);
			failures.push({ index: itemIndex, error: nodeError, created: [] });
		}
	}

	// Pass 2, sending: each read item's request, a few at a time. The node stops for every item (a
	// rejected credential, an open circuit, a 429 storm): no item is started after it, whatever the
	// error setting; without a way to go on, so does the first failed item
	let nodeStop: NodeError | undefined;
	const stopCreated: string[] = [];
	let halted = false;
	let next = 0;
	const worker = async () => {
		while (next < items.length && !halted && !nodeStop) {
			const itemIndex = next++;
			const item = read[itemIndex];
			if (!item) continue;
			try {
				// when the request asserting the subject's consent was sent
				const sentAt = new Date();
				const output = await module.execute.call(this, item.request, policy, itemIndex);
				const shaped = output.map((outputItem) => ({
					...outputItem,
					json: itemOutput.shape(outputItem.json, item.output, sentAt),
					pairedItem: { item: itemIndex },
				}));
				if (item.output.incompleteAnswers === 'fail') {
					const incomplete = incompleteFailure(this, shaped, itemIndex);
					if (incomplete) throw incomplete;
				}
				results[itemIndex] = shaped;
			} catch (error) {
				const created = createdIdsOfError(error);
				const nodeError = toNodeError(this.getNode(), error, itemIndex);
				if (isNodeStop(nodeError)) {
					nodeStop ??= nodeError;
					stopCreated.push(...created);
				} else {
					failures.push({ index: itemIndex, error: nodeError, created });
					if (!keepsGoing) halted = true;
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));

	// what stops the node: it throws (a red execution) unless a Continue setting is on, under which n8n
	// would pass the input items on as successes: then every item goes on as its outcome says, and a hint
	// says why the execution is not red
	const stop = (error: NodeError) =>
		forModel(
			this,
			namingDoneItems(
				error,
				results,
				[
					...failures,
					...(stopCreated.length > 0 ? [{ index: -1, error, created: stopCreated }] : []),
				],
				identity,
			),
		);
	// the service down without the circuit opening (too few items for it, or every item's own retries
	// used up): no item sent got an answer of the service, and each failed for want of one (connection
	// refused, timeout, 5xx after its retries). A stop like the circuit's, whatever the threshold
	nodeStop ??= outageOf(this, read, results, failures, keepsGoing, identity);
	if (nodeStop) {
		if (!continueOnFail) throw stop(nodeStop);
		const failed = new Set(failures.map((f) => f.index));
		for (let index = 0; index < items.length; index++)
			if (!results[index] && !failed.has(index))
				failures.push({ index, error: nodeStop, created: index === 0 ? stopCreated : [] });
		hintInsteadOfStop(this, nodeStop);
	}
	if (!keepsGoing && failures.length > 0) throw stop(firstFailure(failures).error);
	const tooManyFailed = failedItemsError(this, options, failures, items.length, identity);
	if (tooManyFailed) {
		if (!continueOnFail) throw stop(tooManyFailed);
		hintInsteadOfStop(this, tooManyFailed);
	}

	// each failed item: on the Failed output, or where n8n's Continue setting takes it (its error
	// output moves items of exactly `{ error, message }`; the regular output keeps the input's fields)
	const toErrorOutput = !toFailedOutput && this.getNode().onError === 'continueErrorOutput';
	for (const failure of failures) {
		const input = toErrorOutput ? undefined : items[failure.index]?.json;
		results[failure.index] = [errorItem(failure, input)];
	}

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
			results.map((r) => r ?? []),
			ownCallbackUrl,
		);
	}

	// each input item's output items go, together, to one output; n8n's error output (On Error: Continue
	// (using error output)) comes after ours: n8n moves the error items of the first output there
	const out: INodeExecutionData[][] = outputs.length > 0 ? outputs.map(() => []) : [[]];
	const errorOutput = toErrorOutput ? out.length : undefined;
	const failedIndexes = new Set(failures.map((f) => f.index));
	/** Where each input item went (by output index, n8n's error output included). */
	const went: Array<number | undefined> = new Array(items.length);
	results.forEach((itemOutput, itemIndex) => {
		if (!itemOutput) return;
		const incomplete =
			read[itemIndex]?.output.incompleteAnswers === 'separateOutput' &&
			itemOutput.some(isIncomplete);
		const target = failedIndexes.has(itemIndex)
			? toFailedOutput
				? failedOutput
				: 0
			: incompleteOutput > 0 && incomplete
				? incompleteOutput
				: 0;
		out[target].push(...itemOutput);
		went[itemIndex] =
			failedIndexes.has(itemIndex) && errorOutput !== undefined ? errorOutput : target;
	});

	const names = [...outputs.map((o) => o.displayName ?? 'main'), 'error'];
	// what the execution's custom data shows of this batch
	reportOutcomes(this, { went, failures, incompleteOutput, identity });
	// an item sent to an output with nothing connected would vanish: the node says so instead
	const unwired = unwiredOutputs(this, went, names, identity);
	if (unwired) {
		const lost = lostItemsError(this, unwired, went, names, identity);
		if (!continueOnFail) throw forModel(this, namingDoneItems(lost, results, failures, identity));
		hintInsteadOfStop(this, lost);
	}
	return out;
}
