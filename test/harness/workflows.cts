import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INode } from 'n8n-workflow';

import type { WorkflowJson } from './engine.cjs';

export const FINVERIFY_NODE = 'n8n-nodes-finverify.finVerify';
export const FINVERIFY_TRIGGER_NODE = 'n8n-nodes-finverify.finVerifyTrigger';
export const CREDENTIAL_REF = { finVerifyApi: { id: 'cred-1', name: 'FinVerify sandbox' } };

/** Reads a workflow fixture (JSON as exported from the n8n editor). Relative paths start at test/. */
export function loadWorkflow(file: string): WorkflowJson {
	const full = path.isAbsolute(file) ? file : path.resolve(__dirname, '..', file);
	return JSON.parse(readFileSync(full, 'utf8')) as WorkflowJson;
}

export interface SingleNodeOptions {
	/** Parameters of the FinVerify node (resource, operation, fields…). */
	parameters: IDataObject;
	/** Input items for the node (pinned on the start node); default one empty item. */
	items?: IDataObject[];
	/** n8n's "On Error" setting of the node. */
	onError?: INode['onError'];
	nodeName?: string;
	nodeType?: string;
}

/** Start (manual trigger, with pinned input items) → one FinVerify node. */
export function nodeWorkflow(options: SingleNodeOptions): WorkflowJson {
	const name = options.nodeName ?? 'FinVerify';
	const node: INode = {
		id: 'finverify-node',
		name,
		type: options.nodeType ?? FINVERIFY_NODE,
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: CREDENTIAL_REF,
	};
	if (options.onError) node.onError = options.onError;
	return {
		name: 'test',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			node,
		],
		connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		pinData: { Start: (options.items ?? [{}]).map((json) => ({ json })) },
	};
}

/** Replaces the parameters of the FinVerify node of a fixture (for scenario variants). */
export function withParameters(
	wf: WorkflowJson,
	nodeName: string,
	parameters: IDataObject,
): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((n) =>
			n.name === nodeName
				? { ...n, parameters: { ...n.parameters, ...parameters } as INode['parameters'] }
				: n,
		),
	};
}
