/**
 * The ways a real service's answers drift, applied one at a time to a body: a field removed, set to
 * null, an array emptied, an extra field, a number sent as a string, a text in the other case, one
 * entry (a bureau, an account, an employer) reported as failed. The places are the ones the
 * operation's normalizer reads (found with the recording proxy of the coverage test), so every drifted
 * body touches something the node looks at; fast-check picks a seeded sample of them.
 *
 * `structural` adds, at EVERY such place (no sample): `null` for a list or an object, a null entry
 * first, in the middle and last of every list, every list emptied (the lists behind a flag among
 * them), blank strings (`""`, `"  "`) for read strings, status codes (`200`, `"200"`) for a read
 * status, and an HTML page (a string) where an object is read.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { recording } from '../../contract/openapiExamples.cjs';

export type MutationKind =
	| 'removed'
	| 'null'
	| 'emptyArray'
	| 'extraField'
	| 'numberAsString'
	| 'otherCase'
	| 'entryFailed'
	| 'nullContainer'
	| 'nullEntry'
	| 'emptiedList'
	| 'blankString'
	| 'statusCode'
	| 'html';

/** An HTML error page, as a proxy or a gateway answers in place of the service's JSON. */
export const HTML_PAGE = '<html><head><title>502 Bad Gateway</title></head><body>502</body></html>';

export interface Mutation {
	kind: MutationKind;
	/** Concrete path: object keys and array indexes. */
	path: Array<string | number>;
	/** The value put there (blankString, statusCode). */
	value?: unknown;
}

/** `data.results.cibil.data.credit_score`, `accounts[2].dpd`. */
export const pathText = (path: Array<string | number>): string =>
	path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') ||
	'(body)';

/** The same path in the recording proxy's notation (array indexes collapsed to `[]`). */
const collapsed = (path: Array<string | number>): string =>
	path.map((p, i) => (typeof p === 'number' ? '[]' : i === 0 ? p : `.${p}`)).join('');

/** Array entries looked at per array: enough for "one entry failed" and a few per-entry fields. */
const ENTRIES_PER_ARRAY = 3;

interface Place {
	path: Array<string | number>;
	value: unknown;
	/** An entry of a list or of a keyed map (a bureau, an account): can be reported as failed. */
	isEntry: boolean;
}

function places(value: unknown, path: Array<string | number> = [], isEntry = false): Place[] {
	const out: Place[] = [{ path, value, isEntry }];
	if (Array.isArray(value)) {
		value
			.slice(0, ENTRIES_PER_ARRAY)
			.forEach((item, i) => out.push(...places(item, [...path, i], true)));
	} else if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value);
		// a map of like entries (bureaus keyed by name): each object entry is one of them
		const objects = entries.filter(
			([, v]) => typeof v === 'object' && v !== null && !Array.isArray(v),
		);
		const isMap = objects.length >= 2 && objects.length === entries.length;
		for (const [key, v] of entries) out.push(...places(v, [...path, key], isMap));
	}
	return out;
}

/** Every mutation of `body` at a place the normalizer reads. */
export function candidates(body: IDataObject, normalize: (body: unknown) => unknown): Mutation[] {
	const { proxy, read } = recording(structuredClone(body));
	try {
		normalize(proxy);
	} catch {
		// an answer the operation rejects still shows what it read
	}
	const out: Mutation[] = [];
	for (const place of places(body)) {
		const { path, value } = place;
		if (path.length === 0) continue;
		const at = collapsed(path);
		if (!read.has(at)) continue;
		const last = path[path.length - 1];
		if (typeof last === 'string') out.push({ kind: 'removed', path });
		if (value !== null) out.push({ kind: 'null', path });
		if (Array.isArray(value) && value.length > 0) out.push({ kind: 'emptyArray', path });
		if (typeof value === 'object' && value !== null && !Array.isArray(value))
			out.push({ kind: 'extraField', path });
		if (typeof value === 'number') out.push({ kind: 'numberAsString', path });
		if (
			typeof value === 'string' &&
			/[a-z]/i.test(value) &&
			value.toUpperCase() !== value.toLowerCase()
		)
			out.push({ kind: 'otherCase', path });
		if (place.isEntry && typeof value === 'object' && value !== null && !Array.isArray(value))
			out.push({ kind: 'entryFailed', path });
	}
	return out;
}

/** The places of `body` the normalizer reads, with every entry of every list (not only the first). */
function readPlaces(body: IDataObject, normalize: (body: unknown) => unknown): Place[] {
	const { proxy, read } = recording(structuredClone(body));
	try {
		normalize(proxy);
	} catch {
		// an answer the operation rejects still shows what it read
	}
	const all = (value: unknown, path: Array<string | number> = []): Place[] => {
		const out: Place[] = [{ path, value, isEntry: false }];
		if (Array.isArray(value)) value.forEach((item, i) => out.push(...all(item, [...path, i])));
		else if (typeof value === 'object' && value !== null)
			for (const [key, v] of Object.entries(value)) out.push(...all(v, [...path, key]));
		return out;
	};
	return all(body).filter((p) => p.path.length > 0 && read.has(collapsed(p.path)));
}

/** A record's status (not a month of a payment history, whose "status" is a day count). */
const isStatusKey = (key: string | number) =>
	typeof key === 'string' && /status/i.test(key) && !/payment/i.test(key);

/**
 * The structural drifts of `body`, every one of them at every place the normalizer reads (see the
 * header): what a reader must answer with the undrifted value, null or an error, never another value.
 */
export function structural(body: IDataObject, normalize: (body: unknown) => unknown): Mutation[] {
	const out: Mutation[] = [];
	const seen = new Set<string>();
	const add = (m: Mutation) => {
		const key = `${m.kind}|${pathText(m.path)}|${JSON.stringify(m.value)}`;
		if (seen.has(key)) return;
		seen.add(key);
		out.push(m);
	};
	for (const { path, value } of readPlaces(body, normalize)) {
		const isList = Array.isArray(value);
		const isRecord = typeof value === 'object' && value !== null && !isList;
		if (isList || isRecord) add({ kind: 'nullContainer', path });
		if (isRecord) add({ kind: 'html', path });
		if (isList && value.length > 0) {
			add({ kind: 'emptiedList', path });
			for (const i of [0, Math.floor((value.length - 1) / 2), value.length - 1])
				add({ kind: 'nullEntry', path: [...path, i] });
		}
		if (typeof value === 'string' && value.trim() !== '') {
			add({ kind: 'blankString', path, value: '' });
			add({ kind: 'blankString', path, value: '  ' });
		}
		if (
			isStatusKey(path[path.length - 1]) &&
			(value === null || (typeof value === 'string' && /\p{L}/u.test(value)))
		) {
			add({ kind: 'statusCode', path, value: 200 });
			add({ kind: 'statusCode', path, value: '200' });
		}
	}
	return out;
}

/** A copy of `body` with one mutation applied. */
export function applyMutation(body: IDataObject, mutation: Mutation): IDataObject {
	const copy = structuredClone(body);
	const { path, kind } = mutation;
	const parentPath = path.slice(0, -1);
	const key = path[path.length - 1];
	let parent: unknown = copy;
	for (const p of parentPath) parent = (parent as Record<string | number, unknown>)[p];
	const holder = parent as Record<string | number, unknown>;
	const value = holder[key];
	switch (kind) {
		case 'removed':
			delete holder[key];
			break;
		case 'null':
			holder[key] = null;
			break;
		case 'emptyArray':
			holder[key] = [];
			break;
		case 'extraField':
			(value as IDataObject).drift_extra_field = 'added by a newer service version';
			break;
		case 'numberAsString':
			holder[key] = String(value);
			break;
		case 'otherCase': {
			const text = value as string;
			holder[key] = text === text.toUpperCase() ? text.toLowerCase() : text.toUpperCase();
			break;
		}
		case 'entryFailed':
			holder[key] = { success: false, message: 'Service unavailable for this entry (drift)' };
			break;
		case 'nullContainer':
		case 'nullEntry':
			holder[key] = null;
			break;
		case 'emptiedList':
			holder[key] = [];
			break;
		case 'blankString':
		case 'statusCode':
			holder[key] = mutation.value;
			break;
		case 'html':
			holder[key] = HTML_PAGE;
			break;
	}
	return copy;
}

/** A seeded sample of at most `count` mutations (all of them when there are fewer). */
export function pick(all: Mutation[], count: number, seed: number): Mutation[] {
	if (all.length <= count) return all;
	const [chosen] = fc.sample(fc.shuffledSubarray(all, { minLength: count, maxLength: count }), {
		seed,
		numRuns: 1,
	});
	return chosen;
}
