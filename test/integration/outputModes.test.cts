/**
 * Output modes through n8n-core's real engine against the sandbox, in both response shapes: version 2's
 * Output (Simplified default, Normalized, Raw) against version 1's Simplify (on = Normalized, off = Raw),
 * so saved version-1 workflows keep their output, and Simplified has at most 10 fields plus what an option
 * asked for.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { simplifyOutput } from '../../nodes/FinVerify/actions/declarations';
import { maskPersonalData } from '../../nodes/FinVerify/helpers/personalData';
import type { WorkflowJson } from '../harness/index.cjs';
import { fixtures, NODE, SHAPES, withSandbox } from './support.cjs';

/** Deterministic runs: the same input gives the same answer, so the modes can be compared value by value. */
const CASES = [
	'company/getByCin',
	'company/getLlpByLlpin',
	'company/getEntityByPan',
	'company/searchByName',
	'creditReport/getMultiBureauReport',
	'creditReport/getMultiBureauReport.split',
	'creditReport/getCommercialReport.jsonOnly',
	'employment/getEpfoRecord',
	'employment/getEpfoRecordWithCredit',
	'employment/getEpfoRecordWithCredit.partialEpfo',
];

/** Fields that differ between two calls with the same input (request ids, timestamps). */
const VOLATILE = new Set([
	'requestId',
	'reportedAt',
	'generatedAt',
	'request_id',
	'timestamp',
	'generated_at',
	'doc_id',
	// a credit pull's consent record: when it was sent, by which execution
	'assertedAt',
	'executionId',
]);

function stable(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stable);
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => !VOLATILE.has(key))
			.map(([key, v]) => [key, stable(v)]),
	);
}

/** The workflow with the FinVerify node at `version`, without Simplify, plus `parameters`. */
function atVersion(wf: WorkflowJson, version: number, parameters: IDataObject = {}): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((node) => {
			if (node.name !== NODE) return node;
			const { simplify: _simplify, ...rest } = node.parameters as IDataObject;
			return {
				...node,
				typeVersion: version,
				parameters: { ...rest, ...parameters } as INode['parameters'],
			};
		}),
	};
}

const withSimplify = (wf: WorkflowJson, simplify: boolean) => atVersion(wf, 1, { simplify });

const operationOf = (wf: WorkflowJson) => {
	const p = wf.nodes.find((n) => n.name === NODE)?.parameters as IDataObject;
	return `${String(p.resource)}.${String(p.operation)}`;
};

const EXTRAS = [
	'binaryProperty',
	'fileName',
	'reportFile',
	'reportHtml',
	'report',
	'reportLayout',
	'query',
	'consentRecord',
];

describe.each(SHAPES)('output modes, %s shape', (shape) => {
	const { run } = withSandbox({ shape });

	test.each(CASES)('%s', async (name) => {
		const [resource, file] = name.split('/');
		const wf = fixtures(resource)(file);
		const operation = operationOf(wf);

		const v1 = await run(withSimplify(wf, true));
		const v1Raw = await run(withSimplify(wf, false));
		const full = { personalData: 'full' };
		const v2Default = await run(atVersion(wf, 2));
		const v2Full = await run(atVersion(wf, 2, full));
		const v2Normalized = await run(atVersion(wf, 2, { outputMode: 'normalized', ...full }));
		const v2NormalizedMasked = await run(atVersion(wf, 2, { outputMode: 'normalized' }));
		const v2Raw = await run(atVersion(wf, 2, { outputMode: 'raw' }));
		for (const r of [v1, v1Raw, v2Default, v2Full, v2Normalized, v2NormalizedMasked, v2Raw])
			expect(r.error).toBeUndefined();

		const normalized = stable(v1.json(NODE)) as IDataObject[];
		expect(normalized.length).toBeGreaterThan(0);
		// version 2's Normalized (with Personal Data: Full) and Raw are version 1's Simplify on and off
		expect(stable(v2Normalized.json(NODE))).toEqual(normalized);
		expect(stable(v2Raw.json(NODE))).toEqual(stable(v1Raw.json(NODE)));
		// Simplified is the default of version 2: at most 10 fields (plus fields an option asked for),
		// picked from the Normalized record, without the response shape
		const simplifiedFull = stable(v2Full.json(NODE)) as IDataObject[];
		expect(simplifiedFull).toEqual(
			normalized.map((json) => stable(simplifyOutput(operation, json))),
		);
		// Personal Data in Output is Masked by default: the same records, masked
		const simplified = stable(v2Default.json(NODE)) as IDataObject[];
		expect(simplified).toEqual(simplifiedFull.map((json) => maskPersonalData(json, 'masked')));
		expect(stable(v2NormalizedMasked.json(NODE))).toEqual(
			normalized.map((json) => maskPersonalData(json, 'masked')),
		);
		for (const json of simplified) {
			expect(Object.keys(json).filter((k) => !EXTRAS.includes(k)).length).toBeLessThanOrEqual(10);
			expect(json).not.toHaveProperty('shape');
		}
	});
});

/** Leaves of a record, `a.b[0].c` → value, for comparing what two records both carry. */
function leaves(
	value: unknown,
	prefix = '',
	out = new Map<string, unknown>(),
): Map<string, unknown> {
	if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${prefix}[${i}]`, out));
	else if (typeof value === 'object' && value !== null)
		for (const [k, v] of Object.entries(value)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
	else out.set(prefix, value);
	return out;
}

describe('same facts in both shapes: the sandbox describes the same entity in each', () => {
	const sample = withSandbox({ shape: 'sample' });
	const reference = withSandbox({ shape: 'reference' });

	test.each(CASES)(
		'%s: equal Simplified output, equal Normalized facts where both carry them',
		async (name) => {
			const [resource, file] = name.split('/');
			const wf = fixtures(resource)(file);
			const simplified = await Promise.all(
				[sample, reference].map(async (s) => stable((await s.run(atVersion(wf, 2))).json(NODE))),
			);
			expect(simplified[0]).toEqual(simplified[1]);

			const [a, b] = await Promise.all(
				[sample, reference].map(async (s) =>
					stable((await s.run(atVersion(wf, 2, { outputMode: 'normalized' }))).json(NODE)),
				),
			);
			const [la, lb] = [leaves(a), leaves(b)];
			const differing = [...la.keys()].filter(
				(k) =>
					!k.endsWith('shape') &&
					lb.has(k) &&
					la.get(k) !== null &&
					lb.get(k) !== null &&
					la.get(k) !== lb.get(k),
			);
			expect(differing.map((k) => `${k}: ${String(la.get(k))} ≠ ${String(lb.get(k))}`)).toEqual([]);
		},
	);
});
