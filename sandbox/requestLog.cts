/** The request log of `GET /__sandbox/requests`, with secrets redacted. */
export interface LoggedRequest {
	id: number;
	at: string;
	method: string;
	path: string;
	query: Record<string, unknown>;
	headers: Record<string, unknown>;
	body: unknown;
	/** HTTP status sent, or null when no answer was sent (dropped connection, timeout fault). */
	status: number | null;
	ms: number | null;
	fault?: string;
}

export const REDACTED = '[REDACTED]';
const SECRET_HEADERS = new Set([
	'x-api-key',
	'x-api-secret',
	'authorization',
	'proxy-authorization',
]);
const SECRET_FIELD = /pass(word)?|secret|otp|token|refresh/i;
const MAX_ENTRIES = 2000;

/** Deep copy with every value under a secret-looking key replaced by `[REDACTED]`. */
export function redact(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(redact);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [k, SECRET_FIELD.test(k) ? REDACTED : redact(v)]),
		);
	}
	return value;
}

export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => {
			if (SECRET_HEADERS.has(name)) return [name, REDACTED];
			if (name === 'cookie')
				return [
					name,
					String(value).replace(/(refresh_token|[\w-]*token[\w-]*)=([^;]*)/gi, `$1=${REDACTED}`),
				];
			return [name, value];
		}),
	);
}

/** A URL as it may be printed: secret query values (the hosted-session token) redacted. */
export const redactUrl = (url: string): string =>
	url.replace(/([?&][^=&]*(?:token|secret|password)[^=&]*=)[^&]*/gi, `$1${REDACTED}`);

export class RequestLog {
	private entries: LoggedRequest[] = [];
	private nextId = 1;

	add(entry: Omit<LoggedRequest, 'id' | 'at' | 'status' | 'ms'>): LoggedRequest {
		const logged: LoggedRequest = {
			id: this.nextId++,
			at: new Date().toISOString(),
			...entry,
			query: redact(entry.query) as Record<string, unknown>,
			headers: redactHeaders(entry.headers),
			body: redact(entry.body),
			status: null,
			ms: null,
		};
		this.entries.push(logged);
		if (this.entries.length > MAX_ENTRIES) this.entries.shift();
		return logged;
	}

	/** Oldest first; `pathPart` keeps requests whose path contains it. */
	list(pathPart?: string): LoggedRequest[] {
		return pathPart ? this.entries.filter((e) => e.path.includes(pathPart)) : [...this.entries];
	}

	clear(): void {
		this.entries = [];
	}
}
