import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { deepCopy, updateDisplayOptions } from 'n8n-workflow';

import {
	COMPANY_REQUIRED,
	LLP_REQUIRED,
	normalizeCompany,
	normalizeLlp,
} from '../../helpers/normalize/company';
import type { DownloadSwitch } from '../../helpers/documents';
import { downloadFile, downloadProperty } from '../../helpers/documents';
import type { FieldContext } from '../../helpers/validation';
import { invalidField } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { companyLocatorField, downloadFields, decisionOutputFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import type { DecideOptions, Decider } from '../../helpers/normalize/decision';
import { decidedRecord, decideOnFields, readDecideOn } from './decideOn';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { CIN_DECISION_VIEW, CIN_VIEW } from '../../helpers/normalize/simplified';
import { registryDecider } from '../../helpers/normalize/decision';

const CIN_PATTERN = /^[A-Z0-9]{21}$/;
const LLPIN_PATTERN = /^[A-Z]{3}-[0-9]{4}$/;
/** Version 1 named the switch downloadReportPdf; version 2's file field has its own default. */
const DOWNLOAD: DownloadSwitch = { v1Name: 'downloadReportPdf', v2Default: 'companyReport' };

/**
 * A CIN or an LLPIN (an LLP has no CIN, and Search by Name returns both kinds): which lookup to
 * call. Case and surrounding spaces do not matter (the service uppercases identifiers).
 */
export function companyIdentifier(
	ctx: FieldContext,
	value: unknown,
): { kind: 'cin' | 'llpin'; id: string } {
	const id = (typeof value === 'string' ? value : '').trim().toUpperCase();
	if (CIN_PATTERN.test(id)) return { kind: 'cin', id };
	if (LLPIN_PATTERN.test(id)) return { kind: 'llpin', id };
	throw invalidField(
		ctx,
		'Company (CIN or LLPIN)',
		value,
		'a CIN of 21 letters and digits (e.g. L17110MH1973PLC019786) or an LLPIN like AAB-1234; after ' +
			'Search by Name, map its identifier field, which holds either',
	);
}

/**
 * The same company looked up for several items of one run is one paid lookup: the answer is shared
 * by every item that names it (kept per execution, keyed by the identifier; a failed lookup is not
 * kept).
 */
const lookups = new WeakMap<object, Map<string, Promise<IDataObject>>>();

function lookupOnce(
	context: IExecuteFunctions,
	key: string,
	send: () => Promise<IDataObject>,
): Promise<IDataObject> {
	let perRun = lookups.get(context);
	if (!perRun) lookups.set(context, (perRun = new Map()));
	const known = perRun.get(key);
	if (known) return known;
	const pending = send();
	perRun.set(key, pending);
	pending.catch(() => perRun.delete(key));
	return pending;
}

const properties: INodeProperties[] = [
	companyLocatorField,
	...decisionOutputFields,
	...decideOnFields('company.getByCin'),
	...downloadFields(
		'Download Report PDF',
		"Whether to download the company report PDF (the response's pdf_url) as a binary file. " +
			'Responses without a link give no file.',
		{},
		DOWNLOAD,
	),
];

const displayOptions = { show: { resource: ['company'], operation: ['getByCin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: CIN_VIEW, decision: CIN_DECISION_VIEW };

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = registryDecider('company.getByCin');

interface CompanyRequest {
	kind: 'cin' | 'llpin';
	id: string;
	simplify: boolean;
	/** Where the report PDF goes; absent when not downloading (or for an LLP, which has none). */
	binaryProperty?: string;
	/** Decide On (version 3, normalized output): the facts the verdict rests on. */
	decideOn?: DecideOptions;
}

export function read(this: IExecuteFunctions, itemIndex: number): CompanyRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const { kind, id } = companyIdentifier(
		ctx,
		this.getNodeParameter('company', itemIndex, '', { extractValue: true }),
	);
	const simplify = isNormalizedOutput(this, itemIndex);
	return {
		kind,
		id,
		simplify,
		decideOn: simplify ? readDecideOn(this, 'company.getByCin', itemIndex) : undefined,
		// an LLP's answer has no report PDF
		binaryProperty: kind === 'cin' ? downloadProperty.call(this, itemIndex, DOWNLOAD) : undefined,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ kind, id, simplify, binaryProperty, decideOn }: CompanyRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await lookupOnce(this, `${kind}:${id}`, async () =>
		kind === 'cin'
			? await apiRequest.call(this, {
					...policy,
					method: 'POST',
					path: 'corporate/cin-lookup',
					body: { cin: id },
					requiredField: COMPANY_REQUIRED,
					itemIndex,
				})
			: // an LLP: the LLPIN lookup answers for it, as Get LLP by LLPIN does
				await apiRequest.call(this, {
					...policy,
					method: 'POST',
					path: 'corporate/llpin-lookup',
					body: { llpin: id },
					requiredField: LLP_REQUIRED,
					itemIndex,
				}),
	);
	// items that share one lookup get their own copy of the answer
	if (kind === 'llpin')
		return [
			{
				json: simplify
					? decidedRecord(decider, normalizeLlp(response), decideOn)
					: deepCopy(response),
			},
		];
	const summary = normalizeCompany(response);
	const json = simplify ? decidedRecord(decider, summary, decideOn) : deepCopy(response);
	if (!binaryProperty || !summary.pdfUrl) return [{ json }];

	const file = await downloadFile.call(
		this,
		summary.pdfUrl,
		// file names keep the identifier as the registry writes it (uppercase)
		`${summary.cin ?? id}-company-report`,
		itemIndex,
		policy,
	);
	return [{ json, binary: { [binaryProperty]: file } }];
}
