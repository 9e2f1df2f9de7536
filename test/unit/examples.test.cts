/**
 * Every FinVerify node of every shipped example passes n8n's own parameter check, the one the editor uses
 * to paint a parameter red and the engine uses to refuse a manual run (n8n-workflow `NodeHelpers`): the
 * parameters are resolved against the node's description (`getNodeParameters`) and checked
 * (`getNodeParametersIssues`: required fields, pickers). The editor's parameter input adds one check of its
 * own, "The value … is not supported!" for an option value the list does not offer; `unsupportedValues`
 * reproduces it for every displayed options field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { readmeCredential, readmeTour } from '../harness/readmeTour.cjs';
import { DEFAULT_CREDENTIALS } from '../../sandbox/auth.cjs';
import { resolveConfig } from '../../sandbox/config.cjs';
import { startMessage } from '../../sandbox/main.cjs';
import { FinVerifyTrigger } from '../../nodes/FinVerifyTrigger/FinVerifyTrigger.node';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const DESCRIPTIONS: Record<string, INodeTypeDescription> = {
	'n8n-nodes-finverify.finVerify': new FinVerify().description,
	// the node attached to an AI Agent as a tool: n8n derives this type from `usableAsTool`, same parameters
	'n8n-nodes-finverify.finVerifyTool': new FinVerify().description,
	'n8n-nodes-finverify.finVerifyTrigger': new FinVerifyTrigger().getNodeType().description,
};

/** What n8n reports for one node, as the editor does after loading the workflow. */
export function parameterIssues(node: INode): Record<string, string[]> {
	const description = DESCRIPTIONS[node.type];
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		description,
	);
	const issues = NodeHelpers.getNodeParametersIssues(
		description.properties,
		{ ...node, parameters: parameters ?? {} },
		description,
	);
	return {
		...((issues?.parameters ?? {}) as Record<string, string[]>),
		...unsupportedValues(description, node, parameters ?? {}),
	};
}

function unsupportedValues(
	description: INodeTypeDescription,
	node: INode,
	parameters: INodeParameters,
): Record<string, string[]> {
	const found: Record<string, string[]> = {};
	const check = (properties: INodeProperties[], values: INodeParameters, prefix: string) => {
		for (const p of properties) {
			if (!(p.name in values)) continue;
			if (!NodeHelpers.displayParameter(values, p, node, description, parameters)) continue;
			const value = values[p.name];
			if (p.type === 'collection' && typeof value === 'object' && value !== null) {
				check(p.options as INodeProperties[], value as INodeParameters, `${prefix}${p.name}.`);
				continue;
			}
			if (p.type !== 'options' && p.type !== 'multiOptions') continue;
			// the editor skips the check for a parameter that allows other values (a CRM's spellings)
			if (p.allowArbitraryValues) continue;
			if (typeof value === 'string' && value.startsWith('=')) continue;
			const offered = ((p.options ?? []) as INodePropertyOptions[]).map((o) => o.value);
			for (const v of Array.isArray(value) ? value : [value])
				if (!offered.includes(v as string))
					(found[`${prefix}${p.name}`] ??= []).push(`The value "${String(v)}" is not supported!`);
		}
	};
	check(description.properties, parameters, '');
	return found;
}

const examples = readdirSync(EXAMPLES)
	.filter((f) => f.endsWith('.json'))
	.flatMap((file) => {
		const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as {
			nodes: INode[];
		};
		return workflow.nodes
			.filter((n) => n.type in DESCRIPTIONS)
			.map((n) => [file, n.name, n] as const);
	});

test('the examples have FinVerify nodes to check', () => {
	expect(examples.length).toBeGreaterThanOrEqual(10);
});

test.each(examples)('%s › %s: no parameter issue', (_file, _name, node) => {
	expect(parameterIssues(node)).toEqual({});
});

/** The newest version of a node type: what a node added from the panel gets. */
export function latestVersion(type: string): number {
	const { version } = DESCRIPTIONS[type];
	return Math.max(...(Array.isArray(version) ? version : [version]));
}

test('the FinVerify action node has more than one version, so the check below can see an outdated one', () => {
	expect(latestVersion('n8n-nodes-finverify.finVerify')).toBeGreaterThan(1);
});

test.each(examples)(
	'%s › %s: at the latest version of its node (what the README and docs describe)',
	(_file, _name, node) => {
		expect(node.typeVersion).toBe(latestVersion(node.type));
	},
);

test.each(examples)(
	'%s › %s: every saved parameter is one the latest version shows (nothing left over from version 1)',
	(_file, _name, node) => {
		const description = DESCRIPTIONS[node.type];
		const resolved = NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) as INodeParameters;
		expect(Object.keys(node.parameters).filter((k) => !(k in resolved))).toEqual([]);
	},
);

test('the check catches a value the description does not offer', () => {
	const [, , node] = examples.find(([file]) => file === 'bank-statement-journey-start.json') ?? [];
	const broken = { ...(node as INode), parameters: { ...(node as INode).parameters } };
	// (Consent Type takes other spellings from a CRM; Wait for Completion takes only its options)
	if (broken.parameters.operation === 'start') broken.parameters.waitForCompletion = 'sometimes';
	else broken.parameters.resource = 'noSuchResource';
	expect(Object.keys(parameterIssues(broken)).length).toBeGreaterThan(0);
});

describe('output-file fields', () => {
	const resolved = (typeVersion: number, parameters: INodeParameters) => {
		const description = DESCRIPTIONS['n8n-nodes-finverify.finVerify'];
		const node = { typeVersion } as INode;
		return NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) as INodeParameters;
	};
	// the download switch is download from version 2 (version 1 named it downloadReportPdf)
	const pdf = (typeVersion: number) => ({
		resource: 'company',
		operation: 'getByCin',
		[typeVersion < 2 ? 'downloadReportPdf' : 'download']: true,
	});
	const html = { resource: 'creditReport', operation: 'getCommercialReport', output: 'htmlFile' };

	test('from version 2, the company PDF and the commercial report HTML have distinct default fields', () => {
		expect(resolved(2, pdf(2)).binaryPropertyName).toBe('companyReport');
		expect(resolved(2, html).binaryPropertyName).toBe('commercialReport');
	});

	test('version 1 keeps data, which saved workflows rely on', () => {
		expect(resolved(1, pdf(1)).binaryPropertyName).toBe('data');
		expect(resolved(1, html).binaryPropertyName).toBe('data');
	});
});

describe("the README's quick start", () => {
	const tour = readmeTour();
	const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, tour.example), 'utf8')) as {
		nodes: INode[];
	};
	const node = workflow.nodes.find((n) => n.name === tour.node) as INode;

	test('names an example, a FinVerify node of it at the latest version and its output fields', () => {
		expect(node).toBeDefined();
		expect(node.type).toBe('n8n-nodes-finverify.finVerify');
		expect(node.typeVersion).toBe(latestVersion(node.type));
		expect(tour.fields.length).toBeGreaterThanOrEqual(3);
	});

	test('the fields are those of the output mode it names (Simplified, the default: the node sets none)', () => {
		expect(readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8')).toMatch(
			/in the default Output \*Simplified\*/,
		);
		expect(node.parameters.outputMode ?? 'simplified').toBe('simplified');
		const { resource, operation } = node.parameters as { resource: string; operation: string };
		const schema = JSON.parse(
			readFileSync(
				path.resolve(
					__dirname,
					`../../nodes/FinVerify/__schema__/v${node.typeVersion >= 3 ? 3 : 2}.0.0/${resource}/${operation}.json`,
				),
				'utf8',
			),
		) as { properties: Record<string, unknown> };
		expect(tour.fields.filter((f) => !(f in schema.properties))).toEqual([]);
	});

	test('its credential holds every value the examples need, as the simulator accepts and prints them', () => {
		const { fields, data } = readmeCredential();
		// the waiting examples verify callbacks with the signing secret; the collection session one sends the token
		expect(data).toEqual({
			environment: 'sandbox',
			apiKey: DEFAULT_CREDENTIALS.key,
			apiSecret: DEFAULT_CREDENTIALS.secret,
			refreshToken: DEFAULT_CREDENTIALS.refreshToken,
			webhookSecret: DEFAULT_CREDENTIALS.webhookSecret,
		});
		const banner = startMessage('http://127.0.0.1:4010', resolveConfig({}, {})).join(' ');
		for (const [label, value] of Object.entries(fields)) {
			expect(banner).toContain(
				label === 'Environment' ? `Environment "${value}"` : `${label} ${value}`,
			);
		}
	});
});
