import { createHash } from 'crypto';

import { forgetUnanswered } from '../shared/unanswered';

/**
 * Duplicate detection of deliveries, keyed on the event's identity (its signed id, else its own fields).
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
/** Longest key deliveryKey() makes: "fields:" (or "event:") and 32 characters of a base64url SHA-256. */
export const MAX_KEY_LENGTH = 'fields:'.length + 32;
/**
 * Upper bound of the bytes one trigger's record holds in keys and times (UTF-16 key characters plus an
 * 8-byte time each); V8's own map overhead comes on top.
 */
export const MAX_RECORD_BYTES = MAX_IN_PROCESS_DELIVERIES * (2 * MAX_KEY_LENGTH + 8);

const digest = (text: string | Buffer) =>
	createHash('sha256').update(text).digest('base64url').slice(0, 32);

/** What an event is, read from its own fields (never from the delivery's signature or headers). */
export interface EventIdentity {
	/** `journey` or `session`. */
	type: string;
	/** The journey's client_id or the session's session_id. */
	id: string;
	/** The new status, in its canonical spelling. */
	status: string;
	/** The status before the change, canonical; null when the body does not say. */
	previousStatus: string | null;
	/** When the event says it happened (its own time fields, ISO 8601); null when it carries none. */
	ownTime: string | null;
}

/**
 * The key a delivery is deduplicated by, the same for every attempt to deliver one event:
 * - the body's event id (`"id"`), which the sender repeats on every retry;
 * - without one, the event's own fields, canonicalised: its type, journey or session id, status, previous
 *   status and its own time (`updated_at` and the like, as ISO 8601). A sender that signs each attempt anew
 *   (a new timestamp, a new signature) or re-serialises the body sends the same event, so the same key.
 *   Headers (X-Webhook-Id, the signature timestamp) never take part.
 * Two different events of one journey with the same status change and no time of their own share a key
 * (docs/assumptions.md: a journey or session reaches each status once).
 */
export function deliveryKey(eventId: unknown, event: EventIdentity): string {
	if ((typeof eventId === 'string' && eventId.trim() !== '') || typeof eventId === 'number') {
		return `event:${digest(String(eventId).trim())}`;
	}
	const canonical = JSON.stringify([
		event.type,
		event.id.trim(),
		event.status,
		event.previousStatus,
		event.ownTime,
	]);
	return `fields:${digest(canonical)}`;
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
	forgetUnanswered(scope);
}

/** Entries and bytes (keys as UTF-16 plus an 8-byte time each) of the record of a scope. */
export function inProcessRecordSize(scope: string): { entries: number; bytes: number } {
	const seen = inProcess.get(scope);
	let bytes = 0;
	for (const key of seen?.keys() ?? []) bytes += 2 * key.length + 8;
	return { entries: seen?.size ?? 0, bytes };
}
