import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FinVerifyContext } from '../transport';
import { apiRequest } from '../transport';
import { ANALYSIS_FACTS, STATEMENT_FACTS } from './answerFacts';

/**
 * Fetch Results When Complete, as the FinVerify Trigger and the journey waits (Wait Options) both
 * show it.
 */
export const fetchResultsField: INodeProperties = {
	displayName: 'Fetch Results When Complete',
	name: 'fetchResults',
	type: 'boolean',
	default: false,
	description:
		'Whether to download the statement result and the analysis JSON when a journey reaches ' +
		'analysis complete, and add them to the item',
};

/**
 * Per-attempt deadline and retries for the two result downloads. n8n answers the sender once the
 * execution exists, so these run before the answer: kept short. A sender that gives up meanwhile
 * and retries is answered "duplicate" (its event id stays claimed), so nothing runs twice.
 */
const FETCH_POLICY = { timeoutMs: 10_000, maxRetries: 1 };

interface FailureInfo {
	message: string;
	/** The service's error code (e.g. JOURNEY_INCOMPLETE) or a network code. */
	code: string | null;
	httpCode: string | null;
}

export interface FetchError extends FailureInfo, IDataObject {
	/** Which documents could not be fetched: `statementResult`, `analysis`. */
	documents: string[];
}

export interface FetchedResults {
	statementResult?: IDataObject;
	analysis?: IDataObject;
	fetchError?: FetchError;
}

function describeFailure(error: unknown): FailureInfo {
	const e = error as {
		message?: unknown;
		httpCode?: unknown;
		code?: unknown;
		errorResponse?: IDataObject;
	};
	const response = e?.errorResponse ?? {};
	// API errors carry the service's code; network failures the transport's network code
	const code = [response.code, response.error_code, e?.code].find(
		(value): value is string => typeof value === 'string' && value !== '',
	);
	return {
		message: typeof e?.message === 'string' && e.message !== '' ? e.message : 'The request failed',
		code: code ?? null,
		httpCode:
			typeof e?.httpCode === 'string' || typeof e?.httpCode === 'number'
				? String(e.httpCode)
				: null,
	};
}

/**
 * Fetches the statement result and the analysis JSON of a finished journey through the package's
 * one transport (auth, retries, error normalization). Never throws: a failure becomes `fetchError`
 * so the event itself is not lost.
 */
export async function fetchJourneyResults(
	this: FinVerifyContext,
	clientId: string,
): Promise<FetchedResults> {
	const documents = [
		{ key: 'statementResult', path: 'aa-bsa-journey/statement-result', required: STATEMENT_FACTS },
		{ key: 'analysis', path: 'aa-bsa-journey/analysis-json', required: ANALYSIS_FACTS },
	] as const;
	const settled = await Promise.allSettled(
		documents.map(
			async (doc) =>
				await apiRequest.call(this, {
					method: 'GET',
					path: doc.path,
					qs: { client_id: clientId },
					// an answer without the statement or analysis is a fetchError, not an empty result
					requiredField: doc.required,
					...FETCH_POLICY,
				}),
		),
	);
	const result: FetchedResults = {};
	const failed: string[] = [];
	const failures: Array<FailureInfo> = [];
	settled.forEach((outcome, index) => {
		const { key } = documents[index];
		if (outcome.status === 'fulfilled') {
			result[key] = outcome.value;
		} else {
			failed.push(key);
			failures.push(describeFailure(outcome.reason));
		}
	});
	if (failures.length > 0) result.fetchError = { ...failures[0], documents: failed };
	return result;
}
