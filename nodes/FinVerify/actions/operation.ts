import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import type { CompletionSupport } from '../completion/putToWait';
import type { Decider } from '../helpers/normalize/decision';
import type { SimplifiedViews } from '../helpers/normalize/simplified';

/**
 * What every `<op>.operation.ts` exports, in two steps. The router owns the item loop, pairing and
 * continueOnFail: it calls `read` for every input item first, and only when every item was read
 * (or, with Continue on error, turned into an error item) calls `execute` for each one. So an
 * invalid item 4 never leaves a journey created or a report paid for items 0-3.
 *
 * `R` is the operation's request: a plain object holding everything the item sends (the body, the
 * path, the download and wait choices), checked by `read`.
 */
export interface OperationModule<R> {
	description: INodeProperties[];
	/**
	 * Reads and checks the item's parameters (a NodeOperationError naming the field and the expected
	 * format); sends nothing. Returns what `execute` sends.
	 */
	read: (this: IExecuteFunctions, itemIndex: number) => R;
	/**
	 * Sends the request `read` returned and shapes the answer into the item's output items
	 * (pairedItem is added by the router). Reads no parameters.
	 */
	execute: (
		this: IExecuteFunctions,
		request: R,
		policy: RequestPolicy,
		itemIndex: number,
	) => Promise<INodeExecutionData[]>;
	/**
	 * Present on start operations whose result the service reports by callback (Wait for Completion).
	 */
	completion?: CompletionSupport<R>;
	/**
	 * Present on credit pulls (operations that ask Subject Has Consented): what the subject consented
	 * to, written into every output item's consent record.
	 */
	consentPurpose?: string;
	/**
	 * What the Simplified output picks from the Normalized record (helpers/normalize/simplified.ts):
	 * `simplified` for version 2, `decision` for version 3 where the verdict leads. Absent, or a view
	 * absent: the record is kept whole (without `shape`).
	 */
	views?: SimplifiedViews;
	/**
	 * What the decision rests on (helpers/normalize/decision.ts): present on the operations a lender's
	 * rule decides on, which offer *Incomplete Answers* (`incompleteAnswersField` in their description)
	 * and, on version 3, carry the verdict (decisionReady, incomplete, adverse) and have the Complete,
	 * Incomplete and Failed outputs. test/unit/operationDeclarations.test.cts holds both ways.
	 */
	decider?: Decider;
}

declare const requestOfSomeOperation: unique symbol;

/**
 * The request of an operation whose type the router does not know: it can only hand what one
 * operation's `read` returned to the same operation's `execute`.
 */
export type OperationRequest = { readonly [requestOfSomeOperation]: true };

/** An operation as the registry holds it (its request type hidden). */
export type Operation = OperationModule<OperationRequest>;

/**
 * Registers an operation: checks that what its `read` returns is what its `execute` takes, then
 * hides that type so every operation fits one registry.
 */
export function defineOperation<R>(module: OperationModule<R>): Operation {
	return module as unknown as Operation;
}
