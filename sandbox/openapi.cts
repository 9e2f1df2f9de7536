import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { ApiError, type ErrorDetail, type Variant } from './errors.cjs';

/**
 * The OpenAPI document is the single source of the sandbox's request rules: routes, permissions, error
 * variants and validators are all built from it.
 */
export const OPENAPI_PATH = path.join(__dirname, '..', 'openapi', 'finverify.openapi.yaml');

type Schema = Record<string, unknown>;
type Doc = {
	paths: Record<string, Record<string, Schema>>;
	components: {
		schemas: Record<string, Schema>;
		parameters: Record<string, Schema>;
		responses: Record<string, Schema>;
	};
};

const SCHEMAS_ID = 'https://finverify.sandbox/schemas';

export interface FieldRule {
	code: string;
	status: number;
	message?: string;
}

export interface Operation {
	operationId: string;
	method: 'GET' | 'POST';
	path: string;
	permission: string;
	variant: Variant;
	needsRefreshToken: boolean;
	/** Throws an ApiError in the operation's terms when the body (POST) or query (GET) is invalid. */
	validate(input: unknown): void;
}

export interface Contract {
	doc: Doc;
	operations: Operation[];
	/** Response validator for an operation and status (falls back to `default`), for contract tests. */
	responseValidator(operationId: string, status: number): ValidateFunction | undefined;
	ajv: Ajv2020;
}

let cached: Contract | undefined;

export function loadContract(file = OPENAPI_PATH): Contract {
	if (cached && file === OPENAPI_PATH) return cached;
	const doc = parse(readFileSync(file, 'utf8')) as Doc;
	const ajv = new Ajv2020({
		allErrors: true,
		strict: true,
		strictTypes: false,
		strictRequired: false,
		logger: false,
	});
	addFormats(ajv);
	for (const keyword of [
		'x-assumed',
		'x-error-code',
		'x-error-status',
		'x-error-message',
		'example',
	])
		ajv.addKeyword(keyword);
	// The document is linted and meta-validated by the contract tests; skipping it here halves start-up time.
	ajv.addSchema(
		{ $id: SCHEMAS_ID, $defs: rewriteRefs(doc.components.schemas) },
		undefined,
		undefined,
		false,
	);

	const resolve = <T = Schema,>(node: unknown): T => {
		let current = node as Schema;
		while (current && typeof current.$ref === 'string') {
			const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(current.$ref) ?? [];
			current = (doc.components as unknown as Record<string, Record<string, Schema>>)[section]?.[
				name
			];
		}
		return current as T;
	};

	const operations: Operation[] = [];
	// Response schemas are compiled on first use: the sandbox itself never needs them, tests do.
	const responses = new Map<string, Map<string, Schema>>();
	const compiled = new Map<Schema, ValidateFunction>();
	for (const [route, item] of Object.entries(doc.paths)) {
		for (const [method, op] of Object.entries(item)) {
			const operationId = op.operationId as string;
			const variant = op['x-error-variant'] as Variant;
			const input = inputSchema(op, resolve);
			const check = ajv.compile(rewriteRefs(input.schema) as Schema);
			operations.push({
				operationId,
				method: method.toUpperCase() as Operation['method'],
				path: route,
				permission: op['x-permission'] as string,
				variant,
				needsRefreshToken: ((op.security as Array<Record<string, unknown>> | undefined) ?? []).some(
					(s) => 'refreshToken' in s,
				),
				validate(value) {
					if (!check(value)) throw validationError(check.errors ?? [], input.rules, input.location);
				},
			});
			const byStatus = new Map<string, Schema>();
			for (const [status, response] of Object.entries(op.responses as Record<string, Schema>)) {
				const schema = resolve<{ content?: Record<string, { schema: Schema }> }>(response)
					.content?.['application/json']?.schema;
				if (schema) byStatus.set(status, rewriteRefs(schema) as Schema);
			}
			responses.set(operationId, byStatus);
		}
	}
	const contract: Contract = {
		doc,
		operations,
		ajv,
		responseValidator: (operationId, status) => {
			const byStatus = responses.get(operationId);
			const schema =
				byStatus?.get(String(status)) ??
				byStatus?.get(`${String(status)[0]}XX`) ??
				byStatus?.get('default');
			if (!schema) return undefined;
			if (!compiled.has(schema)) compiled.set(schema, ajv.compile(schema));
			return compiled.get(schema);
		},
	};
	if (file === OPENAPI_PATH) cached = contract;
	return contract;
}

/** The JSON schema of what a request carries (its JSON body, or its query parameters) plus per-field rules. */
function inputSchema(op: Schema, resolve: <T = Schema>(node: unknown) => T) {
	const rules = new Map<string, FieldRule>();
	const ruleOf = (field: string, schema: Schema) => {
		if (typeof schema['x-error-code'] === 'string') {
			rules.set(field, {
				code: schema['x-error-code'],
				status: (schema['x-error-status'] as number) ?? 400,
				message: schema['x-error-message'] as string | undefined,
			});
		}
	};
	const body = resolve<{ content?: Record<string, { schema: Schema }> } | undefined>(op.requestBody)
		?.content?.['application/json']?.schema;
	if (body) {
		const properties = resolve<{ properties?: Record<string, Schema> }>(body).properties ?? {};
		for (const [field, schema] of Object.entries(properties)) ruleOf(field, schema);
		return { schema: body, rules, location: 'body' as const };
	}
	const parameters = ((op.parameters as unknown[]) ?? [])
		.map((p) => resolve<{ name: string; in: string; required?: boolean; schema: Schema }>(p))
		.filter((p) => p.in === 'query');
	for (const p of parameters) ruleOf(p.name, p.schema);
	return {
		schema: {
			type: 'object',
			required: parameters.filter((p) => p.required).map((p) => p.name),
			properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
		},
		rules,
		location: 'query' as const,
	};
}

function rewriteRefs(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(rewriteRefs);
	if (node && typeof node === 'object') {
		return Object.fromEntries(
			Object.entries(node).map(([k, v]) => [
				k,
				k === '$ref' && typeof v === 'string'
					? v.replace('#/components/schemas/', `${SCHEMAS_ID}#/$defs/`)
					: rewriteRefs(v),
			]),
		);
	}
	return node;
}

/** Turns ajv errors into the operation's error: a field's own code when it declares one, else INVALID_INPUT. */
function validationError(
	errors: ErrorObject[],
	rules: Map<string, FieldRule>,
	location: 'body' | 'query',
): ApiError {
	const details = dedupe(
		errors.filter((e) => !['oneOf', 'anyOf', 'allOf', 'if'].includes(e.keyword)).map(describe),
	);
	if (details.length === 0)
		details.push({ field: location, message: `The request ${location} is invalid` });
	const root = details.find((d) => d.field === '');
	if (root)
		return new ApiError(
			400,
			'INVALID_INPUT',
			location === 'body' ? 'The request body must be a JSON object' : 'Invalid query string',
			{ details },
		);
	// A field's own rule applies when the field is present but wrong; a missing field is always INVALID_INPUT.
	const ruled = errors.find((e) => e.keyword !== 'required' && rules.has(topField(e)));
	const rule = ruled ? rules.get(topField(ruled)) : undefined;
	const first = details[0];
	const message =
		rule?.message ??
		(details.length === 1
			? first.message
			: `${first.message} (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''})`);
	return new ApiError(rule?.status ?? 400, rule?.code ?? 'INVALID_INPUT', message, { details });
}

const topField = (e: ErrorObject): string =>
	e.keyword === 'required' && e.instancePath === ''
		? String(e.params.missingProperty)
		: (e.instancePath.split('/')[1] ?? '');

function describe(e: ErrorObject): ErrorDetail {
	const field =
		e.keyword === 'required'
			? [...e.instancePath.split('/').slice(1), e.params.missingProperty].join('.')
			: e.instancePath.split('/').slice(1).join('.');
	const name = field || 'value';
	switch (e.keyword) {
		case 'required':
			return { field, message: `${name} is required` };
		case 'pattern':
			return { field, message: `${name} has an invalid format` };
		case 'enum':
			return {
				field,
				message: `${name} must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`,
			};
		case 'const':
			return { field, message: `${name} must be ${JSON.stringify(e.params.allowedValue)}` };
		case 'minLength':
			return { field, message: `${name} must be at least ${e.params.limit} characters` };
		case 'maxLength':
			return { field, message: `${name} must be at most ${e.params.limit} characters` };
		case 'minItems':
			return {
				field,
				message: `${name} must contain at least ${e.params.limit} item${e.params.limit === 1 ? '' : 's'}`,
			};
		case 'format':
			return { field, message: `${name} must be a valid ${e.params.format}` };
		case 'type':
			return {
				field,
				message: `${name} must be ${/^[aeiou]/.test(String(e.params.type)) ? 'an' : 'a'} ${e.params.type}`,
			};
		default:
			return { field, message: `${name} ${e.message ?? 'is invalid'}` };
	}
}

const dedupe = (details: ErrorDetail[]) =>
	details.filter(
		(d, i) => details.findIndex((x) => x.field === d.field && x.message === d.message) === i,
	);
