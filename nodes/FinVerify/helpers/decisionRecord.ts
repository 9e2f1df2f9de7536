import type { IDataObject } from 'n8n-workflow';

import type { SimplifiedViews } from './normalize/simplified';
import { simplifyWith } from './normalize/simplified';

/** Who decided: n8n's workflow, execution and node, and the node's version. */
export interface DecisionContext {
	workflowId: string | null;
	workflowName: string | null;
	executionId: string | null;
	nodeName: string;
	nodeVersion: number;
}

/** The verdict's own fields: the record names them apart from the facts. */
const VERDICT_FIELDS = new Set([
	'decisionReady',
	'incomplete',
	'adverse',
	'declinable',
	'decidedOn',
	'consentRecord',
	'decisionRecord',
]);

/**
 * What a lender keeps for the audit of one decision (version 3, Normalized output of a decision
 * operation), in one object a workflow stores as it is next to its decision (docs/output.md, "The
 * decision record"): the operation and node version, who ran it (workflow, execution, node) and when,
 * the service's request id and report time where the answer has them, the verdict (`decisionReady`,
 * `incomplete`, `adverse`, and a company's `declinable` and `decidedOn`), the facts decided on (the
 * version 3 Simplified view's facts), and the consent record of a credit pull. Built from the item as
 * it leaves (personal data masked as Personal Data in Output says), so it holds nothing the item does
 * not.
 */
export function decisionRecord(
	operation: string,
	item: IDataObject,
	context: DecisionContext,
	decidedAt: Date,
	views: SimplifiedViews | undefined,
): IDataObject {
	// the facts of the version 3 Simplified view (its operation's own views)
	const view = simplifyWith(views, item, context.nodeVersion);
	const facts: IDataObject = {};
	for (const [key, value] of Object.entries(view)) if (!VERDICT_FIELDS.has(key)) facts[key] = value;
	const request = (key: string) => (typeof item[key] === 'string' ? (item[key] as string) : null);
	return {
		operation,
		nodeVersion: context.nodeVersion,
		decidedAt: decidedAt.toISOString(),
		workflowId: context.workflowId,
		workflowName: context.workflowName,
		executionId: context.executionId,
		nodeName: context.nodeName,
		requestId: request('requestId') ?? request('jobId') ?? request('clientId'),
		reportedAt: request('reportedAt'),
		decisionReady: item.decisionReady ?? null,
		incomplete: item.incomplete ?? [],
		adverse: item.adverse ?? null,
		...('declinable' in item ? { declinable: item.declinable } : {}),
		...('decidedOn' in item ? { decidedOn: item.decidedOn } : {}),
		facts,
		consentRecord: item.consentRecord ?? null,
	};
}
