import type { IDataObject } from 'n8n-workflow';

import {
	JOURNEY_COMPLETED_ALIASES,
	JOURNEY_FINAL_STATUSES,
	SESSION_FINAL_STATUSES,
} from './statuses';
import { isObject, toIsoTimestamp, toText } from './values';

/**
 * Recognising and normalizing the two notifications of the service. The service leaves event names
 * and payloads open; the sandbox's bodies (the callbacks of journeyInit and collectionSessionCreate
 * in openapi/finverify.openapi.yaml) are
 *   {"event":"aa_bsa_journey.status_changed","client_id","status","previous_status","updated_at",
 *    "data":{…}}
 *   {"event":"collection_session.status_changed","session_id","flow","status","previous_status",
 *    "updated_at","data":{…}}
 * Other senders may send less (`{client_id, status}`) or wrap the fields in `data` (the reference
 * shape of the journey status); all of these are accepted. Pure functions, no n8n context.
 */

export type EventType = 'journey' | 'session';

const JOURNEY_EVENT = 'aa_bsa_journey.status_changed';
const SESSION_EVENT = 'collection_session.status_changed';

export interface NormalizedEvent extends IDataObject {
	type: EventType;
	/** client_id of a journey or session_id of a session. */
	id: string;
	/** The journey's client_id under the name Start Journey outputs it (null for sessions). */
	clientId: string | null;
	/** The session's session_id under the name Create Session outputs it (null for journeys). */
	sessionId: string | null;
	event: string;
	status: string;
	previousStatus: string | null;
	isFinal: boolean;
	/** When the status changed (ISO 8601); the delivery time when the payload does not say. */
	occurredAt: string;
	/** The event id of the delivery: the body's `id`, else X-Webhook-Id, when the sender gave one. */
	deliveryId: string | null;
	/** Collection flow (`itr` or `gst`) of a session event; null for journeys. */
	flow: string | null;
	/** The payload exactly as received. */
	raw: IDataObject;
}

export type ParseResult =
	| { ok: true; event: NormalizedEvent }
	| {
			ok: false;
			reason: 'malformed_json' | 'not_an_object' | 'unrecognised_event';
			message: string;
	  };

export interface DeliveryMeta {
	/** Event name from the event header, when present. */
	eventHeader?: string;
	deliveryId?: string;
	/** Timestamp header, unix seconds as text. */
	timestamp?: string;
	/** Current time in milliseconds (tests pass a fixed clock). */
	nowMs?: number;
}

/** Parses a raw body into a JSON object, or says why it is not one. */
export function parseJsonBody(
	raw: Buffer | string | undefined,
	fallback?: unknown,
):
	| { ok: true; body: IDataObject }
	| { ok: false; reason: 'malformed_json' | 'not_an_object'; message: string } {
	let value: unknown = fallback;
	if (raw !== undefined && raw.length > 0) {
		const text = typeof raw === 'string' ? raw : raw.toString('utf8');
		try {
			value = JSON.parse(text);
		} catch {
			return { ok: false, reason: 'malformed_json', message: 'The request body is not valid JSON' };
		}
	}
	if (!isObject(value)) {
		return {
			ok: false,
			reason: 'not_an_object',
			message: 'The request body must be a JSON object',
		};
	}
	return { ok: true, body: value };
}

const lower = (value: unknown): string | null => {
	const text = toText(value);
	return text === null ? null : text.toLowerCase();
};

/**
 * The canonical spelling of a status: lowercase, journey `completed` read as `analysis_complete`.
 */
export function normalizeStatus(type: EventType, status: unknown): string | null {
	const text = lower(status);
	if (text === null) return null;
	const snake = text.replace(/[\s-]+/g, '_');
	return type === 'journey' ? (JOURNEY_COMPLETED_ALIASES[snake] ?? snake) : snake;
}

export function isFinalStatus(type: EventType, status: string): boolean {
	const final: readonly string[] =
		type === 'journey' ? JOURNEY_FINAL_STATUSES : SESSION_FINAL_STATUSES;
	return final.includes(status);
}

function typeFromEventName(name: string | null): EventType | undefined {
	if (!name) return undefined;
	if (/^(aa_bsa_)?journey[._]/i.test(name) || /^aa[._-]?bsa/i.test(name)) return 'journey';
	if (/^(collection_)?session[._]/i.test(name) || /^collection/i.test(name)) return 'session';
	return undefined;
}

/**
 * A timestamp from ISO text, unix seconds or unix milliseconds, as ISO 8601; null if unreadable.
 */
export function toIsoTime(value: unknown): string | null {
	if (typeof value === 'number' || (typeof value === 'string' && /^\d{9,13}$/.test(value.trim()))) {
		const n = Number(value);
		if (!Number.isFinite(n) || n <= 0) return null;
		const ms = n < 1e11 ? n * 1000 : n;
		return new Date(ms).toISOString();
	}
	return toIsoTimestamp(value);
}

/** The body fields that say when the event happened, in the order they are read. */
const OWN_TIME_FIELDS = ['updated_at', 'updatedAt', 'occurred_at', 'timestamp', 'created_at'];

/**
 * When the event itself says it happened (its own time fields, at the top level or in `data`), as ISO 8601;
 * null when the body carries none. Never the delivery's signature timestamp or the time of receipt: this is
 * part of the event's identity (the trigger's deliveryKey), the same on every attempt to deliver it.
 */
export function eventOwnTime(body: IDataObject): string | null {
	const data = isObject(body.data) ? body.data : {};
	for (const source of [body, data]) {
		for (const key of OWN_TIME_FIELDS) {
			const value = source[key];
			if (value !== undefined && value !== null && value !== '') return toIsoTime(value);
		}
	}
	return null;
}

/**
 * Turns a notification body into one normalized event. Recognised when it carries a journey
 * (`client_id`) or session (`session_id`) identifier and a status, at the top level or in `data`.
 * The event name (body `event`, else the event header) decides the type when both ids are present.
 */
export function normalizeEvent(body: IDataObject, meta: DeliveryMeta = {}): ParseResult {
	const data = isObject(body.data) ? body.data : {};
	const pick = (...keys: string[]): unknown => {
		for (const source of [body, data]) {
			for (const key of keys) {
				const value = source[key];
				if (value !== undefined && value !== null && value !== '') return value;
			}
		}
		return undefined;
	};

	const eventName = toText(body.event) ?? toText(body.event_type) ?? toText(meta.eventHeader);
	const clientId = toText(pick('client_id', 'clientId'));
	const sessionId = toText(pick('session_id', 'sessionId'));

	let type = typeFromEventName(eventName);
	if (type === 'journey' && !clientId) type = sessionId ? 'session' : undefined;
	if (type === 'session' && !sessionId) type = clientId ? 'journey' : undefined;
	type ??= sessionId ? 'session' : clientId ? 'journey' : undefined;

	const id = type === 'journey' ? clientId : type === 'session' ? sessionId : null;
	if (!type || !id) {
		return {
			ok: false,
			reason: 'unrecognised_event',
			message: 'The body is not a journey or session event (no client_id or session_id)',
		};
	}
	const status = normalizeStatus(type, pick('status'));
	if (!status) {
		return { ok: false, reason: 'unrecognised_event', message: 'The event carries no status' };
	}
	const previousStatus = normalizeStatus(type, pick('previous_status', 'previousStatus'));
	const occurredAt =
		eventOwnTime(body) ??
		toIsoTime(meta.timestamp) ??
		new Date(meta.nowMs ?? Date.now()).toISOString();

	return {
		ok: true,
		event: {
			type,
			id,
			clientId: type === 'journey' ? id : null,
			sessionId: type === 'session' ? id : null,
			event: eventName ?? (type === 'journey' ? JOURNEY_EVENT : SESSION_EVENT),
			status,
			previousStatus,
			isFinal: isFinalStatus(type, status),
			occurredAt,
			// the body's event id is signed; the header only repeats it (or stands in for senders without
			// one)
			deliveryId: toText(body.id) ?? toText(meta.deliveryId) ?? toText(body.delivery_id) ?? null,
			flow: type === 'session' ? lower(pick('flow')) : null,
			raw: body,
		},
	};
}

/** Which events the node passes on, from its Events and Status Filter parameters. */
export interface EventFilter {
	events: EventType[];
	statusFilter: 'all' | 'finalOnly' | 'selected';
	statuses: string[];
}

export type FilterDecision =
	| { pass: true }
	| { pass: false; reason: 'event_not_selected' | 'status_not_selected' };

export function applyFilter(
	event: Pick<NormalizedEvent, 'type' | 'status' | 'isFinal'>,
	filter: EventFilter,
): FilterDecision {
	if (!filter.events.includes(event.type)) return { pass: false, reason: 'event_not_selected' };
	if (filter.statusFilter === 'finalOnly' && !event.isFinal)
		return { pass: false, reason: 'status_not_selected' };
	if (filter.statusFilter === 'selected') {
		// a selection is either plain (`expired`, applies to both types) or typed (`journey:expired`)
		const selected = filter.statuses.some(
			(s) => s === event.status || s === `${event.type}:${event.status}`,
		);
		if (!selected) return { pass: false, reason: 'status_not_selected' };
	}
	return { pass: true };
}
