import { createHmac } from 'crypto';

import {
	computeSignature,
	headerValue,
	parseSignatureHeader,
	parseTimestamp,
	safeEqual,
	verifySignature,
	verifyToken,
} from '../../../nodes/shared/signature';

const SECRET = 'sandbox-webhook-secret';
const NOW_MS = 1_750_000_000_000;
const NOW_S = String(NOW_MS / 1000);
const BODY =
	'{"event":"aa_bsa_journey.status_changed","client_id":"aa_0123456789abcdef01234567","status":"consent_pending"}';

/** What a correct sender computes, written out independently of the code under test. */
const sign = (body: string | Buffer, timestamp = NOW_S, secret = SECRET) =>
	`sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;

const verify = (overrides: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
	verifySignature({
		rawBody: Buffer.from(BODY),
		signature: sign(BODY),
		timestamp: NOW_S,
		secret: SECRET,
		nowMs: NOW_MS,
		...overrides,
	});

describe('verifySignature', () => {
	test('accepts a correct signature over the raw body', () => {
		expect(verify()).toEqual({ valid: true });
	});

	test('accepts the raw body as a string too', () => {
		expect(verify({ rawBody: BODY })).toEqual({ valid: true });
	});

	test('computeSignature matches an independent HMAC of "<timestamp>.<body>"', () => {
		expect(`sha256=${computeSignature(SECRET, NOW_S, BODY)}`).toBe(sign(BODY));
	});

	test('wrong secret → signature_mismatch', () => {
		expect(verify({ signature: sign(BODY, NOW_S, 'another-secret') })).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	test('tampered body (one byte changed) → signature_mismatch', () => {
		const tampered = BODY.replace('consent_pending', 'consent_granted');
		expect(verify({ rawBody: Buffer.from(tampered) })).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	test('re-serialised JSON (whitespace differs from what was signed) → signature_mismatch', () => {
		const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
		expect(verify({ rawBody: reserialised })).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	test('signature made for another timestamp → signature_mismatch', () => {
		expect(verify({ signature: sign(BODY, String(NOW_MS / 1000 - 1)) })).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	test('missing signature header', () => {
		expect(verify({ signature: undefined })).toEqual({ valid: false, reason: 'missing_signature' });
		expect(verify({ signature: '' })).toEqual({ valid: false, reason: 'missing_signature' });
		expect(verify({ signature: '   ' })).toEqual({ valid: false, reason: 'missing_signature' });
	});

	test('missing timestamp header', () => {
		expect(verify({ timestamp: undefined })).toEqual({ valid: false, reason: 'missing_timestamp' });
	});

	test('missing secret fails closed', () => {
		expect(verify({ secret: '' })).toEqual({ valid: false, reason: 'missing_secret' });
		expect(verify({ secret: undefined })).toEqual({ valid: false, reason: 'missing_secret' });
	});

	test('missing raw body', () => {
		expect(verify({ rawBody: undefined })).toEqual({ valid: false, reason: 'missing_body' });
	});

	test('hex of the wrong length (truncated, extended) → malformed, no exception from timingSafeEqual', () => {
		const good = sign(BODY);
		expect(verify({ signature: good.slice(0, -2) })).toEqual({
			valid: false,
			reason: 'malformed_signature',
		});
		expect(verify({ signature: `${good}00` })).toEqual({
			valid: false,
			reason: 'malformed_signature',
		});
		expect(verify({ signature: 'sha256=' })).toEqual({
			valid: false,
			reason: 'malformed_signature',
		});
	});

	test('non-hex characters → malformed_signature', () => {
		const good = sign(BODY);
		expect(verify({ signature: `${good.slice(0, -1)}z` })).toEqual({
			valid: false,
			reason: 'malformed_signature',
		});
	});

	test('uppercase hex is accepted (hex is case-insensitive), and so is an uppercase prefix', () => {
		const hex = sign(BODY).slice('sha256='.length);
		expect(verify({ signature: `sha256=${hex.toUpperCase()}` })).toEqual({ valid: true });
		expect(verify({ signature: `SHA256=${hex}` })).toEqual({ valid: true });
	});

	test('"sha256=" prefix missing → malformed_signature', () => {
		const hex = sign(BODY).slice('sha256='.length);
		expect(verify({ signature: hex })).toEqual({ valid: false, reason: 'malformed_signature' });
		expect(verify({ signature: `sha1=${hex}` })).toEqual({
			valid: false,
			reason: 'malformed_signature',
		});
	});

	test('several candidates (secret rotation): valid if any matches', () => {
		const other = sign(BODY, NOW_S, 'old-secret');
		expect(verify({ signature: `${other}, ${sign(BODY)}` })).toEqual({ valid: true });
		expect(verify({ signature: `${other}, ${other}` })).toEqual({
			valid: false,
			reason: 'signature_mismatch',
		});
	});

	test('repeated header (array) uses the first value', () => {
		expect(verify({ signature: [sign(BODY), 'garbage'] })).toEqual({ valid: true });
	});

	test('stale timestamp (older than 5 minutes) → stale_timestamp, even with a correct signature', () => {
		const ts = String(NOW_MS / 1000 - 301);
		expect(verify({ timestamp: ts, signature: sign(BODY, ts) })).toEqual({
			valid: false,
			reason: 'stale_timestamp',
		});
	});

	test('exactly at the edge of the window is accepted', () => {
		const ts = String(NOW_MS / 1000 - 300);
		expect(verify({ timestamp: ts, signature: sign(BODY, ts) })).toEqual({ valid: true });
	});

	test('future timestamp beyond tolerance → future_timestamp', () => {
		const ts = String(NOW_MS / 1000 + 301);
		expect(verify({ timestamp: ts, signature: sign(BODY, ts) })).toEqual({
			valid: false,
			reason: 'future_timestamp',
		});
	});

	test('configurable tolerance; 0 disables the time check', () => {
		const ts = String(NOW_MS / 1000 - 3600);
		expect(verify({ timestamp: ts, signature: sign(BODY, ts), toleranceSeconds: 60 })).toEqual({
			valid: false,
			reason: 'stale_timestamp',
		});
		expect(verify({ timestamp: ts, signature: sign(BODY, ts), toleranceSeconds: 7200 })).toEqual({
			valid: true,
		});
		expect(verify({ timestamp: ts, signature: sign(BODY, ts), toleranceSeconds: 0 })).toEqual({
			valid: true,
		});
	});

	test.each([
		'abc',
		'17500000.5',
		'-1750000000',
		'1e9',
		'2025-06-15T10:00:00Z',
		'1750000000000000',
	])('non-numeric or malformed timestamp %p → malformed_timestamp', (ts) => {
		expect(verify({ timestamp: ts, signature: sign(BODY, ts) })).toEqual({
			valid: false,
			reason: 'malformed_timestamp',
		});
	});

	test('never throws, whatever the inputs', () => {
		const weird: unknown[] = [null, 42, {}, [], Symbol('x'), () => 1, Buffer.from('x')];
		for (const value of weird) {
			expect(() =>
				verifySignature({
					rawBody: Buffer.from(BODY),
					signature: value,
					timestamp: value,
					secret: SECRET,
					nowMs: NOW_MS,
				}),
			).not.toThrow();
			expect(
				verifySignature({
					rawBody: Buffer.from(BODY),
					signature: value,
					timestamp: NOW_S,
					secret: SECRET,
					nowMs: NOW_MS,
				}).valid,
			).toBe(false);
		}
	});
});

describe('helpers', () => {
	test('parseSignatureHeader', () => {
		expect(parseSignatureHeader('sha256=' + 'ab'.repeat(32))).toHaveLength(1);
		expect(parseSignatureHeader('t=1,v1=' + 'ab'.repeat(32))).toHaveLength(0);
	});

	test('parseTimestamp', () => {
		expect(parseTimestamp('1750000000')).toBe(1750000000);
		expect(parseTimestamp(' 1750000000')).toBeUndefined();
		expect(parseTimestamp('0x10')).toBeUndefined();
	});

	test('safeEqual is false (not an exception) for different lengths', () => {
		expect(safeEqual(Buffer.from('ab'), Buffer.from('abc'))).toBe(false);
		expect(safeEqual(Buffer.from('abc'), Buffer.from('abc'))).toBe(true);
	});

	test('headerValue', () => {
		expect(headerValue(' x ')).toBe('x');
		expect(headerValue(['a', 'b'])).toBe('a');
		expect(headerValue(undefined)).toBeUndefined();
		expect(headerValue(5)).toBeUndefined();
	});
});

describe('verifyToken', () => {
	test('equal tokens pass', () => {
		expect(verifyToken('s3cret-token', 's3cret-token')).toBe(true);
	});

	test('wrong, shorter, longer, missing or non-string tokens fail', () => {
		expect(verifyToken('s3cret-tokeN', 's3cret-token')).toBe(false);
		expect(verifyToken('s3cret', 's3cret-token')).toBe(false);
		expect(verifyToken('s3cret-token-and-more', 's3cret-token')).toBe(false);
		expect(verifyToken(undefined, 's3cret-token')).toBe(false);
		expect(verifyToken({ a: 1 }, 's3cret-token')).toBe(false);
	});

	test('an empty configured token never matches (not even an empty query value)', () => {
		expect(verifyToken('', '')).toBe(false);
		expect(verifyToken('x', '')).toBe(false);
	});

	test('a repeated query parameter uses its first value', () => {
		expect(verifyToken(['s3cret-token', 'x'], 's3cret-token')).toBe(true);
	});
});
