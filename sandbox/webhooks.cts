import { createHmac, randomUUID } from 'node:crypto';

export const MAX_ATTEMPTS = 5;
const ATTEMPT_TIMEOUT_MS = 5000;

export interface Attempt {
	attempt: number;
	at: string;
	status: number | null;
	error?: string;
	ms: number;
}

export interface Delivery {
	id: string;
	event: string;
	url: string;
	subject: string;
	status: 'pending' | 'delivered' | 'failed';
	attempts: Attempt[];
	payload: unknown;
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` */
export function sign(secret: string, timestamp: string, rawBody: string): string {
	return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * Signed webhook delivery with retries. Events of one subject (a journey, a session) are delivered in
 * order: the next waits until the previous one was delivered or gave up.
 */
export class Webhooks {
	private deliveries: Delivery[] = [];
	private queues = new Map<string, Promise<void>>();
	private timers = new Map<NodeJS.Timeout, () => void>();
	private generation = 0;

	constructor(
		private readonly secret: string,
		private readonly backoffMs: number,
		private readonly onAttempt: (d: Delivery, a: Attempt) => void = () => {},
	) {}

	/**
	 * Queues one event. Its id is the body's first field `"id"` (covered by the signature, the same on
	 * every retry) and is repeated in X-Webhook-Id; receivers deduplicate on the signed body id.
	 */
	send(subject: string, url: string, event: string, payload: unknown): Delivery {
		const id = `wh_${randomUUID()}`;
		const delivery: Delivery = {
			id,
			event,
			url,
			subject,
			status: 'pending',
			attempts: [],
			payload:
				typeof payload === 'object' && payload !== null && !Array.isArray(payload)
					? { id, ...(payload as Record<string, unknown>) }
					: payload,
		};
		this.deliveries.push(delivery);
		const generation = this.generation;
		const previous = this.queues.get(subject) ?? Promise.resolve();
		const next = previous.then(() => this.deliver(delivery, generation));
		this.queues.set(subject, next);
		void next.finally(() => {
			if (this.queues.get(subject) === next) this.queues.delete(subject);
		});
		return delivery;
	}

	list(): Delivery[] {
		return [...this.deliveries];
	}

	/** Forgets every delivery and stops pending retries. */
	clear(): void {
		this.generation++;
		for (const [t, resolve] of this.timers) {
			clearTimeout(t);
			resolve();
		}
		this.timers.clear();
		this.deliveries = [];
		this.queues.clear();
	}

	/** Resolves when every queued delivery has finished (delivered or given up). */
	async idle(): Promise<void> {
		while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
	}

	private async deliver(d: Delivery, generation: number): Promise<void> {
		const rawBody = JSON.stringify(d.payload);
		for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			if (generation !== this.generation) return;
			const timestamp = String(Math.floor(Date.now() / 1000));
			const started = Date.now();
			const record: Attempt = { attempt, at: new Date(started).toISOString(), status: null, ms: 0 };
			try {
				const response = await fetch(d.url, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'user-agent': 'FinVerify-Sandbox-Webhooks/1.0',
						'x-webhook-event': d.event,
						'x-webhook-id': d.id,
						'x-webhook-timestamp': timestamp,
						'x-webhook-signature': sign(this.secret, timestamp, rawBody),
					},
					body: rawBody,
					redirect: 'manual',
					signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
				});
				await response.arrayBuffer().catch(() => undefined);
				record.status = response.status;
			} catch (error) {
				const cause = (error as { cause?: unknown }).cause;
				record.error = String(cause ?? error);
			}
			record.ms = Date.now() - started;
			if (generation !== this.generation) return;
			d.attempts.push(record);
			this.onAttempt(d, record);
			if (record.status !== null && record.status >= 200 && record.status < 300) {
				d.status = 'delivered';
				return;
			}
			if (attempt < MAX_ATTEMPTS) await this.wait(this.backoffMs * 2 ** (attempt - 1));
		}
		d.status = 'failed';
	}

	private wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const t = setTimeout(() => {
				this.timers.delete(t);
				resolve();
			}, ms);
			t.unref();
			this.timers.set(t, resolve);
		});
	}
}
