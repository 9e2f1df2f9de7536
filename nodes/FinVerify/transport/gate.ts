/**
 * The request gate of one node execution, shared by all its items: what the items learn about the
 * service (the credential is rejected, the service is down, it is rate limiting) holds back every
 * other item, so a wrong key costs one request and an outage or a 429 storm a few, not one per item
 * and retry; and what one record answers about itself stays that record's error. Pure policy: time,
 * waiting and the credential check are injected (unit-tested alone).
 *
 * - Until an answer proves the service, one request goes at a time (the probe). The execution's
 *   first probe holds the others back until an answer proves the credential and the service: its
 *   own, or, when it is still unanswered after `probeGraceMs` (0.5 s: a bureau pull takes seconds),
 *   the credential check's, sent then for the others. So what a wrong key or an outage costs does
 *   not depend on how fast the first answer comes (one request, and the free check; a check that
 *   gets no answer of the service proves nothing and the others keep waiting for the probe, which
 *   its attempt's deadline, the node's Timeout, bounds), and a healthy service that takes seconds
 *   costs the others the grace and the check, not the probe's whole answer. After a failed round
 *   the probe goes alone again, without that grace, until an answer proves the service.
 * - A refused answer (401/403, or an envelope saying UNAUTHORIZED, FORBIDDEN, PERMISSION_DENIED or
 *   status_code 401/403) may concern that record alone. The gate confirms it once per execution with
 *   the credential check (the credential Test's free request), holding back every new request
 *   meanwhile: only a check that is refused too stops the gate; otherwise the answer is that
 *   record's error.
 * - Connection failures and 5xx: the circuit opens after `failedRoundsToOpen` failed rounds that hit
 *   at least `distinctItemsToStop` different items, with no good answer between them: one item's
 *   retries never open it alone. Requests already in flight when a round failed count as that one
 *   round. An item that failed before another item was answered fails on its own from then on: its
 *   further failures neither hold back nor count.
 * - 429: every item waits out the Retry-After (or the backoff) together, then one item probes
 *   (another item than those that got the 429, when one is waiting); the gate stops after
 *   `rateLimitedRoundsToStop` rounds of 429 that hit at least `distinctItemsToStop` different items
 *   in a row. A record's own 429 (after another item was answered) makes that item wait alone.
 */

import type { CredentialVerdict } from './errors';
import { isCredentialRejection, isErrorEnvelope, parseApiError } from './errors';

/**
 * Failed rounds (connection failures or 5xx, no good answer between) that open the circuit, at
 * least (the node uses one item's attempts when Retries asks for more).
 */
export const FAILED_ROUNDS_TO_OPEN = 3;

/**
 * Different items whose failures (or 429s), in a row with no good answer between, the circuit (or
 * the rate-limit stop) needs besides its rounds: one record's own trouble never stops the others.
 */
export const DISTINCT_ITEMS_TO_STOP = 3;

/**
 * How long the execution's first probe may go unanswered before the credential check is sent for the
 * requests waiting on it (a 401 or a refused connection comes within it: one round trip and a TLS
 * handshake).
 */
export const PROBE_GRACE_MS = 500;

/**
 * Credential checks one execution sends at most: a decisive answer is kept for the execution; a
 * check that got no answer of the service (5xx, 429, a network failure) may be sent again.
 */
export const MAX_CREDENTIAL_CHECKS = 3;

export type GateStopReason = 'credentialRejected' | 'serviceUnavailable' | 'rateLimited';

export interface GateStop {
	reason: GateStopReason;
	/** What the last answer was, e.g. "HTTP 503" or "ECONNREFUSED" (never a secret). */
	cause: string;
	/** Rounds that failed before the stop (1 for a rejected credential). */
	rounds: number;
	/** Different items those rounds hit. */
	items?: number;
	/** The service's error code and HTTP status of the last answer, when there was one. */
	code?: string;
	httpCode?: number;
	/** A rejected credential: what the credential check answered (e.g. "HTTP 401 UNAUTHORIZED"). */
	confirmedBy?: string;
}

/** Thrown by `admit` once the gate stopped: no request may be sent any more. */
export class GateStopped extends Error {
	constructor(readonly stop: GateStop) {
		super(`request gate stopped: ${stop.reason}`);
	}
}

/** What went wrong in an attempt: shown in the stop's message, never a secret. */
export interface Trouble {
	cause: string;
	code?: string;
	httpCode?: number;
}

export type AttemptOutcome =
	/** Any answer that proves the credential and the service work (2xx, 404, 422...). */
	| { kind: 'answered' }
	/** The credential or its permissions refused: to be confirmed (`confirmRejection`). */
	| ({ kind: 'rejected' } & Trouble)
	| ({ kind: 'unavailable' } & Trouble)
	| ({ kind: 'rateLimited'; waitMs: number } & Trouble);

/** What the credential check answered (`cause` e.g. "HTTP 404 NOT_FOUND", never a secret). */
export interface CredentialCheck {
	verdict: CredentialVerdict;
	cause: string;
	/** The service's message, code and HTTP status, when it answered (never a secret). */
	message?: string;
	code?: string;
	httpCode?: number;
}

export interface GateOptions {
	/** 429 rounds before the gate stops: one item's attempts (Retries + 1). */
	rateLimitedRoundsToStop: number;
	failedRoundsToOpen?: number;
	/** DISTINCT_ITEMS_TO_STOP unless given. */
	distinctItemsToStop?: number;
	/**
	 * Sends the credential check (also settable later: `useCredentialCheck`). Without one, a refused
	 * answer is taken at its word: the gate stops.
	 */
	checkCredential?: () => Promise<CredentialCheck>;
	/** How long the first probe goes unanswered before the check is sent (PROBE_GRACE_MS). */
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

/** Whatever names an item (its index in the node); a request without one is its own item. */
type Item = unknown;

export class RequestGate {
	private proven = false;
	/** The request allowed through while the gate is not proven. */
	private prober: object | undefined;
	/** Bumped by every failed round; an attempt admitted in an older round reports old news. */
	private round = 0;
	private failedRounds = 0;
	private rateLimitedRounds = 0;
	/** The items the current streak of failed (429) rounds hit. */
	private readonly failedItems = new Set<Item>();
	private readonly rateLimitedItems = new Set<Item>();
	/** Items that failed before another item was answered: their failures are their own. */
	private readonly ownTrouble = new Set<Item>();
	private readonly ownPauseUntil = new Map<Item, number>();
	private readonly itemOf = new WeakMap<object, Item>();
	/** Requests waiting in `admit`, with their item. */
	private readonly waiting = new Map<object, Item>();
	private pauseUntil = 0;
	private stopped: GateStop | undefined;
	private changed = signal();
	/** Refused answers waiting for the credential check: nothing new is admitted meanwhile. */
	private confirming = 0;
	private credential: CredentialCheck | undefined;
	private pendingCheck: Promise<CredentialCheck> | undefined;
	private checksSent = 0;
	private checker: (() => Promise<CredentialCheck>) | undefined;
	/** The first probe's grace: started when it is admitted, over once it waited `probeGraceMs`. */
	private grace: 'unstarted' | 'running' | 'over' = 'unstarted';
	private readonly probeGraceMs: number;
	private readonly failedRoundsToOpen: number;
	private readonly distinctItemsToStop: number;
	private readonly now: () => number;

	constructor(private readonly options: GateOptions) {
		this.failedRoundsToOpen = options.failedRoundsToOpen ?? FAILED_ROUNDS_TO_OPEN;
		this.distinctItemsToStop = options.distinctItemsToStop ?? DISTINCT_ITEMS_TO_STOP;
		this.checker = options.checkCredential;
		this.probeGraceMs = options.probeGraceMs ?? PROBE_GRACE_MS;
		this.now = options.now ?? Date.now;
	}

	/** Why the gate stopped (undefined while it lets requests through). */
	get stop(): GateStop | undefined {
		return this.stopped;
	}

	/** How many credential checks this execution sent. */
	get credentialChecks(): number {
		return this.checksSent;
	}

	/** The credential check, when none was given yet (the transport gives it with its first request). */
	useCredentialCheck(check: () => Promise<CredentialCheck>): void {
		this.checker ??= check;
	}

	/**
	 * Resolves when `request` (an attempt of `item`) may send its next attempt, with the round it is
	 * sent in (hand it to `record`); throws GateStopped once the gate stopped.
	 */
	async admit(request: object, item: Item = request): Promise<number> {
		this.itemOf.set(request, item);
		this.waiting.set(request, item);
		try {
			for (;;) {
				if (this.stopped) throw new GateStopped(this.stopped);
				const ownPause = (this.ownPauseUntil.get(item) ?? 0) - this.now();
				if (ownPause > 0) {
					await this.options.wait(ownPause);
					continue;
				}
				const pause = this.pauseUntil - this.now();
				if (pause > 0) {
					await this.options.wait(pause);
					continue;
				}
				if (this.confirming > 0) {
					await this.changed.promise;
					continue;
				}
				if (this.proven || this.prober === request) return this.round;
				if (this.prober === undefined && !this.letsAnotherProbe(request, item)) {
					this.prober = request;
					if (this.round === 0 && this.grace === 'unstarted') this.startGrace();
					return this.round;
				}
				// waiting on the execution's first probe, unanswered for its grace: the check decides
				this.checkForWaiting();
				await this.changed.promise;
			}
		} finally {
			this.waiting.delete(request);
		}
	}

	/** What an attempt of `request` admitted in `round` got (a refused answer: `confirmRejection`). */
	record(request: object, round: number, outcome: Exclude<AttemptOutcome, { kind: 'rejected' }>) {
		if (this.stopped) return;
		const item = this.itemOf.get(request) ?? request;
		const news = round === this.round;
		if (outcome.kind === 'answered') {
			if (this.prober === request) this.prober = undefined;
			this.ownTrouble.delete(item);
			this.ownPauseUntil.delete(item);
			// an answer to a request sent before a round failed is old news: it does not prove that the
			// outage or the storm is over (a probe answers that)
			if (news) this.prove(item);
			this.notify();
			return;
		}
		// a failed probe lets another item probe next (its own retry waits its turn)
		if (this.prober === request) this.prober = undefined;
		if (this.ownTrouble.has(item)) {
			// other items were answered since this one first failed: the trouble is this record's own
			if (outcome.kind === 'rateLimited') this.ownPauseUntil.set(item, this.now() + outcome.waitMs);
			this.notify();
			return;
		}
		this.proven = false;
		if (news) this.round++;
		const { cause, code, httpCode } = outcome;
		if (outcome.kind === 'rateLimited') {
			this.pauseUntil = Math.max(this.pauseUntil, this.now() + outcome.waitMs);
			if (news) {
				this.rateLimitedRounds++;
				this.rateLimitedItems.add(item);
			}
			if (
				this.rateLimitedRounds >= this.options.rateLimitedRoundsToStop &&
				this.rateLimitedItems.size >= this.distinctItemsToStop
			) {
				const rounds = this.rateLimitedRounds;
				this.stopped = { reason: 'rateLimited', cause, code, httpCode, rounds };
				this.stopped.items = this.rateLimitedItems.size;
			}
		} else {
			if (news) {
				this.failedRounds++;
				this.failedItems.add(item);
			}
			if (
				this.failedRounds >= this.failedRoundsToOpen &&
				this.failedItems.size >= this.distinctItemsToStop
			) {
				const rounds = this.failedRounds;
				this.stopped = { reason: 'serviceUnavailable', cause, code, httpCode, rounds };
				this.stopped.items = this.failedItems.size;
			}
		}
		this.notify();
	}

	/**
	 * A refused answer of `request` (admitted in `round`): holds back every new request until the
	 * credential check (one per execution, shared) answered. A check refused too stops the gate; a
	 * check accepted makes the refused answer this record's own (an answer of the service); a check
	 * without an answer of the service proves nothing (the record's own error too). Resolves with
	 * the check, once the gate's state is settled.
	 */
	async confirmRejection(request: object, round: number, trouble: Trouble) {
		if (this.stopped) return this.credential;
		if (!this.checker) {
			this.stopped = { reason: 'credentialRejected', rounds: 1, ...trouble };
			this.notify();
			return undefined;
		}
		this.confirming++;
		try {
			const check = await this.checkOnce(this.checker);
			if (!this.stopped && check.verdict === 'rejected')
				this.stopped = {
					reason: 'credentialRejected',
					rounds: 1,
					...trouble,
					confirmedBy: check.cause,
				};
			if (!this.stopped && check.verdict === 'accepted')
				this.record(request, round, { kind: 'answered' });
			return check;
		} finally {
			this.confirming--;
			this.notify();
		}
	}

	/** One timer for the first probe's grace; when it ends, the requests waiting on it have the credential checked. */
	private startGrace(): void {
		this.grace = 'running';
		if (!Number.isFinite(this.probeGraceMs)) return;
		void this.options.wait(this.probeGraceMs).then(() => {
			this.grace = 'over';
			this.checkForWaiting();
		});
	}

	/**
	 * The first probe is still unanswered after its grace and requests wait on it: the credential
	 * check answers for them. Accepted: the others start (the service is at work on the probe);
	 * refused: the gate stops; no answer of the service: they keep waiting for the probe.
	 */
	private checkForWaiting(): void {
		const checker = this.checker;
		if (this.grace !== 'over' || !checker || this.stopped || this.proven || this.round !== 0)
			return;
		if (this.waiting.size === 0 || this.credential !== undefined || this.pendingCheck) return;
		void this.checkOnce(checker).then((check) => {
			if (this.stopped || this.proven || this.round !== 0) return;
			if (check.verdict === 'rejected')
				this.stopped = {
					reason: 'credentialRejected',
					rounds: 1,
					cause: check.message ? `${check.cause}: ${check.message}` : check.cause,
					code: check.code,
					httpCode: check.httpCode,
					confirmedBy: check.cause,
				};
			if (check.verdict === 'accepted') this.proven = true;
			this.notify();
		});
	}

	/** `request` is done (answered or failed for good): another request may probe. */
	release(request: object): void {
		if (this.prober !== request) return;
		this.prober = undefined;
		this.notify();
	}

	/** The execution's credential check: a decisive answer is kept; a pending one is shared. */
	private checkOnce(checker: () => Promise<CredentialCheck>): Promise<CredentialCheck> {
		if (this.credential && this.credential.verdict !== 'unknown')
			return Promise.resolve(this.credential);
		if (this.pendingCheck) return this.pendingCheck;
		if (this.checksSent >= MAX_CREDENTIAL_CHECKS)
			return Promise.resolve(this.credential ?? { verdict: 'unknown', cause: 'not checked' });
		this.checksSent++;
		const pending = Promise.resolve()
			.then(checker)
			.catch((): CredentialCheck => ({ verdict: 'unknown', cause: 'the check failed' }))
			.then((check) => {
				this.credential = check;
				this.pendingCheck = undefined;
				return check;
			});
		this.pendingCheck = pending;
		return pending;
	}

	/**
	 * While the gate is not proven, an item that is failing lets another waiting item probe first,
	 * so the failures that count come from different items and one record's retries do not hold the
	 * probe.
	 */
	private letsAnotherProbe(request: object, item: Item): boolean {
		if (!this.isFailing(item)) return false;
		for (const [other, otherItem] of this.waiting)
			if (other !== request && !this.isFailing(otherItem)) return true;
		return false;
	}

	private isFailing(item: Item): boolean {
		return (
			this.failedItems.has(item) || this.rateLimitedItems.has(item) || this.ownTrouble.has(item)
		);
	}

	/** `item` was answered in the current round: the service works, the items that failed before fail alone. */
	private prove(item: Item) {
		this.proven = true;
		for (const failed of [...this.failedItems, ...this.rateLimitedItems])
			if (failed !== item) this.ownTrouble.add(failed);
		this.failedItems.clear();
		this.rateLimitedItems.clear();
		this.failedRounds = 0;
		this.rateLimitedRounds = 0;
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
