/** The canvas subtitle of the FinVerify node, evaluated by n8n-workflow's real expression engine. */
import type { INode } from 'n8n-workflow';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { Engine, nodeWorkflow } from '../harness/index.cjs';

let engine: Engine;
beforeAll(async () => {
	engine = await Engine.create();
});

test.each([
	['company', 'getByCin', 'Company · Get by CIN'],
	['creditReport', 'getCommercialReport', 'Credit Report · Get Commercial Report'],
	['apiRequest', 'send', 'Custom API Call · Send'],
	['triggerDelivery', 'markProcessed', 'Trigger Delivery · Mark Processed'],
	['triggerDelivery', 'processOnce', 'Trigger Delivery · Process Once'],
	['company', 'noSuchOperation', 'noSuchOperation'],
])('%s / %s reads "%s"', (resource, operation, expected) => {
	const workflow = engine.buildWorkflow(nodeWorkflow({ parameters: { resource, operation } }));
	const node = workflow.getNode('FinVerify') as INode;
	const value = workflow.expression.getSimpleParameterValue(
		node,
		new FinVerify().description.subtitle as string,
		'internal',
		{},
		undefined,
		'',
	);
	expect(value).toBe(expected);
});
