import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';

import { closeLoopbackServer, listenOnLoopback } from './loopback.cjs';
import { PATIENCE_MS } from './patience.cjs';

export interface StubRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	body: unknown;
	at: number;
	/** How many requests had reached the stub when this one was answered (unset until then). */
	answeredAfter?: number;
}

export interface StubResponse {
	status?: number;
	headers?: Record<string, string>;
	/** An object is sent as JSON; a string as is. */
	body?: unknown;
	/** Destroy the socket instead of answering. */
	drop?: boolean;
	delayMs?: number;
	/**
	 * Answer only once this many requests have reached the stub in all (or after PATIENCE_MS): a request proven to
	 * be in flight while others are sent, without a timer that a busy machine could outrun.
	 */
	holdUntil?: number;
}

export interface StubServer {
	url: string;
	requests: StubRequest[];
	/** Queue answers for a path: each request takes the next one; the last one repeats. */
	respond(path: string, ...responses: StubResponse[]): void;
	/**
	 * Answers a path from each request (its body, query or headers), whatever order concurrent requests
	 * arrive in.
	 */
	answer(path: string, by: (request: StubRequest) => StubResponse): void;
	close(): Promise<void>;
}

/**
 * A scripted HTTP server on 127.0.0.1 for transport tests that need exact control over statuses,
 * headers and bodies (the sandbox covers the service's behaviour; this covers the wire).
 */
export async function startStubServer(): Promise<StubServer> {
	const requests: StubRequest[] = [];
	const scripts = new Map<string, StubResponse[]>();
	const answerers = new Map<string, (request: StubRequest) => StubResponse>();
	/** Answers held by `holdUntil`, released as requests arrive. */
	const held: Array<{ until: number; release: () => void }> = [];
	const releaseHeld = () => {
		for (const hold of held.filter((h) => requests.length >= h.until)) {
			held.splice(held.indexOf(hold), 1);
			hold.release();
		}
	};
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const raw = Buffer.concat(chunks).toString('utf8');
			let body: unknown = raw;
			try {
				body = raw ? JSON.parse(raw) : undefined;
			} catch {
				body = raw;
			}
			const request: StubRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				headers: req.headers,
				body,
				at: Date.now(),
			};
			requests.push(request);
			const answerer = answerers.get(url.pathname);
			const queue = (answerer ? [answerer(request)] : scripts.get(url.pathname)) ?? [
				{ status: 404, body: { success: false, message: 'no script', error_code: 'NOT_FOUND' } },
			];
			const answer = queue.length > 1 ? queue.shift()! : queue[0];
			const send = () => {
				request.answeredAfter = requests.length;
				if (answer.drop) {
					req.socket.destroy();
					return;
				}
				const isText = typeof answer.body === 'string';
				res.writeHead(answer.status ?? 200, {
					'content-type': isText ? 'text/html' : 'application/json',
					...(answer.headers ?? {}),
				});
				res.end(
					answer.body === undefined
						? ''
						: isText
							? (answer.body as string)
							: JSON.stringify(answer.body),
				);
			};
			const later = answer.delayMs ? () => setTimeout(send, answer.delayMs) : send;
			if (answer.holdUntil !== undefined && requests.length < answer.holdUntil) {
				const patience = setTimeout(() => {
					held.splice(held.indexOf(hold), 1);
					later();
				}, PATIENCE_MS);
				const hold = {
					until: answer.holdUntil,
					release: () => {
						clearTimeout(patience);
						later();
					},
				};
				held.push(hold);
			} else later();
			releaseHeld();
		});
	});
	const { url } = await listenOnLoopback(server);
	return {
		url,
		requests,
		respond: (path, ...responses) => scripts.set(path, [...responses]),
		answer: (path, by) => answerers.set(path, by),
		close: async () => await closeLoopbackServer(server),
	};
}
