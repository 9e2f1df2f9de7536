/**
 * The output schemas shipped for n8n's schema preview (nodes/FinVerify/__schema__): one per operation
 * that returns records and mode, each a closed object schema; the Normalized and Simplified outputs of
 * the OpenAPI examples (both shapes, every property filled) validate against them.
 */
import Ajv from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import type { IDataObject } from 'n8n-workflow';

import { example } from '../../contract/openapiExamples.cjs';
import { operationsWithOutputModes, schemaPath } from '../../contract/outputSchemas.cjs';
import { RESPONSES } from '../../contract/responses.cjs';
import { simplifyOutput } from '../../../nodes/FinVerify/actions/declarations';

const ajv = new Ajv({ allErrors: true, strict: false });
const load = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as IDataObject;

/** resource.operation of every operation that offers the output choice. */
const withOutputModes = operationsWithOutputModes();

test('there is an operation list to check', () => {
	expect(withOutputModes.length).toBeGreaterThanOrEqual(18);
});

describe.each(withOutputModes)('%s', (key) => {
	const [resource, operation] = key.split('.');
	test.each(['normalized', 'simplified'] as const)('%s: a closed object schema ships', (mode) => {
		const file = schemaPath(resource, operation, mode) as string;
		expect(existsSync(file)).toBe(true);
		const schema = load(file);
		expect(schema.type).toBe('object');
		expect(schema.additionalProperties).toBe(false);
		expect(Object.keys(schema.properties as IDataObject).length).toBeGreaterThan(0);
	});
});

const cases = RESPONSES.flatMap((c) => c.schemas.map((schema) => ({ ...c, schema })));

describe.each(cases)('$operation from $schema', ({ operation, schema, normalize }) => {
	const [resource, op] = operation.split('.');
	const body = example({ $ref: `#/components/schemas/${schema}` });
	const out = normalize(body);
	const items = (Array.isArray(out) ? out : [out]) as IDataObject[];
	test.each(['normalized', 'simplified'] as const)('%s output validates', (mode) => {
		const validate = ajv.compile(load(schemaPath(resource, op, mode) as string));
		for (const json of items) {
			const shaped = mode === 'simplified' ? simplifyOutput(operation, json) : json;
			expect({ valid: validate(shaped), errors: ajv.errorsText(validate.errors) }).toEqual({
				valid: true,
				errors: 'No errors',
			});
		}
	});
});
