import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import {
	COMMERCIAL_REQUIRED,
	commercialReportFileName,
	commercialReportHtml,
	normalizeCommercialReport,
} from '../../helpers/normalize/creditReport';
import { htmlToBinary, personalFileName } from '../../helpers/documents';
import type { PersonalDataChoice } from '../../helpers/personalData';
import { assertBinaryPropertyName, assertPan, requireText } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	beforeRunningNotice,
	binaryDefault,
	binaryPropertyField,
	versionedBinaryField,
	businessNameField,
	consentField,
	consentReferenceField,
	outputModeFields,
	panField,
	readConsent,
} from '../common.descriptions';
import { isNormalizedOutput, personalDataChoice } from '../../helpers/outputChoice';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { COMMERCIAL_REPORT_VIEW } from '../../helpers/normalize/simplified';

/** From version 2 the report has its own default field, apart from Get by CIN's PDF. */
const HTML_FIELD_V2 = 'commercialReport';

const properties: INodeProperties[] = [
	beforeRunningNotice(
		"the business's name and PAN, and Subject Has Consented set to Yes (the business agreed to " +
			'the check)',
	),
	{
		displayName:
			"Where the PAN comes from: Company → Get by CIN gives the company's PAN (its pan field) only " +
			"when the registry's answer states one, and often it does not (pan is empty). Take it then " +
			"from the business's documents or your CRM, or from its GSTIN: characters 3 to 12 of a GSTIN " +
			'are the PAN.',
		name: 'panSourceNotice',
		type: 'notice',
		default: '',
	},
	businessNameField,
	{
		...panField,
		description:
			'PAN of the business: 5 letters, 4 digits, 1 letter. Lowercase is accepted and uppercased.',
	},
	consentField,
	consentReferenceField,
	{
		displayName: 'Report As',
		name: 'output',
		type: 'options',
		default: 'htmlFile',
		options: [
			{
				name: 'HTML File',
				value: 'htmlFile',
				description: 'The report as an HTML file in a binary field, plus the report facts as JSON',
			},
			{
				name: 'JSON Only',
				value: 'json',
				description: 'The report facts as JSON, with the HTML as text in the reportHtml field',
			},
		],
		description: 'How to return the HTML report the service generates',
	},
	...versionedBinaryField(binaryPropertyField, HTML_FIELD_V2, { output: ['htmlFile'] }),
	...outputModeFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. acme-traders-credit-report.html',
				description:
					'Name of the HTML file. Empty: made from the business name, e.g. ' +
					'acme-traders-credit-report.html.',
				displayOptions: { show: { '/output': ['htmlFile'] } },
			},
		],
	},
];

const displayOptions = { show: { resource: ['creditReport'], operation: ['getCommercialReport'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: COMMERCIAL_REPORT_VIEW };

/** What the subject consented to, for the output's consent record. */
export const consentPurpose = 'Commercial credit report of a business';

interface CommercialRequest {
	body: IDataObject & { business_name: string };
	/** Where the HTML file goes; absent for JSON Only. */
	binaryProperty?: string;
	/** The file name the user chose (options.fileName), if any. */
	fileName: unknown;
	simplify: boolean;
	/** Personal Data in Output: the file name follows it. */
	personalData: PersonalDataChoice;
}

export function read(this: IExecuteFunctions, itemIndex: number): CommercialRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const businessName = requireText(
		ctx,
		'Business Name',
		this.getNodeParameter('businessName', itemIndex, ''),
		{
			minLength: 2,
			maxLength: 300,
			expected:
				'the registered business name, at least 2 characters, e.g. Acme Traders Private Limited',
		},
	);
	const pan = assertPan(ctx, this.getNodeParameter('pan', itemIndex, ''));
	const consent = readConsent(ctx, this.getNodeParameter('consent', itemIndex, false));
	const output = this.getNodeParameter('output', itemIndex, 'htmlFile') as 'htmlFile' | 'json';
	const binaryProperty =
		output !== 'json'
			? assertBinaryPropertyName(
					ctx,
					this.getNodeParameter(
						'binaryPropertyName',
						itemIndex,
						binaryDefault(this, HTML_FIELD_V2),
					),
				)
			: undefined;
	const simplify = isNormalizedOutput(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		body: { business_name: businessName, pan, consent, report_type: 'html' },
		binaryProperty,
		fileName: options.fileName,
		simplify,
		personalData: personalDataChoice(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ body, binaryProperty, fileName: chosenName, simplify, personalData }: CommercialRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const asFile = binaryProperty !== undefined;
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'credit-report-commercial/fetch',
		// a billed bureau pull: never re-sent after an answer that may mean it was generated (timeout,
		// 500, reset)
		idempotent: false,
		body,
		requiredField: COMMERCIAL_REQUIRED,
		itemIndex,
	});

	const html = commercialReportHtml(response);
	if (asFile && html === null) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'No HTML report in the response', code: 'NO_REPORT' },
			{
				message: 'The service answered without an HTML report',
				description: 'Set Output to "JSON Only" to get the response without a file.',
				itemIndex,
			},
		);
	}

	const summary = normalizeCommercialReport(response);
	if (!asFile) {
		return [{ json: simplify ? { ...summary, reportHtml: html } : response }];
	}

	// a file name, never a path
	const custom = typeof chosenName === 'string' ? chosenName.trim().replace(/[\\/]+/g, '-') : '';
	// a name chosen by an expression on the item may carry the PAN: masked under Masked, as built ones
	const fileName = personalFileName(
		custom
			? /\.html?$/i.test(custom)
				? custom
				: `${custom}.html`
			: commercialReportFileName(summary.businessName ?? body.business_name),
		personalData,
	);
	const file = await htmlToBinary.call(this, html as string, fileName);
	const json = simplify ? { ...summary, fileName, binaryProperty } : response;
	return [{ json, binary: { [binaryProperty as string]: file } }];
}
