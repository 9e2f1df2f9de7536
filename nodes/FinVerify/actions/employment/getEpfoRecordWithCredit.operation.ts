import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { EPFO_CREDIT_REQUIRED, normalizeEpfoCredit } from '../../helpers/normalize/employment';
import { assertMobile } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	beforeRunningNotice,
	consentField,
	consentReferenceField,
	mobileNumberField,
	decisionOutputFields,
	readConsent,
	normalizedOutputOnly,
} from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import {
	EPFO_WITH_CREDIT_DECISION_VIEW,
	EPFO_WITH_CREDIT_VIEW,
} from '../../helpers/normalize/simplified';
import type { Decider } from '../../helpers/normalize/decision';
import { EPFO_WITH_CREDIT_DECIDER } from '../../helpers/normalize/decision';

const properties: INodeProperties[] = [
	beforeRunningNotice(
		"the person's 10-digit mobile number, and Subject Has Consented set to Yes: this operation " +
			'also pulls a credit report',
	),
	{
		...mobileNumberField,
		description:
			"The person's 10-digit Indian mobile number. Forms like +91 98765 43210 are accepted and " +
			'normalized.',
	},
	{
		...consentField,
		description:
			'Whether the person has consented to a credit bureau check: this operation also pulls a ' +
			'credit report. Nothing is sent unless this is Yes (true).',
	},
	consentReferenceField,
	...decisionOutputFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Error on Partial Data',
				name: 'errorOnPartialData',
				type: 'boolean',
				default: false,
				description:
					'Whether to fail the item (code PARTIAL_DATA) when the EPFO or the credit part is missing. ' +
					'Off: the item is output with its partial and missing fields set.',
			},
			{
				displayName: 'Include Credit Accounts',
				name: 'includeCreditAccounts',
				type: 'boolean',
				default: true,
				displayOptions: normalizedOutputOnly,
				description:
					'Whether to list the individual credit accounts (credit.accounts) in the simplified output',
			},
		],
	},
];

const displayOptions = {
	show: { resource: ['employment'], operation: ['getEpfoRecordWithCredit'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = {
	simplified: EPFO_WITH_CREDIT_VIEW,
	decision: EPFO_WITH_CREDIT_DECISION_VIEW,
};

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = EPFO_WITH_CREDIT_DECIDER;

/** What the subject consented to, for the output's consent record. */
export const consentPurpose = 'EPFO employment record and credit report of a person';

const PART_NAMES = { epfo: 'EPFO employment record', credit: 'credit bureau report' } as const;

interface EpfoCreditRequest {
	mobile: string;
	simplify: boolean;
	errorOnPartialData: boolean;
	includeCreditAccounts: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): EpfoCreditRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const mobile = assertMobile(ctx, this.getNodeParameter('mobileNumber', itemIndex, ''));
	// the service takes no consent field here, but the answer includes a credit report: consent first
	readConsent(ctx, this.getNodeParameter('consent', itemIndex, false));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		mobile,
		simplify: isNormalizedOutput(this, itemIndex),
		errorOnPartialData: options.errorOnPartialData === true,
		includeCreditAccounts: options.includeCreditAccounts !== false,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ mobile, simplify, errorOnPartialData, includeCreditAccounts }: EpfoCreditRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'epfo-crif-combined/fetch',
		// a billed bureau pull: never re-sent after an answer that may mean it was generated (timeout,
		// 500, reset)
		idempotent: false,
		body: { mobile_number: mobile },
		requiredField: EPFO_CREDIT_REQUIRED,
		itemIndex,
	});
	// the partial answer keeps the mobile number that was sent
	const summary = normalizeEpfoCredit(response, mobile);

	if (errorOnPartialData && summary.missing.length > 0) {
		const parts = summary.missing.map((part) => PART_NAMES[part]).join(' and ');
		throw new NodeApiError(
			this.getNode(),
			{
				message: summary.message ?? 'Partial data',
				code: 'PARTIAL_DATA',
				missing: summary.missing,
			},
			{
				message: `The service returned no ${parts} for this mobile number`,
				description: `Code: PARTIAL_DATA · missing: ${summary.missing.join(', ')}. Turn off "Error on Partial Data" to get the part that came back.`,
				itemIndex,
			},
		);
	}
	if (!simplify) return [{ json: response }];
	if (summary.credit && !includeCreditAccounts) {
		const credit: Partial<typeof summary.credit> = { ...summary.credit };
		delete credit.accounts;
		return [{ json: { ...summary, credit } }];
	}
	return [{ json: summary }];
}
