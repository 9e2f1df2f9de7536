import type { Shape } from '../config.cjs';
import type { Sandbox } from '../context.cjs';

export interface HandlerContext<Body = Record<string, unknown>> {
	sandbox: Sandbox;
	/** The validated JSON body (POST) — its shape is guaranteed by the OpenAPI request schema. */
	body: Body;
	query: Record<string, string>;
	shape: Shape;
	requestId: string;
}

/** Returns the 200 body, or throws an ApiError. Keyed by the OpenAPI operationId. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (ctx: HandlerContext<any>) => unknown;
export type Handlers = Record<string, Handler>;
