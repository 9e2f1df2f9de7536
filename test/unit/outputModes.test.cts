/**
 * The output choice in the editor, checked with n8n's own parameter resolution (NodeHelpers): version 1
 * keeps Simplify, version 2 has Output (Simplified by default); options that shape the output hide for
 * the raw answer in both versions; every operation that returns records offers the choice; Simplified
 * keeps at most 10 fields of any answer.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { simplifyOutput } from '../../nodes/FinVerify/actions/declarations';
import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { example } from '../contract/openapiExamples.cjs';
import { RESPONSES } from '../contract/responses.cjs';

const description = new FinVerify().description;

function resolved(typeVersion: number, parameters: INodeParameters) {
	const node = {
		name: 'FinVerify',
		type: 'n8n-nodes-finverify.finVerify',
		typeVersion,
		position: [0, 0],
		parameters,
	} as INode;
	return NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, {
		...description,
		version: typeVersion,
	}) as INodeParameters;
}

const multiBureau = { resource: 'creditReport', operation: 'getMultiBureauReport' };

test('version 3 is the default; versions 1 and 2 stay available', () => {
	expect(description.version).toEqual([1, 2, 3]);
	expect(description.defaultVersion).toBe(3);
});

test('version 1: Simplify (on), no Output', () => {
	const p = resolved(1, multiBureau);
	expect(p.simplify).toBe(true);
	expect(p).not.toHaveProperty('outputMode');
});

test('version 2: Output, Simplified by default, no Simplify', () => {
	const p = resolved(2, multiBureau);
	expect(p.outputMode).toBe('simplified');
	expect(p).not.toHaveProperty('simplify');
});

test.each([
	[1, { simplify: true }, true],
	[1, { simplify: false }, false],
	[2, { outputMode: 'simplified' }, true],
	[2, { outputMode: 'normalized' }, true],
	[2, { outputMode: 'raw' }, false],
])('version %s with %j: output options shown = %s', (version, choice, shown) => {
	const p = resolved(version, { ...multiBureau, ...choice, options: { includeFullReports: true } });
	const options = (p.options ?? {}) as INodeParameters;
	expect('includeFullReports' in options).toBe(shown);
});

/**
 * n8n's guideline for Simplify: at most 10 fields. Measured on every operation's answer in every documented
 * shape with every property filled (the OpenAPI examples through the normalizer), the largest Normalized record
 * each can give; what an option adds on request (a file, a full report) is not counted, and none is asked here.
 */
describe.each(RESPONSES.flatMap((c) => c.schemas.map((schema) => ({ ...c, schema }))))(
	'$operation from $schema',
	({ operation, schema, normalize }) => {
		test('Simplified keeps at most 10 fields and drops the response shape', () => {
			const out = normalize(example({ $ref: `#/components/schemas/${schema}` }));
			for (const json of (Array.isArray(out) ? out : [out]) as IDataObject[]) {
				const simplified = simplifyOutput(operation, json);
				expect(simplified).not.toHaveProperty('shape');
				const fields = Object.keys(simplified).filter((key) => key !== 'reportHtml');
				expect(fields.length).toBeGreaterThan(0);
				expect(fields.length).toBeLessThanOrEqual(10);
			}
		});
	},
);
