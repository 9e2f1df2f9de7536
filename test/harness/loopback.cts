import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts a test's HTTP server on 127.0.0.1 (a free port), leaving idle keep-alive connections to the client.
 *
 * Why: Node's fetch (undici) retires an idle connection by a clock that advances 499 ms per tick of its timer,
 * not by real time. When the test process's event loop stalls (all cores busy, hundreds of executions in the
 * process), that clock falls behind: the client still counts a connection as fresh after the server's
 * keepAliveTimeout (Node's 5 s, on the real clock) has closed it, and a request written as the server's FIN
 * arrives is answered with a reset: "fetch failed", cause "read ECONNRESET" (reproduced with the 300-delivery
 * test of test/integration/trigger.deliveries.test.cts on a stalled loop). A server that never closes an idle
 * connection on a timer leaves that decision to the client alone, so there is nothing to race; closing the
 * server (`closeLoopbackServer`) ends them all.
 */
export async function listenOnLoopback(server: Server): Promise<{ url: string; port: number }> {
	server.keepAliveTimeout = 0;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, port };
}

/** Closes a server started by `listenOnLoopback`, with its open connections. */
export async function closeLoopbackServer(server: Server): Promise<void> {
	const closed = new Promise<void>((resolve) => server.close(() => resolve()));
	server.closeAllConnections();
	await closed;
}
