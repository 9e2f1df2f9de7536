import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DecideOptions, Decider } from '../../helpers/normalize/decision';
import { REGISTRY_FACTS, withDecisionBy } from '../../helpers/normalize/decision';
import { FROM_VERSION_3, hasDecisions } from '../../../shared/versions';

/**
 * *Decide On* (version 3, Get by CIN, Get LLP by LLPIN, Get Entity by PAN): the facts a lender's
 * policy decides a company on. `decisionReady` is computed over exactly these facts (never fewer), and
 * every answer names them in `decidedOn` (helpers/normalize/decision.ts). Default: the full set.
 */

type Operation = 'company.getByCin' | 'company.getLlpByLlpin' | 'company.getEntityByPan';

const FACT_NAMES: Record<string, string> = {
	status: 'Status',
	age: 'Age (Date of Incorporation)',
	pendingCases: 'Pending Cases (Litigation)',
	bureauDefaults: 'Bureau Defaults',
	gstFilingDelay: 'GST Filing Delay',
	epfPaymentDelay: 'EPF Payment Delay',
	tdsDefaults: 'TDS Defaults',
};

const shown = {
	show: FROM_VERSION_3,
	hide: { '/outputMode': ['raw'] },
} satisfies INodeProperties['displayOptions'];

/** The Decide On fields of one operation. */
export function decideOnFields(operation: Operation): INodeProperties[] {
	const flags = REGISTRY_FACTS[operation].filter((fact) => fact !== 'status' && fact !== 'age');
	const flagWords = flags.map((fact) => FACT_NAMES[fact].replace(/ \(.*\)$/, '').toLowerCase());
	return [
		{
			displayName: 'Decide On',
			name: 'decideOn',
			type: 'options',
			noDataExpression: true,
			default: 'all',
			options: [
				{
					name: 'Status, Age and Risk Flags',
					value: 'all',
					description: `Ready only when the status, the date of incorporation and every risk flag (${flagWords.join(', ')}) are known. The safe choice.`,
				},
				{
					name: 'Status and Age',
					value: 'statusAndAge',
					description:
						'Ready when the status and the date of incorporation are known; the risk flags are not checked (a policy that decides on them elsewhere)',
				},
				{
					name: 'Chosen Facts',
					value: 'custom',
					description: 'Ready when each fact picked below is known',
				},
			],
			description:
				'The facts your lending policy decides a company on: decisionReady is true only when every one of them is known',
			hint: 'With the status among them, a struck-off, defunct, dissolved or liquidating company is declinable on its status alone',
			displayOptions: shown,
		},
		{
			displayName: 'Facts',
			name: 'decideOnFacts',
			type: 'multiOptions',
			noDataExpression: true,
			default: ['status', 'age'],
			options: REGISTRY_FACTS[operation].map((fact) => ({ name: FACT_NAMES[fact], value: fact })),
			description: 'The facts decisionReady must find known (at least one)',
			displayOptions: {
				show: { ...shown.show, decideOn: ['custom'] },
				hide: shown.hide,
			},
		},
	];
}

/** An item's policy: the chosen facts (the full set by default), or undefined before version 3. */
export function readDecideOn(
	context: IExecuteFunctions,
	operation: Operation,
	itemIndex: number,
): DecideOptions | undefined {
	if (!hasDecisions(context.getNode().typeVersion)) return undefined;
	const choice = context.getNodeParameter('decideOn', itemIndex, 'all');
	if (choice === 'statusAndAge') return { decideOn: ['status', 'age'] };
	if (choice !== 'custom') return { decideOn: REGISTRY_FACTS[operation] };
	const facts = context.getNodeParameter('decideOnFacts', itemIndex, []);
	const chosen = Array.isArray(facts)
		? REGISTRY_FACTS[operation].filter((fact) => facts.includes(fact))
		: [];
	if (chosen.length === 0)
		throw new NodeOperationError(context.getNode(), 'Decide On: no fact chosen', {
			itemIndex,
			description: `Pick at least one of ${REGISTRY_FACTS[operation].map((f) => FACT_NAMES[f]).join(', ')} under Facts, or choose Status, Age and Risk Flags.`,
		});
	return { decideOn: chosen };
}

/**
 * The Normalized record with the verdict over the item's policy (version 3, Simplified and Normalized);
 * the router then leaves it as it is (a record with a verdict keeps it).
 */
export const decidedRecord = (
	decider: Decider,
	record: IDataObject,
	policy: DecideOptions | undefined,
): IDataObject => (policy ? withDecisionBy(decider, record, policy) : record);
