import { createHmac, randomUUID } from 'node:crypto';

export const WEBHOOK_SECRET = 'sandbox-webhook-secret';

export interface DeliveryOptions {
	/** Exact bytes to send; default JSON.stringify(body). */
	raw?: string;
	secret?: string;
	/** Unix seconds; default now. */
	timestamp?: number | string;
	id?: string;
	event?: string;
	/** false: send no signature header at all; a string: send it verbatim. */
	signature?: false | string;
	/** Extra or overriding headers. */
	headers?: Record<string, string>;
	contentType?: string;
	/** Aborts the request (a sender that hangs up before the answer). */
	signal?: AbortSignal;
}

export interface Answer {
	status: number;
	body: Record<string, unknown> | undefined;
	text: string;
}

/** Signs like the service: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>. */
export function sign(raw: string, timestamp: number | string, secret = WEBHOOK_SECRET) {
	return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;
}

/** POSTs one notification to a trigger URL the way the service does, with knobs to break it. */
export async function deliver(
	url: string,
	body: unknown,
	options: DeliveryOptions = {},
): Promise<Answer> {
	const raw = options.raw ?? JSON.stringify(body);
	const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
	const headers: Record<string, string> = {
		'content-type': options.contentType ?? 'application/json',
		'x-webhook-id': options.id ?? `wh_${randomUUID()}`,
		'x-webhook-timestamp': String(timestamp),
	};
	if (options.event) headers['x-webhook-event'] = options.event;
	if (options.signature !== false)
		headers['x-webhook-signature'] = options.signature ?? sign(raw, timestamp, options.secret);
	Object.assign(headers, options.headers ?? {});
	const response = await fetch(url, { method: 'POST', headers, body: raw, signal: options.signal });
	const text = await response.text();
	let parsed: Record<string, unknown> | undefined;
	try {
		parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
	} catch {
		parsed = undefined;
	}
	return { status: response.status, body: parsed, text };
}

export const journeyEvent = (status: string, overrides: Record<string, unknown> = {}) => ({
	event: 'aa_bsa_journey.status_changed',
	client_id: 'aa_0123456789abcdef01234567',
	status,
	previous_status: null,
	updated_at: new Date().toISOString(),
	data: { client_id: 'aa_0123456789abcdef01234567', status },
	...overrides,
});

export const sessionEvent = (status: string, overrides: Record<string, unknown> = {}) => ({
	event: 'collection_session.status_changed',
	session_id: 'cs_0123456789abcdef',
	flow: 'itr',
	status,
	previous_status: 'created',
	updated_at: new Date().toISOString(),
	data: { session_id: 'cs_0123456789abcdef', status },
	...overrides,
});
