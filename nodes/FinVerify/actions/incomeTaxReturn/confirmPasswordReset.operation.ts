import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PASSWORD_RESET_REQUIRED, normalizePasswordReset } from '../../helpers/normalize/incomeTax';
import { assertOtp } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { outputModeFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { portalClientIdField, readPortalClientId } from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { PASSWORD_RESET } from '../../helpers/normalize/simplified';

const properties: INodeProperties[] = [
	portalClientIdField,
	{
		displayName: 'OTP',
		name: 'otp',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 123456',
		description:
			'The one-time password the taxpayer received after "Reset Portal Password" (digits only)',
	},
	...outputModeFields,
];

const displayOptions = {
	show: { resource: ['incomeTaxReturn'], operation: ['confirmPasswordReset'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: PASSWORD_RESET };

interface ConfirmRequest {
	clientId: string;
	otp: string;
	simplify: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): ConfirmRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		clientId: readPortalClientId(ctx, this.getNodeParameter('portalClientId', itemIndex, '')),
		otp: assertOtp(ctx, this.getNodeParameter('otp', itemIndex, '')),
		simplify: isNormalizedOutput(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ clientId, otp, simplify }: ConfirmRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'itr-analyzer/forget-password/submit-otp',
		body: { client_id: clientId, otp },
		requiredField: PASSWORD_RESET_REQUIRED,
		idempotent: false,
		itemIndex,
	});
	return [{ json: simplify ? normalizePasswordReset(response) : response }];
}
