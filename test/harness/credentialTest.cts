import './env.cjs';

import { ExecuteContext } from 'n8n-core';
// n8n's CredentialsTester (packages/cli) runs a declarative credential test through this class
import { RoutingNode } from 'n8n-core/dist/execution-engine/routing-node';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IDataObject,
	INode,
	INodeType,
	INodeTypes,
} from 'n8n-workflow';
import { createEmptyRunExecutionData, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import type { Engine } from './engine.cjs';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * A credential's declarative Test, run the way the n8n app's CredentialsTester.runRequestTest does
 * (n8n 2.41.1 `dist/services/credentials-tester.service.js`): a temporary node whose one property
 * routes the test request, n8n-core's RoutingNode sending it with the credential applied, then the
 * same verdicts: a thrown error's response code, network code or message, else the first
 * `responseSuccessBody` rule whose value equals the answer's.
 */
export async function runCredentialTest(
	engine: Engine,
	type: string,
	test: ICredentialTestRequest,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	} as unknown as INodeTypes;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: 'credential-test', name: 'credential under test' } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const previous = engine.credentialsHelper.data;
	engine.setCredentials({ ...previous, [type]: data });
	try {
		const context = new ExecuteContext(
			workflow,
			node,
			engine.additionalData(undefined as never, 'credential-test'),
			'internal',
			createEmptyRunExecutionData(),
			0,
			[],
			{ main: [[{ json: {} }]] },
			{ node, data: {}, source: null },
			[],
		);
		const routing = new RoutingNode(context, nodeType, {
			id: 'credential-test',
			name: 'credential under test',
			type,
			data,
		});
		let response: Awaited<ReturnType<RoutingNode['runNode']>>;
		try {
			response = await routing.runNode();
		} catch (error) {
			const cause = (error as { cause?: { code?: string; response?: { status: number } } }).cause;
			if (cause?.response)
				return { status: 'Error', message: `Received HTTP status code: ${cause.response.status}` };
			if (cause?.code) return { status: 'Error', message: cause.code };
			return { status: 'Error', message: String((error as Error).message) };
		}
		const json = (response?.[0]?.[0]?.json ?? {}) as IDataObject;
		for (const rule of test.rules ?? []) {
			if (rule.type !== 'responseSuccessBody') continue;
			if (json[rule.properties.key] === rule.properties.value)
				return { status: 'Error', message: rule.properties.message };
		}
		return { status: 'OK', message: 'Connection successful!' };
	} finally {
		engine.setCredentials(previous);
	}
}
