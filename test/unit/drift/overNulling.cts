/**
 * Over-nulling: on a complete answer, a decision field whose fact the answer carries must not be null.
 * "Carries its fact" is derived, not listed: for every seed body of an operation where a decision
 * field has a value, each property the normalizer reads (the recording proxy) is removed in turn, and
 * the properties whose removal changes the field are its sources. A complete answer that carries a
 * source of a field (a value that is not null or blank) while the field is null there is over-nulled:
 * the reader had the fact and said "unknown".
 *
 * Sources are learned from every seed body; the complete answers checked are the sandbox generators'
 * bodies of both shapes (realistic and self-consistent: the OpenAPI examples fill every property with a
 * placeholder such as "dob text" or a score of 3, which no reader can read, and list one account
 * where total_accounts says 3).
 */
import type { IDataObject } from 'n8n-workflow';

import { recording } from '../../contract/openapiExamples.cjs';
import type { Seed } from './seeds.cjs';

type Path = Array<string | number>;

/** `a.b[].c`: array indexes collapsed (the recording proxy's notation). */
const collapsed = (path: Path): string =>
	path.map((p, i) => (typeof p === 'number' ? '[]' : i === 0 ? p : `.${p}`)).join('');

/** Every leaf of a value with its concrete path (empty lists and objects are leaves). */
function leaves(value: unknown, path: Path = [], out: Array<[Path, unknown]> = []) {
	if (Array.isArray(value) && value.length > 0)
		value.forEach((item, i) => leaves(item, [...path, i], out));
	else if (typeof value === 'object' && value !== null && Object.keys(value).length > 0)
		for (const [key, v] of Object.entries(value)) leaves(v, [...path, key], out);
	else out.push([path, value]);
	return out;
}

/** The decision fields of an answer (null for a rejected one), as the drift suite reads them. */
export type DecisionsOf = (body: IDataObject) => Record<string, unknown> | null;

/** A value that states something: not null, not blank text, not an empty list or object. */
const carries = (value: unknown) =>
	value !== null &&
	value !== undefined &&
	!(typeof value === 'string' && value.trim() === '') &&
	!(Array.isArray(value) && value.length === 0) &&
	!(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/** A copy of `body` without every instance of the collapsed property `at`. */
function without(body: IDataObject, at: string): IDataObject {
	const copy = structuredClone(body);
	for (const [path] of leaves(copy).filter(([p]) => collapsed(p) === at)) {
		let holder: unknown = copy;
		for (const p of path.slice(0, -1)) holder = (holder as Record<string | number, unknown>)[p];
		delete (holder as Record<string | number, unknown>)[path[path.length - 1]];
	}
	return copy;
}

export interface OverNull {
	seed: string;
	field: string;
	/** A property of the answer the field is read from elsewhere, which this answer carries. */
	source: string;
}

export interface OverNullReport {
	/** Null decision fields of complete answers looked at. */
	checked: number;
	/** Complete answers looked at. */
	answers: number;
	/** Fields of which a source was found (in any seed body of the operation). */
	withSources: number;
	overNulled: OverNull[];
}

/** Over-nulling of one operation's seed bodies (see the header). */
export function overNulling(
	operationSeeds: Seed[],
	normalize: (body: unknown) => unknown,
	decisionsOf: DecisionsOf,
): OverNullReport {
	const sources = new Map<string, Set<string>>();
	const outputs = operationSeeds.map((seed) => decisionsOf(seed.body) ?? {});
	operationSeeds.forEach((seed, index) => {
		const base = outputs[index];
		const { proxy, read } = recording(structuredClone(seed.body));
		try {
			normalize(proxy);
		} catch {
			// what it read before it refused still counts
		}
		const present = new Set(leaves(seed.body).map(([p]) => collapsed(p)));
		for (const at of read) {
			if (!present.has(at)) continue;
			const drifted = decisionsOf(without(seed.body, at)) ?? {};
			for (const [field, value] of Object.entries(base)) {
				if (value === null) continue;
				if (JSON.stringify(drifted[field]) === JSON.stringify(value)) continue;
				if (!sources.has(field)) sources.set(field, new Set());
				(sources.get(field) as Set<string>).add(at);
			}
		}
	});
	const report: OverNullReport = {
		checked: 0,
		answers: 0,
		withSources: sources.size,
		overNulled: [],
	};
	operationSeeds.forEach((seed, index) => {
		if (!seed.label.startsWith('sandbox:')) return;
		report.answers++;
		const carried = new Map<string, boolean>();
		for (const [path, value] of leaves(seed.body)) {
			const at = collapsed(path);
			carried.set(at, (carried.get(at) ?? false) || carries(value));
		}
		for (const [field, value] of Object.entries(outputs[index])) {
			if (value !== null) continue;
			report.checked++;
			const source = [...(sources.get(field) ?? [])].find((at) => carried.get(at));
			if (source !== undefined) report.overNulled.push({ seed: seed.label, field, source });
		}
	});
	return report;
}
