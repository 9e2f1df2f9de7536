import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { normalizeAutocomplete } from '../helpers/normalize/company';
import { apiRequest } from '../transport';
import { apiErrorCode, toNodeError } from '../transport/errors';

const MIN_QUERY = 3;
const MAX_NAME = 40;

const shorten = (name: string) =>
	name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1).trimEnd()}…` : name;

async function search(
	this: ILoadOptionsFunctions,
	filter: string | undefined,
	kinds: Array<'Company' | 'LLP'>,
) {
	const query = (filter ?? '').trim();
	// The service needs 3 characters; below that nothing is sent, and the list says why
	if (query.length < MIN_QUERY)
		return { results: [{ name: `Type at least ${MIN_QUERY} letters of the name`, value: '' }] };
	let response: IDataObject;
	try {
		response = await apiRequest.call(this, {
			method: 'POST',
			path: 'corporate/company-autocomplete',
			body: { company_name: query },
			maxRetries: 1,
			timeoutMs: 10_000,
		});
	} catch (error) {
		// the service answers "no results" with an error; for a picker that is just an empty list
		if (apiErrorCode(error) === 'NO_RESULTS') return { results: [] };
		// the transport's NodeApiError is rethrown as it is (code, HTTP status, request id)
		throw toNodeError(this.getNode(), error);
	}
	const results = normalizeAutocomplete(response)
		.filter((entry) => kinds.includes(entry.entityType as 'Company' | 'LLP') && entry.identifier)
		.map((entry) => ({
			// long names are shortened so the identifier stays visible in the list
			name: `${shorten(String(entry.name ?? ''))} · ${entry.entityType === 'LLP' ? 'LLPIN' : 'CIN'} ${entry.identifier}`,
			value: entry.identifier as string,
		}));
	return { results };
}

export async function searchCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// Get by CIN takes an LLPIN as well, so its list offers companies and LLPs
	return await search.call(this, filter, ['Company', 'LLP']);
}

export async function searchLlps(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search.call(this, filter, ['LLP']);
}
