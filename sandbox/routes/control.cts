import type { FastifyInstance, FastifyReply } from 'fastify';
import { parseKeys } from '../auth.cjs';
import type { Sandbox } from '../context.cjs';
import { ApiError } from '../errors.cjs';
import { parseFault, type Fault } from '../faults.cjs';

type Params<K extends string> = { Params: Record<K, string> };

const fail = (reply: FastifyReply, status: number, message: string) =>
	reply.code(status).send({ error: message });

/** Runs a control action; ApiErrors from the state machines become `{error}` with their status. */
async function guarded(reply: FastifyReply, action: () => unknown): Promise<unknown> {
	try {
		return await action();
	} catch (error) {
		if (error instanceof ApiError) return fail(reply, error.status, error.message);
		throw error;
	}
}

/** The control API under /__sandbox/ (no authentication). */
export function registerControl(app: FastifyInstance, sandbox: Sandbox, startedAt: number): void {
	const clockView = () => ({ mode: sandbox.clock.mode, now_ms: sandbox.clock.now() });
	app.get('/__sandbox/health', async () => ({
		status: 'ok',
		shape: sandbox.config.shape,
		step_ms: sandbox.config.stepMs,
		clock: sandbox.clock.mode,
		uptime_s: Math.round((Date.now() - startedAt) / 1000),
		operations: sandbox.contract.operations.length,
	}));

	app.get('/__sandbox/outbox', async () => ({ messages: sandbox.outbox.list() }));

	app.get<{ Querystring: { path?: string } }>('/__sandbox/requests', async (request) => ({
		requests: sandbox.requests.list(request.query.path),
	}));

	app.get('/__sandbox/webhooks', async () => ({ deliveries: sandbox.webhooks.list() }));

	app.post('/__sandbox/webhooks/hold', async () => {
		sandbox.webhooks.hold();
		return { holding: true };
	});

	app.post('/__sandbox/webhooks/release', async () => {
		sandbox.webhooks.release();
		return { holding: false };
	});

	app.post('/__sandbox/reset', async () => {
		sandbox.reset();
		return { reset: true };
	});

	app.get('/__sandbox/faults', async () => ({ faults: sandbox.faults.list() }));

	app.post('/__sandbox/faults', async (request, reply) => {
		const inputs = Array.isArray(request.body) ? request.body : [request.body];
		const parsed = inputs.map(parseFault);
		const problem = parsed.find((p): p is string => typeof p === 'string');
		if (problem) return fail(reply, 400, problem);
		const added: Fault[] = parsed.map((p) => sandbox.faults.add(p as Exclude<typeof p, string>));
		return reply.code(201).send({ faults: added });
	});

	app.delete('/__sandbox/faults', async () => {
		const cleared = sandbox.faults.list().length;
		sandbox.faults.clear();
		return { cleared };
	});

	app.get('/__sandbox/keys', async () => ({ keys: sandbox.keys.list() }));

	app.post('/__sandbox/keys', async (request, reply) => {
		try {
			sandbox.keys.add(parseKeys(request.body));
		} catch (error) {
			return fail(reply, 400, (error as Error).message);
		}
		return reply.code(201).send({ keys: sandbox.keys.list() });
	});

	app.get('/__sandbox/journeys', async () => ({
		journeys: sandbox.journeys.list().map((j) => ({
			client_id: j.clientId,
			status: j.status,
			webhook_url: j.webhookUrl ?? null,
			created_at: j.createdAt,
		})),
	}));

	app.post<Params<'clientId'> & { Body: { to?: string } | undefined }>(
		'/__sandbox/journeys/:clientId/advance',
		async (request, reply) => {
			const j = sandbox.journeys.get(request.params.clientId);
			if (!j) return fail(reply, 404, `no journey ${request.params.clientId}`);
			return guarded(reply, () => {
				sandbox.journeys.advance(j, request.body?.to);
				return { client_id: j.clientId, status: j.status };
			});
		},
	);

	app.get('/__sandbox/clock', async () => clockView());

	app.post<{ Body: { ms?: unknown } | undefined }>(
		'/__sandbox/clock/advance',
		async (request, reply) => {
			const ms = request.body?.ms ?? sandbox.config.stepMs;
			if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0)
				return fail(reply, 400, 'ms must be a non-negative integer (milliseconds)');
			if (sandbox.clock.mode !== 'manual')
				return fail(reply, 409, 'the clock is real (start the sandbox with clock: manual)');
			const fired = sandbox.clock.advance(ms);
			return { ...clockView(), fired };
		},
	);

	app.post<Params<'sessionId'> & { Body: { status?: string } | undefined }>(
		'/__sandbox/sessions/:sessionId/status',
		async (request, reply) => {
			const s = sandbox.sessions.get(request.params.sessionId);
			if (!s) return fail(reply, 404, `no session ${request.params.sessionId}`);
			if (typeof request.body?.status !== 'string') return fail(reply, 400, 'status is required');
			const status = request.body.status;
			return guarded(reply, () => {
				sandbox.sessions.force(s, status);
				return { session_id: s.sessionId, status: s.status };
			});
		},
	);
}
