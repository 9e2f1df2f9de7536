/**
 * JSON Schemas of the node's outputs, per operation and mode, shipped for n8n's schema preview:
 * `nodes/FinVerify/__schema__/v1.0.0/<resource>/<operation>.json` is the Normalized record (version 1's
 * Simplify on, and version 2's Normalized), `v2.0.0/...` the Simplified one (version 2's default).
 * Raw output is the service's body: its schema is the OpenAPI contract's.
 *
 * Here: inferring a schema from outputs (the generator), and checking outputs against the shipped files
 * (what the integration suites do for every FinVerify run).
 */
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INode } from 'n8n-workflow';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';

export const SCHEMA_DIR = path.join(__dirname, '../../nodes/FinVerify/__schema__');

export type Mode = 'simplified' | 'normalized' | 'raw';

/** `resource.operation` of every operation that offers the output choice, sorted. */
export function operationsWithOutputModes(): string[] {
	const pairs = new Set<string>();
	for (const p of new FinVerify().description.properties) {
		if (p.name !== 'outputMode') continue;
		const show = p.displayOptions?.show ?? {};
		for (const r of (show.resource as string[]) ?? [])
			for (const o of (show.operation as string[]) ?? []) pairs.add(`${r}.${o}`);
	}
	return [...pairs].sort();
}

/**
 * The schema file of an operation's output in a mode (null for raw): Normalized in v1.0.0 (every
 * version: version 3 adds the verdict fields, optional there), Simplified in v2.0.0, and version 3's
 * Simplified (the decision views) in v3.0.0.
 */
export function schemaPath(
	resource: string,
	operation: string,
	mode: Mode,
	typeVersion = 2,
): string | null {
	if (mode === 'raw') return null;
	const version = mode === 'normalized' ? 'v1.0.0' : typeVersion >= 3 ? 'v3.0.0' : 'v2.0.0';
	return path.join(SCHEMA_DIR, version, resource, `${operation}.json`);
}

type JsonSchema = Record<string, unknown>;

/** Properties whose value is a document in someone else's layout (a bureau's report, a raw entry). */
const FREE_FORM = new Set(['report', 'details']);

/**
 * A schema every one of `samples` satisfies: objects list their properties (none required, no others
 * allowed), arrays their items, and every field allows null (`isField`): scalars, objects and arrays
 * alike (unknown is null: a normalizer gives null for a group or list the answer did not carry). The
 * output item itself and the entries of a list are null only where the samples show it.
 */
export function inferSchema(samples: unknown[], key = '', isField = false): JsonSchema {
	if (FREE_FORM.has(key)) return {};
	const types = new Set<string>();
	const objects: IDataObject[] = [];
	const items: unknown[] = [];
	for (const s of samples) {
		if (s === null || s === undefined) types.add('null');
		else if (Array.isArray(s)) {
			types.add('array');
			items.push(...s);
		} else if (typeof s === 'object') {
			types.add('object');
			objects.push(s as IDataObject);
		} else if (typeof s === 'number') types.add('number');
		else types.add(typeof s);
	}
	if (isField) types.add('null');
	const scalars = [...types].filter((t) => !['object', 'array', 'null'].includes(t));
	const schema: JsonSchema = {};
	// null last: the editor's schema preview shows a field by its first type
	const typeList = [...types].filter((t) => t !== 'null').sort();
	if (types.has('null')) typeList.push('null');
	if (scalars.length > 0 && !typeList.includes('null')) typeList.push('null');
	if (typeList.length === 1 && typeList[0] === 'null') {
		// only ever null in the samples: any scalar
		return { type: ['string', 'number', 'boolean', 'null'] };
	}
	schema.type = typeList.length === 1 ? typeList[0] : typeList;
	if (types.has('object')) {
		const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
		const properties: Record<string, JsonSchema> = {};
		for (const k of keys)
			properties[k] = inferSchema(
				objects.filter((o) => k in o).map((o) => o[k]),
				k,
				true,
			);
		schema.properties = properties;
		schema.additionalProperties = false;
	}
	if (types.has('array')) schema.items = items.length ? inferSchema(items, key) : {};
	return schema;
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction | null>();

function validatorFor(file: string): ValidateFunction | null {
	if (!validators.has(file)) {
		validators.set(
			file,
			existsSync(file) ? ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as JsonSchema) : null,
		);
	}
	return validators.get(file) ?? null;
}

/** Output mode of a FinVerify node as saved: version 1 Simplify, version 2 Output. */
export function modeOfNode(node: INode): Mode {
	const p = node.parameters as IDataObject;
	if ((node.typeVersion ?? 1) < 2) return p.simplify === false ? 'raw' : 'normalized';
	return p.outputMode === 'raw' || p.outputMode === 'normalized' ? p.outputMode : 'simplified';
}

/**
 * An error item of the node (`{ error: { message, code, … }, message }`, on the regular output or the
 * Failed output with its input's fields too): not a record, so not checked against the record schema.
 */
const isErrorItem = (json: IDataObject) =>
	typeof json.message === 'string' &&
	typeof json.error === 'object' &&
	json.error !== null &&
	'code' in (json.error as IDataObject);

export const validated = { items: 0 };

/**
 * Checks the output items of a FinVerify node against the shipped schema of its operation and mode.
 * With FINVERIFY_RECORD_OUTPUTS set (the generator's input), records them instead.
 */
export function checkNodeOutput(node: INode, items: IDataObject[]): void {
	if (!node.type.endsWith('.finVerify')) return;
	const p = node.parameters as IDataObject;
	const [resource, operation] = [p.resource, p.operation];
	if (typeof resource !== 'string' || typeof operation !== 'string') return;
	// no record of the node's own: Custom API Call outputs the service's answer, Process Once the trigger's item
	if (
		resource === 'apiRequest' ||
		resource === 'triggerDelivery' ||
		resource.startsWith('=') ||
		operation.startsWith('=')
	)
		return;
	if (
		typeof p.simplify === 'string' ||
		(typeof p.outputMode === 'string' && p.outputMode.startsWith('='))
	)
		return;
	const mode = modeOfNode(node);
	const records = items.filter((json) => !isErrorItem(json));
	if (mode === 'raw' || records.length === 0) return;
	const record = process.env.FINVERIFY_RECORD_OUTPUTS;
	if (record) {
		appendFileSync(record, `${JSON.stringify({ resource, operation, mode, items: records })}\n`);
		return;
	}
	const file = schemaPath(resource, operation, mode, node.typeVersion ?? 1) as string;
	const validate = validatorFor(file);
	if (!validate)
		throw new Error(`no output schema for ${resource}.${operation} (${mode}): ${file}`);
	for (const json of records) {
		if (!validate(json)) {
			throw new Error(
				`output of ${resource}.${operation} (${mode}) does not match ${path.relative(process.cwd(), file)}: ${ajv.errorsText(validate.errors)}`,
			);
		}
		validated.items++;
	}
}
