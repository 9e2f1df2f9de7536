import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { OutputMode } from '../helpers/outputChoice';
import type { Operation } from './operation';
import { addsVerdict } from '../../shared/versions';

/**
 * Incomplete Answers (node version 3, the operations a lender's rule decides on): where an answer
 * goes whose verdict says `decisionReady: false`. The router asks `incompleteAnswersOf` once, then
 * `incompleteFailure` for each answer (Treat as Failed); with Send to the Incomplete Output it puts
 * each input item's output items, together, on Complete or Incomplete (`isIncomplete`).
 */
export type IncompleteAnswers = 'separateOutput' | 'fail' | 'keep';

/**
 * The node's choice, or undefined when its answers carry no verdict (versions 1 and 2, operations
 * without one, Raw output). Run as an AI Agent tool, every answer stays on the one output the agent
 * reads (the model sees decisionReady and incomplete).
 */
export function incompleteAnswersOf(
	context: IExecuteFunctions,
	operation: Operation,
	mode: OutputMode,
): IncompleteAnswers | undefined {
	const node = context.getNode();
	// the operations a rule decides on declare their decider (actions/operation.ts)
	if (!addsVerdict(node.typeVersion, mode) || !operation.decider) return undefined;
	if (node.type.endsWith('Tool')) return 'keep';
	const choice = context.getNodeParameter('incompleteAnswers', 0, 'separateOutput');
	return choice === 'fail' || choice === 'keep' ? choice : 'separateOutput';
}

/**
 * An output item whose answer is not decision-ready, and not declinable on a known adverse fact either
 * (a struck-off company whose risk flags are unknown leaves on Complete, `declinable: true`, for the
 * rule to decline: helpers/normalize/decision.ts).
 */
export const isIncomplete = (item: INodeExecutionData) =>
	(item.json as IDataObject).decisionReady === false &&
	(item.json as IDataObject).declinable !== true;

/**
 * Treat as Failed: the error an incomplete answer becomes (code INCOMPLETE_ANSWER), naming what is
 * unknown; undefined for a complete answer.
 */
export function incompleteFailure(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	itemIndex: number,
): NodeOperationError | undefined {
	const incomplete = items.find(isIncomplete);
	if (!incomplete) return undefined;
	const unknown = (incomplete.json as IDataObject).incomplete;
	const list = Array.isArray(unknown) && unknown.length > 0 ? unknown.join('; ') : 'not said';
	const error = new NodeOperationError(context.getNode(), `The answer is incomplete: ${list}`, {
		itemIndex,
		description:
			'Incomplete Answers is set to Treat as Failed: the answer came, but not every fact a decision needs is known. Refer it to a person, or pick Send to the Incomplete Output to keep the answer.',
	});
	error.context.code = 'INCOMPLETE_ANSWER';
	return error;
}
