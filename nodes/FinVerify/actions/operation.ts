import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import type { CompletionSupport } from './completion/putToWait';

/**
 * What every `<op>.operation.ts` exports. The router owns the item loop, pairing and
 * continueOnFail.
 */
export interface OperationModule {
	description: INodeProperties[];
	/** Runs one input item; returns its output items (pairedItem is added by the router). */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		policy: RequestPolicy,
	): Promise<INodeExecutionData[]>;
	/**
	 * Present on start operations whose result the service reports by callback (Wait for Completion).
	 */
	completion?: CompletionSupport;
	/**
	 * Present on credit pulls (operations that ask Subject Has Consented): what the subject consented
	 * to, written into every output item's consent record.
	 */
	consentPurpose?: string;
}
