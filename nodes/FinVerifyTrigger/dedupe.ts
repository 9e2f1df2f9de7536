import { createHash } from 'crypto';

/**
 * Duplicate detection of deliveries, keyed on what the signature covers.
 *
 * The record is in-process: checked and written synchronously, so simultaneous copies of one delivery on
 * one n8n process start one execution; an entry whose answer was not a 2xx (n8n could not create the
 * execution) is removed again, so the sender's retry is accepted. It is bounded by the window (time) and
 * by MAX_IN_PROCESS_DELIVERIES entries of at most MAX_KEY_LENGTH characters, and checking a delivery
 * costs the same whatever number of deliveries came before.
 *
 * It does not survive a restart of n8n, and it is per process in queue mode: n8n saves a workflow's
 * static data after a webhook call only when that call starts no execution (the flag that marks it
 * changed is reset when n8n prepares the execution), so a record kept there would not be stored for the
 * deliveries that matter. Across restarts on one n8n, the FinVerify node's Trigger Delivery · Process Once
 * on `deliveryKey` is the durable record; across queue-mode workers, a database claim (docs/trigger.md,
 * docs/reliability.md).
 */

export const DEFAULT_DEDUPE_WINDOW_MINUTES = 60;
/** Most deliveries kept in memory per trigger node. */
export const MAX_IN_PROCESS_DELIVERIES = 50_000;
/** Longest key deliveryKey() makes: "signed:" and 32 characters of a base64url SHA-256. */
export const MAX_KEY_LENGTH = 'signed:'.length + 32;
/**
 * Upper bound of the bytes one trigger's record holds in keys and times (UTF-16 key characters plus an
 * 8-byte time each); V8's own map overhead comes on top.
 */
export const MAX_RECORD_BYTES = MAX_IN_PROCESS_DELIVERIES * (2 * MAX_KEY_LENGTH + 8);

const digest = (text: string | Buffer) =>
	createHash('sha256').update(text).digest('base64url').slice(0, 32);

/**
 * The key a delivery is deduplicated by, made only of signed content:
 * - the body's event id (`"id"`), which the sender repeats on every retry;
 * - without one, a hash of the signed timestamp and the raw body (a replay of captured bytes);
 * - without a signature (token or no verification), a hash of the raw body. Unsigned headers
 *   (X-Webhook-Id) never take part: a replay with a new id is still the same delivery.
 */
export function deliveryKey(
	eventId: unknown,
	rawBody: Buffer | string | undefined,
	signedTimestamp?: string,
): string | undefined {
	if ((typeof eventId === 'string' && eventId.trim() !== '') || typeof eventId === 'number') {
		return `event:${digest(String(eventId).trim())}`;
	}
	if (rawBody === undefined || rawBody.length === 0) return undefined;
	const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
	if (signedTimestamp) {
		return `signed:${digest(Buffer.concat([Buffer.from(`${signedTimestamp}.`), body]))}`;
	}
	return `body:${digest(body)}`;
}

/** In-process record of one trigger node: key → first seen (ms). Insertion order is time order. */
const inProcess = new Map<string, Map<string, number>>();

/**
 * Checks and records a key in the in-process record of `scope` (workflow + node). Synchronous: no
 * other delivery can run between the check and the record.
 */
export function claimInProcess(
	scope: string,
	key: string,
	nowMs: number,
	windowMs: number,
	maxEntries = MAX_IN_PROCESS_DELIVERIES,
): boolean {
	let seen = inProcess.get(scope);
	if (!seen) {
		seen = new Map();
		inProcess.set(scope, seen);
	}
	for (const [oldKey, at] of seen) {
		if (nowMs - at < windowMs && seen.size < maxEntries) break;
		seen.delete(oldKey);
	}
	const at = seen.get(key);
	if (at !== undefined && nowMs - at < windowMs) return false;
	// re-inserted at the end, so insertion order stays time order
	if (at !== undefined) seen.delete(key);
	seen.set(key, nowMs);
	return true;
}

/** Forgets a claimed key (its delivery was not acknowledged, so its retry must be accepted). */
export function releaseInProcess(scope: string, key: string): void {
	inProcess.get(scope)?.delete(key);
}

/** Forgets every in-process record of a scope (the workflow was unpublished). */
export function clearInProcess(scope: string): void {
	inProcess.delete(scope);
}

/** Entries and bytes (keys as UTF-16 plus an 8-byte time each) of the record of a scope. */
export function inProcessRecordSize(scope: string): { entries: number; bytes: number } {
	const seen = inProcess.get(scope);
	let bytes = 0;
	for (const key of seen?.keys() ?? []) bytes += 2 * key.length + 8;
	return { entries: seen?.size ?? 0, bytes };
}
