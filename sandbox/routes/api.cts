import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Sandbox } from '../context.cjs';
import { parseCookies } from '../cookies.cjs';
import { ApiError, errorBody, errorForStatus } from '../errors.cjs';
import { bureauHandlers } from '../handlers/bureau.cjs';
import { collectionHandlers } from '../handlers/collection.cjs';
import { corporateHandlers } from '../handlers/corporate.cjs';
import { epfoHandlers } from '../handlers/epfo.cjs';
import { itrHandlers } from '../handlers/itr.cjs';
import { journeyHandlers } from '../handlers/journey.cjs';
import type { Handlers } from '../handlers/types.cjs';
import type { Operation } from '../openapi.cjs';
import { MALFORMED_BODY, NOT_JSON_BODY } from './bodies.cjs';

const HANDLERS: Handlers = {
	...bureauHandlers,
	...corporateHandlers,
	...epfoHandlers,
	...itrHandlers,
	...journeyHandlers,
	...collectionHandlers,
};

declare module 'fastify' {
	interface FastifyContextConfig {
		/** The OpenAPI operation a route serves (API routes only). */
		operation?: Operation;
	}
}

/** One route per OpenAPI operation: credentials → permission → request validation → handler. */
export function registerApiRoutes(app: FastifyInstance, sandbox: Sandbox): void {
	for (const op of sandbox.contract.operations) {
		const handler = HANDLERS[op.operationId];
		if (!handler) throw new Error(`No sandbox handler for operation ${op.operationId}`);
		app.route({
			method: op.method,
			url: op.path,
			config: { operation: op },
			handler: async (request: FastifyRequest, reply: FastifyReply) => {
				const requestId = `req_${randomUUID()}`;
				reply.header('x-request-id', requestId);
				try {
					sandbox.keys.authorize(op, request.headers, parseCookies(request.headers.cookie));
					const input = op.method === 'GET' ? request.query : jsonBody(request.body);
					op.validate(input);
					const body = await handler({
						sandbox,
						body: input,
						query: request.query as Record<string, string>,
						shape: sandbox.shapeOf(request.headers['x-sandbox-shape']),
						requestId,
					});
					return await reply.code(200).send(body);
				} catch (error) {
					return await sendError(reply, op, error, requestId);
				}
			},
		});
	}
}

function jsonBody(body: unknown): unknown {
	if (body === MALFORMED_BODY)
		throw new ApiError(400, 'INVALID_INPUT', 'The request body is not valid JSON');
	if (body === NOT_JSON_BODY)
		throw new ApiError(400, 'INVALID_INPUT', 'Content-Type must be application/json');
	return body;
}

/** Sends an error in the operation's envelope variant; unexpected failures become 500. */
export async function sendError(
	reply: FastifyReply,
	op: Operation,
	error: unknown,
	requestId = `req_${randomUUID()}`,
): Promise<FastifyReply> {
	let apiError: ApiError;
	if (error instanceof ApiError) apiError = error;
	else {
		console.error('[sandbox] unexpected error', error);
		apiError = errorForStatus(500);
	}
	return await reply
		.code(apiError.status)
		.headers(apiError.extra.headers ?? {})
		.send(errorBody(op.variant, apiError, requestId));
}
