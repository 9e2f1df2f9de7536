/**
 * Issue 42, the examples' lint: in every shipped example (but the two the company workers own) each
 * version 3 FinVerify node has every output its parameters give it (n8n's own resolution of the
 * displayed parameters, then the node's `configuredOutputs`) connected to a node, so an Incomplete or
 * Failed applicant always reaches a place a person sees; and no Set node writes `verified: true` after an
 * output that carries answers whose facts are not all known (Success under Keep in the Output).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { IConnections, INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FinVerify, configuredOutputs } from '../../nodes/FinVerify/FinVerify.node';
import { isReconcileRequest, RECONCILE_HEADER } from '../../nodes/FinVerify/completion/reconcile';

const EXAMPLES = path.resolve(__dirname, '../../examples');
const description = new FinVerify().description;

interface Workflow {
	nodes: INode[];
	connections: IConnections;
}

/** The outputs n8n gives the node (names by position). */
export function outputsOf(node: INode): string[] {
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		node.parameters,
		true,
		false,
		node,
		description,
	) as INodeParameters;
	return configuredOutputs(parameters).map(
		(o) => (o as { displayName?: string }).displayName ?? 'main',
	);
}

/** Findings of one workflow: unwired outputs of version 3 FinVerify nodes, `verified: true` after Success. */
export function wiringFindings(workflow: Workflow): string[] {
	const findings: string[] = [];
	for (const node of workflow.nodes) {
		if (!node.type.endsWith('.finVerify') || node.typeVersion < 3 || node.disabled) continue;
		const outputs = outputsOf(node);
		const main = workflow.connections[node.name]?.main ?? [];
		if (outputs.length === 1) continue;
		outputs.forEach((name, index) => {
			if (!(main[index] ?? []).some((c) => c?.node))
				findings.push(`"${node.name}": its ${name} output (${index}) has nothing connected`);
		});
		outputs.forEach((name, index) => {
			if (name === 'Complete') return;
			for (const connection of main[index] ?? []) {
				const next = workflow.nodes.find((n) => n.name === connection?.node);
				const assignments = (
					(
						next?.parameters?.assignments as {
							assignments?: Array<{ name: string; value: unknown }>;
						}
					)?.assignments ?? []
				).filter((a) => a.name === 'verified' && (a.value === true || a.value === 'true'));
				if (assignments.length > 0)
					findings.push(
						`"${next!.name}" writes verified: true after "${node.name}"'s ${name} output, which carries answers whose facts are not all known`,
					);
			}
		});
	}
	return findings;
}

const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));

test.each(files)('%s: every output of a version 3 FinVerify node reaches a node', (file) => {
	const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Workflow;
	expect(wiringFindings(workflow)).toEqual([]);
});

test('the lint catches an unwired Failed output and verified: true after Success (Keep)', () => {
	const workflow = JSON.parse(
		readFileSync(path.join(EXAMPLES, 'error-handling.json'), 'utf8'),
	) as Workflow;
	const node = workflow.nodes.find((n) => n.name === 'Get company by CIN')!;
	node.parameters.incompleteAnswers = 'keep';
	const main = workflow.connections[node.name].main;
	main[1] = [{ node: 'Verified company', type: 'main', index: 0 }];
	main[0] = [{ node: 'Verified company', type: 'main', index: 0 }];
	main[2] = [];
	expect(wiringFindings(workflow)).toEqual([
		'"Get company by CIN": its Failed output (2) has nothing connected',
		`"Verified company" writes verified: true after "Get company by CIN"'s Success output, which carries answers whose facts are not all known`,
		`"Verified company" writes verified: true after "Get company by CIN"'s Incomplete output, which carries answers whose facts are not all known`,
	]);
});

/** The outputs of n8n's Switch (version 3): one per rule, plus the fallback output when it is `extra`. */
function switchFindings(workflow: Workflow): string[] {
	const findings: string[] = [];
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-base.switch' || node.disabled) continue;
		const rules = ((node.parameters.rules as { values?: unknown[] })?.values ?? []).length;
		const extra = (node.parameters.options as { fallbackOutput?: unknown })?.fallbackOutput;
		const outputs = rules + (extra === 'extra' ? 1 : 0);
		const main = workflow.connections[node.name]?.main ?? [];
		for (let index = 0; index < outputs; index++)
			if (!(main[index] ?? []).some((c) => c?.node))
				findings.push(`"${node.name}": its output ${index} has nothing connected`);
	}
	return findings;
}

test.each(files)('%s: every output of a Switch reaches a node', (file) => {
	const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Workflow;
	expect(switchFindings(workflow)).toEqual([]);
});

describe('the reconciler example (issue 44)', () => {
	const file = 'reconcile-waiting-executions.json';
	const read = () => JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as Workflow;

	test('every outcome of its Switch reaches a report node, the fallback (Not checked) too', () => {
		const workflow = read();
		expect(switchFindings(workflow)).toEqual([]);
		const outcome = workflow.connections.Outcome.main.map((c) => c?.[0]?.node);
		expect(outcome).toEqual(['Resumed', 'Still waiting', 'No longer waiting', 'Not checked']);
	});

	test('the check catches an unwired outcome', () => {
		const workflow = read();
		workflow.connections.Outcome.main[3] = [];
		expect(switchFindings(workflow)).toEqual(['"Outcome": its output 3 has nothing connected']);
	});

	test('it sends the header the node reads, to the resume URL the node stored', () => {
		const node = read().nodes.find((n) => n.name === 'Ask the node to check the service')!;
		const headers = (
			node.parameters.headerParameters as { parameters: Array<{ name: string; value: string }> }
		).parameters;
		expect(headers.map((h) => [h.name.toLowerCase(), h.value])).toEqual([
			[RECONCILE_HEADER, 'true'],
		]);
		expect(isReconcileRequest(headers[0].value)).toBe(true);
		expect(node.parameters.method).toBe('POST');
		expect(node.parameters.url).toBe('={{ $json.resumeUrl }}');
	});
});
