import { DEFAULT_CREDENTIALS, parseKeys, type ApiKey } from './auth.cjs';
import { DEFAULT_RETRY_POLICY } from './webhooks.cjs';

export type Shape = 'sample' | 'reference';
export const SHAPES: readonly Shape[] = ['sample', 'reference'];

export interface SandboxOptions {
	/** 0 = a random free port. Default `SANDBOX_PORT` or 4010. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Default response shape. Default `SANDBOX_SHAPE` or `sample`. */
	shape?: Shape;
	/** Journey/ITR step duration. Default `SANDBOX_STEP_MS` or 2000. */
	stepMs?: number;
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

/** Options win over environment variables, which win over defaults. */
export function resolveConfig(
	options: SandboxOptions = {},
	env: NodeJS.ProcessEnv = process.env,
): SandboxConfig {
	if (env.SANDBOX_SHAPE && !parseShape(env.SANDBOX_SHAPE))
		throw new Error(`SANDBOX_SHAPE must be sample or reference, got ${env.SANDBOX_SHAPE}`);
	return {
		port: options.port ?? int(env.SANDBOX_PORT, 'SANDBOX_PORT') ?? 4010,
		host: options.host ?? '127.0.0.1',
		shape: options.shape ?? parseShape(env.SANDBOX_SHAPE) ?? 'sample',
		stepMs: options.stepMs ?? int(env.SANDBOX_STEP_MS, 'SANDBOX_STEP_MS') ?? 2000,
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
	};
}
