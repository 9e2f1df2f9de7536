import type { IDataObject } from 'n8n-workflow';

import { PATIENCE_MS } from './patience.cjs';

export type Shape = 'sample' | 'reference';

export const SANDBOX_KEYS = {
	apiKey: 'sandbox-key',
	apiSecret: 'sandbox-secret',
	refreshToken: 'sandbox-refresh-token',
	webhookSecret: 'sandbox-webhook-secret',
};

/** Decrypted `finVerifyApi` credential data pointing at a sandbox. */
export function sandboxCredentials(url: string, overrides: IDataObject = {}) {
	return {
		finVerifyApi: { environment: 'sandbox', sandboxUrl: url, ...SANDBOX_KEYS, ...overrides },
	};
}

export interface SandboxHandle {
	url: string;
	port: number;
	close(): Promise<void>;
}

/**
 * Starts the sandbox in-process on a random loopback port. Its clock is manual unless `clock: 'real'`: journeys,
 * ITR jobs and sessions move only when the test advances the clock (`control.advanceClock`), so no test races a
 * timer. The e2e suites, where the real n8n app waits for the sandbox's
 * webhooks, use the real clock.
 */
export async function startTestSandbox(
	options: {
		shape?: Shape;
		stepMs?: number;
		webhookSecret?: string;
		clock?: 'real' | 'manual';
		/** The webhook sender's retry schedule (sandbox/webhooks.cts; defaults spread 12 attempts over minutes). */
		webhookBackoffMs?: number;
		webhookMaxBackoffMs?: number;
		webhookMaxAttempts?: number;
		webhookTimeoutMs?: number;
	} = {},
) {
	// loaded lazily so suites that do not need the sandbox do not pay for it
	const { startSandbox } = (await import('../../sandbox/server.cjs')) as {
		startSandbox: (o: IDataObject) => Promise<SandboxHandle>;
	};
	const sandbox = await startSandbox({
		port: 0,
		host: '127.0.0.1',
		quiet: true,
		stepMs: 50,
		clock: 'manual',
		keepIdleConnections: true, // test/harness/loopback.cts says why
		// an attempt on a busy machine is slow, not lost: never a failed attempt for its time (tests of the
		// timeout set their own)
		webhookTimeoutMs: 600_000,
		...options,
	});
	return Object.assign(sandbox, { control: new SandboxControl(sandbox.url) });
}

/** One webhook delivery of the sandbox (`GET /__sandbox/webhooks`). */
export interface WebhookDelivery {
	id: string;
	event: string;
	url: string;
	subject: string;
	status: 'pending' | 'delivered' | 'failed';
	attempts: Array<{ status: number | null }>;
	payload: IDataObject;
}

export interface LoggedRequest extends IDataObject {
	method: string;
	path: string;
	status: number;
}

/** Client of the sandbox's control API (/__sandbox/). */
export class SandboxControl {
	constructor(readonly url: string) {}

	private async call(method: string, path: string, body?: unknown) {
		const response = await fetch(`${this.url}/__sandbox/${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox ${method} ${path}: HTTP ${response.status} ${text}`);
		return text ? JSON.parse(text) : undefined;
	}

	/** The request log, optionally only requests whose path contains `pathPart`. */
	async requests(pathPart?: string): Promise<LoggedRequest[]> {
		const body = await this.call('GET', 'requests');
		const list = (Array.isArray(body) ? body : (body?.requests ?? [])) as LoggedRequest[];
		return pathPart ? list.filter((r) => String(r.path ?? r.url).includes(pathPart)) : list;
	}

	async reset() {
		return await this.call('POST', 'reset');
	}

	async fault(fault: IDataObject) {
		return await this.call('POST', 'faults', fault);
	}

	async clearFaults() {
		return await this.call('DELETE', 'faults');
	}

	async outbox(): Promise<IDataObject[]> {
		const body = await this.call('GET', 'outbox');
		return Array.isArray(body) ? body : (body?.messages ?? body?.outbox ?? []);
	}

	async webhooks(): Promise<IDataObject[]> {
		const body = await this.call('GET', 'webhooks');
		return Array.isArray(body) ? body : (body?.deliveries ?? body?.webhooks ?? []);
	}

	/** Withholds every webhook attempt until `releaseWebhooks()` (callbacks lost for a while, then late). */
	async holdWebhooks() {
		return await this.call('POST', 'webhooks/hold');
	}

	/** Lets the withheld webhook attempts go. */
	async releaseWebhooks() {
		return await this.call('POST', 'webhooks/release');
	}

	/**
	 * Waits until at least `count` webhook deliveries (those for `subject`, a journey's client_id or a session's id,
	 * when given) are finished, delivered or given up, and none is in flight. A manual clock moves one step each time
	 * it looks (journeys move on, retries come due). Fails after PATIENCE_MS naming what it saw.
	 */
	async settledDeliveries(count: number, subject?: string): Promise<WebhookDelivery[]> {
		const deadline = Date.now() + PATIENCE_MS;
		for (;;) {
			const list = ((await this.webhooks()) as unknown as WebhookDelivery[]).filter(
				(d) => subject === undefined || d.subject === subject,
			);
			const finished = list.filter((d) => d.status !== 'pending');
			if (finished.length >= count && finished.length === list.length) return list;
			if (Date.now() > deadline)
				throw new Error(
					`expected ${count} finished deliveries${subject ? ` for ${subject}` : ''}, have ` +
						JSON.stringify(list.map((d) => [d.event, d.status])),
				);
			await this.advanceClock();
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
	}

	async advanceJourney(clientId: string, to?: string) {
		return await this.call('POST', `journeys/${clientId}/advance`, to ? { to } : {});
	}

	/** Moves a manual clock by `ms` (default: one step), firing the timers due on the way. */
	async advanceClock(ms?: number): Promise<{ mode: string; now_ms: number; fired: number }> {
		return await this.call('POST', 'clock/advance', ms === undefined ? {} : { ms });
	}

	async setSessionStatus(sessionId: string, status: string) {
		return await this.call('POST', `sessions/${sessionId}/status`, { status });
	}
}
