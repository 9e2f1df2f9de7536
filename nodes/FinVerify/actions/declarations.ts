import type { IDataObject } from 'n8n-workflow';

import type { AdverseFact } from '../helpers/normalize/adverse';
import type { DecideOptions, Decider, DecisionVerdict } from '../helpers/normalize/decision';
import { decideWith, withDecisionBy } from '../helpers/normalize/decision';
import type { SimplifiedViews } from '../helpers/normalize/simplified';
import { simplifyWith } from '../helpers/normalize/simplified';
import type { Operation } from './operation';
import { registry } from './router';

/**
 * The tables of what the operations declare, derived from their own modules (`views`, `decider`:
 * actions/operation.ts), keyed `<resource>.<operation>`. No operation is listed here: a new operation's
 * file declares its views and decider, and it appears in these tables. The router reads the running
 * operation's own declarations; these tables serve the code that names an operation (the output
 * schemas, the tests).
 */

/** Every operation, by `<resource>.<operation>`, in the registry's order. */
export const OPERATIONS: ReadonlyArray<readonly [key: string, module: Operation]> = Object.entries(
	registry,
).flatMap(([resource, operations]) =>
	Object.entries(operations as Record<string, Operation>).map(
		([operation, module]) => [`${resource}.${operation}`, module] as const,
	),
);

const byKey = new Map(OPERATIONS);

/** The views an operation declares (undefined for an unknown key or an operation without views). */
export const viewsOf = (operation: string): SimplifiedViews | undefined =>
	byKey.get(operation)?.views;

/** The decider an operation declares (undefined for an operation a rule does not decide on). */
export const deciderOf = (operation: string): Decider | undefined => byKey.get(operation)?.decider;

/** The operations whose Simplified view picks fields (the others keep their small record). */
export const SIMPLIFIED_OPERATIONS = OPERATIONS.filter(([, m]) => m.views?.simplified).map(
	([key]) => key,
);

/** The operations whose version 3 Simplified view differs from version 2's (the decision views). */
export const V3_SIMPLIFIED_OPERATIONS = OPERATIONS.filter(([, m]) => m.views?.decision).map(
	([key]) => key,
);

/** The operations whose answers carry a decision verdict on version 3 (they declare a decider). */
export const DECISION_OPERATIONS = OPERATIONS.filter(([, m]) => m.decider).map(([key]) => key);

export const hasDecision = (operation: string): boolean => deciderOf(operation) !== undefined;

/**
 * The Simplified view of one Normalized output item of `operation` (`<resource>.<operation>`) for a
 * node of `version` (2 unless said; version 3 has the decision views).
 */
export const simplifyOutput = (operation: string, json: IDataObject, version = 2): IDataObject =>
	simplifyWith(viewsOf(operation), json, version);

/** The verdict and aggregates of one Normalized record of `operation` (ready for an operation without one). */
export function decide(
	operation: string,
	record: IDataObject,
	options?: DecideOptions,
): DecisionVerdict & IDataObject {
	const decider = deciderOf(operation);
	return decider ? decideWith(decider, record, options) : { decisionReady: true, incomplete: [] };
}

/** A Normalized record of `operation` with its verdict leading (as it is for an operation without one). */
export const withDecision = (
	operation: string,
	record: IDataObject,
	options?: DecideOptions,
): IDataObject => withDecisionBy(deciderOf(operation), record, options);

/** The adverse facts of one Normalized record of `operation`, given its verdict (none without a decider). */
export const adverseFacts = (
	operation: string,
	record: IDataObject,
	verdict: IDataObject = {},
): AdverseFact[] | null => deciderOf(operation)?.adverse(record, verdict) ?? [];
