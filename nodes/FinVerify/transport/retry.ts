/** Retry policy of the transport: pure functions, unit-tested alone. */

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * Statuses that prove the server did not act on the request, so even a create may be sent again.
 */
const NOT_PROCESSED_STATUS = new Set([429, 503]);

/** Network error codes raised before the request reached the server. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** Failures that the same request would meet again (or that the user asked for): never retried. */
const NEVER_RETRY_CODES = new Set([
	'ERR_CANCELED',
	'ERR_CROSS_ORIGIN_REDIRECT',
	'ERR_TOO_MANY_REDIRECTS',
	'ERR_INVALID_REDIRECT',
]);

/** Longest wait the transport accepts between two attempts, whatever Retry-After asks for. */
export const MAX_RETRY_WAIT_MS = 30_000;

/**
 * Parses a Retry-After header (delta seconds or an HTTP date) into milliseconds; undefined when
 * absent or invalid.
 */
export function parseRetryAfter(header: unknown, now = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const raw = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
	const date = Date.parse(raw);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (0 = first retry): Retry-After when the server gave one,
 * otherwise exponential backoff (base 2^attempt) with equal jitter (a random wait between half and
 * all of the backoff), both capped at MAX_RETRY_WAIT_MS.
 */
export function retryDelayMs(
	attempt: number,
	retryAfterHeader?: unknown,
	baseMs = 500,
	random: () => number = Math.random,
): number {
	const retryAfter = parseRetryAfter(retryAfterHeader);
	if (retryAfter !== undefined) return Math.min(retryAfter, MAX_RETRY_WAIT_MS);
	const ceiling = Math.min(baseMs * 2 ** attempt, MAX_RETRY_WAIT_MS);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Whether an HTTP answer may be retried for a request that is (or is not) idempotent. */
export function shouldRetryStatus(status: number, idempotent: boolean): boolean {
	if (!RETRYABLE_STATUS.has(status)) return false;
	return idempotent || NOT_PROCESSED_STATUS.has(status);
}

/** Whether a network failure may be retried for a request that is (or is not) idempotent. */
export function shouldRetryNetworkError(code: string | undefined, idempotent: boolean): boolean {
	if (code !== undefined && NEVER_RETRY_CODES.has(code)) return false;
	if (code !== undefined && NOT_SENT_CODES.has(code)) return true;
	return idempotent;
}

/**
 * Whether a network failure says the service cannot be reached or did not answer (counted by the
 * request gate's circuit), rather than a cancelled execution or a redirect the node refused.
 */
export function isServiceUnreachable(code: string | undefined): boolean {
	return code === undefined || !NEVER_RETRY_CODES.has(code);
}
