/**
 * One-at-a-time sections in this process, per key: a task passed to `runExclusive` starts only once every
 * task passed before it with the same key has settled (resolved or rejected). Tasks of other keys are not
 * held back. Nothing is kept for a key once its last task settled, so the map holds only keys in use.
 *
 * Process Once and Mark Processed (actions/triggerDelivery/) run n8n's deduplication store through it:
 * that store reads a node's record, adds keys and writes it back with no transaction, so two executions
 * calling it at once lose one's keys or both try to create the record. Serialised here, each call sees the
 * one before it. It holds within one process only (one n8n in regular mode); workers of queue mode each have
 * their own.
 */
const tails = new Map<string, Promise<void>>();

const settle = () => undefined;

export async function runExclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
	const previous = tails.get(key) ?? Promise.resolve();
	const run = previous.then(task);
	const tail = run.then(settle, settle);
	tails.set(key, tail);
	try {
		return await run;
	} finally {
		if (tails.get(key) === tail) tails.delete(key);
	}
}

/** How many keys have a task running or waiting (for tests: nothing is kept after the last one). */
export function exclusiveKeysInUse(): number {
	return tails.size;
}
