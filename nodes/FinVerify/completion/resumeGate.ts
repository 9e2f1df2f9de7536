import { sleep } from 'n8n-workflow';

/**
 * How many resumes this n8n process lets into n8n at once (issue 44).
 *
 * Why: with n8n's defaults (no N8N_CONCURRENCY_PRODUCTION_LIMIT) n8n starts every resume it is handed at once, and on
 * SQLite every resume's writes (the execution marked running, then saved when the run ends) queue for the one write
 * connection; a write that waits longer than 60 s fails (`LockAcquireTimeoutError`), and a resume whose later write
 * failed ends in error or stays `running` for good. A burst of 1,000 final callbacks within 50 s on a loaded machine
 * left 15 in error and 16 stuck (docs/scaling.md).
 *
 * The gate: the node's resume URL, once a callback is final and will resume its execution, waits here for one of
 * RESUMES_AT_ONCE slots before it hands the resume to n8n (webhook() returns its workflowData). A callback waits its
 * turn, first come first served, and resumes its execution even if its caller has gone; when MAX_WAITING callbacks
 * already wait, it is answered 503 with Retry-After and its execution keeps waiting for the service's next attempt
 * or the reconciler (reconcile.ts).
 * A slot is freed when n8n answers the resume's caller (n8n 2.x answers once the execution is registered and marked
 * running: its writes have gone through), or, for a caller that has gone (n8n's answer then never goes out), when a
 * resume admitted after it was answered (n8n's writes are first in, first out) or after about twice the time recent
 * resumes took to be answered (at least MIN_BLIND_MS, at most MAX_BLIND_MS). No slot is held longer than
 * MAX_SLOT_MS. Times are checked when a callback enters or a slot is freed, and every TICK_MS while callbacks wait
 * (no timer runs otherwise). The clock and the timer are given (the process gate: Date.now and n8n-workflow's sleep).
 */

/** Resumes handed to n8n and not yet answered, per n8n process. */
export const RESUMES_AT_ONCE = 5;

/**
 * Most callbacks that wait for a slot per n8n process; a final callback beyond them is answered 503 with Retry-After
 * and its execution keeps waiting (the service's next attempt or the reconciler resumes it). A waiting callback is
 * not free: n8n holds an expression isolate for each callback while the node handles it (with n8n's default
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=false). Holding every callback of a burst instead (no such bound) took n8n to
 * 16.5 GB within 10 minutes of a 1,000-callback burst, its own body reads timing out (2,123 of them), 0.7 resumes
 * a second.
 */
export const MAX_WAITING = 10;

/** A slot whose caller has gone is freed after 2 × the recent answer time, within these bounds. */
export const MIN_BLIND_MS = 500;
export const MAX_BLIND_MS = 30_000;

/** No slot is held longer than this, answered or not. */
export const MAX_SLOT_MS = 60_000;

/** The answer time assumed before any resume was answered. */
const INITIAL_ANSWER_MS = 1_000;

/** While callbacks wait for a slot, slots past their time are looked for this often. */
export const TICK_MS = 250;

/** Runs `fn` after `ms` (webhook.ts: n8n-workflow's sleep; the lint allows no timers of Node's own in nodes/). */
export type Later = (fn: () => void, ms: number) => void;

export interface Slot {
	/** n8n answered the resume's caller: the slot is freed, and so are older slots whose caller had gone. */
	answered(): void;
	/** The caller went away before n8n answered: the slot is freed after about twice the recent answer time. */
	callerGone(): void;
}

interface Held {
	seq: number;
	admittedAt: number;
	/** When the slot is freed whatever happens (MAX_SLOT_MS; sooner once its caller has gone). */
	until: number;
	blind: boolean;
}

export class ResumeGate {
	private readonly held = new Map<number, Held>();
	private readonly queue: Array<(slot: Slot) => void> = [];
	private seq = 0;
	private answerMs = INITIAL_ANSWER_MS;
	private ticking = false;

	constructor(
		private readonly capacity: number,
		private readonly now: () => number,
		private readonly later: Later,
	) {}

	/**
	 * A slot now or once fewer than `capacity` resumes are under way (first come, first served); undefined when
	 * `capacity` are under way and `maxWaiting` callbacks already wait for one (the caller is asked to come back).
	 */
	tryEnter(maxWaiting: number): Promise<Slot> | undefined {
		this.admit();
		if (this.held.size >= this.capacity && this.queue.length >= maxWaiting) return undefined;
		return this.enter();
	}

	/** Resolves with a slot once fewer than `capacity` resumes are under way (first come, first served). */
	enter(): Promise<Slot> {
		return new Promise((resolve) => {
			this.queue.push(resolve);
			this.admit();
		});
	}

	/** Slots held and callbacks waiting for one (for tests and figures). */
	get heldCount(): number {
		return this.held.size;
	}
	get waitingCount(): number {
		return this.queue.length;
	}
	/** The answer time the gate currently assumes (for tests). */
	get recentAnswerMs(): number {
		return this.answerMs;
	}

	/** How long a slot whose caller has gone is kept. */
	blindMs(): number {
		return Math.min(MAX_BLIND_MS, Math.max(MIN_BLIND_MS, 2 * this.answerMs));
	}

	private admit(): void {
		const now = this.now();
		for (const entry of [...this.held.values()])
			if (entry.until <= now) this.held.delete(entry.seq);
		while (this.held.size < this.capacity && this.queue.length > 0) {
			const resolve = this.queue.shift()!;
			const entry: Held = {
				seq: ++this.seq,
				admittedAt: now,
				until: now + MAX_SLOT_MS,
				blind: false,
			};
			this.held.set(entry.seq, entry);
			resolve(this.slotFor(entry));
		}
		// callbacks still waiting: look again shortly (a slot's time may run out with no answer to free it)
		if (this.queue.length > 0 && !this.ticking) {
			this.ticking = true;
			this.later(() => {
				this.ticking = false;
				this.admit();
			}, TICK_MS);
		}
	}

	private slotFor(entry: Held): Slot {
		let settled = false;
		return {
			answered: () => {
				if (settled) return;
				settled = true;
				if (!this.held.has(entry.seq)) return;
				const took = Math.max(0, this.now() - entry.admittedAt);
				// a moving average, so one slow answer does not decide alone
				this.answerMs = Math.round(0.8 * this.answerMs + 0.2 * took);
				// n8n's writes are first in, first out: a resume admitted before this one whose caller has gone is done
				for (const other of [...this.held.values()])
					if (other.seq < entry.seq && other.blind) this.held.delete(other.seq);
				this.held.delete(entry.seq);
				this.admit();
			},
			callerGone: () => {
				if (settled) return;
				settled = true;
				if (!this.held.has(entry.seq)) return;
				entry.blind = true;
				entry.until = Math.min(entry.until, this.now() + this.blindMs());
			},
		};
	}
}

/** The gate of this n8n process (every FinVerify node's resume URL shares it). */
export const resumeGate = new ResumeGate(RESUMES_AT_ONCE, Date.now, (fn, ms) => {
	void sleep(ms).then(fn);
});
