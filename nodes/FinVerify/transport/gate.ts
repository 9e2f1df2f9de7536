/**
 * The request gate of one node execution, shared by all its items: what one item learns about the
 * service (the credential is rejected, the service is down, it is rate limiting) holds back every
 * other item, so a wrong key costs one request and an outage or a 429 storm a few, not one per item
 * and retry. Pure policy: time and waiting are injected (unit-tested alone).
 *
 * - The first request goes alone (the probe); the others start once an answer proved that the
 *   credential is accepted and the service works, or once the probe has waited `probeGraceMs`
 *   (0.5 s) for its answer: a rejected credential or a service that is down answers at once, so a
 *   probe still unanswered means the service is at work (a bureau pull takes seconds), and the
 *   others need not wait for it. After a failure the gate goes back to one probe at a time, without
 *   that grace, until an answer proves it again.
 * - 401/403 (the credential or its permissions rejected): the gate stops; no further request.
 * - Connection failures and 5xx: after `failedRoundsToOpen` failed rounds with no good answer
 *   between them (the node: 3, or one item's attempts when Retries is higher), the circuit opens:
 *   the gate stops. Requests already in flight when a round
 *   failed count as that one round.
 * - 429: every item waits out the Retry-After (or the backoff) together; after as many 429 rounds
 *   as one item has attempts (Retries + 1), the gate stops.
 */

import { isCredentialRejection, isErrorEnvelope, parseApiError } from './errors';

/**
 * Failed rounds (connection failures or 5xx, no good answer between) that open the circuit, at
 * least (the node uses one item's attempts when Retries asks for more).
 */
export const FAILED_ROUNDS_TO_OPEN = 3;

/**
 * How long the others wait for the execution's first probe before they start without its answer
 * (a 401 or a refused connection comes within it: one round trip and a TLS handshake).
 */
export const PROBE_GRACE_MS = 500;

export type GateStopReason = 'credentialRejected' | 'serviceUnavailable' | 'rateLimited';

export interface GateStop {
	reason: GateStopReason;
	/** What the last answer was, e.g. "HTTP 503" or "ECONNREFUSED" (never a secret). */
	cause: string;
	/** Rounds that failed before the stop (1 for a rejected credential). */
	rounds: number;
	/** The service's error code and HTTP status of the last answer, when there was one. */
	code?: string;
	httpCode?: number;
}

/** Thrown by `admit` once the gate stopped: no request may be sent any more. */
export class GateStopped extends Error {
	constructor(readonly stop: GateStop) {
		super(`request gate stopped: ${stop.reason}`);
	}
}

/** What went wrong in an attempt: shown in the stop's message, never a secret. */
interface Trouble {
	cause: string;
	code?: string;
	httpCode?: number;
}

export type AttemptOutcome =
	/** Any answer that proves the credential and the service work (2xx, 404, 422...). */
	| { kind: 'answered' }
	| ({ kind: 'rejected' } & Trouble)
	| ({ kind: 'unavailable' } & Trouble)
	| ({ kind: 'rateLimited'; waitMs: number } & Trouble);

export interface GateOptions {
	/** 429 rounds before the gate stops: one item's attempts (Retries + 1). */
	rateLimitedRoundsToStop: number;
	failedRoundsToOpen?: number;
	/** How long the first probe holds the others back without an answer (PROBE_GRACE_MS). */
	probeGraceMs?: number;
	now?: () => number;
	/** Waits the given milliseconds (n8n-workflow's `sleep` in the node). */
	wait: (ms: number) => Promise<void>;
}

/** A promise and its resolve: what waiting requests wait on until the gate's state changes. */
function signal(): { promise: Promise<void>; resolve: () => void } {
	let resolve: () => void = () => {};
	const promise = new Promise<void>((done) => (resolve = done));
	return { promise, resolve };
}

export class RequestGate {
	private proven = false;
	/** The request allowed through while the gate is not proven. */
	private prober: object | undefined;
	/** The first probe's grace: started when it is admitted, over once it waited `probeGraceMs`. */
	private grace: 'unstarted' | 'running' | 'over' = 'unstarted';
	/** Bumped by every failed round; an attempt admitted in an older round reports old news. */
	private round = 0;
	private failedRounds = 0;
	private rateLimitedRounds = 0;
	private pauseUntil = 0;
	private stopped: GateStop | undefined;
	private changed = signal();
	private readonly failedRoundsToOpen: number;
	private readonly probeGraceMs: number;
	private readonly now: () => number;

	constructor(private readonly options: GateOptions) {
		this.failedRoundsToOpen = options.failedRoundsToOpen ?? FAILED_ROUNDS_TO_OPEN;
		this.probeGraceMs = options.probeGraceMs ?? PROBE_GRACE_MS;
		this.now = options.now ?? Date.now;
	}

	/** Why the gate stopped (undefined while it lets requests through). */
	get stop(): GateStop | undefined {
		return this.stopped;
	}

	/**
	 * Resolves when `request` may send its next attempt, with the round it is sent in (hand it to
	 * `record`); throws GateStopped once the gate stopped.
	 */
	async admit(request: object): Promise<number> {
		for (;;) {
			if (this.stopped) throw new GateStopped(this.stopped);
			const pause = this.pauseUntil - this.now();
			if (pause > 0) {
				await this.options.wait(pause);
				continue;
			}
			if (!this.proven && this.prober !== undefined && this.prober !== request) {
				// the execution's first probe, unanswered for the grace: the service is at work (after a
				// failed round there is no grace)
				if (this.grace === 'over' && this.round === 0) return this.round;
				await this.changed.promise;
				continue;
			}
			if (!this.proven && this.prober === undefined) {
				this.prober = request;
				if (this.round === 0 && this.grace === 'unstarted') this.startGrace();
			}
			return this.round;
		}
	}

	/** What an attempt admitted in `round` got. */
	record(round: number, outcome: AttemptOutcome): void {
		if (this.stopped) return;
		const trouble = (reason: GateStopReason, rounds: number): GateStop => {
			const { cause, code, httpCode } = outcome as Trouble;
			return { reason, cause, rounds, code, httpCode };
		};
		switch (outcome.kind) {
			case 'answered':
				// an answer to a request sent before a round failed is old news: it does not prove that
				// the outage or the storm is over (a probe answers that)
				if (round !== this.round) break;
				this.proven = true;
				this.failedRounds = 0;
				this.rateLimitedRounds = 0;
				break;
			case 'rejected':
				this.stopped = trouble('credentialRejected', 1);
				break;
			case 'unavailable':
			case 'rateLimited': {
				this.proven = false;
				const news = round === this.round;
				if (news) this.round++;
				if (outcome.kind === 'rateLimited') {
					this.pauseUntil = Math.max(this.pauseUntil, this.now() + outcome.waitMs);
					if (news) this.rateLimitedRounds++;
					if (this.rateLimitedRounds >= this.options.rateLimitedRoundsToStop) {
						this.stopped = trouble('rateLimited', this.rateLimitedRounds);
					}
				} else {
					if (news) this.failedRounds++;
					if (this.failedRounds >= this.failedRoundsToOpen) {
						this.stopped = trouble('serviceUnavailable', this.failedRounds);
					}
				}
				break;
			}
		}
		this.notify();
	}

	/** One timer for the first probe's grace; when it ends, the requests waiting on the probe look again. */
	private startGrace(): void {
		this.grace = 'running';
		if (!Number.isFinite(this.probeGraceMs)) return;
		void this.options.wait(this.probeGraceMs).then(() => {
			this.grace = 'over';
			this.notify();
		});
	}

	/** `request` is done (answered or failed for good): another request may probe. */
	release(request: object): void {
		if (this.prober !== request) return;
		this.prober = undefined;
		this.notify();
	}

	private notify() {
		const { resolve } = this.changed;
		this.changed = signal();
		resolve();
	}
}

/**
 * What an answer (HTTP status and parsed body) tells the gate; `retryWaitMs` is the wait a 429 asks
 * for (its Retry-After, or the backoff).
 */
export function gateOutcome(status: number, parsed: unknown, retryWaitMs: number): AttemptOutcome {
	const ok = status >= 200 && status < 300;
	const parsedError = !ok || isErrorEnvelope(parsed) ? parseApiError(parsed, status) : undefined;
	const code = parsedError?.code;
	const cause = `HTTP ${status}${code ? ` ${code}` : ''}`;
	if (isCredentialRejection(status, parsed))
		return {
			kind: 'rejected',
			cause: parsedError ? `${cause}: ${parsedError.message}` : cause,
			code,
			httpCode: status,
		};
	if (status === 429)
		return { kind: 'rateLimited', cause, code, httpCode: status, waitMs: retryWaitMs };
	if (status >= 500) return { kind: 'unavailable', cause, code, httpCode: status };
	return { kind: 'answered' };
}
