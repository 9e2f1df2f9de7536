import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { closeLoopbackServer, listenOnLoopback } from '../harness/loopback.cjs';
import { PATIENCE_MS } from '../harness/patience.cjs';
import { loadContract } from '../../sandbox/openapi.cjs';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server.cjs';

export const KEY = { 'x-api-key': 'sandbox-key', 'x-api-secret': 'sandbox-secret' };
export const REFRESH_COOKIE = { cookie: 'refresh_token=sandbox-refresh-token' };
export const WEBHOOK_SECRET = 'test-webhook-secret';

export function start(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return startSandbox({
		port: 0,
		quiet: true,
		stepMs: 50,
		webhookSecret: WEBHOOK_SECRET,
		webhookBackoffMs: 20,
		// the sender's schedule compressed: 5 attempts, 20 ms doubling (the default spreads 12 over minutes)
		webhookMaxAttempts: 5,
		keepIdleConnections: true, // test/harness/loopback.cts says why
		...options,
	});
}

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A request to the sandbox; JSON bodies are sent as JSON, strings as they are. */
export async function call(
	sandbox: { url: string },
	method: string,
	path: string,
	options: {
		body?: unknown;
		headers?: Record<string, string>;
		auth?: boolean;
		shape?: 'sample' | 'reference';
		redirect?: 'follow' | 'manual';
	} = {},
): Promise<Reply> {
	const headers: Record<string, string> = {
		...(options.auth === false ? {} : KEY),
		...(options.shape ? { 'x-sandbox-shape': options.shape } : {}),
		...options.headers,
	};
	let body: string | undefined;
	if (options.body !== undefined) {
		body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
		headers['content-type'] ??= 'application/json';
	}
	const response = await fetch(`${sandbox.url}${path}`, {
		method,
		headers,
		body,
		redirect: options.redirect ?? 'follow',
	});
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, text, json };
}

export const api = (path: string) => `/api/v1/services/${path}`;

const contract = loadContract();

/** Asserts a reply matches the response schema the OpenAPI document declares for its operation and status. */
export function expectContract(operationId: string, reply: Reply): void {
	const validate = contract.responseValidator(operationId, reply.status);
	if (!validate)
		throw new Error(
			`${operationId} declares no response for HTTP ${reply.status}: ${reply.text.slice(0, 300)}`,
		);
	const ok = validate(reply.json);
	if (!ok) {
		throw new Error(
			`${operationId} HTTP ${reply.status} does not match the OpenAPI document:\n${JSON.stringify(validate.errors?.slice(0, 5), null, 2)}\nbody: ${reply.text.slice(0, 500)}`,
		);
	}
}

/** Asserts a value matches a named schema of the OpenAPI document (components/schemas). */
export function expectSchema(name: string, value: unknown): void {
	const validate = contract.ajv.getSchema(`https://finverify.sandbox/schemas#/$defs/${name}`);
	if (!validate) throw new Error(`no schema ${name}`);
	if (!validate(value))
		throw new Error(
			`does not match ${name}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 2)}`,
		);
}

export const operationIdOf = (method: string, path: string): string => {
	const op = contract.operations.find((o) => o.method === method && o.path === path);
	if (!op) throw new Error(`no operation ${method} ${path}`);
	return op.operationId;
};

export function verifySignature(
	secret: string,
	headers: IncomingHttpHeaders,
	rawBody: string,
): boolean {
	const expected = `sha256=${createHmac('sha256', secret).update(`${headers['x-webhook-timestamp']}.${rawBody}`).digest('hex')}`;
	return headers['x-webhook-signature'] === expected;
}

export interface Received {
	headers: IncomingHttpHeaders;
	raw: string;
	body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One answer of the receiver: a status (body `ok`), or a status with a JSON body. */
export type Answer = number | { status: number; json: unknown };

/** A tiny webhook receiver on 127.0.0.1; answers with `statuses` in turn, then 200. */
export async function receiver(statuses: Answer[] = []) {
	const received: Received[] = [];
	const waiting: Array<{ count: number; resolve: () => void }> = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
			const answer = statuses.shift() ?? 200;
			if (typeof answer === 'number') {
				res.statusCode = answer;
				res.end('ok');
			} else {
				res.statusCode = answer.status;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify(answer.json));
			}
			for (const w of waiting.filter((x) => received.length >= x.count)) w.resolve();
		});
	});
	const url = `${(await listenOnLoopback(server)).url}/hook`;
	return {
		url,
		received,
		/** Resolves once `count` requests arrived (rejects after `ms`). */
		waitFor(count: number, ms = PATIENCE_MS): Promise<Received[]> {
			if (received.length >= count) return Promise.resolve(received);
			return new Promise((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error(`expected ${count} webhook requests, got ${received.length}`)),
					ms,
				);
				waiting.push({ count, resolve: () => (clearTimeout(timer), resolve(received)) });
			});
		},
		close: async () => await closeLoopbackServer(server),
	};
}

/** Polls `check` until it returns a truthy value. */
export async function eventually<T>(
	check: () => Promise<T | undefined | false>,
	ms = PATIENCE_MS,
): Promise<T> {
	const until = Date.now() + ms;
	for (;;) {
		const value = await check();
		if (value) return value;
		if (Date.now() > until) throw new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, 20));
	}
}

/** Extracts the attribute of the first element matching a simple regex in an HTML page. */
export const formActions = (html: string): string[] =>
	[...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]);
