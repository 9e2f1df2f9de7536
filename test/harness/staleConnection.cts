/**
 * Requests of the e2e and scale suites to the real n8n app go over keep-alive connections. n8n's HTTP server
 * closes an idle one after 5 s (Node's default `keepAliveTimeout`); Node's fetch (undici) retires its idle
 * connections by a timer that falls behind when the machine is busy, so on a loaded machine a request can be
 * written to a connection n8n has just closed: "fetch failed", cause "other side closed" (`UND_ERR_SOCKET`) or
 * `ECONNRESET` (seen once in a loaded `npm test`, on a GET of the editor's node types). A browser sends such a
 * request again on a fresh connection; so does this wrapper, once, and only for GET and HEAD, which change
 * nothing. Any other method's failure stays the test's failure: n8n may have acted on the request.
 *
 * Installed for the e2e and scale projects by jest.config.js (`setupFiles`).
 */

const STALE_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/** Whether `error` is fetch's failure on a connection the server closed (not a refusal, not a timeout). */
export function isStaleConnection(error: unknown): boolean {
	// by name, not instanceof: fetch's TypeError comes from Node's own realm, not jest's test context
	if (typeof error !== 'object' || error === null || (error as Error).name !== 'TypeError')
		return false;
	const cause = (error as { cause?: { code?: unknown } }).cause;
	return typeof cause?.code === 'string' && STALE_CODES.has(cause.code);
}

/** The request's method as fetch will send it. */
export function methodOf(input: Parameters<typeof fetch>[0], init?: RequestInit): string {
	const fromRequest =
		typeof input === 'object' && 'method' in input ? (input as Request).method : undefined;
	const method = init?.method ?? fromRequest ?? 'GET';
	return method.toUpperCase();
}

/** `fetch` that sends a GET or HEAD once more when the server had closed the connection it went out on. */
export function withStaleConnectionRetry(send: typeof fetch): typeof fetch {
	return async (input, init) => {
		try {
			return await send(input, init);
		} catch (error) {
			const method = methodOf(input, init);
			if ((method === 'GET' || method === 'HEAD') && isStaleConnection(error))
				return await send(input, init);
			throw error;
		}
	};
}

globalThis.fetch = withStaleConnectionRetry(globalThis.fetch);
