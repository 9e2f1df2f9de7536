/** Error envelope variants of the spec (A-E) and the one error type handlers throw. */
export type Variant = 'A' | 'B' | 'C' | 'D' | 'E';

export interface ErrorDetail {
	field: string;
	message: string;
}

export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly extra: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
	) {
		super(message);
	}
}

/** Default code for a status, used by injected faults and unexpected failures. */
export const CODE_FOR_STATUS: Record<number, string> = {
	400: 'INVALID_INPUT',
	401: 'UNAUTHORIZED',
	403: 'PERMISSION_DENIED',
	404: 'NOT_FOUND',
	409: 'CONFLICT',
	422: 'UNPROCESSABLE_ENTITY',
	429: 'RATE_LIMITED',
	500: 'INTERNAL_ERROR',
	502: 'BAD_GATEWAY',
	503: 'UPSTREAM_UNAVAILABLE',
	504: 'GATEWAY_TIMEOUT',
};

const MESSAGE_FOR_STATUS: Record<number, string> = {
	400: 'Bad request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not found',
	409: 'Conflict',
	422: 'Unprocessable request',
	429: 'Too many requests, retry later',
	500: 'Internal server error',
	502: 'Bad gateway',
	503: 'Upstream service unavailable',
	504: 'Gateway timeout',
};

/** Variant D carries a lowercase `message_code` instead of an error code. */
const D_MESSAGE_CODE: Record<number, string> = {
	400: 'bad_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	409: 'conflict',
	422: 'unprocessable_entity',
	429: 'rate_limited',
	500: 'internal_server_error',
	502: 'bad_gateway',
	503: 'service_unavailable',
	504: 'gateway_timeout',
};

export function errorForStatus(status: number, message?: string): ApiError {
	return new ApiError(
		status,
		CODE_FOR_STATUS[status] ?? `HTTP_${status}`,
		message ?? MESSAGE_FOR_STATUS[status] ?? `HTTP ${status}`,
	);
}

/** The JSON body of an error in the given envelope variant. */
export function errorBody(
	variant: Variant,
	error: ApiError,
	requestId: string,
): Record<string, unknown> {
	const details = error.extra.details?.length ? { details: error.extra.details } : {};
	switch (variant) {
		case 'A':
			return { success: false, message: error.message, error_code: error.code, ...details };
		case 'B':
			return {
				status: 'error',
				status_code: error.status,
				message: error.message,
				request_id: requestId,
				...details,
			};
		case 'C':
			return { success: false, error: { code: error.code, message: error.message, ...details } };
		case 'D':
			return {
				success: false,
				status_code: error.status,
				message: error.message,
				message_code: D_MESSAGE_CODE[error.status] ?? error.code.toLowerCase(),
				...details,
			};
		case 'E':
			return { status: 'failed', message: error.message, error_code: error.code, ...details };
	}
}
