/**
 * Waiting for a final status by polling: pure planning plus a loop whose clock and sleep are passed
 * in, so it is unit-tested without real time. The service asks for status polls no faster than once
 * every 5 seconds; the plan never goes below that, whatever the node's fields (or an expression)
 * say.
 */

export const MIN_POLL_INTERVAL_SECONDS = 5;
export const DEFAULT_POLL_INTERVAL_SECONDS = 5;
export const DEFAULT_TIME_LIMIT_SECONDS = 300;
export const MAX_TIME_LIMIT_SECONDS = 3600;

export interface PollPlan {
	intervalMs: number;
	timeLimitMs: number;
}

const finite = (value: unknown): number | undefined => {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * Interval clamped to at least 5 s (default 5 s); time limit clamped to 0-3600 s (default 300 s).
 * A time limit of 0 means "poll once".
 */
export function planPolling(intervalSeconds?: unknown, timeLimitSeconds?: unknown): PollPlan {
	const interval = Math.max(
		MIN_POLL_INTERVAL_SECONDS,
		finite(intervalSeconds) ?? DEFAULT_POLL_INTERVAL_SECONDS,
	);
	const limit = Math.min(
		MAX_TIME_LIMIT_SECONDS,
		Math.max(0, finite(timeLimitSeconds) ?? DEFAULT_TIME_LIMIT_SECONDS),
	);
	return { intervalMs: Math.round(interval * 1000), timeLimitMs: Math.round(limit * 1000) };
}

/**
 * How long to wait before the next poll, or null when the next poll would end after the time limit.
 */
export function nextPollDelay(elapsedMs: number, plan: PollPlan): number | null {
	return elapsedMs + plan.intervalMs > plan.timeLimitMs ? null : plan.intervalMs;
}

export interface PollClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export interface PollOutcome<T> {
	last: T;
	polls: number;
	elapsedMs: number;
	timedOut: boolean;
}

/**
 * Calls `fetch` until `isDone` says so or the time limit is reached. The first call is immediate;
 * errors of `fetch` are not caught (a failed status request fails the wait).
 */
export async function pollUntil<T>(
	fetch: () => Promise<T>,
	isDone: (value: T) => boolean,
	plan: PollPlan,
	clock: PollClock,
): Promise<PollOutcome<T>> {
	const start = clock.now();
	for (let polls = 1; ; polls++) {
		const last = await fetch();
		const elapsedMs = clock.now() - start;
		if (isDone(last)) return { last, polls, elapsedMs, timedOut: false };
		const delay = nextPollDelay(elapsedMs, plan);
		if (delay === null) return { last, polls, elapsedMs, timedOut: true };
		await clock.sleep(delay);
	}
}
