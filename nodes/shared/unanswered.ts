/**
 * The FinVerify Trigger's record of deliveries whose sender has not been answered yet (version 1.3), on the ground
 * floor because two nodes write it: the trigger (accepted, answered) and the FinVerify node's Trigger Delivery · Mark
 * Processed (done). In this n8n process's memory only, like the trigger's deduplication record (dedupe.ts).
 */

/**
 * Version 1.3 (answers when the workflow has finished): deliveries accepted in this process whose sender has not
 * been answered yet, scope + "\n" + key → accepted at (ms). A copy arriving meanwhile is told to come back later
 * instead of being acknowledged as a duplicate: were the first execution to crash or fail, a 200 to the copy
 * would lose the delivery. An entry ends with the answer, or when Mark Processed marked the delivery done in this
 * process; one whose sender hung up before it (n8n goes on with the execution and cannot answer) and that is never
 * marked ends after UNANSWERED_LIMIT_MS, after which a copy is a plain duplicate.
 */
const unanswered = new Map<string, number>();
/** How long a delivery whose sender hung up still counts as being processed. */
export const UNANSWERED_LIMIT_MS = 10 * 60_000;

/** Forgets every entry of a trigger (the workflow was unpublished). */
export function forgetUnanswered(scope: string): void {
	for (const entry of unanswered.keys())
		if (entry.startsWith(`${scope}\n`)) unanswered.delete(entry);
}

const unansweredKey = (scope: string, key: string) => `${scope}\n${key}`;

/** Records that the execution of an accepted delivery has not answered its sender yet. */
export function markUnanswered(scope: string, key: string, nowMs: number): void {
	const entry = unansweredKey(scope, key);
	unanswered.delete(entry); // re-inserted at the end: insertion order stays time order
	unanswered.set(entry, nowMs);
}

/** The delivery's sender was answered (or the answer failed): a copy is no longer "being processed". */
export function markAnswered(scope: string, key: string): void {
	unanswered.delete(unansweredKey(scope, key));
}

/**
 * The delivery was marked processed (Trigger Delivery · Mark Processed, in this process): a copy is a duplicate from
 * now on, also when its sender hung up before the answer (which then never goes out, so 'close' could not tell).
 * Every trigger of the workflow: Mark Processed knows the workflow and the key, not the trigger node.
 */
export function markProcessedInProcess(workflowId: string, key: string): void {
	for (const entry of unanswered.keys())
		if (entry.startsWith(`${workflowId}:`) && entry.endsWith(`\n${key}`)) unanswered.delete(entry);
}

/** Whether a delivery accepted earlier is still being processed (its sender not answered yet). */
export function isUnanswered(
	scope: string,
	key: string,
	nowMs: number,
	limitMs = UNANSWERED_LIMIT_MS,
): boolean {
	for (const [entry, at] of unanswered) {
		if (nowMs - at < limitMs) break;
		unanswered.delete(entry);
	}
	const at = unanswered.get(unansweredKey(scope, key));
	return at !== undefined && nowMs - at < limitMs;
}

/** How many deliveries of every trigger in this process wait for their answer (for tests). */
export function unansweredCount(): number {
	return unanswered.size;
}
