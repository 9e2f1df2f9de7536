import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** What every error envelope variant (A-E of the spec) boils down to. */
export interface ParsedApiError {
	message: string;
	code?: string;
	requestId?: string;
	variant?: 'A' | 'B' | 'C' | 'D' | 'E';
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * True when a body is one of the service's error envelopes, whatever the HTTP status said.
 * A journey status body may legitimately carry `status: "failed"` (the journey failed), so `status` alone
 * only counts together with an error field.
 */
export function isErrorEnvelope(body: unknown): boolean {
	if (!isObject(body)) return false;
	if (body.success === false) return true;
	if (body.status === 'error' || body.status === 'failed') {
		return (
			body.error_code !== undefined ||
			(typeof body.status_code === 'number' && body.status_code >= 400)
		);
	}
	return false;
}

/** Reads the message and code out of any of the five envelope variants (and of unknown bodies). */
export function parseApiError(body: unknown, httpStatus?: number): ParsedApiError {
	if (!isObject(body)) {
		const raw = text(body);
		const looksLikeHtml = raw !== undefined && /^<(!doctype|html)/i.test(raw);
		return {
			message:
				raw && !looksLikeHtml && raw.length <= 300
					? raw
					: `The service answered with HTTP ${httpStatus ?? 'error'} and no readable error body`,
		};
	}
	const requestId = text(body.request_id);
	if (isObject(body.error)) {
		return {
			variant: 'C',
			message: text(body.error.message) ?? text(body.message) ?? 'Unknown error',
			code: text(body.error.code),
			requestId,
		};
	}
	if (body.message_code !== undefined) {
		return {
			variant: 'D',
			message: text(body.message) ?? 'Unknown error',
			code: text(body.message_code),
			requestId,
		};
	}
	if (body.error_code !== undefined) {
		return {
			variant: typeof body.status === 'string' ? 'E' : 'A',
			message: text(body.message) ?? 'Unknown error',
			code: text(body.error_code),
			requestId,
		};
	}
	if (typeof body.status === 'string' && body.status_code !== undefined) {
		return {
			variant: 'B',
			message: text(body.message) ?? 'Unknown error',
			code: body.status.toUpperCase(),
			requestId,
		};
	}
	return {
		message:
			text(body.message) ??
			text(body.error) ??
			`The service answered with HTTP ${httpStatus ?? 'error'}`,
		code: text(body.code),
		requestId,
	};
}

/** Replaces every occurrence of the given secrets in a text; short or empty secrets are skipped. */
export function redactSecrets(value: string, secrets: Array<string | undefined>): string {
	let out = value;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 4)
			out = out.split(secret).join('[redacted]');
	}
	return out;
}

/** Deep copy of a JSON value with every secret redacted from its strings. */
export function redactDeep<T>(value: T, secrets: Array<string | undefined>): T {
	if (typeof value === 'string') return redactSecrets(value, secrets) as T;
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets)) as T;
	if (isObject(value)) {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets);
		return out as T;
	}
	return value;
}

const PASSWORD_FIELD = /pass(word)?|pwd/i;

/**
 * Deep copy of an answer to a request that carried a password, with that password removed by field, not
 * by value: every value under a password-like key becomes "[redacted]" (whatever its length), and a
 * password of 6+ characters embedded in a longer text is cut out. A field whose whole value merely equals
 * the password (a status "processing" when the password is "processing") is left alone.
 */
export function redactPassword<T>(value: T, password: string, key?: string): T {
	if (key !== undefined && PASSWORD_FIELD.test(key) && value !== null && value !== undefined)
		return '[redacted]' as T;
	if (typeof value === 'string') {
		if (password.length >= 6 && value !== password && value.includes(password))
			return value.split(password).join('[redacted]') as T;
		return value;
	}
	if (Array.isArray(value)) return value.map((v) => redactPassword(v, password)) as T;
	if (isObject(value)) {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value)) out[k] = redactPassword(v, password, k);
		return out as T;
	}
	return value;
}

/** The service's error code of an error raised by the transport (null for any other error). */
export function apiErrorCode(error: unknown): string | null {
	if (!(error instanceof NodeApiError)) return null;
	const code = error.errorResponse?.code;
	return typeof code === 'string' && code !== '' ? code : null;
}

/**
 * A node error for anything caught around a request: the transport's NodeApiError (code, HTTP status,
 * request id) and the node's own NodeOperationError pass through unchanged; anything else is an
 * unexpected failure inside the node, not an answer of the service, and keeps its message only (no
 * request internals).
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, (error as Error)?.message ?? String(error), { itemIndex });
}
