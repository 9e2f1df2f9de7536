import type { RequiredField } from '../transport';
import { isFact } from '../transport';
import { isObject } from '../../shared/values';
import { ANALYSIS_REQUIRED, STATEMENT_REQUIRED } from './normalize/journey';
import { BUREAUS } from './validation';

/**
 * What a successful answer must state about its subject, beyond what its normalizer's `*_REQUIRED`
 * names: where an identifying field can be present yet say nothing (an account `""` or `{}` in a
 * statement, a bureau list `[]` next to the PAN the request sent). The transport's requiredField
 * fails such an answer with an error naming what is missing, as it fails `{}` (see `isFact` in the
 * transport for what counts).
 */

/** The answer's own record: `data` when it is an object, else the answer itself. */
const recordOf = (body: unknown): Record<string, unknown> => {
	const object = isObject(body) ? body : {};
	return isObject(object.data) ? object.data : object;
};

/** An entry of a list that states something besides its position in the list. */
const entryWithFacts = (entry: unknown, positionKey: string): boolean =>
	isObject(entry) &&
	Object.entries(entry).some(([key, value]) => key !== positionKey && isFact(value, false));

/**
 * Get Statement Result (and Fetch Results): an account with its number, bank, holder or
 * transactions; `accounts: [""]`, `[{}]` or `[{"account_index": 0}]` is no statement.
 */
export const STATEMENT_FACTS: RequiredField = [
	STATEMENT_REQUIRED,
	(body) => {
		const accounts = recordOf(body).accounts;
		return Array.isArray(accounts) && accounts.some((a) => entryWithFacts(a, 'account_index'))
			? undefined
			: 'an account with its number, bank or transactions (data.accounts)';
	},
];

/**
 * Get Analysis (and Fetch Results): the analysis in either shape, with something in it;
 * `summary: {}` or `accounts: [{}]` is no analysis.
 */
export const ANALYSIS_FACTS: RequiredField = [
	ANALYSIS_REQUIRED,
	(body) => {
		const data = recordOf(body);
		const accounts = Array.isArray(data.accounts) ? data.accounts : [];
		return isFact(data.summary, false) ||
			// a flag's false is a finding (no bounce), unlike a boolean elsewhere
			(isObject(data.flags) &&
				Object.values(data.flags).some(
					(flag) => typeof flag === 'boolean' || isFact(flag, false),
				)) ||
			accounts.some((a) => entryWithFacts(a, 'account_index'))
			? undefined
			: 'the analysis (data.summary, data.flags or data.accounts)';
	},
];

/**
 * Get Multi-Bureau Report: a bureau's result, in either shape. The PAN alone is no report: it is
 * what the request sent, echoed back (`{"pan": …, "results": []}` says nothing about anyone).
 */
export const MULTI_BUREAU_FACTS: RequiredField = [
	'results',
	...BUREAUS.map((bureau) => `data.${bureau}`),
].join('|');

/**
 * Get ITR Data: the taxpayer (PAN, name, profile) or a return. The job id alone is what the request
 * sent, echoed back.
 */
export const ITR_DATA_FACTS: RequiredField = (body) => {
	const data = recordOf(body);
	return ['pan', 'name', 'profile', 'itr_records', 'filings'].some((field) => isFact(data[field]))
		? undefined
		: 'a PAN, name, profile or return (data.pan, data.name, data.profile, data.itr_records or data.filings)';
};
