/**
 * The ways a real service's answers drift, applied one at a time to a body: a field removed, set to
 * null, an array emptied, an extra field, a number sent as a string, a text in the other case, one
 * entry (a bureau, an account, an employer) reported as failed. The places are the ones the
 * operation's normalizer reads (found with the recording proxy of the coverage test), so every drifted
 * body touches something the node looks at; fast-check picks a seeded sample of them.
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
	| 'entryFailed';

export interface Mutation {
	kind: MutationKind;
	/** Concrete path: object keys and array indexes. */
	path: Array<string | number>;
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
