import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PersonalDataChoice } from './personalData';
import { maskPersonalData } from './personalData';
import { hasOutputChoice, hasSimplifySwitch } from '../../shared/versions';

/**
 * The output choice of an item, read the same way by the operations, the router and a waiting node
 * that resumes: Output (version 2) or Simplify (version 1), and Personal Data in Output. The fields
 * themselves are declared in actions/common.descriptions.ts.
 */

export type OutputMode = 'simplified' | 'normalized' | 'raw';

/**
 * How the output fields of one item are read: by the execute context (per item) or, when a waiting
 * execution resumes, by the webhook context (one set of parameters).
 */
export interface OutputParameters {
	typeVersion: number;
	read(name: string, fallback: unknown): unknown;
}

const itemParameters = (context: IExecuteFunctions, itemIndex: number): OutputParameters => ({
	typeVersion: context.getNode().typeVersion,
	read: (name, fallback) => context.getNodeParameter(name, itemIndex, fallback),
});

/** The output mode: version 1's Simplify means Normalized (on) or Raw (off). */
export function outputModeOf(parameters: OutputParameters): OutputMode {
	if (hasSimplifySwitch(parameters.typeVersion))
		return parameters.read('simplify', true) === false ? 'raw' : 'normalized';
	const mode = parameters.read('outputMode', 'simplified');
	return mode === 'raw' || mode === 'normalized' ? mode : 'simplified';
}

/** The output mode of an item. */
export const outputMode = (context: IExecuteFunctions, itemIndex: number): OutputMode =>
	outputModeOf(itemParameters(context, itemIndex));

/**
 * The Personal Data in Output choice of an item (version 1, which has no such field: Full, so saved
 * workflows keep their output; Aadhaar is masked in every version).
 */
export function personalDataChoiceOf(parameters: OutputParameters): PersonalDataChoice {
	if (!hasOutputChoice(parameters.typeVersion)) return 'full';
	return parameters.read('personalData', 'masked') === 'full' ? 'full' : 'masked';
}

/** The Personal Data in Output choice of an item. */
export const personalDataChoice = (
	context: IExecuteFunctions,
	itemIndex: number,
): PersonalDataChoice => personalDataChoiceOf(itemParameters(context, itemIndex));

/**
 * The json as output: personal data masked under the choice, in every mode but Raw (what the router
 * does after an operation, and a waiting node when its execution resumes).
 */
export function withPersonalDataMasked(
	json: IDataObject,
	parameters: OutputParameters,
): IDataObject {
	return outputModeOf(parameters) === 'raw'
		? json
		: maskPersonalData(json, personalDataChoiceOf(parameters));
}

/**
 * Whether the node normalizes the item's output (Simplified or Normalized) rather than passing it
 * raw.
 */
export const isNormalizedOutput = (context: IExecuteFunctions, itemIndex: number): boolean =>
	outputMode(context, itemIndex) !== 'raw';
