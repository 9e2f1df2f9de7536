import { createHmac, randomUUID } from 'node:crypto';

/**
 * How the sender retries, like a real webhook service: exponential backoff from `backoffMs`, doubling per
 * attempt up to `maxBackoffMs`, plus up to 25% random jitter (so a burst of failed deliveries does not come
 * back as one burst), and a `Retry-After` answer (seconds) waited out when it asks for longer. The defaults
 * spread 12 attempts over about 20 minutes; tests compress the time with smaller values.
 */
export interface RetryPolicy {
	/** First retry delay. */
	backoffMs: number;
	/** Longest delay between two attempts. */
	maxBackoffMs: number;
	/** Attempts in all, the first one included. */
	maxAttempts: number;
	/** An attempt not answered within this time counts as failed. */
	timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	backoffMs: 1000,
	maxBackoffMs: 300_000,
	maxAttempts: 12,
	timeoutMs: 10_000,
};

/**
 * The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed: `backoffMs` × 2^(attempt-1),
 * at most `maxBackoffMs`, or the answer's Retry-After when longer (also at most `maxBackoffMs`), plus
 * `jitter` (0..1) × 25%.
 */
export function retryDelayMs(
	policy: Pick<RetryPolicy, 'backoffMs' | 'maxBackoffMs'>,
	attempt: number,
	retryAfterMs = 0,
	jitter = Math.random(),
): number {
	const exponential = Math.min(policy.backoffMs * 2 ** (attempt - 1), policy.maxBackoffMs);
	const base = Math.max(exponential, Math.min(retryAfterMs, policy.maxBackoffMs));
	return Math.round(base * (1 + 0.25 * jitter));
}

/** A Retry-After header in milliseconds (seconds or an HTTP date); 0 when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs = Date.now()): number {
	if (!value) return 0;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? 0 : Math.max(0, date - nowMs);
}

export interface Attempt {
	attempt: number;
	at: string;
	status: number | null;
	error?: string;
	/** What the receiver said with a non-2xx answer: its JSON `message`, else its text (at most 200 characters). */
	message?: string;
	ms: number;
	/** Wait before the next attempt (absent after the last one). */
	nextInMs?: number;
}

/**
 * How a delivered event ended: `accepted` (the receiver answered 2xx), or `finished` (n8n answered 409: the
 * execution whose resume URL this is has finished, so nothing waits there and every retry would get the same
 * answer; see `executionFinished`).
 */
export type DeliveryOutcome = 'accepted' | 'finished';

export interface Delivery {
	id: string;
	event: string;
	url: string;
	subject: string;
	status: 'pending' | 'delivered' | 'failed';
	/** Set once delivered. */
	outcome?: DeliveryOutcome;
	attempts: Attempt[];
	payload: unknown;
}

/**
 * n8n's answer on the resume URL (`/webhook-waiting/<id>`) of an execution that no longer waits because it has
 * finished: 409 `The execution "<id> has finished already.` or `… has finished with error.` (n8n 2.41.1
 * dist/webhooks/waiting-webhooks.js; 1.x says "has finished already." for both). The event was for that
 * execution, and it can no longer take it: the delivery is over, not failed. n8n's other 409, `… is running
 * already.`, is retried like any failure: a running execution may wait again (a two-step Wait for Journey, a
 * resume still under way) and take a later attempt.
 */
export function executionFinished(status: number | null, message: string | undefined): boolean {
	return status === 409 && typeof message === 'string' && /\bhas finished\b/.test(message);
}

/** The receiver's message in a non-2xx answer: the JSON body's `message`, else the text, at most 200 characters. */
function answerMessage(text: string): string | undefined {
	let message = text;
	try {
		const body = JSON.parse(text) as unknown;
		if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
			const value = (body as Record<string, unknown>).message;
			if (typeof value === 'string') message = value;
		}
	} catch {
		// not JSON: the text itself
	}
	message = message.trim();
	return message ? message.slice(0, 200) : undefined;
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` */
export function sign(secret: string, timestamp: string, rawBody: string): string {
	return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * Signed webhook delivery with retries. Events of one subject (a journey, a session) are delivered in
 * order: the next waits until the previous one was delivered or gave up. Delivered means a 2xx answer
 * (`outcome: 'accepted'`) or n8n's 409 for an execution that has finished (`outcome: 'finished'`); anything
 * else (another status, no answer in time, no connection) is retried with backoff until the last attempt.
 */
export class Webhooks {
	private deliveries: Delivery[] = [];
	private queues = new Map<string, Promise<void>>();
	private timers = new Map<NodeJS.Timeout, () => void>();
	private generation = 0;
	/** While set, no attempt is made: deliveries stay pending until `release()` (lost or late callbacks). */
	private held: { until: Promise<void>; release: () => void } | null = null;

	constructor(
		private readonly secret: string,
		private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
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

	/**
	 * Withholds every attempt from now on (queued events and retries alike stay pending), as a sender that lost
	 * its callbacks for a while: the receiver hears nothing until `release()`, then gets them late.
	 */
	hold(): void {
		if (this.held) return;
		let release = () => {};
		const until = new Promise<void>((resolve) => (release = resolve));
		this.held = { until, release };
	}

	/** Lets the withheld attempts go (in order per subject, as always). */
	release(): void {
		const held = this.held;
		this.held = null;
		held?.release();
	}

	/** Whether attempts are withheld now. */
	get holding(): boolean {
		return this.held !== null;
	}

	/** Forgets every delivery and stops pending retries. */
	clear(): void {
		this.generation++;
		this.release();
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
		const { maxAttempts, timeoutMs } = this.policy;
		for (let attempt = 1; attempt <= maxAttempts; attempt++) {
			while (this.held) await this.held.until;
			if (generation !== this.generation) return;
			const timestamp = String(Math.floor(Date.now() / 1000));
			const started = Date.now();
			const record: Attempt = { attempt, at: new Date(started).toISOString(), status: null, ms: 0 };
			let retryAfter = 0;
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
					signal: AbortSignal.timeout(timeoutMs),
				});
				const text = await response.text().catch(() => '');
				record.status = response.status;
				if (response.status < 200 || response.status >= 300) {
					const message = answerMessage(text);
					if (message !== undefined) record.message = message;
				}
				retryAfter = retryAfterMs(response.headers.get('retry-after'));
			} catch (error) {
				const cause = (error as { cause?: unknown }).cause;
				record.error = String(cause ?? error);
			}
			record.ms = Date.now() - started;
			if (generation !== this.generation) return;
			const accepted = record.status !== null && record.status >= 200 && record.status < 300;
			const outcome: DeliveryOutcome | undefined = accepted
				? 'accepted'
				: executionFinished(record.status, record.message)
					? 'finished'
					: undefined;
			if (!outcome && attempt < maxAttempts)
				record.nextInMs = retryDelayMs(this.policy, attempt, retryAfter);
			d.attempts.push(record);
			if (outcome) {
				d.status = 'delivered';
				d.outcome = outcome;
			}
			this.onAttempt(d, record);
			if (outcome) return;
			if (record.nextInMs !== undefined) await this.wait(record.nextInMs);
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
