/**
 * The resumes this n8n process has accepted and not yet answered: one record per waiting execution whose final
 * callback the node's resume URL turned into a resume (issue 34).
 *
 * Why: n8n answers a callback that resumes an execution only once the resume has its concurrency slot and the
 * execution is marked running (`WorkflowRunner.run`). Under a burst, with N8N_CONCURRENCY_PRODUCTION_LIMIT, the
 * resumes wait in n8n's in-memory queue, the service's request times out, and its retry finds the execution still
 * `waiting` in the database: without this record each retry became one more queued resume, holding the execution
 * loaded in memory, until the queue held several attempts per execution (the retry storm, up to 18 GB).
 *
 * With it, a callback for an execution whose resume is under way in this process is answered at once with
 * 503 and Retry-After: nothing is queued, the execution is resumed once by the first callback, and the service's
 * later retry gets n8n's 409 "has finished already" (delivered). The record ends when n8n has answered the first
 * callback (its response finished: the execution is running, or the resume failed and the execution may still
 * wait, so the next callback must get through), or when n8n answered a resume recorded after it (n8n's queue is
 * first in, first out, so this one has left it), or after RESUME_RECORD_MS (the caller had gone, so its answer
 * never went out, and nothing came after it; a resume that failed then is retried by the service's next
 * callback after that time).
 */

/**
 * Most resumes one n8n process keeps under way for waiting nodes at version 1 (issue 44: versions 2 and 3 are never
 * refused for capacity, webhook.ts); a final callback beyond them is answered 503 with Retry-After and the execution
 * keeps waiting for the service's next attempt or a reconcile request (reconcile.ts). Measured in n8n 2.41.1 (issue 34): a resume of a node
 * at version 1 waiting in n8n's concurrency queue holds about 9 MB (the expression isolate n8n's body parsing takes
 * for such nodes; versions 2 and 3 take none), so this bounds what a burst adds to n8n's memory at about 9 GB. It is a bound, not a throttle: with 100, a burst of 1,000 on a loaded machine
 * turned into thousands of refused and repeated callbacks, each costing n8n a load of the execution, and the
 * sender's compressed schedule (12 attempts in about 8 minutes) ran out for some before n8n took them.
 */
export const RESUME_CAPACITY = 1000;

/** How long a resume whose answer never went out blocks further callbacks of its execution. */
export const RESUME_RECORD_MS = 180_000;

/** What the 503 asks the service to wait before its next attempt, in seconds. */
export const RESUME_RETRY_AFTER_S = 30;

/** Most records kept per process (expired ones are dropped first; then the oldest). */
const MAX_RECORDS = 100_000;

const records = new Map<string, number>();

/** True when a resume of `executionId` accepted by this process is still under way at `nowMs`. */
export function resumeUnderWay(executionId: string, nowMs: number): boolean {
	const until = records.get(executionId);
	if (until === undefined) return false;
	if (nowMs >= until) {
		records.delete(executionId);
		return false;
	}
	return true;
}

/** True when this process already has RESUME_CAPACITY resumes under way at `nowMs`. */
export function resumesAtCapacity(nowMs: number, capacity = RESUME_CAPACITY): boolean {
	if (records.size < capacity) return false;
	for (const [id, end] of records) if (end <= nowMs) records.delete(id);
	return records.size >= capacity;
}

/** Records that a callback is resuming `executionId`; returns the function that ends the record. */
export function recordResume(executionId: string, nowMs: number): () => void {
	const until = nowMs + RESUME_RECORD_MS;
	records.delete(executionId);
	records.set(executionId, until);
	if (records.size > MAX_RECORDS) {
		for (const [id, end] of records) if (end <= nowMs) records.delete(id);
		while (records.size > MAX_RECORDS) records.delete(records.keys().next().value as string);
	}
	return () => {
		if (records.get(executionId) !== until) return;
		// n8n's concurrency queue is first in, first out: every resume recorded before this one has left it
		// (its caller may have gone, so its own answer never ends its record)
		for (const id of records.keys()) {
			records.delete(id);
			if (id === executionId) break;
		}
	};
}

/**
 * How long a wait that was resumed stays marked resumed in this process. n8n 1.x answers a resume callback at
 * once, before it marks the execution running (`WebhookHelpers.executeWebhook`, response mode onReceived), and
 * while a resume waits in n8n's concurrency queue the execution stays `waiting` in the database: n8n's own
 * guard ("running already", "has finished already") does not stop a copy of the callback there, so without
 * this mark every copy resumed the execution again (issue 43: 2-4 resumes of one execution). A wait is
 * identified by its execution, its node and the ids it waits for with the time each wait began (waitKey), so
 * the same execution waiting again, at another node, for other journeys or later for the same one, is a new wait.
 */
export const RESUMED_MARK_MS = 7 * 24 * 3_600_000;

/** Most resumed waits remembered per process (the oldest forgotten first). */
export const MAX_RESUMED_MARKS = 100_000;

const resumed = new Map<string, number>();

/**
 * The identity of one wait: the execution, the waiting node and what it waits for (each journey or session id with
 * the time its wait began, in any order).
 */
export function waitKey(executionId: string, nodeName: string, waitingIds: string[]): string {
	return JSON.stringify([executionId, nodeName, [...waitingIds].sort()]);
}

/**
 * Marks a wait resumed: n8n answered its resume callback with a 2xx (on n8n 2.x after the execution ran, on
 * 1.x at once). A callback of that wait later is answered as a duplicate and resumes nothing.
 */
export function markResumed(key: string, nowMs: number, max = MAX_RESUMED_MARKS): void {
	resumed.delete(key);
	resumed.set(key, nowMs + RESUMED_MARK_MS);
	for (const [old, until] of resumed) {
		if (until > nowMs && resumed.size <= max) break;
		resumed.delete(old);
	}
}

/** True when this process resumed the wait `key` (and the mark has not expired) at `nowMs`. */
export function wasResumed(key: string, nowMs: number): boolean {
	const until = resumed.get(key);
	if (until === undefined) return false;
	if (nowMs >= until) {
		resumed.delete(key);
		return false;
	}
	return true;
}

/** How many records are held (for tests). */
export function resumeRecordCount(): number {
	return records.size;
}

/** How many resumed waits are remembered (for tests). */
export function resumedMarkCount(): number {
	return resumed.size;
}
