import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { normalizeCompany } from '../../helpers/normalize/company';
import { assertCin } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { companyLocatorField, simplifyField } from '../common.descriptions';

const properties: INodeProperties[] = [companyLocatorField, simplifyField];

const displayOptions = { show: { resource: ['company'], operation: ['getByCin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const ctx = { node: this.getNode(), itemIndex };
	const cin = assertCin(ctx, this.getNodeParameter('company', itemIndex, '', { extractValue: true }), 'Company (CIN)');
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'corporate/cin-lookup',
		body: { cin },
		itemIndex,
	});
	return [{ json: simplify ? normalizeCompany(response) : response }];
}
