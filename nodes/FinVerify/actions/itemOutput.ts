import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OutputMode } from '../helpers/outputChoice';
import { outputMode, personalDataChoice } from '../helpers/outputChoice';
import { consentRecord } from '../helpers/consentRecord';
import type { PullContext } from '../helpers/consentRecord';
import { decisionRecord } from '../helpers/decisionRecord';
import { withDecisionBy } from '../helpers/normalize/decision';
import { simplifyWith } from '../helpers/normalize/simplified';
import type { PersonalDataChoice } from '../helpers/personalData';
import { maskPersonalData } from '../helpers/personalData';
import type { IncompleteAnswers } from './incompleteAnswers';
import { incompleteAnswersOf } from './incompleteAnswers';
import type { Operation } from './operation';

/** How the router shapes an item's output, read with the item before anything is sent. */
export interface ItemOutput {
	mode: OutputMode;
	/** Version 3's decision operations (Simplified, Normalized): where an incomplete answer goes. */
	incompleteAnswers?: IncompleteAnswers;
	/** Absent for Raw output (nothing is masked). */
	personalData?: PersonalDataChoice;
	/** A credit pull's Consent Reference, copied into the consent record. */
	consentReference?: unknown;
}

/**
 * The output side of one operation in one execution: `read` takes an item's output choices with its
 * parameters, `shape` applies them to an answer. Operations that return records have the Output choice;
 * the verdict leads version 3's decision records, Simplified is picked after the operation, then personal
 * data is masked (every mode but Raw), then a credit pull's consent record is added (every mode).
 */
export function itemOutputOf(context: IExecuteFunctions, key: string, module: Operation) {
	const typeVersion = context.getNode().typeVersion;
	const hasOutputChoice = module.description.some((p) => p.name === 'outputMode');
	const pull: PullContext = {
		workflowId: context.getWorkflow().id ?? null,
		workflowName: context.getWorkflow().name ?? null,
		executionId: context.getExecutionId() ?? null,
		nodeName: context.getNode().name,
	};
	const read = (itemIndex: number): ItemOutput => {
		const mode = hasOutputChoice ? outputMode(context, itemIndex) : 'raw';
		return {
			mode,
			incompleteAnswers: incompleteAnswersOf(context, module, mode),
			personalData: mode !== 'raw' ? personalDataChoice(context, itemIndex) : undefined,
			consentReference:
				module.consentPurpose !== undefined
					? context.getNodeParameter('consentReference', itemIndex, '')
					: undefined,
		};
	};
	/** `sentAt`: when the request asserting the subject's consent was sent. */
	const shape = (json: IDataObject, output: ItemOutput, sentAt: Date): IDataObject => {
		let shaped = json;
		if (output.incompleteAnswers) shaped = withDecisionBy(module.decider, shaped);
		if (output.mode === 'simplified') shaped = simplifyWith(module.views, shaped, typeVersion);
		if (output.personalData) shaped = maskPersonalData(shaped, output.personalData);
		if (module.consentPurpose !== undefined)
			shaped = {
				...shaped,
				consentRecord: consentRecord(
					module.consentPurpose,
					key,
					sentAt,
					pull,
					output.consentReference,
				),
			};
		// version 3, Normalized: the record of the decision, for the lender's audit (Simplified stays small)
		if (output.incompleteAnswers && output.mode === 'normalized' && module.decider)
			shaped = {
				...shaped,
				decisionRecord: decisionRecord(
					key,
					shaped,
					{ ...pull, nodeVersion: typeVersion },
					new Date(),
					module.views,
				),
			};
		return shaped;
	};
	return { read, shape };
}
