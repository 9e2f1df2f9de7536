/**
 * What each version of the nodes means, in one place: the code asks these questions and never compares
 * a node's `typeVersion` itself (test/unit/versions.test.cts fails on a comparison anywhere else under
 * nodes/). It stands on the ground floor because every floor asks: the output choice (helpers), the
 * Simplified views (helpers/normalize), the failure policy and the decision fields (actions), the trigger.
 *
 * FinVerify:
 * - 1: the Simplify switch (on: the Normalized record, off: the raw answer); personal data in full; one
 *   output; each download's own switch name and the shared output field `data`.
 * - 2: Output (Simplified / Normalized / Raw) in place of Simplify; Personal Data in Output (Masked by
 *   default); one `download` switch, each download with its own output field.
 * - 3: the decision verdict (decisionReady, incomplete, adverse) on the answers a lender's rule decides on,
 *   unless the output is Raw; Incomplete Answers and Decide On; the Failed output and Fail the Node When
 *   Items Fail (default: all items).
 *
 * FinVerify Trigger:
 * - 1.2: Personal Data in Output (Masked by default); earlier versions output what they received.
 * - 1.3: an accepted delivery is answered when its workflow has finished (n8n's "last node" answer), not when its
 *   execution was created; a copy of it arriving before that answer is told to come back later (503).
 */

/** The versions of the FinVerify node, oldest first, and the one a new node gets. */
export const FINVERIFY_VERSIONS = [1, 2, 3];
export const FINVERIFY_DEFAULT_VERSION = 3;

/** The versions the version notice is shown on: those older than the default (docs/upgrading.md). */
export const FINVERIFY_OLDER_VERSIONS = FINVERIFY_VERSIONS.filter(
	(version) => version < FINVERIFY_DEFAULT_VERSION,
);

/** How a node's answer is shaped (the same words as helpers/outputChoice.ts's OutputMode). */
type OutputMode = 'simplified' | 'normalized' | 'raw';

/** Version 1's Simplify switch in place of the Output choice. */
export const hasSimplifySwitch = (version: number): boolean => version < 2;

/** Output (Simplified / Normalized / Raw), Personal Data in Output and the one `download` switch. */
export const hasOutputChoice = (version: number): boolean => version >= 2;

/** The decision verdict, Incomplete Answers, Decide On, the Failed output and its thresholds. */
export const hasDecisions = (version: number): boolean => version >= 3;

/**
 * Whether an answer of a decision operation carries the verdict: on version 3 unless the output is Raw
 * (the service's answer as sent, nothing added).
 */
export const addsVerdict = (version: number, output: OutputMode): boolean =>
	hasDecisions(version) && output !== 'raw';

/** Whether the Simplified item is the version 3 decision view (the verdict leads it). */
export const hasDecisionViews = hasDecisions;

/** Fail the Node When Items Fail when not set: all items on version 3, never before. */
export const failNodeWhenDefault = (version: number): 'allItems' | 'never' =>
	hasDecisions(version) ? 'allItems' : 'never';

/** The output field of a download when not set: the shared `data` on version 1, its own from 2. */
export const downloadFieldDefault = (version: number, ownDefault: string): string =>
	hasOutputChoice(version) ? ownDefault : 'data';

/** Resumes of waiting nodes count against the process's resume capacity (version 1: about 9 MB per queued resume). */
export const resumesAreCapped = (version: number): boolean => version < 2;

/** Search by Name fails an item nothing matches (NO_RESULTS, the Failed output) unless the option says otherwise. */
export const searchFailsOnNothingFound = (version: number): boolean => version >= 3;

/** The trigger's versions, oldest first, and the one a new trigger gets. */
export const TRIGGER_VERSIONS = [1, 1.1, 1.2, 1.3];
export const TRIGGER_DEFAULT_VERSION = 1.3;

/** The trigger answers an accepted delivery when its workflow has finished (from 1.3), not when it started. */
export const triggerAnswersWhenFinished = (version: number): boolean => version >= 1.3;

/** The trigger's Personal Data in Output (masked by default), from its version 1.2. */
export const triggerMasksPersonalData = (version: number): boolean => version >= 1.2;

/**
 * displayOptions conditions on the node's version, for the fields: shown on version 1 only, from
 * version 2, from version 3, on the versions older than the default (the version notice), and the
 * trigger's from 1.2.
 */
export const ON_VERSION_1 = { '@version': [1] };
export const FROM_VERSION_2 = { '@version': [{ _cnd: { gte: 2 } }] };
export const FROM_VERSION_3 = { '@version': [{ _cnd: { gte: 3 } }] };
export const ON_OLDER_VERSIONS = { '@version': FINVERIFY_OLDER_VERSIONS };
export const TRIGGER_FROM_VERSION_1_2 = { '@version': [{ _cnd: { gte: 1.2 } }] };
