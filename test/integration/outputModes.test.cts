/**
 * Output modes through n8n-core's real engine against the sandbox, in both response shapes: version 2's
 * Output (Simplified default, Normalized, Raw) against version 1's Simplify (on = Normalized, off = Raw),
 * so saved version-1 workflows keep their output, and Simplified has at most 10 fields plus what an option
 * asked for.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { simplifyOutput } from '../../nodes/FinVerify/helpers/normalize/simplified';
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
];

describe.each(SHAPES)('output modes, %s shape', (shape) => {
	const { run } = withSandbox({ shape });

	test.each(CASES)('%s', async (name) => {
		const [resource, file] = name.split('/');
		const wf = fixtures(resource)(file);
		const operation = operationOf(wf);

		const v1 = await run(withSimplify(wf, true));
		const v1Raw = await run(withSimplify(wf, false));
		const v2Default = await run(atVersion(wf, 2));
		const v2Normalized = await run(atVersion(wf, 2, { outputMode: 'normalized' }));
		const v2Raw = await run(atVersion(wf, 2, { outputMode: 'raw' }));
		for (const r of [v1, v1Raw, v2Default, v2Normalized, v2Raw]) expect(r.error).toBeUndefined();

		const normalized = stable(v1.json(NODE)) as IDataObject[];
		expect(normalized.length).toBeGreaterThan(0);
		// version 2's Normalized and Raw are version 1's Simplify on and off
		expect(stable(v2Normalized.json(NODE))).toEqual(normalized);
		expect(stable(v2Raw.json(NODE))).toEqual(stable(v1Raw.json(NODE)));
		// Simplified is the default of version 2: at most 10 fields (plus fields an option asked for),
		// picked from the Normalized record, without the response shape
		const simplified = stable(v2Default.json(NODE)) as IDataObject[];
		expect(simplified).toEqual(normalized.map((json) => stable(simplifyOutput(operation, json))));
		for (const json of simplified) {
			expect(Object.keys(json).filter((k) => !EXTRAS.includes(k)).length).toBeLessThanOrEqual(10);
			expect(json).not.toHaveProperty('shape');
		}
	});
});
