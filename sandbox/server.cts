import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { resolveConfig, type SandboxOptions } from './config.cjs';
import { Sandbox } from './context.cjs';
import { errorBody, errorForStatus } from './errors.cjs';
import { registerApiRoutes } from './routes/api.cjs';
import { registerBodyParsers } from './routes/bodies.cjs';
import { registerControl } from './routes/control.cjs';
import { registerPages } from './routes/pages.cjs';
import { registerTraffic } from './routes/traffic.cjs';

export type { SandboxOptions, Shape } from './config.cjs';
export type { Sandbox } from './context.cjs';

export interface RunningSandbox {
	/** `http://127.0.0.1:<port>` */
	url: string;
	port: number;
	/** Live state: journeys, sessions, ITR jobs, request log, webhooks, outbox, faults, keys. */
	state: Sandbox;
	close(): Promise<void>;
}

/** Starts a sandbox (in-process); `port: 0` picks a free port. Options win over SANDBOX_* variables. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const config = resolveConfig(options);
	const sandbox = new Sandbox(config);
	const app = Fastify({
		logger: false,
		forceCloseConnections: true,
		routerOptions: { ignoreTrailingSlash: true },
		bodyLimit: 1024 * 1024,
	});
	// 0: Node never closes an idle connection on a timer; forceCloseConnections ends them at close(). (Fastify's
	// own keepAliveTimeout option reads 0 as "the default".)
	if (config.keepIdleConnections) app.server.keepAliveTimeout = 0;
	await app.register(formbody);
	registerBodyParsers(app);
	registerTraffic(app, sandbox);
	registerApiRoutes(app, sandbox);
	registerPages(app, sandbox);
	registerControl(app, sandbox, Date.now());
	app.setNotFoundHandler(async (request, reply) => {
		const error = errorForStatus(
			404,
			`No route for ${request.method} ${request.url.split('?')[0]}`,
		);
		return reply.code(404).send(errorBody('A', error, ''));
	});

	await app.listen({ port: config.port, host: config.host });
	const address = app.server.address();
	const port = typeof address === 'object' && address ? address.port : config.port;
	const host = config.host.includes(':') ? `[${config.host}]` : config.host;
	const url = `http://${host}:${port}`;
	sandbox.baseUrl = config.publicUrl || url;
	return {
		url,
		port,
		state: sandbox,
		close: async () => {
			sandbox.close();
			await app.close();
		},
	};
}
