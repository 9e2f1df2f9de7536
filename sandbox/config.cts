import { DEFAULT_CREDENTIALS, parseKeys, type ApiKey } from './auth.cjs';
import { CLOCK_MODES, type ClockMode } from './state/timers.cjs';
import { DEFAULT_RETRY_POLICY } from './webhooks.cjs';

export type Shape = 'sample' | 'reference';
export const SHAPES: readonly Shape[] = ['sample', 'reference'];

export interface SandboxOptions {
	/** 0 = a random free port. Default `SANDBOX_PORT` or 4010. */
	port?: number;
	/**
	 * Address to listen on. Default `SANDBOX_HOST` or 127.0.0.1 (this machine only); `0.0.0.0` lets n8n
	 * in a Docker container reach it (docs/sandbox.md).
	 */
	host?: string;
	/**
	 * Base of the links the sandbox hands out (report files, journey and collection pages). Default
	 * `SANDBOX_PUBLIC_URL`, or the address it listens on (e.g. http://host.docker.internal:4010 when n8n
	 * runs in Docker).
	 */
	publicUrl?: string;
	/** Default response shape. Default `SANDBOX_SHAPE` or `sample`. */
	shape?: Shape;
	/** Journey/ITR step duration. Default `SANDBOX_STEP_MS` or 2000. */
	stepMs?: number;
	/**
	 * `real` (timers on the wall clock) or `manual` (time moves only through `POST /__sandbox/clock/advance`: the
	 * integration tests). Default `SANDBOX_CLOCK` or `real`.
	 */
	clock?: ClockMode;
	/** Webhook signing secret. Default `SANDBOX_WEBHOOK_SECRET` or `sandbox-webhook-secret`. */
	webhookSecret?: string;
	/** First webhook retry delay; doubles per retry. Default `SANDBOX_WEBHOOK_BACKOFF_MS` or 1000. */
	webhookBackoffMs?: number;
	/** Longest wait between two webhook attempts. Default `SANDBOX_WEBHOOK_MAX_BACKOFF_MS` or 300000 (5 min). */
	webhookMaxBackoffMs?: number;
	/** Webhook attempts in all, the first included. Default `SANDBOX_WEBHOOK_MAX_ATTEMPTS` or 12. */
	webhookMaxAttempts?: number;
	/** A webhook attempt not answered within this time failed. Default `SANDBOX_WEBHOOK_TIMEOUT_MS` or 10000. */
	webhookTimeoutMs?: number;
	/** Journeys not consented within this time expire. Default `SANDBOX_JOURNEY_TTL_S` or 1800 s. */
	journeyTtlMs?: number;
	/** Extra API keys. Default from `SANDBOX_KEYS` (JSON array). */
	keys?: ApiKey[];
	/** Refresh token accepted by collection session create. Default `sandbox-refresh-token`. */
	refreshToken?: string;
	/** No per-request log lines. Default `SANDBOX_QUIET=1` or false. */
	quiet?: boolean;
	/**
	 * Never close an idle keep-alive connection on a timer: the client closes it, or `close()` does. Default false
	 * (Fastify's 72 s). The tests set it, so that a client whose event loop stalls on a busy machine never writes
	 * onto a connection the sandbox has just closed (test/harness/loopback.cts).
	 */
	keepIdleConnections?: boolean;
}

export type SandboxConfig = Required<SandboxOptions>;

const int = (value: string | undefined, name: string): number | undefined => {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0)
		throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
	return n;
};

export function parseShape(value: string | undefined): Shape | undefined {
	const v = value?.trim().toLowerCase();
	return SHAPES.includes(v as Shape) ? (v as Shape) : undefined;
}

function parseClock(value: string | undefined): ClockMode | undefined {
	if (value === undefined || value === '') return undefined;
	const mode = value.trim().toLowerCase() as ClockMode;
	if (!CLOCK_MODES.includes(mode))
		throw new Error(`SANDBOX_CLOCK must be real or manual, got ${JSON.stringify(value)}`);
	return mode;
}

/** Options win over environment variables, which win over defaults. */
export function resolveConfig(
	options: SandboxOptions = {},
	env: NodeJS.ProcessEnv = process.env,
): SandboxConfig {
	if (env.SANDBOX_SHAPE && !parseShape(env.SANDBOX_SHAPE))
		throw new Error(`SANDBOX_SHAPE must be sample or reference, got ${env.SANDBOX_SHAPE}`);
	return {
		port: options.port ?? int(env.SANDBOX_PORT, 'SANDBOX_PORT') ?? 4010,
		host: options.host ?? (env.SANDBOX_HOST?.trim() || '127.0.0.1'),
		publicUrl: (options.publicUrl ?? env.SANDBOX_PUBLIC_URL ?? '').trim().replace(/\/+$/, ''),
		shape: options.shape ?? parseShape(env.SANDBOX_SHAPE) ?? 'sample',
		stepMs: options.stepMs ?? int(env.SANDBOX_STEP_MS, 'SANDBOX_STEP_MS') ?? 2000,
		clock: options.clock ?? parseClock(env.SANDBOX_CLOCK) ?? 'real',
		webhookSecret:
			options.webhookSecret ?? env.SANDBOX_WEBHOOK_SECRET ?? DEFAULT_CREDENTIALS.webhookSecret,
		webhookBackoffMs:
			options.webhookBackoffMs ??
			int(env.SANDBOX_WEBHOOK_BACKOFF_MS, 'SANDBOX_WEBHOOK_BACKOFF_MS') ??
			DEFAULT_RETRY_POLICY.backoffMs,
		webhookMaxBackoffMs:
			options.webhookMaxBackoffMs ??
			int(env.SANDBOX_WEBHOOK_MAX_BACKOFF_MS, 'SANDBOX_WEBHOOK_MAX_BACKOFF_MS') ??
			DEFAULT_RETRY_POLICY.maxBackoffMs,
		webhookMaxAttempts:
			options.webhookMaxAttempts ??
			int(env.SANDBOX_WEBHOOK_MAX_ATTEMPTS, 'SANDBOX_WEBHOOK_MAX_ATTEMPTS') ??
			DEFAULT_RETRY_POLICY.maxAttempts,
		webhookTimeoutMs:
			options.webhookTimeoutMs ??
			int(env.SANDBOX_WEBHOOK_TIMEOUT_MS, 'SANDBOX_WEBHOOK_TIMEOUT_MS') ??
			DEFAULT_RETRY_POLICY.timeoutMs,
		journeyTtlMs:
			options.journeyTtlMs ??
			(int(env.SANDBOX_JOURNEY_TTL_S, 'SANDBOX_JOURNEY_TTL_S') ?? 1800) * 1000,
		keys: options.keys ?? (env.SANDBOX_KEYS ? parseKeys(JSON.parse(env.SANDBOX_KEYS)) : []),
		refreshToken: options.refreshToken ?? DEFAULT_CREDENTIALS.refreshToken,
		quiet: options.quiet ?? (env.SANDBOX_QUIET === '1' || env.SANDBOX_QUIET === 'true'),
		keepIdleConnections: options.keepIdleConnections ?? false,
	};
}
