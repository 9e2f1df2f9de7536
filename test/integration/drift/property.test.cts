/**
 * A property of every decision operation, through its real code in n8n-core's engine: take an undrifted
 * sandbox body (both shapes), replace one SOURCE of a decision fact (a read figure whose removal changes
 * the fact, found as test/unit/drift/overNulling.cts finds sources) with
 * (a) a value outside its grammar (text with letters, a negative number where the field is never
 *     negative, a fraction where it is whole, a huge number, a boolean, an object, an array): every fact
 *     that source feeds keeps its value, or the answer is not ready (version 3's Incomplete output, or a
 *     failed item);
 * (b) the same value encoded another way (a number as a string, with leading zeros, in spaces): every fact
 *     that source feeds keeps its value.
 *
 * The cases are drawn by fast-check, seeded (FC_SEED=<n>; the default is fixed) and served in one batched
 * engine run per operation (version 3, Normalized), so there is no shrinking: a failing case is printed
 * whole, and the same FC_SEED draws it again. FC_RUNS=<n> cases per operation and property.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { isDeepStrictEqual } from 'node:util';

import { RESPONSES } from '../../contract/responses.cjs';
import { seeds } from '../../unit/drift/seeds.cjs';
import { DECISION_OPERATIONS, runJobs, SETUPS, startRig } from './engineRun.cjs';
import type { DriftRig, ItemResult } from './engineRun.cjs';
import { outputFacts, pureFacts, shownOnly } from './facts.cjs';
import {
	figurePlaces,
	numeric,
	pathText,
	rangeClass,
	readSet,
	setAt,
	sourcesOf,
} from './kinds.cjs';
import type { Path } from './kinds.cjs';

const FC_SEED = Number(process.env.FC_SEED ?? 4141);
const RUNS = Number(process.env.FC_RUNS ?? 120);
const OPERATION_BUDGET_MS = 10 * 60_000;

interface Source {
	seed: number;
	label: string;
	path: Path;
	value: unknown;
	/** The decision facts it feeds (the unit tables' names). */
	facts: string[];
	whole: boolean;
	/** Never negative (a count, an amount, a score, a percentage…). */
	nonNegative: boolean;
}

interface Case {
	source: Source;
	replacement: unknown;
	what: string;
}

/** Text that is no number: letters somewhere in it. */
const lettered = fc
	.tuple(
		fc.string({ maxLength: 6 }),
		fc.constantFrom('a', 'N', 'x', 'NA', 'abc', 'e'),
		fc.string({ maxLength: 6 }),
	)
	.map(([a, b, c]) => `${a}${b}${c}`);

/** (a) A value outside the source's grammar. */
function outside(source: Source): fc.Arbitrary<[unknown, string]> {
	const n = numeric(source.value) as number;
	const options: Array<fc.Arbitrary<[unknown, string]>> = [
		lettered.map((t) => [t, 'text with letters']),
		fc.constantFrom(1e21, 1e300, Number.MAX_VALUE, 1e16).map((h) => [h, 'huge']),
		fc.boolean().map((b) => [b, 'boolean']),
		fc
			.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 })
			.map((o) => [o, 'object']),
		fc.array(fc.integer({ min: 0, max: 999 }), { maxLength: 3 }).map((a) => [a, 'array']),
	];
	if (source.nonNegative)
		options.push(fc.integer({ min: -100_000, max: -1 }).map((v) => [v, 'negative']));
	if (source.whole)
		options.push(
			fc
				.integer({ min: 1, max: 9 })
				.map((d) => [Math.trunc(Math.abs(n)) + d / 10, 'fraction where whole']),
		);
	return fc.oneof(...options);
}

/** (b) The same value encoded another way. */
function equivalent(source: Source): fc.Arbitrary<[unknown, string]> {
	const n = numeric(source.value) as number;
	const text = typeof source.value === 'string' ? source.value : String(n);
	const options: Array<fc.Arbitrary<[unknown, string]>> = [
		fc
			.tuple(fc.constantFrom(' ', '  ', '\t'), fc.constantFrom(' ', '', '  '))
			.map(([a, b]) => [`${a}${text}${b}`, 'in spaces']),
		fc.constant<[unknown, string]>([
			typeof source.value === 'number' ? text : n,
			'number as string / string as number',
		]),
	];
	if (n >= 0)
		options.push(
			fc.integer({ min: 1, max: 3 }).map((z) => [`${'0'.repeat(z)}${text}`, 'leading zeros']),
		);
	return fc.oneof(...options);
}

function sourcesOfOperation(operation: string): Source[] {
	const contract = RESPONSES.find((c) => c.operation === operation);
	if (!contract) throw new Error(`no contract for ${operation}`);
	const out: Source[] = [];
	seeds()
		.filter((s) => s.operation === operation && s.label.startsWith('sandbox:'))
		.forEach((seed, index) => {
			const factsOf = (body: IDataObject) => pureFacts(operation, body);
			const sources = sourcesOf(seed.body, readSet(seed.body, contract.normalize), factsOf);
			for (const { path, value } of figurePlaces(seed.body, sources, 1)) {
				const at = path
					.map((p, i) => (typeof p === 'number' ? '[]' : i === 0 ? p : `.${p}`))
					.join('');
				const range = rangeClass(path);
				out.push({
					seed: index,
					label: seed.label,
					path,
					value,
					facts: [...(sources.get(at) ?? [])],
					whole:
						Number.isInteger(numeric(value)) && !['amount', 'signed', 'percent'].includes(range),
					nonNegative: range !== 'signed',
				});
			}
		});
	return out;
}

interface Verdict {
	ok: boolean;
	detail: string;
}

function check(
	operation: string,
	base: ItemResult,
	drifted: ItemResult,
	c: Case,
	mustKeep: boolean,
): Verdict {
	if (base.route !== 'complete') return { ok: true, detail: 'undrifted answer not ready' };
	const notReady = drifted.route !== 'complete';
	if (notReady && !mustKeep) return { ok: true, detail: 'refused' };
	if (drifted.route === 'failed' || drifted.route === 'missing')
		return { ok: false, detail: `failed: ${JSON.stringify(drifted.json).slice(0, 200)}` };
	const before = outputFacts(operation, 3, 'normalized', base.json);
	const after = outputFacts(operation, 3, 'normalized', drifted.json);
	const changed = c.source.facts
		.filter((f) => f in before && before[f] !== null)
		.filter((f) => !isDeepStrictEqual(before[f], after[f]))
		// a field shown beside the decision facts may be unknown on a ready answer, never another value
		.filter((f) => !(after[f] === null && shownOnly(operation, f)))
		.map((f) => `${f}: ${JSON.stringify(before[f])} → ${JSON.stringify(after[f])}`);
	return changed.length === 0
		? { ok: true, detail: 'kept' }
		: { ok: false, detail: `${notReady ? 'not ready, ' : 'ready, '}${changed.join('; ')}` };
}

let rig: DriftRig;
const lines: string[] = [];

beforeAll(async () => {
	rig = await startRig();
});

afterAll(async () => {
	await rig?.close();
	console.log(
		[
			`operation property (FC_SEED ${FC_SEED}, ${RUNS} cases per operation and property)`,
			...lines,
		].join('\n'),
	);
});

describe.each(DECISION_OPERATIONS)('%s', (operation) => {
	const results: Record<
		'outside' | 'equivalent',
		{ cases: number; refused: number; failures: string[] }
	> = {
		outside: { cases: 0, refused: 0, failures: [] },
		equivalent: { cases: 0, refused: 0, failures: [] },
	};
	let sources: Source[] = [];

	beforeAll(async () => {
		sources = sourcesOfOperation(operation);
		if (sources.length === 0) return;
		const bodies = seeds().filter(
			(s) => s.operation === operation && s.label.startsWith('sandbox:'),
		);
		const draw = (make: (s: Source) => fc.Arbitrary<[unknown, string]>, salt: number): Case[] =>
			fc.sample(
				fc
					.constantFrom(...sources)
					.chain((source) =>
						make(source).map(([replacement, what]) => ({ source, replacement, what })),
					),
				{ seed: FC_SEED + salt, numRuns: RUNS },
			);
		const cases = { outside: draw(outside, 1), equivalent: draw(equivalent, 2) };
		const jobs = [
			...bodies.map((s) => ({ body: s.body, mode: 'normalized' as const })),
			...cases.outside.map((c) => ({
				body: setAt(bodies[c.source.seed].body, c.source.path, c.replacement),
				mode: 'normalized' as const,
			})),
			...cases.equivalent.map((c) => ({
				body: setAt(bodies[c.source.seed].body, c.source.path, c.replacement),
				mode: 'normalized' as const,
			})),
		];
		const out = await runJobs(rig, SETUPS[operation], 3, jobs);
		const judge = (property: 'outside' | 'equivalent', list: Case[], offset: number) =>
			list.forEach((c, i) => {
				const drifted = out[offset + i];
				const verdict = check(operation, out[c.source.seed], drifted, c, property === 'equivalent');
				results[property].cases++;
				if (drifted.route !== 'complete') results[property].refused++;
				if (!verdict.ok)
					results[property].failures.push(
						`${c.source.label} · ${pathText(c.source.path)}: ${JSON.stringify(c.source.value)} → ${JSON.stringify(c.replacement)} (${c.what}) · ${verdict.detail}`,
					);
			});
		judge('outside', cases.outside, bodies.length);
		judge('equivalent', cases.equivalent, bodies.length + cases.outside.length);
		for (const property of ['outside', 'equivalent'] as const) {
			const r = results[property];
			lines.push(
				`  ${operation} (${sources.length} sources) · ${property === 'outside' ? '(a) outside the grammar' : '(b) equivalent encoding'}: ` +
					`${r.cases} cases, ${r.refused} not ready, ${r.failures.length} failures`,
				...r.failures.slice(0, 3).map((f) => `      - ${f.slice(0, 400)}`),
			);
		}
	}, OPERATION_BUDGET_MS);

	test('(a) a source outside its grammar: its facts keep their value, or the answer is not ready', () => {
		expect({
			failures: results.outside.failures.length,
			first: results.outside.failures.slice(0, 5),
		}).toEqual({
			failures: 0,
			first: [],
		});
	});

	test('(b) a source encoded another way: its facts keep their value', () => {
		expect({
			failures: results.equivalent.failures.length,
			first: results.equivalent.failures.slice(0, 5),
		}).toEqual({ failures: 0, first: [] });
	});
});
