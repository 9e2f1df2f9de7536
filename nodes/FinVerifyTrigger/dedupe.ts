import { createHash } from 'crypto';

/**
 * Remembers recent delivery ids so a redelivered notification (same X-Webhook-Id) starts no second
 * execution. The list lives in the node's workflow static data, which n8n persists after every webhook
 * call, so it is bounded in time (window) and size (oldest dropped first). Pure functions.
 */

export const DEFAULT_DEDUPE_WINDOW_MINUTES = 60;
const MAX_REMEMBERED_DELIVERIES = 1000;

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
 * Entries older than the window are pruned; at most `maxEntries` are kept.
 */
export function checkDelivery(
	seen: SeenDelivery[],
	id: string,
	nowMs: number,
	windowMs: number,
	maxEntries = MAX_REMEMBERED_DELIVERIES,
): DedupeResult {
	const fresh = seen.filter((entry) => nowMs - entry.at < windowMs && entry.at <= nowMs + windowMs);
	if (fresh.some((entry) => entry.id === id)) return { duplicate: true, seen: fresh };
	const next = [...fresh, { id, at: nowMs }];
	return { duplicate: false, seen: next.slice(Math.max(0, next.length - Math.max(1, maxEntries))) };
}

/**
 * The key a delivery is deduplicated by: the sender's delivery id when there is one, otherwise a hash
 * of the exact body (a sender without ids that retries sends the same bytes again).
 */
export function deliveryKey(
	deliveryId: string | null | undefined,
	rawBody: Buffer | string | undefined,
): string | undefined {
	if (deliveryId) return `id:${deliveryId}`;
	if (rawBody === undefined || rawBody.length === 0) return undefined;
	return `body:${createHash('sha256').update(rawBody).digest('hex')}`;
}
