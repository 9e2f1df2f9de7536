import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiErrorCode } from '../transport/errors';
import { createdIdsOf } from '../helpers/createdIds';
import { identityOf, itemsPhrase } from './wiring';
import { failNodeWhenDefault, hasDecisions } from '../../shared/versions';

/** What names an input item in messages (actions/outcomes.ts): its request and its input fields. */
export type Identity = (itemIndex: number) => { request?: unknown; input?: IDataObject };

/** Items named 1-based with their subjects (masked where personal): `items 1 (PAN XXXXXX234F), 3`. */
export function itemsNamed(indexes: number[], identity?: Identity, max = 10): string {
	return itemsPhrase(
		indexes.map((index) => {
			const source = identity?.(index);
			return { index, identity: source ? identityOf(source.request, source.input) : undefined };
		}),
		max,
	);
}

/**
 * What the node does with a failed item (its input was invalid, or its request failed) and when a
 * failure stops the node. n8n's own Continue settings cannot end an execution red: a node that throws
 * under Continue has its INPUT items passed on as its output, to the success branch, and the error is
 * forgotten at the next node (n8n-core `handleNodeExecutionError`). So the node never throws under a
 * Continue setting; the ways to a red execution are On Error → Stop Workflow, with the Failed output
 * (version 3) and Fail the Node When Items Fail, or without it at the first failure.
 */

export type NodeError = NodeApiError | NodeOperationError;

/** One failed input item: its index, the error, and what the service created for it before. */
export interface Failure {
	index: number;
	error: NodeError;
	created: string[];
}

/**
 * Where failed items go: the Failed output (version 3's default), or n8n's On Error setting (versions 1
 * and 2, and version 3 with Follow On Error in Settings). Where the node waits for a callback it
 * resumes through its webhook, which has one output: On Error decides there.
 */
export type FailedItems = 'failedOutput' | 'onError';

export function failedItemsOf(context: IExecuteFunctions, waitsForCallbacks: boolean): FailedItems {
	const node = context.getNode();
	if (!hasDecisions(node.typeVersion) || waitsForCallbacks || node.type.endsWith('Tool'))
		return 'onError';
	return context.getNodeParameter('failedItems', 0, 'failedOutput') === 'onError'
		? 'onError'
		: 'failedOutput';
}

/**
 * The error item of a failed input item: `{ error: { message, code, httpCode, description, created },
 * message }`, the same keys for every failure so a Switch on `error.code` sees every case: the service's
 * code and HTTP status for its answers, INVALID_INPUT / INCOMPLETE_ANSWER / NODE_ERROR for what the node
 * stopped itself. `created` names what the service created for the item before it failed.
 *
 * With `input` (the Failed output, and n8n's Continue (regular output)) the item also carries its input's
 * fields, so a failed record keeps what identifies it (a CIN, a PAN) and a node after it cannot mistake
 * it for a result. For n8n's error output the json keeps exactly `error` and `message`: n8n 1.x moves an
 * item there only in that shape (n8n adds the input's fields itself), and it replaces the json of items
 * that carry `item.error`.
 */
export function errorItem(failure: Failure, input?: IDataObject): INodeExecutionData {
	const { error, index, created } = failure;
	const isApi = error instanceof NodeApiError;
	const ownCode = (error.context as IDataObject | undefined)?.code;
	const httpCode = isApi && error.httpCode ? Number(error.httpCode) : null;
	const message = error.message || 'The item failed';
	const details: IDataObject = {
		message,
		code: isApi
			? (apiErrorCode(error) ?? null)
			: typeof ownCode === 'string'
				? ownCode
				: 'NODE_ERROR',
		httpCode: httpCode !== null && Number.isFinite(httpCode) ? httpCode : null,
		description: error.description ?? null,
	};
	if (created.length > 0) details.created = created;
	return {
		json: input ? { ...input, error: details, message } : { error: details, message },
		pairedItem: { item: index },
	};
}

/** The lowest item index's failure: the error does not depend on timing. */
export const firstFailure = (failures: Failure[]): Failure =>
	failures.reduce((a, b) => (a.index <= b.index ? a : b));

/**
 * When the node stops after some items were done: the error names them and the ids the service created
 * for them (done or failed), which would otherwise be lost with the output.
 */
export function namingDoneItems(
	error: NodeError,
	results: Array<INodeExecutionData[] | undefined>,
	failures: Failure[],
	identity?: Identity,
): NodeError {
	const failed = new Set(failures.map((f) => f.index));
	const done = results.flatMap((output, itemIndex) =>
		output && !failed.has(itemIndex) ? [itemIndex] : [],
	);
	const doneIds = new Set(
		done.flatMap((i) => (results[i] ?? []).flatMap((item) => createdIdsOf(item.json))),
	);
	const failedIds = [...new Set(failures.flatMap((f) => f.created))].filter(
		(id) => !doneIds.has(id),
	);
	const notes: string[] = [];
	if (done.length > 0) {
		const list = itemsNamed(done, identity, 20);
		notes.push(
			doneIds.size > 0
				? `Done before the node stopped, not in the output: ${list} (created: ${[...doneIds].join(', ')}). ` +
						'Look these up before running those items again, so nothing is created twice.'
				: `Done before the node stopped, not in the output: ${list}. Running them again repeats ` +
						'their requests.',
		);
	}
	if (failedIds.length > 0)
		notes.push(
			`Created by the service for items that then failed: ${failedIds.join(', ')}. Look these up ` +
				'before running those items again, so nothing is created twice.',
		);
	if (notes.length === 0) return error;
	const note = notes.join(' ');
	const before = error.description?.trim();
	// the error's own text may end without a full stop ("… HTTP 404"): end its sentence first
	error.description = before ? `${before}${/[.!?]$/.test(before) ? '' : '.'} ${note}` : note;
	return error;
}

export type FailThreshold = 'never' | 'allItems' | 'share';

/**
 * Request Options → Fail the Node When Items Fail: the error when the failed items pass the chosen
 * threshold (version 3 defaults to When All Items Fail, older versions to Never).
 */
export function failedItemsError(
	context: IExecuteFunctions,
	options: IDataObject,
	failures: Failure[],
	total: number,
	identity?: Identity,
): NodeOperationError | undefined {
	const fallback: FailThreshold = failNodeWhenDefault(context.getNode().typeVersion);
	const threshold = (options.failNodeWhen ?? fallback) as FailThreshold;
	if (threshold === 'never' || failures.length === 0 || total === 0) return undefined;
	const sharePercent = Math.max(0, Math.min(Number(options.failedSharePercent ?? 50) || 0, 100));
	const exceeded =
		threshold === 'allItems'
			? failures.length === total
			: (failures.length / total) * 100 > sharePercent;
	if (!exceeded) return undefined;
	const first = firstFailure(failures);
	const rule = threshold === 'allItems' ? 'all items failed' : `more than ${sharePercent}% failed`;
	return new NodeOperationError(
		context.getNode(),
		`${failures.length} of ${total} items failed (Fail the Node When Items Fail: ${rule})`,
		{
			description: `Failed: ${itemsNamed(
				[...failures].sort((a, b) => a.index - b.index).map((f) => f.index),
				identity,
			)}. First failure, ${itemsNamed([first.index], identity)}: ${first.error.message}${
				first.error.description ? `. ${first.error.description}` : ''
			}`,
		},
	);
}

/**
 * Under a Continue setting the node cannot end the execution red (see above): what it would have
 * thrown becomes a hint in the editor's output panel, and every item goes on as its outcome says.
 */
export function hintInsteadOfStop(context: IExecuteFunctions, error: NodeError): void {
	// n8n versions without execution hints simply show none
	if (typeof context.addExecutionHints !== 'function') return;
	context.addExecutionHints({
		message: `${error.message}. On Error is set to a Continue setting, so n8n ends this execution as succeeded: keep On Error at Stop Workflow (with Failed Items → Send to the Failed Output) for a red execution and the Error Workflow.`,
		type: 'danger',
		location: 'outputPane',
	});
}

/**
 * Run as an AI Agent tool (n8n names the tool variant of a node `<type>Tool`), a failure reaches the
 * model as its message alone (n8n 2.x hands the agent `{ error: message }`): the message then also
 * carries the description, which says what was expected (the format of a CIN, a PAN…) or what the
 * service answered.
 */
export function forModel(context: IExecuteFunctions, error: NodeError): NodeError {
	const { description } = error;
	if (
		context.getNode().type.endsWith('Tool') &&
		description &&
		!error.message.includes(description)
	)
		error.message = `${error.message}. ${description}`;
	return error;
}
