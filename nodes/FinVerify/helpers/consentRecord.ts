import type { IDataObject } from 'n8n-workflow';

/** Who ran a credit pull: n8n's workflow, execution and node. */
export interface PullContext {
	workflowId: string | null;
	workflowName: string | null;
	executionId: string | null;
	nodeName: string;
}

/**
 * The record of what the workflow asserted when it ran a credit pull (an operation that asks Subject
 * Has Consented): that the subject consented, for what, when the request was sent, from which
 * workflow, execution and node, and the builder's own consent reference. Added to every output item
 * of the pull, in every output mode, under `consentRecord` (docs/privacy.md).
 */
export function consentRecord(
	purpose: string,
	operation: string,
	assertedAt: Date,
	pull: PullContext,
	consentReference: unknown,
): IDataObject {
	const reference = typeof consentReference === 'string' ? consentReference.trim() : '';
	return {
		subjectConsented: true,
		purpose,
		operation,
		assertedAt: assertedAt.toISOString(),
		consentReference: reference === '' ? null : reference,
		workflowId: pull.workflowId,
		workflowName: pull.workflowName,
		executionId: pull.executionId,
		nodeName: pull.nodeName,
	};
}
