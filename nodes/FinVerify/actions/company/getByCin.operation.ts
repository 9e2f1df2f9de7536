import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { normalizeCompany } from '../../helpers/normalize/company';
import { downloadReportFile } from '../../helpers/reportFiles';
import { assertBinaryPropertyName, assertCin } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	binaryPropertyField,
	companyLocatorField,
	outputModeFields,
	shapedOutput,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	companyLocatorField,
	...outputModeFields,
	{
		displayName: 'Download Report PDF',
		name: 'downloadReportPdf',
		type: 'boolean',
		default: false,
		description:
			"Whether to download the company report PDF (the response's pdf_url) as a binary file. Responses without a link give no file.",
	},
	{
		...binaryPropertyField,
		displayOptions: { show: { downloadReportPdf: [true] } },
	},
];

const displayOptions = { show: { resource: ['company'], operation: ['getByCin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const ctx = { node: this.getNode(), itemIndex };
	const cin = assertCin(
		ctx,
		this.getNodeParameter('company', itemIndex, '', { extractValue: true }),
		'Company (CIN)',
	);
	const simplify = shapedOutput(this, itemIndex);
	const download = this.getNodeParameter('downloadReportPdf', itemIndex, false) as boolean;
	const binaryProperty = download
		? assertBinaryPropertyName(ctx, this.getNodeParameter('binaryPropertyName', itemIndex, 'data'))
		: '';

	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'corporate/cin-lookup',
		body: { cin },
		itemIndex,
	});
	const summary = normalizeCompany(response);
	const json = simplify ? summary : response;
	if (!download || !summary.pdfUrl) return [{ json }];

	const file = await downloadReportFile.call(
		this,
		summary.pdfUrl,
		`${(summary.cin ?? cin).toLowerCase()}-company-report`,
		itemIndex,
		policy,
	);
	return [{ json, binary: { [binaryProperty]: file } }];
}
