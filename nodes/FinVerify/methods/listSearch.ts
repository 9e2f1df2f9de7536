import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { normalizeAutocomplete } from '../helpers/normalize/company';
import { apiRequest } from '../transport';
import { apiErrorCode } from '../transport/errors';

const MIN_QUERY = 3;

async function search(
	this: ILoadOptionsFunctions,
	filter: string | undefined,
	kind: 'Company' | 'LLP',
) {
	const query = (filter ?? '').trim();
	// The service needs 3 characters; below that there is nothing to ask (and nothing is sent).
	if (query.length < MIN_QUERY) return { results: [] };
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
		// both constructors hand back the very error when it already is one of theirs
		if (error instanceof NodeApiError)
			throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
		throw new NodeOperationError(this.getNode(), error as Error);
	}
	const results = normalizeAutocomplete(response)
		.filter((entry) => entry.entityType === kind && entry.identifier)
		.map((entry) => ({
			name: `${entry.name} (${entry.identifier})`,
			value: entry.identifier as string,
		}));
	return { results };
}

export async function searchCompanies(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search.call(this, filter, 'Company');
}

export async function searchLlps(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await search.call(this, filter, 'LLP');
}
