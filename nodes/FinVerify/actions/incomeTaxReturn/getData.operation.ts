import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { PlannedItem } from '../../helpers/documents';
import {
	documentFor,
	downloadProperty,
	numberedDocuments,
	personalFileName,
	rawWithDocuments,
	safeFileName,
	withDocuments,
} from '../../helpers/documents';
import type { ItrData, ItrFiling } from '../../helpers/normalize/incomeTax';
import { ITR_DATA_FACTS } from '../../helpers/answerFacts';
import {
	ITR_DATA_REQUIRED,
	normalizeItrData,
	splitFilings,
} from '../../helpers/normalize/incomeTax';
import { ITR_DATA_DECIDER, splitWithVerdict } from '../../helpers/normalize/decision';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	downloadFields,
	jobIdField,
	decisionOutputFields,
	normalizedOutputOnly,
} from '../common.descriptions';
import { outputMode, personalDataChoice } from '../../helpers/outputChoice';
import type { PersonalDataChoice } from '../../helpers/personalData';
import { readJobId } from './shared';
import { addsVerdict } from '../../../shared/versions';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { ITR_DATA_DECISION_VIEW, ITR_DATA_VIEW } from '../../helpers/normalize/simplified';
import type { Decider } from '../../helpers/normalize/decision';

const properties: INodeProperties[] = [
	{ ...jobIdField, description: 'ID of a completed ITR analysis job, returned by Start Analysis' },
	...decisionOutputFields,
	...downloadFields(
		'Download Filed Returns',
		'Whether to download the document of each filed return (its download_link) as binary data',
		{
			hint:
				"Files go to this name plus _0, _1… (newest filing first). Split per filing: each item's " +
				'file is in this field.',
		},
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: normalizedOutputOnly,
		options: [
			{
				displayName: 'Split Into One Item per Filing',
				name: 'splitFilings',
				type: 'boolean',
				default: false,
				description:
					"Whether to output one item per filed return (each with the taxpayer's PAN and name) " +
					'instead of one item',
			},
		],
	},
];

const displayOptions = { show: { resource: ['incomeTaxReturn'], operation: ['getData'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = {
	simplified: ITR_DATA_VIEW,
	decision: ITR_DATA_DECISION_VIEW,
};

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = ITR_DATA_DECIDER;

/**
 * Output items and the documents each one gets; the file names follow Personal Data in Output (the
 * PAN in them masked under Masked). Pure.
 */
export function planItrItems(
	data: ItrData,
	split: boolean,
	binaryProperty: string | undefined,
	personalData: PersonalDataChoice,
	withVerdict = false,
): PlannedItem[] {
	const fileName = (f: ItrFiling) =>
		personalFileName(safeFileName('itr', data.pan, f.assessmentYear, f.form), personalData);
	if (split) {
		const filings = splitFilings(data);
		const items = withVerdict ? splitWithVerdict(decider, data, filings) : filings;
		return items.map((json, position) => {
			const filing = data.filings[position];
			const documents = documentFor(filing.downloadLink, binaryProperty, fileName(filing));
			return { json: { ...json, binaryProperty: documents[0]?.property ?? null }, documents };
		});
	}
	const { entries, documents } = numberedDocuments(
		data.filings,
		(f) => f.downloadLink,
		fileName,
		binaryProperty,
	);
	// the reader's latest return (null when unknown), never simply the first listed one
	const latest = data.latestFiling === null ? -1 : data.filings.indexOf(data.latestFiling);
	return [
		{ json: { ...data, filings: entries, latestFiling: entries[latest] ?? null }, documents },
	];
}

interface ItrDataRequest {
	jobId: string;
	simplify: boolean;
	/** Where the filed returns go; absent when not downloading. */
	binaryProperty?: string;
	splitFilings: boolean;
	/** Version 3: split items carry the verdict of the whole answer. */
	withVerdict: boolean;
	personalData: PersonalDataChoice;
}

export function read(this: IExecuteFunctions, itemIndex: number): ItrDataRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const jobId = readJobId(ctx, this.getNodeParameter('jobId', itemIndex, ''));
	const mode = outputMode(this, itemIndex);
	const simplify = mode !== 'raw';
	const binaryProperty = downloadProperty.call(this, itemIndex);
	const options = simplify ? (this.getNodeParameter('options', itemIndex, {}) as IDataObject) : {};
	return {
		jobId,
		simplify,
		binaryProperty,
		splitFilings: options.splitFilings === true,
		withVerdict: addsVerdict(this.getNode().typeVersion, mode),
		personalData: personalDataChoice(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ jobId, simplify, binaryProperty, splitFilings, personalData, withVerdict }: ItrDataRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'itr-analyzer/data',
		body: { job_id: jobId },
		requiredField: [ITR_DATA_REQUIRED, ITR_DATA_FACTS],
		itemIndex,
	});
	const data = normalizeItrData(response);
	const planned = simplify
		? planItrItems(data, splitFilings, binaryProperty, personalData, withVerdict)
		: rawWithDocuments(response, planItrItems(data, false, binaryProperty, personalData));
	return await withDocuments.call(this, planned, itemIndex, policy);
}
