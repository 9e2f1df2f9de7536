/**
 * No silent loss: for every response schema of the OpenAPI contract (both shapes), a deterministic
 * example with every property filled goes through the operation's normalizer; every property must be
 * read by it (mapped to an output field) or be on the reviewed raw-only list with a reason.
 */
import type { IDataObject } from 'n8n-workflow';

import { example, leafPaths, recording, schemas } from '../../contract/openapiExamples.cjs';
import { covers, RAW_ONLY } from '../../contract/rawOnly.cjs';
import { RESPONSES } from '../../contract/responses.cjs';

const cases = RESPONSES.flatMap((contract) =>
	contract.schemas.map((schema) => ({ ...contract, schema })),
);

let checked = 0;
afterAll(() => {
	// the figure docs/output.md quotes
	console.log(`coverage: ${checked} response properties checked over ${cases.length} schemas`);
});

describe.each(cases)('$schema ($operation)', ({ schema, normalize, variants }) => {
	const body = example({ $ref: `#/components/schemas/${schema}` }) as IDataObject;
	const leaves = leafPaths(body);
	const read = new Set<string>();
	for (const version of [body, ...(variants?.(body) ?? [])]) {
		const recorder = recording(version);
		normalize(recorder.proxy);
		for (const path of recorder.read) read.add(path);
	}
	const rawOnly = RAW_ONLY[schema] ?? [];

	test('every property is mapped or listed as raw-only with a reason', () => {
		expect(schemas[schema]).toBeDefined();
		const lost = leaves.filter(
			(leaf) => !read.has(leaf) && !rawOnly.some((entry) => covers(entry.path, leaf)),
		);
		checked += leaves.length;
		expect(lost).toEqual([]);
	});

	test('the raw-only list is current: each entry covers a property nothing reads, with a reason', () => {
		for (const entry of rawOnly) {
			expect(entry.reason.length).toBeGreaterThan(10);
			if (entry.envelope) continue;
			const unread = leaves.filter((leaf) => covers(entry.path, leaf) && !read.has(leaf));
			expect({ entry: entry.path, stale: unread.length === 0 }).toEqual({
				entry: entry.path,
				stale: false,
			});
		}
	});
});

test('every response schema of an operation that returns records is in the table', () => {
	const listed = new Set(cases.map((c) => c.schema));
	const titled = Object.entries(schemas)
		.filter(([, s]) => /\((reference|sample) shape\)$/.test(String(s.title ?? '')))
		.map(([name]) => name);
	expect(titled.filter((name) => !listed.has(name))).toEqual([]);
});
