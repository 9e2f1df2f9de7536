/**
 * The credential's Test request resolves to the same base address the node's transport uses, evaluated
 * by n8n-workflow's real expression engine.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { FinVerifyApi } from '../../credentials/FinVerifyApi.credentials';
import { resolveBaseUrl } from '../../nodes/FinVerify/transport';
import { Engine, nodeWorkflow } from '../harness';

let engine: Engine;
beforeAll(async () => {
	engine = await Engine.create();
});

function testBaseUrl(credentials: IDataObject): string {
	const workflow = engine.buildWorkflow(nodeWorkflow({ parameters: { resource: 'company', operation: 'getByCin' } }));
	const node = workflow.getNode('FinVerify') as INode;
	const expression = new FinVerifyApi().test.request.baseURL as string;
	return String(workflow.expression.getSimpleParameterValue(node, expression, 'internal', { $credentials: credentials }, undefined, ''));
}

test.each([
	[{ environment: 'production', baseUrl: 'https://api.example.com' }, 'https://api.example.com'],
	[{ environment: 'production', baseUrl: 'https://api.example.com/' }, 'https://api.example.com'],
	[{ environment: 'custom', baseUrl: ' https://staging.example.com/api/v1/services/ ' }, 'https://staging.example.com'],
	[{ environment: 'sandbox', sandboxUrl: 'http://127.0.0.1:4999/' }, 'http://127.0.0.1:4999'],
	[{ environment: 'sandbox', sandboxUrl: '' }, 'http://127.0.0.1:4010'],
])('Test request base URL for %j is %s, as the node uses', (credentials, expected) => {
	expect(testBaseUrl(credentials)).toBe(expected);
	expect(resolveBaseUrl(credentials as never)).toBe(expected);
});
