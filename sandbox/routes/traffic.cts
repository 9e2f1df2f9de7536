import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Sandbox } from '../context.cjs';
import { errorBody, errorForStatus } from '../errors.cjs';
import type { Fault } from '../faults.cjs';
import { redactUrl, type LoggedRequest } from '../requestLog.cjs';

declare module 'fastify' {
	interface FastifyRequest {
		sandboxLog?: LoggedRequest;
		sandboxStart?: bigint;
	}
}

const isControl = (url: string) => url.startsWith('/__sandbox/');
const pathOf = (url: string) => url.split('?')[0];
const elapsedMs = (request: FastifyRequest) =>
	request.sandboxStart ? Number((process.hrtime.bigint() - request.sandboxStart) / 1_000_000n) : 0;

const BAD_GATEWAY_HTML =
	'<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';
const MALFORMED_JSON = '{"success": true, "data": {"status": "ok", "items": [1, 2,';

/**
 * Request log, per-request console line and injected faults for every path except the control API.
 * Faults run before authentication, so they also hit requests with bad credentials.
 */
export function registerTraffic(app: FastifyInstance, sandbox: Sandbox): void {
	const line = (request: FastifyRequest, status: number | string) => {
		if (!sandbox.config.quiet)
			process.stdout.write(
				`[sandbox] ${request.method} ${redactUrl(request.url)} ${status} ${elapsedMs(request)}ms\n`,
			);
	};

	app.addHook('onRequest', async (request) => {
		request.sandboxStart = process.hrtime.bigint();
	});

	app.addHook('preHandler', async (request, reply) => {
		if (isControl(request.url)) return;
		const path = pathOf(request.url);
		request.sandboxLog = sandbox.requests.add({
			method: request.method,
			path,
			query: { ...(request.query as Record<string, unknown>) },
			headers: { ...request.headers },
			body: typeof request.body === 'symbol' ? String(request.body.description) : request.body,
		});
		const fault = sandbox.faults.take(request.method, path);
		if (!fault) return;
		request.sandboxLog.fault = describe(fault);
		if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
		if (fault.drop) {
			reply.hijack();
			request.raw.socket.destroy();
			line(request, 'dropped');
			return reply;
		}
		if (fault.timeout) {
			reply.hijack();
			request.raw.once('close', () => line(request, 'timed out'));
			return reply;
		}
		if (fault.retryAfter !== undefined) reply.header('retry-after', String(fault.retryAfter));
		if (fault.html)
			return reply
				.code(fault.status ?? 502)
				.type('text/html')
				.send(BAD_GATEWAY_HTML);
		if (fault.malformed)
			return reply
				.code(fault.status ?? 200)
				.type('application/json')
				.send(MALFORMED_JSON);
		if (fault.body !== undefined)
			return reply
				.code(fault.status ?? 200)
				.type('application/json')
				.send(JSON.stringify(fault.body));
		if (fault.status !== undefined) return sendStatus(request, reply, fault.status);
		return undefined; // latency only: carry on
	});

	app.addHook('onResponse', async (request, reply) => {
		if (request.sandboxLog) {
			request.sandboxLog.status = reply.statusCode;
			request.sandboxLog.ms = elapsedMs(request);
		}
		if (!isControl(request.url)) line(request, reply.statusCode);
	});
}

/** A bare status fault answers with the operation's own error envelope (plain JSON elsewhere). */
function sendStatus(request: FastifyRequest, reply: FastifyReply, status: number) {
	const op = request.routeOptions.config.operation;
	const error = errorForStatus(status);
	if (status < 400) return reply.code(status).send({ injected: true, status });
	return reply
		.code(status)
		.send(
			op
				? errorBody(op.variant, error, `req_fault_${Date.now()}`)
				: { error: error.message, error_code: error.code },
		);
}

const describe = (f: Fault) =>
	[
		f.drop && 'drop',
		f.timeout && 'timeout',
		f.html && 'html',
		f.malformed && 'malformed',
		f.body !== undefined && 'body',
		f.status && `status ${f.status}`,
		f.latencyMs && `latency ${f.latencyMs}ms`,
	]
		.filter(Boolean)
		.join(', ');
