/**
 * Reconciling a waiting execution (issue 44), the pure part: what asks for it and how often the service is asked.
 *
 * Callbacks are not guaranteed: a sender that gives up, never retries, or was refused while n8n was busy leaves an
 * execution waiting although its journey is final at the service. A reconcile request is a POST on the execution's
 * resume URL (n8n has checked the URL's token) with the header `X-FinVerify-Reconcile: true`. It claims nothing:
 * its body is never read. The node looks every journey the execution waits for up at the service with the
 * credential (the status endpoint, once each) and resumes the execution only when all are final, with the statuses
 * the service gave. Collection sessions have no status lookup at the service: a reconcile request cannot tell
 * whether a session is done, so it is answered without a lookup and the session keeps waiting for its callback or
 * its time limit.
 *
 * The service asks for its status endpoint to be polled no faster than once every 5 seconds per journey: a
 * reconcile request for an execution looked up less than RECONCILE_SPACING_MS ago in this process is answered 429
 * with Retry-After, without a lookup.
 */

/** The request header that asks for a reconcile (value `true` or `1`). */
export const RECONCILE_HEADER = 'x-finverify-reconcile';

/** Least time between two status lookups of one execution's journeys by reconcile requests (the service's 5 s). */
export const RECONCILE_SPACING_MS = 5_000;

/** Most executions whose last reconcile lookup is remembered (older ones are dropped first). */
const MAX_REMEMBERED = 100_000;

const lastLookup = new Map<string, number>();

/** Whether a request's `X-FinVerify-Reconcile` header asks for a reconcile. */
export function isReconcileRequest(header: string | undefined): boolean {
	const value = (header ?? '').trim().toLowerCase();
	return value === 'true' || value === '1';
}

/**
 * Whether a reconcile of `executionId` may look its journeys up at `nowMs`, and records the lookup when it may.
 * When it may not: the seconds to wait (at least 1).
 */
export function claimReconcileLookup(
	executionId: string,
	nowMs: number,
	spacingMs = RECONCILE_SPACING_MS,
): { allowed: true } | { allowed: false; retryAfterS: number } {
	const last = lastLookup.get(executionId);
	if (last !== undefined && nowMs >= last && nowMs - last < spacingMs) {
		return {
			allowed: false,
			retryAfterS: Math.max(1, Math.ceil((last + spacingMs - nowMs) / 1000)),
		};
	}
	lastLookup.delete(executionId);
	lastLookup.set(executionId, nowMs);
	if (lastLookup.size > MAX_REMEMBERED) {
		for (const [id, at] of lastLookup) if (nowMs - at >= spacingMs) lastLookup.delete(id);
		while (lastLookup.size > MAX_REMEMBERED)
			lastLookup.delete(lastLookup.keys().next().value as string);
	}
	return { allowed: true };
}

/** What a reconcile answers when the execution keeps waiting, for the reconciler's report. */
export interface ReconcileWaiting {
	reconciled: false;
	reason: 'not_final' | 'no_status_lookup' | 'not_waiting';
	message: string;
	/** The journeys that are not final yet, with the status the service gave. */
	pending?: Array<{ clientId: string; status: string | null }>;
}

export const NO_SESSION_LOOKUP: ReconcileWaiting = {
	reconciled: false,
	reason: 'no_status_lookup',
	message:
		'The service offers no collection session status lookup: this execution keeps waiting for the session callback or its time limit.',
};

export const NOT_WAITING: ReconcileWaiting = {
	reconciled: false,
	reason: 'not_waiting',
	message: 'This node holds no journey that waits for a callback.',
};

/** The answer when some journeys are not final at the service yet. */
export function notFinalYet(
	pending: Array<{ clientId: string; status: string | null }>,
): ReconcileWaiting {
	return {
		reconciled: false,
		reason: 'not_final',
		message: `${pending.length} of the journeys this execution waits for ${pending.length === 1 ? 'is' : 'are'} not final at the service; it keeps waiting.`,
		pending,
	};
}
