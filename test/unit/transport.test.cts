import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	apiErrorCode,
	isErrorEnvelope,
	parseApiError,
} from '../../nodes/FinVerify/transport/errors';
import { redactDeep, redactSecrets } from '../../nodes/FinVerify/transport/redact';
import {
	MAX_RETRY_WAIT_MS,
	parseRetryAfter,
	retryDelayMs,
	shouldRetryNetworkError,
	shouldRetryStatus,
} from '../../nodes/FinVerify/transport/retry';
import { resolveBaseUrl } from '../../nodes/FinVerify/transport';

describe('parseApiError reads all five envelope variants', () => {
	test.each([
		[
			'A',
			{ success: false, message: 'Bad CIN', error_code: 'INVALID_INPUT' },
			{ variant: 'A', message: 'Bad CIN', code: 'INVALID_INPUT' },
		],
		[
			'B',
			{ status: 'error', status_code: 400, message: 'Bad body', request_id: 'r1' },
			{ variant: 'B', message: 'Bad body', code: 'ERROR', requestId: 'r1' },
		],
		[
			'C',
			{ success: false, error: { code: 'WEAK_PASSWORD', message: 'Too weak' } },
			{ variant: 'C', message: 'Too weak', code: 'WEAK_PASSWORD' },
		],
		[
			'D',
			{ success: false, status_code: 401, message: 'Expired', message_code: 'unauthorized' },
			{ variant: 'D', message: 'Expired', code: 'unauthorized' },
		],
		[
			'E',
			{ status: 'failed', message: 'PAN bad', error_code: 'INVALID_PAN' },
			{ variant: 'E', message: 'PAN bad', code: 'INVALID_PAN' },
		],
	])('variant %s', (_v, body, expected) => {
		expect(parseApiError(body, 400)).toEqual(expect.objectContaining(expected));
	});

	test('HTML and empty bodies give a readable message', () => {
		expect(parseApiError('<html>502</html>', 502).message).toBe(
			'The service answered with HTTP 502 and no readable error body',
		);
		expect(parseApiError(undefined, 500).message).toBe(
			'The service answered with HTTP 500 and no readable error body',
		);
		expect(parseApiError('Gateway timeout', 504).message).toBe('Gateway timeout');
	});

	test('an unknown object falls back to its message', () => {
		expect(parseApiError({ message: 'Nope' }, 418)).toEqual({
			message: 'Nope',
			code: undefined,
			requestId: undefined,
		});
		expect(parseApiError({}, 418).message).toBe('The service answered with HTTP 418');
	});
});

describe('isErrorEnvelope', () => {
	test('recognises error envelopes', () => {
		expect(isErrorEnvelope({ success: false, message: 'x' })).toBe(true);
		expect(isErrorEnvelope({ status: 'failed', error_code: 'INVALID_PAN' })).toBe(true);
		expect(isErrorEnvelope({ status: 'error', status_code: 500 })).toBe(true);
	});
	test('a failed journey status is data, not an error', () => {
		expect(isErrorEnvelope({ client_id: 'aa_1', status: 'failed', failed_at_stage: 'fetch' })).toBe(
			false,
		);
		expect(isErrorEnvelope({ status: 'success', data: {} })).toBe(false);
		expect(isErrorEnvelope([])).toBe(false);
	});
});

describe('redaction', () => {
	test('replaces every occurrence of every secret, skipping empty ones', () => {
		expect(
			redactSecrets('key abcd1234 and abcd1234 and zz', ['abcd1234', '', undefined, 'zz']),
		).toBe('key [redacted] and [redacted] and [redacted]');
	});
	test('a secret shorter than 4 characters is replaced where it stands alone (issue 33)', () => {
		expect(redactSecrets('Key k1 with secret "s" rejected; key=k1;', ['k1', 's', 'x-1'])).toBe(
			'Key [redacted] with secret "[redacted]" rejected; key=[redacted];',
		);
		// not inside longer words: "secrets", "sk1" keep their letters
		expect(redactSecrets('secrets sk1 k12', ['k1', 's'])).toBe('secrets sk1 k12');
		expect(redactSecrets('a x-1 b', ['x-1'])).toBe('a [redacted] b');
		expect(redactSecrets('a.b (c) $', ['(c)', '$'])).toBe('a.b [redacted] [redacted]');
	});
	test('works through nested objects and arrays', () => {
		expect(redactDeep({ a: ['x secret-1 y'], b: { c: 'secret-1' }, n: 3 }, ['secret-1'])).toEqual({
			a: ['x [redacted] y'],
			b: { c: '[redacted]' },
			n: 3,
		});
	});
});

describe('retry policy', () => {
	test('Retry-After in seconds and as an HTTP date', () => {
		expect(parseRetryAfter('2')).toBe(2000);
		expect(parseRetryAfter(['1.5'])).toBe(1500);
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(parseRetryAfter(undefined)).toBeUndefined();
	});

	test('Retry-After wins over backoff and is capped', () => {
		expect(retryDelayMs(0, '1')).toBe(1000);
		expect(retryDelayMs(0, '3600')).toBe(MAX_RETRY_WAIT_MS);
	});

	test('exponential backoff with jitter stays within [ceiling/2, ceiling]', () => {
		expect(retryDelayMs(0, undefined, 500, () => 0)).toBe(250);
		expect(retryDelayMs(0, undefined, 500, () => 1)).toBe(500);
		expect(retryDelayMs(3, undefined, 500, () => 1)).toBe(4000);
		expect(retryDelayMs(20, undefined, 500, () => 1)).toBe(MAX_RETRY_WAIT_MS);
	});

	test('which statuses are retried', () => {
		for (const status of [429, 500, 502, 503, 504])
			expect(shouldRetryStatus(status, true)).toBe(true);
		for (const status of [400, 401, 403, 404, 409, 422])
			expect(shouldRetryStatus(status, true)).toBe(false);
		// a create is only re-sent when the server proved it did not act
		expect(shouldRetryStatus(429, false)).toBe(true);
		expect(shouldRetryStatus(503, false)).toBe(true);
		expect(shouldRetryStatus(500, false)).toBe(false);
		expect(shouldRetryStatus(502, false)).toBe(false);
	});

	test('which network failures are retried', () => {
		expect(shouldRetryNetworkError('ECONNREFUSED', false)).toBe(true);
		expect(shouldRetryNetworkError('ECONNRESET', false)).toBe(false);
		expect(shouldRetryNetworkError('ECONNRESET', true)).toBe(true);
		expect(shouldRetryNetworkError(undefined, true)).toBe(true);
	});
});

describe('resolveBaseUrl', () => {
	test('per environment', () => {
		expect(resolveBaseUrl({ environment: 'sandbox' })).toBe('http://127.0.0.1:4010');
		expect(resolveBaseUrl({ environment: 'sandbox', sandboxUrl: 'http://127.0.0.1:4999/' })).toBe(
			'http://127.0.0.1:4999',
		);
		expect(
			resolveBaseUrl({
				environment: 'production',
				baseUrl: 'https://api.example.com/api/v1/services/',
			}),
		).toBe('https://api.example.com');
		expect(resolveBaseUrl({ environment: 'production', baseUrl: '' })).toBeUndefined();
		expect(
			resolveBaseUrl({ environment: 'custom', baseUrl: 'ftp://x.example.com' }),
		).toBeUndefined();
	});
});

describe('apiErrorCode', () => {
	const node = {
		id: '1',
		name: 'FinVerify',
		type: 'n8n-nodes-finverify.finVerify',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	} as INode;
	test('reads the service code of a transport error, null otherwise', () => {
		expect(
			apiErrorCode(
				new NodeApiError(node, { message: 'x', code: 'NO_RESULTS' }, { message: 'No results' }),
			),
		).toBe('NO_RESULTS');
		expect(
			apiErrorCode(new NodeApiError(node, { message: 'x', code: null }, { message: 'x' })),
		).toBeNull();
		expect(apiErrorCode(new NodeOperationError(node, 'bad input'))).toBeNull();
		expect(apiErrorCode(new Error('plain'))).toBeNull();
	});
});
