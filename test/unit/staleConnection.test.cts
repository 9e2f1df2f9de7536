/**
 * The e2e suites' retry of a GET that went out on a connection the server had closed
 * (test/harness/staleConnection.cts): against a real loopback server that closes the socket without answering,
 * a GET is sent once more and succeeds, a POST is not sent again, and other failures are not retried.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	isStaleConnection,
	methodOf,
	withStaleConnectionRetry,
} from '../harness/staleConnection.cjs';

/** A server whose first request of each method is dropped (socket destroyed unanswered). */
async function dropsFirstRequest() {
	const seen: string[] = [];
	const server = http.createServer((req, res) => {
		seen.push(req.method ?? '');
		if (seen.filter((m) => m === req.method).length === 1) {
			req.socket.destroy();
			return;
		}
		res.end('ok');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
	return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('a request on a connection the server closed', () => {
	const send = withStaleConnectionRetry(fetch);

	it('is sent again once for GET, and then succeeds', async () => {
		const server = await dropsFirstRequest();
		try {
			const res = await send(server.url);
			expect(await res.text()).toBe('ok');
			expect(server.seen).toEqual(['GET', 'GET']);
		} finally {
			await server.close();
		}
	});

	it('is not sent again for POST: the failure is the caller’s', async () => {
		const server = await dropsFirstRequest();
		try {
			await expect(send(server.url, { method: 'POST', body: 'x' })).rejects.toThrow('fetch failed');
			expect(server.seen).toEqual(['POST']);
		} finally {
			await server.close();
		}
	});

	it('tells a closed connection from other failures', async () => {
		const closed = Object.assign(new TypeError('fetch failed'), {
			cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
		});
		const refused = Object.assign(new TypeError('fetch failed'), {
			cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
		});
		expect(isStaleConnection(closed)).toBe(true);
		expect(isStaleConnection(refused)).toBe(false);
		expect(isStaleConnection(new Error('other'))).toBe(false);
		expect(methodOf('http://127.0.0.1/', { method: 'head' })).toBe('HEAD');
		expect(methodOf(new Request('http://127.0.0.1/', { method: 'PUT' }))).toBe('PUT');
		expect(methodOf('http://127.0.0.1/')).toBe('GET');
	});
});
