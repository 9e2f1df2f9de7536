/**
 * Signed journey deliveries for the e2e suites that post straight to a published FinVerify Trigger: the body
 * the service sends for a status change and its HMAC signature over `<timestamp>.<raw body>` with the
 * sandbox credential's signing secret (docs/trigger.md, Verification). Each call is a new delivery (a new
 * event id and journey). `postDelivery` sends one.
 */
import { createHmac, randomUUID } from 'node:crypto';

/** The "FinVerify sandbox" credential's signing secret. */
export const SIGNING_SECRET = 'sandbox-webhook-secret';

export interface SignedDelivery {
	id: string;
	raw: string;
	timestamp: string;
	signature: string;
}

export function signedJourneyDelivery(
	options: { status?: string; previousStatus?: string; secret?: string } = {},
): SignedDelivery {
	const {
		status = 'analysis_complete',
		previousStatus = 'data_fetched',
		secret = SIGNING_SECRET,
	} = options;
	const id = `wh_${randomUUID()}`;
	const clientId = `aa_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
	const raw = JSON.stringify({
		id,
		event: 'aa_bsa_journey.status_changed',
		client_id: clientId,
		status,
		previous_status: previousStatus,
		updated_at: new Date().toISOString(),
		data: { client_id: clientId, status },
	});
	const timestamp = String(Math.floor(Date.now() / 1000));
	const signature = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;
	return { id, raw, timestamp, signature };
}

/**
 * Posts a delivery's exact bytes with its timestamp and signature headers (a first delivery, a replay of a
 * captured request or a sender's retry), plus `headers`; resolves the status and the body's text.
 */
export async function postDelivery(
	url: string,
	d: SignedDelivery,
	headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...headers,
			'x-webhook-timestamp': d.timestamp,
			'x-webhook-signature': d.signature,
		},
		body: d.raw,
	});
	return { status: response.status, text: await response.text() };
}
