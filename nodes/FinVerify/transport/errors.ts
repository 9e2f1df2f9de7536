import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../shared/values';

/**
 * What every error body boils down to. The service has five (named schemas in
 * openapi/finverify.openapi.yaml, letter = its x-error-variant): A ErrorWithErrorCode, B
 * ErrorWithRequestId, C ErrorObject, D ErrorWithMessageCode, E ErrorStatusFailed.
 */
export interface ParsedApiError {
	message: string;
	code?: string;
	requestId?: string;
	variant?: 'A' | 'B' | 'C' | 'D' | 'E';
}

const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * True when a body is one of the service's error envelopes, whatever the HTTP status said. A
 * journey status body may legitimately carry `status: "failed"` (the journey failed), so `status`
 * alone only counts together with an error field.
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

/** Reads the message and code out of any of the five error bodies (and of unknown bodies). */
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

/** The service's error code of an error raised by the transport (null for any other error). */
export function apiErrorCode(error: unknown): string | null {
	if (!(error instanceof NodeApiError)) return null;
	const code = error.errorResponse?.code;
	return typeof code === 'string' && code !== '' ? code : null;
}

/**
 * A node error for anything caught around a request: the transport's NodeApiError (code, HTTP
 * status, request id) and the node's own NodeOperationError pass through unchanged; anything else
 * is an unexpected failure inside the node, not an answer of the service, and keeps its message
 * only (no request internals).
 */
export function toNodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, (error as Error)?.message ?? String(error), { itemIndex });
}

/** Error codes (any envelope, any case) that say the credential or its permissions were refused. */
const REJECTION_CODES = new Set(['UNAUTHORIZED', 'FORBIDDEN', 'PERMISSION_DENIED']);

/**
 * True when an answer says the credential (API key, secret, refresh token) or its permissions were
 * refused: HTTP 401 or 403, or an error envelope whose code or status_code says so. No retry fixes
 * that. It may concern this request alone (a record or a path the key may not use) or the
 * credential itself: the node tells them apart with the credential check (`credentialCheckVerdict`)
 * before it stops every item.
 */
export function isCredentialRejection(httpStatus: number, body: unknown): boolean {
	if (httpStatus === 401 || httpStatus === 403) return true;
	if (!isObject(body) || !isErrorEnvelope(body)) return false;
	if (body.status_code === 401 || body.status_code === 403) return true;
	const code = parseApiError(body, httpStatus).code?.toUpperCase();
	return code !== undefined && REJECTION_CODES.has(code);
}

/**
 * What the credential check (the credential Test's free request: the status of a journey that
 * cannot exist, nodes/shared/constants.ts CREDENTIAL_CHECK) says about the key and secret:
 * - `rejected`: HTTP 401, or the code `UNAUTHORIZED` (or `status_code` 401) in any envelope, or a 403
 *   that is none of the service's answers (a gateway refusing the caller);
 * - `accepted`: any other answer of the service carrying an error code (`NOT_FOUND` as expected;
 *   `PERMISSION_DENIED` or `FORBIDDEN`: the key was recognised, it only lacks that permission);
 * - `unknown`: no answer, 5xx, 429, or an answer that is not the service's (it proves nothing).
 * The credential Test (credentials/FinVerifyApi.credentials.ts) fails on `UNAUTHORIZED` alone too.
 */
export type CredentialVerdict = 'rejected' | 'accepted' | 'unknown';

export function credentialCheckVerdict(
	httpStatus: number | undefined,
	body: unknown,
): CredentialVerdict {
	if (httpStatus === undefined || httpStatus >= 500 || httpStatus === 429) return 'unknown';
	if (httpStatus === 401) return 'rejected';
	const code = isObject(body) ? parseApiError(body, httpStatus).code?.toUpperCase() : undefined;
	if (isObject(body) && (body.status_code === 401 || code === 'UNAUTHORIZED')) return 'rejected';
	if (code !== undefined) return 'accepted';
	return httpStatus === 403 ? 'rejected' : 'unknown';
}
