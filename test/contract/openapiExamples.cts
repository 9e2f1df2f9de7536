/**
 * Deterministic examples of the OpenAPI contract's response schemas with EVERY property filled (optional
 * ones too), for the output-contract tests: the coverage test runs them through the normalizers and
 * checks that every property is mapped or listed as raw-only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

type Schema = Record<string, unknown> & {
	$ref?: string;
	type?: string | string[];
	properties?: Record<string, Schema>;
	items?: Schema;
	allOf?: Schema[];
	oneOf?: Schema[];
	anyOf?: Schema[];
	enum?: unknown[];
	const?: unknown;
	format?: string;
	pattern?: string;
	additionalProperties?: Schema | boolean;
	propertyNames?: Schema;
	minimum?: number;
};

const spec = parse(
	readFileSync(path.join(__dirname, '../../openapi/finverify.openapi.yaml'), 'utf8'),
) as { components: { schemas: Record<string, Schema> } };

export const schemas = spec.components.schemas;

function resolve(schema: Schema): Schema {
	let current = schema;
	while (current.$ref) {
		const name = current.$ref.replace('#/components/schemas/', '');
		current = {
			...schemas[name],
			...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')),
		};
	}
	return current;
}

/** allOf merged into one schema (properties merged deeply by name). */
function merged(schema: Schema): Schema {
	const s = resolve(schema);
	if (!s.allOf) return s;
	let out: Schema = { ...s, allOf: undefined };
	for (const part of s.allOf) {
		const m = merged(part);
		const properties = { ...(out.properties ?? {}) };
		for (const [key, value] of Object.entries(m.properties ?? {})) {
			properties[key] = properties[key] ? { allOf: [properties[key], value] } : value;
		}
		out = { ...out, ...m, properties, allOf: undefined };
	}
	return out;
}

const PATTERN_VALUES: Record<string, string> = {
	'^[0-9]{12}$': '101234567890',
	'^[0-9]{8}$': '01234567',
	'^[0-9]+$': '742',
	'^[0-9]{4}-[0-9]{2}$': '2024-03',
	'^[0-9]{10}$': '9876543210',
	'^[0-9]{6}$': '560001',
	'^[0-9]{2}-[0-9]{2}-[0-9]{2}$': '31-03-24',
	'^[0-9]{2}-[0-9]{2}-[0-9]{4}$': '31-03-2024',
	'^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][0-9A-Z]Z[0-9A-Z]$': '29ABCDE1234F1Z5',
	'^[6-9][0-9]{9}$': '9876543210',
	'^[A-Z]{4}0[A-Z0-9]{6}$': 'HDFC0001234',
	'^[A-Z]{4}[0-9]{5}[A-Z]$': 'BLRA12345B',
	'^[A-Z]{5}[0-9]{4}[A-Z]$': 'ABCDE1234F',
	'^[A-Za-z0-9]{21}$': 'L17110MH1973PLC019786',
	'^[A-Za-z]{3}-[0-9]{4}$': 'AAB-1234',
	'^[A-Za-z]{5}[0-9]{4}[A-Za-z]$': 'ABCDE1234F',
	'^aa_[0-9a-f]{24}$': 'aa_5f2c0b7e9a1d4c3b8e6f0a2d',
	'^https?://': 'https://files.example.com/file',
	'\\S': 'text',
};

/**
 * Values for properties whose example must agree with another one to be a well-formed answer: an
 * assessment year is two consecutive years (`2024-25`, not the pattern's `2024-03`), and an employment
 * with an exit date is not current and runs the months it states (3, the integers' example).
 */
const KEY_VALUES: Record<string, unknown> = {
	assessment_year: '2024-25',
	filing_year: '2024-25',
	date_of_joining: '2023-12-31',
	is_current: false,
};

function scalar(s: Schema, key: string, type: string): unknown {
	if (key in KEY_VALUES && (key !== 'assessment_year' || s.pattern)) return KEY_VALUES[key];
	if (type === 'integer') return typeof s.minimum === 'number' ? s.minimum + 1 : 3;
	if (type === 'number') return 1234.5;
	if (type === 'boolean') return true;
	if (s.format === 'date') return '2024-03-31';
	if (s.format === 'date-time') return '2024-03-31T10:15:30Z';
	if (s.format === 'uri') return `https://files.example.com/${key}`;
	if (s.pattern && PATTERN_VALUES[s.pattern]) return PATTERN_VALUES[s.pattern];
	if (s.pattern) throw new Error(`no example for pattern ${s.pattern} (${key})`);
	return `${key} text`;
}

/** An example of `schema` with every property filled; `choose` picks the branch of a oneOf. */
export function example(schema: Schema, key = 'value'): unknown {
	const s = merged(schema);
	if (s.const !== undefined) return s.const;
	if (s.enum) return s.enum[0];
	const variants = s.oneOf ?? s.anyOf;
	if (variants) {
		// the richest branch: not null, not an empty-string constant
		const rich = variants.find((v) => {
			const r = merged(v);
			return r.type !== 'null' && r.const !== '';
		});
		return example(rich ?? variants[0], key);
	}
	const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
	const type =
		types.find((t) => t !== 'null') ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
	if (type === 'object' || (type === undefined && s.additionalProperties)) {
		const out: Record<string, unknown> = {};
		for (const [name, value] of Object.entries(s.properties ?? {}))
			out[name] = example(value, name);
		if (typeof s.additionalProperties === 'object') {
			const names = s.propertyNames
				? (merged(s.propertyNames).enum as string[] | undefined)
				: undefined;
			for (const name of names ?? ['key']) {
				if (!(name in out)) out[name] = example(s.additionalProperties, name);
			}
		}
		return out;
	}
	if (type === 'array') return s.items ? [example(s.items, key)] : [];
	if (type === undefined) return '';
	return scalar(s, key, type);
}

/** Every leaf path of a value: `a.b[].c` (array items collapsed to `[]`), empty objects/arrays as leaves. */
export function leafPaths(value: unknown, prefix = ''): string[] {
	if (Array.isArray(value)) {
		if (value.length === 0) return [prefix];
		return [...new Set(value.flatMap((item) => leafPaths(item, `${prefix}[]`)))];
	}
	if (typeof value === 'object' && value !== null) {
		const entries = Object.entries(value);
		if (entries.length === 0) return [prefix];
		return entries.flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
	}
	return [prefix];
}

/**
 * A deep proxy of `value` that records every property path read through it (same notation as
 * leafPaths). Normalizers only read, so reading a property is what "mapping" it means here.
 */
export function recording(value: unknown): { proxy: unknown; read: Set<string> } {
	const read = new Set<string>();
	const wrap = (target: unknown, prefix: string): unknown => {
		if (typeof target !== 'object' || target === null) return target;
		const isArray = Array.isArray(target);
		return new Proxy(target as object, {
			get(obj, prop, receiver) {
				const result = Reflect.get(obj, prop, receiver);
				if (typeof prop !== 'string') return result;
				if (isArray) {
					if (!/^\d+$/.test(prop)) return typeof result === 'function' ? result : result;
					const p = `${prefix}[]`;
					read.add(p);
					return wrap(result, p);
				}
				if (!Object.prototype.hasOwnProperty.call(obj, prop)) return result;
				const p = prefix ? `${prefix}.${prop}` : prop;
				read.add(p);
				return wrap(result, p);
			},
		});
	};
	return { proxy: wrap(value, ''), read };
}
