import { createHash } from 'crypto';

/**
 * Duplicate detection of deliveries, keyed on what the signature covers.
 *
 * Two records, both bounded by the window (time) with a generous size cap:
 * - an in-process record (this module), checked and written synchronously, so simultaneous copies
 *   of one delivery on one n8n process start one execution; an entry whose answer was not a 2xx (n8n
 *   could not create the execution) is removed again, so the sender's retry is accepted;
 * - the node's workflow static data, which n8n loads before and saves after each webhook call (only
 *   when it answered without error): it survives restarts, but simultaneous calls overwrite each
 *   other's additions, so it is the second line only.
 * In queue mode with several webhook processors the in-process record is per process: delivery is
 * then at-least-once (see docs/reliability.md for the Remove Duplicates pattern on `deliveryKey`).
 */

export const DEFAULT_DEDUPE_WINDOW_MINUTES = 60;
/** Most deliveries kept in static data (it is saved on every accepted delivery). */
export const MAX_STORED_DELIVERIES = 10_000;
/** Most deliveries kept in memory per trigger node. */
export const MAX_IN_PROCESS_DELIVERIES = 100_000;

export interface SeenDelivery {
	id: string;
	/** When first seen, milliseconds since the epoch. */
	at: number;
}

/** Reads a stored list back, dropping anything malformed (static data is user-editable JSON). */
export function readSeen(value: unknown): SeenDelivery[] {
	if (!Array.isArray(value)) return [];
	return value.filter(
		(entry): entry is SeenDelivery =>
			typeof entry === 'object' &&
			entry !== null &&
			typeof (entry as SeenDelivery).id === 'string' &&
			typeof (entry as SeenDelivery).at === 'number',
	);
}

export interface DedupeResult {
	duplicate: boolean;
	/** The list to store back: pruned, and with this delivery added when it is new. */
	seen: SeenDelivery[];
}

/**
 * Checks `id` against deliveries seen within `windowMs` before `nowMs` and records it when new.
 * Entries older than the window are pruned; at most `maxEntries` are kept (oldest dropped first).
 */
export function checkDelivery(
	seen: SeenDelivery[],
	id: string,
	nowMs: number,
	windowMs: number,
	maxEntries = MAX_STORED_DELIVERIES,
): DedupeResult {
	const fresh = seen.filter((entry) => nowMs - entry.at < windowMs && entry.at <= nowMs + windowMs);
	if (fresh.some((entry) => entry.id === id)) return { duplicate: true, seen: fresh };
	const next = [...fresh, { id, at: nowMs }];
	return { duplicate: false, seen: next.slice(Math.max(0, next.length - Math.max(1, maxEntries))) };
}

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
