import type { IDataObject } from 'n8n-workflow';

import { isObject, toText } from '../../shared/values';

/**
 * Waiting for status callbacks, the pure part: how long, what is remembered while waiting, and what
 * a callback means. No n8n context here, so every rule is unit-tested alone.
 *
 * n8n runs no node code when a waiting execution reaches its time limit: it resumes the execution
 * and the waiting node passes on the items it was given (n8n-core
 * `WorkflowExecute.handleWaitingState`, the node is disabled for that run). So before waiting, the
 * node replaces those items with the outcome of a timeout: one "waiting item" per started journey
 * or session. The same items are what `webhook()` reads (as the input of the waiting node) to know
 * which ids it waits for.
 */

export type CompletionKind = 'journey' | 'session';

export const ID_KEY: Record<CompletionKind, 'clientId' | 'sessionId'> = {
	journey: 'clientId',
	session: 'sessionId',
};

const SUBJECT: Record<CompletionKind, string> = { journey: 'Journey', session: 'Session' };

export const DEFAULT_WAIT_AMOUNT = 24;
export const DEFAULT_WAIT_UNIT = 'hours';
export const MAX_WAIT_DAYS = 30;
const UNIT_MS: Record<string, number> = {
	seconds: 1000,
	minutes: 60_000,
	hours: 3_600_000,
	days: 86_400_000,
};
const MIN_WAIT_MS = 1000;
const MAX_WAIT_MS = MAX_WAIT_DAYS * UNIT_MS.days;

/** Wait Amount × Wait Unit in milliseconds: default 24 h, at least 1 s, at most 30 days. */
export function waitDurationMs(amount: unknown, unit: unknown): number {
	const n = typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : amount;
	const value = typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : DEFAULT_WAIT_AMOUNT;
	const factor = UNIT_MS[typeof unit === 'string' ? unit : ''] ?? UNIT_MS[DEFAULT_WAIT_UNIT];
	return Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, Math.round(value * factor)));
}

/** "24 hours", "90 seconds": the time limit in words for messages. */
export function describeDuration(ms: number): string {
	const units: Array<[string, number]> = [
		['days', UNIT_MS.days],
		['hours', UNIT_MS.hours],
		['minutes', UNIT_MS.minutes],
	];
	for (const [name, size] of units) {
		if (ms >= size && ms % size === 0)
			return `${ms / size} ${ms === size ? name.slice(0, -1) : name}`;
	}
	const seconds = Math.round(ms / 1000);
	return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

/**
 * The journey client_id / session_id in a start output, simplified (`clientId`) or raw
 * (`client_id`).
 */
export function idFromOutput(kind: CompletionKind, json: IDataObject): string | null {
	const snake = kind === 'journey' ? 'client_id' : 'session_id';
	const data = isObject(json.data) ? json.data : {};
	return toText(json[ID_KEY[kind]]) ?? toText(json[snake]) ?? toText(data[snake]);
}

/** The status in a start output (simplified or raw); null when it says none. */
export function statusFromOutput(json: IDataObject): string | null {
	const data = isObject(json.data) ? json.data : {};
	return toText(json.status) ?? toText(data.status);
}

export type OnTimeout = 'error' | 'returnLastStatus';

export interface WaitingEntry {
	kind: CompletionKind;
	id: string;
	/** The status known when the wait began. */
	status: string | null;
	/** What the start operation output for this item. */
	started: IDataObject;
	since: string;
	until: string;
	timeLimitMs: number;
	onTimeout: OnTimeout;
}

/** The marker of a waiting item: present only on items that wait for a callback. */
const WAITING_KEY = 'waitingForCallback';

/**
 * The item a waiting journey or session leaves behind: what n8n outputs if the time limit passes.
 * `Return Last Status`: the start output with `timedOut: true` and the status known when the wait
 * began. `Fail`: the same facts as an error item (`{ error: { message, code, details }, message }`), which n8n sends to the
 * node's error output when "On Error" is "Continue (using error output)".
 */
export function waitingItemJson(entry: WaitingEntry): IDataObject {
	const facts: IDataObject = {
		...entry.started,
		[ID_KEY[entry.kind]]: entry.id,
		status: entry.status,
		isFinal: false,
		timedOut: true,
		[WAITING_KEY]: true,
		waitingSince: entry.since,
		timeLimitAt: entry.until,
	};
	if (entry.onTimeout === 'returnLastStatus') return facts;
	const message = `${SUBJECT[entry.kind]} ${entry.id} did not reach a final status within ${describeDuration(entry.timeLimitMs)} (last known status: ${entry.status ?? 'unknown'})`;
	// the router's error-item shape, which n8n 1.x and 2.x both send to the error output
	return {
		error: { message, code: 'WAIT_TIMED_OUT', httpCode: null, description: null, details: facts },
		message,
	};
}

export type StoredItem =
	| { waiting: true; kind: CompletionKind; id: string; facts: IDataObject }
	| { waiting: false; json: IDataObject };

/**
 * Reads back the items `waitingItemJson` produced (and passes any other item through unchanged).
 */
export function readStoredItem(kind: CompletionKind, json: IDataObject): StoredItem {
	const error = json.error;
	const facts = isObject(error) && isObject(error.details) ? error.details : json;
	const id = toText(facts[ID_KEY[kind]]);
	if (facts[WAITING_KEY] === true && id) return { waiting: true, kind, id, facts };
	return { waiting: false, json };
}

/** What a verified callback means for this waiting execution. */
export type CallbackMeaning =
	| { type: 'unrelated'; reason: 'other_subject' | 'not_waiting' }
	| { type: 'intermediate'; index: number }
	| { type: 'final'; index: number };

export function classifyCallback(
	event: { type: CompletionKind; id: string; isFinal: boolean },
	stored: StoredItem[],
): CallbackMeaning {
	const index = stored.findIndex((item) => item.waiting && item.id === event.id);
	if (index === -1) {
		const sameKind = stored.some((item) => item.waiting && item.kind === event.type);
		return { type: 'unrelated', reason: sameKind ? 'not_waiting' : 'other_subject' };
	}
	const item = stored[index];
	if (item.waiting && item.kind !== event.type)
		return { type: 'unrelated', reason: 'other_subject' };
	return event.isFinal ? { type: 'final', index } : { type: 'intermediate', index };
}

/** The facts of a waiting item without the waiting bookkeeping: the start output plus the id. */
export function startedFacts(facts: IDataObject): IDataObject {
	const rest: IDataObject = { ...facts };
	for (const key of [WAITING_KEY, 'timedOut', 'waitingSince', 'timeLimitAt', 'isFinal', 'status'])
		delete rest[key];
	return rest;
}

/** Seconds between the start of the wait and now (null when the start is unreadable). */
export function waitedSeconds(facts: IDataObject, nowMs: number): number | null {
	const since = Date.parse(String(facts.waitingSince ?? ''));
	return Number.isFinite(since) ? Math.max(0, Math.round((nowMs - since) / 1000)) : null;
}

/**
 * A journey's final result found by a status lookup rather than a callback (the other journeys of a
 * waiting node, or a journey Wait for Journey finds final already): the same keys as a callback's
 * result, with the lookup in `statusLookup`.
 */
export function journeyFinalFromLookup(
	facts: IDataObject,
	clientId: string,
	summary: { status: string | null; isSuccessful: boolean; updatedAt?: unknown },
	waited: number | null,
): IDataObject {
	return {
		...startedFacts(facts),
		clientId,
		status: summary.status,
		previousStatus: null,
		isFinal: true,
		isSuccessful: summary.isSuccessful,
		statusChangedAt: summary.updatedAt ?? null,
		timedOut: false,
		waitedSeconds: waited,
		statusLookup: summary as IDataObject,
	};
}
