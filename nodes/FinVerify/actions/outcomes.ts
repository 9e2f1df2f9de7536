import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiErrorCode } from '../transport/errors';
import type { Failure, Identity, NodeError } from './failurePolicy';
import { firstFailure, itemsNamed } from './failurePolicy';
import { wiringOf } from './wiring';

/**
 * What becomes of every item of a batch, once routed: an outage the circuit did not catch is a stop,
 * an output with nothing connected is never where an item silently ends, and a batch with failed or
 * incomplete items says so in the execution's custom data (what n8n shows of an execution without its
 * data).
 */

type IdentitySource = Identity;

/** Codes of a request that got no answer of the service (transport/index.ts, describeNetworkError). */
const NO_ANSWER = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EPIPE',
	'NETWORK_ERROR',
]);

/** A failure that says the service is down: no answer at all, or a 5xx after the item's retries. */
export function isOutageFailure(error: NodeError): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const httpCode = Number(error.httpCode);
	if (error.httpCode && Number.isFinite(httpCode)) return httpCode >= 500;
	const code = apiErrorCode(error);
	return code !== null && NO_ANSWER.has(code);
}

/**
 * The node concludes the service is down when every item it sent failed for want of an answer
 * (connection refused, timeouts, 5xx after retries) and none was answered: too few items for the
 * circuit (transport/gate.ts) to open, or each item's own retries spent first. Only where the node
 * would otherwise go on (the Failed output, a Continue setting): without one the first failure stops
 * it anyway. The error stops the workflow whatever Fail the Node When Items Fail says.
 */
export function outageOf(
	context: IExecuteFunctions,
	read: Array<unknown>,
	results: Array<INodeExecutionData[] | undefined>,
	failures: Failure[],
	keepsGoing: boolean,
	identity: IdentitySource,
): NodeError | undefined {
	if (!keepsGoing) return undefined;
	const sent = read.flatMap((item, index) => (item !== undefined ? [index] : []));
	if (sent.length === 0 || sent.some((index) => results[index] !== undefined)) return undefined;
	const failed = new Map(failures.map((f) => [f.index, f]));
	const sentFailures = sent.map((index) => failed.get(index));
	if (sentFailures.some((f) => f === undefined || !isOutageFailure(f.error))) return undefined;
	const first = firstFailure(sentFailures as Failure[]);
	const error = new NodeOperationError(
		context.getNode(),
		`The FinVerify service is unavailable: all ${sent.length} item${sent.length > 1 ? 's' : ''} sent failed without an answer (${first.error.message})`,
		{
			description:
				`No request of this execution was answered by the service (first: ${itemsNamed([first.index], identity)}, ` +
				`after its retries). The node stops the workflow whatever Fail the Node When Items Fail says. ` +
				'Nothing was answered, so running the execution again when the service is back bills nothing twice.',
		},
	);
	error.context.code = 'SERVICE_UNAVAILABLE';
	return error;
}

/** The outputs that received items but have nothing connected, where that loses them; undefined when none. */
export function unwiredOutputs(
	context: IExecuteFunctions,
	went: Array<number | undefined>,
	names: string[],
	identity: IdentitySource,
): number[] | undefined {
	const node = context.getNode();
	if (node.type.endsWith('Tool')) return undefined;
	const wiring = wiringOf(context);
	if (!wiring) return undefined;
	const used = [...new Set(went.filter((o): o is number => o !== undefined))].sort();
	const outputCount = Math.max(context.getNodeOutputs().length, ...used.map((o) => o + 1));
	const noneWired = Array.from({ length: outputCount }, (_, o) => o).every((o) => !wiring(o));
	const unwired = used.filter((o) => !wiring(o));
	if (unwired.length === 0) return undefined;
	if (noneWired) {
		// the last node of its workflow: its first output is the execution's result (a sub-workflow
		// returns it); run by hand, the builder is looking at this node's output panel
		const lost = unwired.filter((o) => o !== 0);
		if (lost.length === 0) return undefined;
		if (context.getMode() === 'manual') {
			context.addExecutionHints?.({
				message: `${lostItemsText(lost, went, names, identity)}. Connect it to a place a person sees before the workflow runs for real: run then, the node stops the workflow instead.`,
				type: 'warning',
				location: 'outputPane',
			});
			return undefined;
		}
		return lost;
	}
	return unwired;
}

function lostItemsText(
	unwired: number[],
	went: Array<number | undefined>,
	names: string[],
	identity: IdentitySource,
): string {
	return unwired
		.map((output) => {
			const indexes = went.flatMap((o, index) => (o === output ? [index] : []));
			const count = `${indexes.length} item${indexes.length > 1 ? 's' : ''}`;
			const name =
				output === names.length - 1 ? "n8n's error output" : `the ${names[output]} output`;
			return `${count} went to ${name}, which has nothing connected: ${itemsNamed(indexes, identity)}`;
		})
		.join('; ');
}

/** The error for items sent to outputs with nothing connected (code UNWIRED_OUTPUT). */
export function lostItemsError(
	context: IExecuteFunctions,
	unwired: number[],
	went: Array<number | undefined>,
	names: string[],
	identity: IdentitySource,
): NodeOperationError {
	const which = unwired
		.map((o) => (o === names.length - 1 ? "n8n's error output" : names[o]))
		.join(' and ');
	const error = new NodeOperationError(
		context.getNode(),
		lostItemsText(unwired, went, names, identity),
		{
			description:
				`An item on an output with nothing connected ends nowhere, and n8n would end the execution as succeeded. ` +
				`Connect ${which} to a place a person sees (a refer queue, a notification, a retry queue).`,
		},
	);
	error.context.code = 'UNWIRED_OUTPUT';
	return error;
}

/** Custom data keys: n8n shows them with the execution (up to 10 keys, values cut to 255 characters). */
export const CUSTOM_DATA = { failed: 'finverify_failed', incomplete: 'finverify_incomplete' };

/**
 * Writes the batch's failed and incomplete items into the execution's custom data (n8n's
 * `$execution.customData`: shown with the execution, and filterable in the execution list where n8n's
 * licence offers it): `<node>: 3 of 20 failed: item 4 (PAN XXXXXX234F) COMPANY_NOT_FOUND, …`. Several
 * FinVerify nodes of one execution add to the same keys.
 */
export function reportOutcomes(
	context: IExecuteFunctions,
	report: {
		went: Array<number | undefined>;
		failures: Failure[];
		incompleteOutput: number;
		identity: IdentitySource;
	},
): void {
	const { went, failures, incompleteOutput, identity } = report;
	const total = went.length;
	const node = context.getNode().name;
	const lines: Array<[string, string]> = [];
	if (failures.length > 0) {
		const sorted = [...failures].sort((x, y) => x.index - y.index);
		const codes = [
			...new Set(
				sorted.map((f) =>
					f.error instanceof NodeApiError
						? apiErrorCode(f.error)
						: ((f.error.context as IDataObject | undefined)?.code as string | undefined),
				),
			),
		].filter(Boolean);
		lines.push([
			CUSTOM_DATA.failed,
			`${node}: ${failures.length} of ${total} failed (${codes.join(', ') || 'error'}): ${itemsNamed(
				sorted.map((f) => f.index),
				identity,
				5,
			)}`,
		]);
	}
	if (incompleteOutput > 0) {
		const incomplete = went.flatMap((o, index) => (o === incompleteOutput ? [index] : []));
		if (incomplete.length > 0)
			lines.push([
				CUSTOM_DATA.incomplete,
				`${node}: ${incomplete.length} of ${total} incomplete: ${itemsNamed(incomplete, identity, 5)}`,
			]);
	}
	if (lines.length === 0) return;
	let customData: IExecuteFunctions['customData'] | undefined;
	try {
		customData = context.customData;
	} catch {
		// a context without execution data (n8n versions before custom data, some tool runs)
		return;
	}
	if (!customData || typeof customData.set !== 'function') return;
	for (const [key, text] of lines) {
		try {
			const before = customData.get(key);
			const value = before ? `${before}; ${text}` : text;
			customData.set(key, value.length > 255 ? `${value.slice(0, 254)}…` : value);
		} catch {
			// custom data is a report: never a reason for the batch to fail
		}
	}
}
