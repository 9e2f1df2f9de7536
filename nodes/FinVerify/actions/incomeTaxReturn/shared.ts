import type { INode, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { redactDeep, redactSecrets } from '../../transport/redact';
import type { FieldContext } from '../../helpers/validation';
import { assertIdentifier, assertPassword, invalidField } from '../../helpers/validation';

/** The client_id of the taxpayer portal login (Reset Portal Password and its OTP confirmation). */
export const portalClientIdField: INodeProperties = {
	displayName: 'Portal Client ID',
	name: 'portalClientId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. itr_client_5f2c0b7e9a1d',
	description: 'The client_id of the taxpayer portal login the password belongs to',
};

export function readPortalClientId(ctx: FieldContext, value: unknown): string {
	return assertIdentifier(ctx, value, 'Portal Client ID', 'itr_client_5f2c0b7e9a1d');
}

export function readJobId(ctx: FieldContext, value: unknown): string {
	return assertIdentifier(ctx, value, 'Job ID', 'itr_5f2c0b7e9a1d4c3b8e6f0a2d');
}

/** A password (see assertPassword): never trimmed, never shown back in an error. */
export function readPassword(ctx: FieldContext, value: unknown, field: string): string {
	return assertPassword(ctx, value, field);
}

/** `YYYY-YY` assessment years, e.g. "2024-25, 2023-24"; each second year must follow the first. */
export function readAssessmentYears(ctx: FieldContext, value: unknown): string[] {
	const expected = 'assessment years like 2024-25, separated by commas';
	if (value === undefined || value === null) return [];
	// a number, boolean or object is an error, not "all years"
	if (!Array.isArray(value) && typeof value !== 'string')
		throw invalidField(ctx, 'Assessment Years', value, expected);
	if (Array.isArray(value) && value.some((y) => typeof y !== 'string'))
		throw invalidField(ctx, 'Assessment Years', value, expected);
	const list = Array.isArray(value) ? (value as string[]) : value.split(',');
	const years = [...new Set(list.map((y) => y.trim()).filter(Boolean))];
	for (const year of years) {
		const m = /^(\d{4})-(\d{2})$/.exec(year);
		if (!m || (Number(m[1]) + 1) % 100 !== Number(m[2])) {
			throw invalidField(ctx, 'Assessment Years', value, expected);
		}
	}
	return years;
}

/**
 * The same error with every occurrence of the password removed from its message, description and
 * response body. Errors that are not node errors (should not happen: the transport raises
 * NodeApiError) become a NodeApiError carrying the redacted message only.
 */
export function redactPasswordFromError(
	node: INode,
	error: unknown,
	password: string,
): NodeApiError | NodeOperationError {
	const secrets = [password];
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.message = redactSecrets(error.message, secrets);
		if (typeof error.description === 'string')
			error.description = redactSecrets(error.description, secrets);
		error.messages = error.messages.map((m) => redactSecrets(m, secrets));
		if (error.errorResponse) error.errorResponse = redactDeep(error.errorResponse, secrets);
		return error;
	}
	const message = redactSecrets((error as Error)?.message ?? String(error), secrets);
	return new NodeApiError(node, { message } as JsonObject, { message });
}

/** Runs a request that carries a password; no error it raises repeats that password. */
export async function withPasswordRedacted<T>(
	node: INode,
	password: string,
	run: () => Promise<T>,
): Promise<T> {
	try {
		return await run();
	} catch (error) {
		throw redactPasswordFromError(node, error, password);
	}
}
