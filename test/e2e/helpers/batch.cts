/**
 * A shipped example fed a batch, the way the real-app suites run them (noItemLost, upgrade): its own Set node reads
 * each field from the item, and a Set node with the batch and a Split Out come before it.
 */
import type { Workflow } from './stack.cjs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The example's "Applicant" Set node fed a batch: a Set node with the applicants and a Split Out before it,
 * its fields read from each item (so `$('Applicant').item` still names each applicant). `setNode` names the
 * example's own Set node when it is not "Applicant" (the company examples' business lead).
 */
export function batchOfApplicants(wf: Workflow, applicants: Json[], setNode = 'Applicant'): void {
	const applicant = wf.nodes.find((n) => n.name === setNode);
	if (!applicant) throw new Error(`${wf.name} has no node "${setNode}"`);
	const trigger = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger')!;
	for (const a of applicant.parameters.assignments.assignments as Json[])
		a.value = `={{ $json[${JSON.stringify(a.name)}] }}`;
	wf.nodes.push(
		{
			id: 'batch-set',
			name: 'Batch',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [0, 600],
			parameters: {
				assignments: {
					assignments: [
						{
							id: 'b1',
							name: 'applicants',
							value: `={{ ${JSON.stringify(applicants)} }}`,
							type: 'array',
						},
					],
				},
				options: {},
			},
		},
		{
			id: 'batch-split',
			name: 'One item per applicant',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [200, 600],
			parameters: { fieldToSplitOut: 'applicants', options: {} },
		},
	);
	wf.connections[trigger.name] = { main: [[{ node: 'Batch', type: 'main', index: 0 }]] };
	wf.connections.Batch = { main: [[{ node: 'One item per applicant', type: 'main', index: 0 }]] };
	wf.connections['One item per applicant'] = {
		main: [[{ node: setNode, type: 'main', index: 0 }]],
	};
}
