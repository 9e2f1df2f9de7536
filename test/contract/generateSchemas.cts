/**
 * Writes the output schemas shipped in nodes/FinVerify/__schema__ (see outputSchemas.cts):
 *
 *   FINVERIFY_RECORD_OUTPUTS=/tmp/outputs.jsonl npx jest --selectProjects integration   # record
 *   node --require tsx/cjs test/contract/generateSchemas.cts /tmp/outputs.jsonl          # write
 *   node --require tsx/cjs test/contract/generateSchemas.cts --only company.getDirectorByDin   # one operation
 *
 * `--only <resource.operation>` (repeatable) writes the files of those operations alone: a new operation's
 * schemas from its examples, without rewriting the others from less than their recorded outputs.
 * Samples per operation and mode: the OpenAPI examples of both shapes (every property filled) through
 * the operation's normalizer, plus every output the integration suites recorded (split items, files,
 * options). Review the diff before committing: a schema only widens when an output changed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject } from 'n8n-workflow';

import {
	hasDecision,
	simplifyOutput,
	withDecision,
} from '../../nodes/FinVerify/actions/declarations';
import { registry } from '../../nodes/FinVerify/actions/router';
import type { Operation } from '../../nodes/FinVerify/actions/operation';
import { consentRecord } from '../../nodes/FinVerify/helpers/consentRecord';
import { example } from './openapiExamples.cjs';
import { inferSchema, schemaPath } from './outputSchemas.cjs';
import type { Mode } from './outputSchemas.cjs';
import { RESPONSES } from './responses.cjs';

const samples = new Map<string, IDataObject[]>();
const add = (operation: string, mode: Mode, items: IDataObject[]) => {
	const key = `${operation}|${mode}`;
	samples.set(key, [...(samples.get(key) ?? []), ...items]);
};

for (const contract of RESPONSES) {
	for (const name of contract.schemas) {
		const body = example({ $ref: `#/components/schemas/${name}` }) as IDataObject;
		for (const version of [body, ...(contract.variants?.(body) ?? [])]) {
			const out = contract.normalize(version);
			const items = (Array.isArray(out) ? out : [out]) as IDataObject[];
			add(contract.operation, 'normalized', items);
			add(
				contract.operation,
				'simplified',
				items.map((json) => simplifyOutput(contract.operation, json)),
			);
		}
	}
}

// Get by CIN answers with the LLP record when it is given an LLPIN: its schema covers both records
for (const mode of ['normalized', 'simplified'] as const)
	add('company.getByCin', mode, samples.get(`company.getLlpByLlpin|${mode}`) ?? []);

const args = process.argv.slice(2);
const only = args.flatMap((arg, i) => (args[i - 1] === '--only' ? [arg] : []));
const recorded = args.find((arg, i) => arg !== '--only' && args[i - 1] !== '--only');
if (recorded) {
	for (const line of readFileSync(recorded, 'utf8').split('\n').filter(Boolean)) {
		const { resource, operation, mode, items } = JSON.parse(line) as {
			resource: string;
			operation: string;
			mode: Mode;
			items: IDataObject[];
		};
		const key = `${resource}.${operation}`;
		add(key, mode, items);
		if (mode === 'normalized')
			add(
				key,
				'simplified',
				items.map((json) => simplifyOutput(key, json)),
			);
	}
}

// credit pulls carry a consent record in every mode (added by the router): with and without a
// reference and an execution id
const pulls = Object.entries(registry).flatMap(([resource, operations]) =>
	Object.entries(operations as Record<string, Operation>)
		.filter(([, module]) => module.consentPurpose !== undefined)
		.map(([operation, module]) => [`${resource}.${operation}`, module.consentPurpose!] as const),
);
for (const [operation, purpose] of pulls) {
	const run = { workflowId: 'wf1', workflowName: 'Credit check', nodeName: 'FinVerify' };
	const records = [
		consentRecord(purpose, operation, new Date(0), { ...run, executionId: '1' }, 'CF-1'),
		consentRecord(purpose, operation, new Date(0), { ...run, executionId: null }, ''),
	];
	for (const mode of ['normalized', 'simplified'] as const) {
		const key = `${operation}|${mode}`;
		samples.set(
			key,
			(samples.get(key) ?? []).map((json, i) => ({
				...json,
				consentRecord: records[i % records.length],
			})),
		);
	}
}
// Version 3: the decision operations' Normalized records carry the verdict (split items the verdict of
// their answer; decided either way), and version 3's Simplified is the decision view; the other
// operations' version 3 Simplified is version 2's
const VERDICTS = [
	{ decisionReady: true, incomplete: [] },
	{ decisionReady: false, incomplete: ['CIBIL: payment history unknown'] },
];
const v3Simplified = new Map<string, IDataObject[]>();
for (const [key, items] of [...samples.entries()]) {
	const [operation, mode] = key.split('|') as [string, Mode];
	if (!hasDecision(operation)) {
		if (mode === 'simplified') v3Simplified.set(operation, items);
		continue;
	}
	if (mode !== 'normalized') continue;
	const decided = items.flatMap((json) =>
		'decisionReady' in json
			? [json]
			: [withDecision(operation, json), ...VERDICTS.map((verdict) => ({ ...verdict, ...json }))],
	);
	samples.set(key, [...items, ...decided]);
	v3Simplified.set(
		operation,
		decided.map((json) => simplifyOutput(operation, json, 3)),
	);
}

/** What a title adds where an operation's records are of more than one kind. */
const TITLE_NOTES: Record<string, string> = {
	'company.getByCin': ' (a company; an LLP when the identifier is an LLPIN)',
};

let files = 0;
interface SchemaFile {
	operation: string;
	mode: Mode;
	version: number;
	items: IDataObject[];
}
const written: SchemaFile[] = [
	...[...samples.entries()].map(([key, items]) => {
		const [operation, mode] = key.split('|') as [string, Mode];
		return { operation, mode, version: 2, items };
	}),
	...[...v3Simplified.entries()].map(([operation, items]) => ({
		operation,
		mode: 'simplified' as const,
		version: 3,
		items,
	})),
].sort((a, b) =>
	`${a.operation}|${a.mode}|${a.version}`.localeCompare(`${b.operation}|${b.mode}|${b.version}`),
);
for (const { operation, mode, version, items } of written) {
	if (only.length > 0 && !only.includes(operation)) continue;
	const [resource, op] = operation.split('.');
	const file = schemaPath(resource, op, mode, version) as string;
	const schema = {
		$schema: 'http://json-schema.org/draft-07/schema#',
		title: `FinVerify ${resource} ${op}: ${mode} output${version >= 3 && mode === 'simplified' ? ' (node version 3)' : ''}${TITLE_NOTES[operation] ?? ''}`,
		...inferSchema(items),
	};
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(schema, null, '\t')}\n`);
	files++;
	console.log(`${path.relative(process.cwd(), file)}: ${items.length} samples`);
}
console.log(`${files} schema files`);
