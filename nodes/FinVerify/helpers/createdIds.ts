import type { IDataObject } from 'n8n-workflow';

/**
 * What the service created for an item (a journey, a session, an ITR job), kept with the item's
 * failure when a later step of the same item failed (a status poll after the create): the router
 * names it in the error item and in any error that stops the node, so no create the service accepted
 * is lost with the output.
 */

/** Fields of an output item that name something the service created. */
const CREATED_ID_FIELDS = ['clientId', 'client_id', 'sessionId', 'session_id', 'jobId', 'job_id'];

/** The ids an output item (or the answer of a create) names, at its top level or under `data`. */
export function createdIdsOf(json: IDataObject): string[] {
	const data = json.data as IDataObject | undefined;
	return [
		...new Set(
			CREATED_ID_FIELDS.flatMap((field) => [json[field], data?.[field]]).filter(
				(value): value is string => typeof value === 'string' && value !== '',
			),
		),
	];
}

const created = new WeakMap<object, string[]>();

/** Records that `error` ended an item after the service created `ids`; returns the error. */
export function withCreatedIds<E>(error: E, ids: string[]): E {
	if (typeof error === 'object' && error !== null && ids.length > 0)
		created.set(error, [...(created.get(error) ?? []), ...ids]);
	return error;
}

/** The ids recorded with an error (none for most errors). */
export function createdIdsOfError(error: unknown): string[] {
	return typeof error === 'object' && error !== null ? (created.get(error) ?? []) : [];
}
