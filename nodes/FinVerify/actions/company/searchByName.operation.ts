import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import {
	autocompleteEntries,
	AUTOCOMPLETE_REQUIRED,
	normalizeAutocomplete,
} from '../../helpers/normalize/company';
import { assertPositiveInteger, requireText } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { apiErrorCode, toNodeError } from '../../transport/errors';
import { searchFailsOnNothingFound } from '../../../shared/versions';
import { companyNameField, outputModeFields } from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { SEARCH_BY_NAME_VIEW } from '../../helpers/normalize/simplified';

const properties: INodeProperties[] = [
	companyNameField,
	{
		displayName: 'Entity Type',
		name: 'entityType',
		type: 'options',
		default: 'all',
		options: [
			{ name: 'Companies and LLPs', value: 'all' },
			{ name: 'Companies Only', value: 'company' },
			{ name: 'LLPs Only', value: 'llp' },
		],
		description: 'Which kinds of registered entity to return',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
	...outputModeFields,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Error When Nothing Is Found',
				name: 'errorOnNoResults',
				type: 'boolean',
				default: false,
				description:
					'Whether a name nothing matches fails the item (code NO_RESULTS); off, it gives no item',
				hint: 'Version 3 fails the item unless this option is added and turned off, so nobody searched for vanishes',
			},
		],
	},
];

const displayOptions = { show: { resource: ['company'], operation: ['searchByName'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: SEARCH_BY_NAME_VIEW };

interface SearchRequest {
	companyName: string;
	entityType: 'all' | 'company' | 'llp';
	limit: number;
	simplify: boolean;
	errorOnNoResults: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): SearchRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const companyName = requireText(
		ctx,
		'Company Name',
		this.getNodeParameter('companyName', itemIndex, ''),
		{
			minLength: 3,
			maxLength: 200,
			expected: 'at least 3 characters of the name, e.g. Infosys',
		},
	);
	const entityType = this.getNodeParameter('entityType', itemIndex, 'all') as
		| 'all'
		| 'company'
		| 'llp';
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? Infinity
		: assertPositiveInteger(
				{ node: this.getNode(), itemIndex },
				this.getNodeParameter('limit', itemIndex, 50),
				'Limit',
			);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		companyName,
		entityType,
		limit,
		simplify: isNormalizedOutput(this, itemIndex),
		// version 3: on unless turned off, so a lead nothing matches reaches the Failed output
		errorOnNoResults:
			typeof options.errorOnNoResults === 'boolean'
				? options.errorOnNoResults
				: searchFailsOnNothingFound(this.getNode().typeVersion),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ companyName, entityType, limit, simplify, errorOnNoResults }: SearchRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	let response: IDataObject;
	try {
		response = await apiRequest.call(this, {
			...policy,
			method: 'POST',
			path: 'corporate/company-autocomplete',
			body: { company_name: companyName },
			requiredField: AUTOCOMPLETE_REQUIRED,
			itemIndex,
		});
	} catch (error) {
		// "No results" is the empty answer of a search, not a failure, unless the user asked for one
		if (apiErrorCode(error) === 'NO_RESULTS' && !errorOnNoResults) return [];
		// the transport's NodeApiError is rethrown as it is (code, HTTP status, request id)
		throw toNodeError(this.getNode(), error, itemIndex);
	}

	const raw = autocompleteEntries(response);
	const matches = normalizeAutocomplete(response)
		.map((entry, index) => ({ entry, raw: raw[index] }))
		.filter(({ entry }) => entityType === 'all' || entry.entityType?.toLowerCase() === entityType)
		.slice(0, limit);

	if (matches.length === 0 && errorOnNoResults) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'No matching entity', code: 'NO_RESULTS' },
			{
				message: `No ${entityType === 'llp' ? 'LLP' : entityType === 'company' ? 'company' : 'company or LLP'} matches "${companyName}"`,
				description: 'Code: NO_RESULTS',
				itemIndex,
			},
		);
	}
	return matches.map(({ entry, raw: rawEntry }) => ({
		json: simplify ? { ...entry, query: companyName } : rawEntry,
	}));
}
