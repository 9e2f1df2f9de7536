import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { DocumentToDownload } from '../../helpers/documents';
import { downloadDocuments, safeFileName } from '../../helpers/documents';
import type { ItrData } from '../../helpers/normalize/incomeTax';
import { normalizeItrData, splitFilings } from '../../helpers/normalize/incomeTax';
import { requireText } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { binaryPropertyField, jobIdField, simplifyField } from '../common.descriptions';
import { readJobId } from './shared';

const properties: INodeProperties[] = [
	{ ...jobIdField, description: 'ID of a completed ITR analysis job, returned by Start Analysis' },
	simplifyField,
	{
		displayName: 'Download Filed Returns',
		name: 'download',
		type: 'boolean',
		default: false,
		description: 'Whether to download the document of each filed return (its download_link) as binary data',
	},
	{
		...binaryPropertyField,
		displayOptions: { show: { download: [true] } },
		hint: 'One item: files go to <name>_0, <name>_1… in the order of filings (newest first). Split per filing: each item\'s file is in <name>.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { simplify: [true] } },
		options: [
			{
				displayName: 'Split Into One Item per Filing',
				name: 'splitFilings',
				type: 'boolean',
				default: false,
				description: 'Whether to output one item per filed return (each with the taxpayer\'s PAN and name) instead of one item',
			},
		],
	},
];

const displayOptions = { show: { resource: ['incomeTaxReturn'], operation: ['getData'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Output items and the documents each one gets. Pure. */
export function planItrItems(
	data: ItrData,
	split: boolean,
	binaryProperty: string | undefined,
): Array<{ json: IDataObject; documents: DocumentToDownload[] }> {
	const fileName = (f: ItrData['filings'][number]) => safeFileName('itr', data.pan, f.assessmentYear, f.form);
	if (split) {
		return splitFilings(data).map((json, position) => {
			const filing = data.filings[position];
			const documents =
				binaryProperty && filing.downloadLink
					? [{ url: filing.downloadLink, property: binaryProperty, fileName: fileName(filing) }]
					: [];
			return { json: { ...json, binaryProperty: documents[0]?.property ?? null }, documents };
		});
	}
	const documents: DocumentToDownload[] = [];
	const filings = data.filings.map((filing, position) => {
		if (!binaryProperty || !filing.downloadLink) return { ...filing, binaryProperty: null };
		const property = `${binaryProperty}_${position}`;
		documents.push({ url: filing.downloadLink, property, fileName: fileName(filing) });
		return { ...filing, binaryProperty: property };
	});
	return [{ json: { ...data, filings, latestFiling: filings[0] ?? null }, documents }];
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const ctx = { node: this.getNode(), itemIndex };
	const jobId = readJobId(ctx, this.getNodeParameter('jobId', itemIndex, ''));
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const download = this.getNodeParameter('download', itemIndex, false) as boolean;
	const binaryProperty = download
		? requireText(ctx, 'Put Output File in Field', this.getNodeParameter('binaryPropertyName', itemIndex, 'data'))
		: undefined;
	const options = simplify ? (this.getNodeParameter('options', itemIndex, {}) as IDataObject) : {};

	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'itr-analyzer/data',
		body: { job_id: jobId },
		itemIndex,
	});
	const data = normalizeItrData(response);
	const planned = simplify
		? planItrItems(data, options.splitFilings === true, binaryProperty)
		: [{ json: response, documents: planItrItems(data, false, binaryProperty)[0].documents }];

	const output: INodeExecutionData[] = [];
	for (const item of planned) {
		const binary = item.documents.length
			? await downloadDocuments.call(this, item.documents, itemIndex, policy)
			: undefined;
		output.push(binary ? { json: item.json, binary } : { json: item.json });
	}
	return output;
}
