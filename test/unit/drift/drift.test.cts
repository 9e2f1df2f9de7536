/**
 * The drift suite: every operation's sample and reference bodies (seeds.cts), drifted the ways real
 * services drift (mutations.cts), through the operation's normalizer. For every decision field
 * (decisions.cts) the drifted answer gives the same value as the undrifted one, or null (or the
 * operation rejects the answer with an error naming what is missing): never a different definite
 * value. Every drifted Normalized and Simplified output also validates against the shipped output
 * schema (nodes/FinVerify/__schema__).
 *
 * DRIFT_SEED=<n> tries another sample of drifts (the default is fixed, so a run is reproducible).
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { IDataObject } from 'n8n-workflow';

import { decide, hasDecision, simplifyOutput } from '../../../nodes/FinVerify/actions/declarations';
import { missingField } from '../../../nodes/FinVerify/transport';
import { schemaPath } from '../../contract/outputSchemas.cjs';
import { RESPONSES } from '../../contract/responses.cjs';
import { DECISIONS } from './decisions.cjs';
import type { DecisionTable, Decisions } from './decisions.cjs';
import { applyMutation, candidates, pathText, pick, structural } from './mutations.cjs';
import type { Mutation } from './mutations.cjs';
import { overNulling } from './overNulling.cjs';
import type { OverNullReport } from './overNulling.cjs';
import { seeds } from './seeds.cjs';

const SEED = Number(process.env.DRIFT_SEED ?? 24);
/** Drifted bodies per seed body (all of them when a body offers fewer places). */
const PER_SEED = 64;

interface Outcome {
	rejected: string[] | null;
	decisions: Decisions;
	items: IDataObject[];
	/** Version 3's verdict of a decision operation (null for the others). */
	verdict: { decisionReady: boolean; incomplete: string[] } | null;
	normalized: unknown;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();
function validatorFor(operation: string, mode: 'normalized' | 'simplified'): ValidateFunction {
	const key = `${operation}|${mode}`;
	if (!validators.has(key)) {
		const [resource, op] = operation.split('.');
		const file = schemaPath(resource, op, mode) as string;
		validators.set(key, ajv.compile(JSON.parse(readFileSync(file, 'utf8'))));
	}
	return validators.get(key) as ValidateFunction;
}

const REJECTED = { decisions: {}, items: [], verdict: null, normalized: null };

/** Version 3's verdict and its aggregates (the worst days past due, statusCategory…) of a record. */
function verdictOf(operation: string, normalized: unknown) {
	if (!hasDecision(operation) || Array.isArray(normalized)) return null;
	return decide(operation, normalized as IDataObject);
}

function run(
	operation: string,
	normalize: (body: unknown) => unknown,
	table: DecisionTable,
	body: IDataObject,
): Outcome {
	// the transport fails an answer without the operation's identifying facts
	const missing = missingField(body, table.required);
	if (missing !== undefined) return { rejected: [missing], ...REJECTED };
	let normalized: unknown;
	try {
		normalized = normalize(body);
	} catch (error) {
		// the normalizer itself refuses the answer: an error, never a silent value
		return { rejected: [(error as Error).message], ...REJECTED };
	}
	const items = (Array.isArray(normalized) ? normalized : [normalized]) as IDataObject[];
	const verdict = verdictOf(operation, normalized);
	const aggregates: Decisions = {};
	if (verdict)
		for (const [key, value] of Object.entries(verdict))
			if (key !== 'decisionReady' && key !== 'incomplete') aggregates[`verdict.${key}`] = value;
	return {
		rejected: null,
		decisions: { ...table.fields(normalized), ...aggregates },
		items,
		verdict: verdict && { decisionReady: verdict.decisionReady, incomplete: verdict.incomplete },
		normalized,
	};
}

/**
 * The decision fields version 3's verdict stands on, for one undrifted record: those whose null makes
 * `decisionReady` false (found by nulling each in a copy of the record, so the list follows decision.ts).
 */
function verdictFacts(operation: string, normalized: unknown, fields: Decisions): Set<string> {
	const out = new Set<string>();
	const base = verdictOf(operation, normalized);
	if (!base?.decisionReady) return out;
	for (const field of Object.keys(fields)) {
		const path = field.split('.').flatMap((p) => {
			const m = /^(.*)\[([^\]]*)\]$/.exec(p);
			return m ? [m[1], m[2]] : [p];
		});
		const copy = structuredClone(normalized) as IDataObject;
		let holder: unknown = copy;
		for (const key of path.slice(0, -1)) {
			if (Array.isArray(holder)) {
				const list = holder as IDataObject[];
				holder = list.find((e) => String(e.bureau) === key) ?? list[Number(key)];
			} else holder = (holder as IDataObject | undefined)?.[key];
		}
		if (typeof holder !== 'object' || holder === null) continue;
		(holder as IDataObject)[path[path.length - 1]] = null;
		if (verdictOf(operation, copy)?.decisionReady === false) out.add(field);
	}
	return out;
}

const same = (a: unknown, b: unknown, caseInsensitive: boolean) =>
	caseInsensitive && typeof a === 'string' && typeof b === 'string'
		? a.toLowerCase() === b.toLowerCase()
		: isDeepStrictEqual(a, b);

const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

interface Finding {
	seed: string;
	mutation: string;
	field: string;
	before: unknown;
	after: unknown;
}

interface OperationReport {
	operation: string;
	bodies: number;
	/** Of which structural drifts (null lists and objects, null entries, blanks, codes, HTML). */
	structural: number;
	checked: number;
	silent: Finding[];
	schemaFailures: string[];
	overNull: OverNullReport;
}

function driftOperation(operation: string): OperationReport {
	const contract = RESPONSES.find((c) => c.operation === operation);
	const table = DECISIONS[operation];
	if (!contract || !table) throw new Error(`no contract or decision table for ${operation}`);
	const report: OperationReport = {
		operation,
		bodies: 0,
		structural: 0,
		checked: 0,
		silent: [],
		schemaFailures: [],
		overNull: { checked: 0, answers: 0, withSources: 0, overNulled: [] },
	};
	const operationSeeds = seeds().filter((s) => s.operation === operation);
	report.overNull = overNulling(operationSeeds, contract.normalize, (body) => {
		const outcome = run(operation, contract.normalize, table, body);
		return outcome.rejected ? null : outcome.decisions;
	});
	operationSeeds.forEach((seed, seedIndex) => {
		const base = run(operation, contract.normalize, table, seed.body);
		if (base.rejected)
			throw new Error(
				`${operation} ${seed.label}: the undrifted body is rejected: ${base.rejected}`,
			);
		const facts = verdictFacts(operation, base.normalized, base.decisions);
		const sampled = pick(
			candidates(seed.body, contract.normalize),
			PER_SEED,
			SEED * 1000 + seedIndex,
		);
		const every = structural(seed.body, contract.normalize);
		report.structural += every.length;
		for (const mutation of [...sampled, ...every]) {
			report.bodies++;
			const drifted = run(operation, contract.normalize, table, applyMutation(seed.body, mutation));
			checkDecisions(report, table, seed.label, mutation, base, drifted, facts);
			checkSchemas(report, operation, seed.label, mutation, drifted);
		}
	});
	return report;
}

function checkDecisions(
	report: OperationReport,
	table: DecisionTable,
	seed: string,
	mutation: Mutation,
	base: Outcome,
	drifted: Outcome,
	facts: Set<string>,
) {
	const where = `${mutation.kind} ${pathText(mutation.path)}${mutation.value === undefined ? '' : ` = ${JSON.stringify(mutation.value)}`}`;
	if (base.verdict && !drifted.rejected) {
		report.checked++;
		// version 3: an answer the node knows less of is never more ready than the undrifted one
		if (!base.verdict.decisionReady && drifted.verdict?.decisionReady)
			report.silent.push({
				seed,
				mutation: where,
				field: 'decisionReady',
				before: false,
				after: true,
			});
	}
	for (const [field, before] of Object.entries(base.decisions)) {
		report.checked++;
		// the undrifted answer leaves it unknown: no definite value to contradict
		if (before === null) continue;
		// an answer the operation fails with an error naming what is missing: unknown, said loudly
		if (drifted.rejected) continue;
		const after = drifted.decisions[field];
		if (field === 'verdict.adverse') {
			// the adverse facts are words for a letter, not a figure a rule compares (issue 46): a drift may
			// take a detail out of them (a lender's name, a month, a bounce's date); on an answer still ready,
			// no kind of fact a decision fact stands behind (days past due and asset classes behind
			// maxDaysPastDue, the flags, the status, current employment) may vanish from its source. Written
			// off, settled and tax demands stand on fields the verdict does not rest on: they go with them
			if (drifted.verdict?.decisionReady !== true || !Array.isArray(before)) continue;
			const backed = (f: IDataObject) =>
				!['writtenOff', 'settled', 'taxDemand'].includes(String(f.kind));
			const key = (f: IDataObject) => `${String(f.source)}|${String(f.kind)}`;
			const kept = new Set(((after ?? []) as IDataObject[]).map(key));
			const lost = (before as IDataObject[]).filter((f) => backed(f) && !kept.has(key(f)));
			if (lost.length > 0)
				report.silent.push({
					seed,
					mutation: where,
					field: `${field} (a fact lost)`,
					before: lost,
					after,
				});
			continue;
		}
		if (after === null || after === undefined) {
			// a fact of version 3's verdict became unknown: the verdict must say so
			if (facts.has(field) && drifted.verdict?.decisionReady !== false)
				report.silent.push({
					seed,
					mutation: where,
					field: `${field} unknown but decisionReady`,
					before,
					after: drifted.verdict?.decisionReady,
				});
			continue;
		}
		const insensitive = (table.caseInsensitive ?? []).includes(field.replace(/\[[^\]]*\]/g, ''));
		if (same(before, after, insensitive)) continue;
		report.silent.push({
			seed,
			mutation: where,
			field,
			before,
			after,
		});
	}
}

function checkSchemas(
	report: OperationReport,
	operation: string,
	seed: string,
	mutation: Mutation,
	drifted: Outcome,
) {
	for (const json of drifted.items) {
		for (const mode of ['normalized', 'simplified'] as const) {
			const validate = validatorFor(operation, mode);
			const shaped = mode === 'simplified' ? simplifyOutput(operation, json) : json;
			if (!validate(shaped))
				report.schemaFailures.push(
					`${seed} · ${mutation.kind} ${pathText(mutation.path)} · ${mode}: ${ajv.errorsText(validate.errors)}`,
				);
		}
	}
}

const reports: OperationReport[] = [];
const operations = RESPONSES.map((c) => c.operation);

afterAll(() => {
	const sum = (f: (r: OperationReport) => number) => reports.reduce((t, r) => t + f(r), 0);
	const lines = reports.map(
		(r) =>
			`  ${r.operation.padEnd(40)} bodies ${String(r.bodies).padStart(5)} (structural ${String(r.structural).padStart(5)}) · fields checked ${String(r.checked).padStart(6)} · silent changes ${r.silent.length} · schema failures ${r.schemaFailures.length} · null decision fields of complete answers ${String(r.overNull.checked).padStart(4)} · over-nulled ${r.overNull.overNulled.length}`,
	);
	console.log(
		[
			`drift (seed ${SEED}): ${sum((r) => r.bodies)} drifted bodies (${sum((r) => r.structural)} structural: null lists and objects, null entries, emptied lists, blanks, status codes, HTML), ` +
				`${sum((r) => r.checked)} decision fields checked, ${sum((r) => r.silent.length)} silent changes, ${sum((r) => r.schemaFailures.length)} schema failures; ` +
				`over-nulling: ${sum((r) => r.overNull.checked)} null decision fields of ${sum((r) => r.overNull.answers)} complete answers checked against their sources, ${sum((r) => r.overNull.overNulled.length)} over-nulled`,
			...lines,
		].join('\n'),
	);
});

test('every operation of the output contract has a decision table', () => {
	expect(operations.filter((o) => !DECISIONS[o])).toEqual([]);
});

describe.each(operations)('%s', (operation) => {
	let report: OperationReport;
	beforeAll(() => {
		report = driftOperation(operation);
		reports.push(report);
	});

	test('drifted answers: decision fields keep their value or become null', () => {
		expect(report.bodies).toBeGreaterThan(0);
		const readable = report.silent.map(
			(f) => `${f.seed} · ${f.mutation} · ${f.field}: ${show(f.before)} → ${show(f.after)}`,
		);
		expect(readable).toEqual([]);
	});

	test('complete answers: no field is null whose fact the answer carries (over-nulling)', () => {
		expect(
			report.overNull.overNulled.map(
				(o) => `${o.seed} · ${o.field} null, the answer carries ${o.source}`,
			),
		).toEqual([]);
	});

	test('drifted outputs validate against the output schemas', () => {
		// the first failures, and how many there are
		expect({
			failures: report.schemaFailures.length,
			first: report.schemaFailures.slice(0, 10),
		}).toEqual({ failures: 0, first: [] });
	});
});

test('the suite tries enough drifted bodies (≥ 900 over all operations)', () => {
	// runs last: describe.each's beforeAll hooks have filled `reports`
	expect(reports.reduce((t, r) => t + r.bodies, 0)).toBeGreaterThanOrEqual(900);
});
