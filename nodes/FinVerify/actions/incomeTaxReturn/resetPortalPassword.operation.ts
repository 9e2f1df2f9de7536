import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { PASSWORD_RESET_REQUIRED, normalizePasswordReset } from '../../helpers/normalize/incomeTax';
import { redactPassword } from '../../transport/redact';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { outputModeFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import {
	portalClientIdField,
	readPassword,
	readPortalClientId,
	withPasswordRedacted,
} from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { PASSWORD_RESET } from '../../helpers/normalize/simplified';

const properties: INodeProperties[] = [
	portalClientIdField,
	{
		displayName: 'New Password',
		name: 'newPassword',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		hint:
			'The portal requires at least 8 characters with upper- and lowercase letters, a digit and a ' +
			'symbol',
		description:
			'The new portal password. It is held pending until the OTP sent to the taxpayer is confirmed ' +
			'with "Confirm Password Reset with OTP". Never shown in the output or in errors.',
	},
	...outputModeFields,
];

const displayOptions = {
	show: { resource: ['incomeTaxReturn'], operation: ['resetPortalPassword'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: PASSWORD_RESET };

interface ResetRequest {
	clientId: string;
	password: string;
	simplify: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): ResetRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		clientId: readPortalClientId(ctx, this.getNodeParameter('portalClientId', itemIndex, '')),
		password: readPassword(
			ctx,
			this.getNodeParameter('newPassword', itemIndex, ''),
			'New Password',
		),
		simplify: isNormalizedOutput(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ clientId, password, simplify }: ResetRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await withPasswordRedacted(
		this.getNode(),
		password,
		async () =>
			await apiRequest.call(this, {
				...policy,
				method: 'POST',
				path: 'itr-analyzer/forget-password',
				body: { client_id: clientId, password },
				requiredField: PASSWORD_RESET_REQUIRED,
				idempotent: false,
				itemIndex,
			}),
	);
	// the service has no reason to echo the password; if it ever does, it does not reach the output
	const safe = redactPassword(response, password);
	return [{ json: simplify ? normalizePasswordReset(safe) : safe }];
}
