/**
 * How time passes in one sandbox:
 * - `real`: the wall clock; timers are `setTimeout`s (`npm run sandbox`, `npm start`, the e2e suites).
 * - `manual`: time stands still until the test moves it (`POST /__sandbox/clock/advance`, by the given
 *   milliseconds); due timers then fire in order, each at its own time. Nothing depends on the wall clock, so no
 *   test races a timer: a journey stays where the test put it until the test lets time pass.
 */
export type ClockMode = 'real' | 'manual';
export const CLOCK_MODES: readonly ClockMode[] = ['real', 'manual'];

/** A scheduled callback; `cancel` it through the `Timers` that made it. */
export interface TimerHandle {
	readonly due: number;
}

interface ManualTimer extends TimerHandle {
	readonly seq: number;
	readonly fn: () => void;
}

export class Clock {
	/** Manual mode: milliseconds advanced so far. */
	private elapsed = 0;
	private seq = 0;
	private readonly queue = new Set<ManualTimer>();

	constructor(readonly mode: ClockMode = 'real') {}

	/** Milliseconds: the wall clock, or the manual clock's advanced time. */
	now(): number {
		return this.mode === 'real' ? Date.now() : this.elapsed;
	}

	/** Manual mode: runs `fn` once the clock has been advanced by `ms`. */
	schedule(ms: number, fn: () => void): TimerHandle {
		const timer: ManualTimer = { due: this.elapsed + Math.max(0, ms), seq: this.seq++, fn };
		this.queue.add(timer);
		return timer;
	}

	unschedule(handle: TimerHandle): void {
		this.queue.delete(handle as ManualTimer);
	}

	/**
	 * Manual mode: moves time by `ms`, firing every timer that falls due on the way, earliest first (a timer a
	 * callback schedules fires too if it is due in time). Returns how many fired. In real mode it does nothing.
	 */
	advance(ms: number): number {
		if (this.mode === 'real') return 0;
		const target = this.elapsed + Math.max(0, ms);
		let fired = 0;
		for (;;) {
			let next: ManualTimer | undefined;
			for (const t of this.queue)
				if (
					t.due <= target &&
					(!next || t.due < next.due || (t.due === next.due && t.seq < next.seq))
				)
					next = t;
			if (!next) break;
			this.queue.delete(next);
			this.elapsed = next.due;
			next.fn();
			fired++;
		}
		this.elapsed = target;
		return fired;
	}
}

/** Timers owned by one part of a sandbox, so that reset and close can cancel all of them. */
export class Timers {
	private readonly pending = new Set<TimerHandle>();

	constructor(private readonly clock: Clock = new Clock()) {}

	after(ms: number, fn: () => void): TimerHandle {
		if (this.clock.mode === 'manual') {
			const handle = this.clock.schedule(ms, () => {
				this.pending.delete(handle);
				fn();
			});
			this.pending.add(handle);
			return handle;
		}
		const t = setTimeout(
			() => {
				this.pending.delete(handle);
				fn();
			},
			Math.max(0, ms),
		);
		t.unref();
		const handle: TimerHandle & { timeout: NodeJS.Timeout } = { due: Date.now() + ms, timeout: t };
		this.pending.add(handle);
		return handle;
	}

	cancel(handle: TimerHandle | undefined): void {
		if (!handle) return;
		if ('timeout' in handle) clearTimeout((handle as { timeout: NodeJS.Timeout }).timeout);
		else this.clock.unschedule(handle);
		this.pending.delete(handle);
	}

	clear(): void {
		for (const handle of [...this.pending]) this.cancel(handle);
	}
}
