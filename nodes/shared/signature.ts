import { createHash, createHmac, timingSafeEqual } from 'crypto';

/**
 * Verification of incoming notifications. Every function here is total: it never throws, whatever
 * the sender put in the headers, and answers with a reason the node turns into a 401.
 *
 * Scheme (see docs/trigger.md):
 * `X-Webhook-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` with
 * `X-Webhook-Timestamp` in unix seconds.
 */

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Header names of the sandbox's documented scheme: the FinVerify Trigger's defaults (each
 * configurable there) and what the FinVerify node's Wait for Completion reads.
 */
export const DEFAULT_SIGNATURE_HEADERS = {
	signature: 'X-Webhook-Signature',
	timestamp: 'X-Webhook-Timestamp',
	id: 'X-Webhook-Id',
	event: 'X-Webhook-Event',
} as const;

export type SignatureFailure =
	| 'missing_secret'
	| 'missing_signature'
	| 'missing_timestamp'
	| 'malformed_signature'
	| 'malformed_timestamp'
	| 'stale_timestamp'
	| 'future_timestamp'
	| 'missing_body'
	| 'signature_mismatch';

export type VerificationResult = { valid: true } | { valid: false; reason: SignatureFailure };

export interface SignatureInput {
	/** The exact bytes the sender signed (n8n keeps them on `req.rawBody`). */
	rawBody: Buffer | string | undefined;
	/** Value of the signature header (first one if repeated). */
	signature: unknown;
	/** Value of the timestamp header, unix seconds. */
	timestamp: unknown;
	secret: string | undefined;
	/** Accepted clock difference in seconds, both directions; 0 disables the time check. */
	toleranceSeconds?: number;
	/** Current time in milliseconds (tests pass a fixed clock). */
	nowMs?: number;
}

/** A header value as one trimmed string; repeated headers (arrays) use their first value. */
export function headerValue(value: unknown): string | undefined {
	const single = Array.isArray(value) ? value[0] : value;
	if (typeof single !== 'string') return undefined;
	const trimmed = single.trim();
	return trimmed === '' ? undefined : trimmed;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Reads `sha256=<hex>`. Several comma-separated candidates are accepted (a sender rotating secrets
 * may send `sha256=<new>,sha256=<old>`); hex is case-insensitive. Anything else yields no
 * candidates.
 */
export function parseSignatureHeader(value: string): Buffer[] {
	const candidates: Buffer[] = [];
	for (const part of value.split(',')) {
		const match = /^sha256=(.*)$/i.exec(part.trim());
		if (!match) continue;
		const hex = match[1].trim();
		if (HEX_SHA256.test(hex)) candidates.push(Buffer.from(hex, 'hex'));
	}
	return candidates;
}

/** Unix seconds as an integer, or undefined for anything that is not a plain decimal number. */
export function parseTimestamp(value: string): number | undefined {
	if (!/^\d{1,12}$/.test(value)) return undefined;
	const seconds = Number(value);
	return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/** Hex HMAC-SHA256 of `<timestamp>.<raw body>`: what the sender puts after `sha256=`. */
export function computeSignature(
	secret: string,
	timestamp: string | number,
	rawBody: Buffer | string,
): string {
	return createHmac('sha256', secret)
		.update(`${timestamp}.`)
		.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
		.digest('hex');
}

/**
 * Constant-time equality of two byte strings (false, not an exception, when the lengths differ).
 */
export function safeEqual(a: Buffer, b: Buffer): boolean {
	if (a.length !== b.length) return false;
	return timingSafeEqual(a, b);
}

/** Verifies an HMAC-signed delivery. Never throws. */
export function verifySignature(input: SignatureInput): VerificationResult {
	try {
		if (!input.secret) return { valid: false, reason: 'missing_secret' };
		const signature = headerValue(input.signature);
		if (!signature) return { valid: false, reason: 'missing_signature' };
		const timestampText = headerValue(input.timestamp);
		if (!timestampText) return { valid: false, reason: 'missing_timestamp' };
		const timestamp = parseTimestamp(timestampText);
		if (timestamp === undefined) return { valid: false, reason: 'malformed_timestamp' };

		const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
		if (tolerance > 0) {
			const nowSeconds = Math.floor((input.nowMs ?? Date.now()) / 1000);
			if (timestamp < nowSeconds - tolerance) return { valid: false, reason: 'stale_timestamp' };
			if (timestamp > nowSeconds + tolerance) return { valid: false, reason: 'future_timestamp' };
		}

		const candidates = parseSignatureHeader(signature);
		if (candidates.length === 0) return { valid: false, reason: 'malformed_signature' };
		if (input.rawBody === undefined) return { valid: false, reason: 'missing_body' };

		const expected = Buffer.from(
			computeSignature(input.secret, timestampText, input.rawBody),
			'hex',
		);
		// compare against every candidate so the time spent does not depend on which one matched
		let matched = false;
		for (const candidate of candidates) if (safeEqual(candidate, expected)) matched = true;
		return matched ? { valid: true } : { valid: false, reason: 'signature_mismatch' };
	} catch {
		// unreachable with the inputs above; a verifier must fail closed rather than throw
		return { valid: false, reason: 'signature_mismatch' };
	}
}

/**
 * Constant-time comparison of a token from the URL with the configured one. Both sides are hashed
 * first, so neither the content nor the length of the secret leaks through timing. Never throws.
 */
export function verifyToken(received: unknown, expected: string | undefined): boolean {
	const token = headerValue(received);
	if (!token || !expected) return false;
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return safeEqual(digest(token), digest(expected));
}

/** Short English explanations of the failure reasons, for the 401 body. */
export const FAILURE_MESSAGES: Record<SignatureFailure | 'invalid_token', string> = {
	missing_secret: 'No webhook signing secret is configured for this trigger',
	missing_signature: 'The signature header is missing',
	missing_timestamp: 'The timestamp header is missing',
	malformed_signature: 'The signature header is not of the form sha256=<64 hex characters>',
	malformed_timestamp: 'The timestamp header is not a unix time in seconds',
	stale_timestamp: 'The timestamp is older than the accepted tolerance',
	future_timestamp: 'The timestamp is further in the future than the accepted tolerance',
	missing_body: 'The raw request body is not available to verify',
	signature_mismatch: 'The signature does not match the request body',
	invalid_token: 'The token query parameter is missing or wrong',
};
