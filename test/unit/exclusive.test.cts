/**
 * runExclusive (nodes/FinVerify/helpers/exclusive.ts), the in-process lock Process Once takes around n8n's
 * deduplication store: tasks of one key run one after another in call order, a failing task does not block
 * the next, other keys are not held back, and nothing is kept for a key once its tasks settled.
 */
import { exclusiveKeysInUse, runExclusive } from '../../nodes/FinVerify/helpers/exclusive';

/** A task that records when it starts and ends, and settles only when the test releases it. */
function gatedTask(log: string[], name: string, outcome: 'ok' | 'fail' = 'ok') {
	let release!: () => void;
	const gate = new Promise<void>((resolve) => (release = resolve));
	const task = async () => {
		log.push(`${name} start`);
		await gate;
		log.push(`${name} end`);
		if (outcome === 'fail') throw new Error(`${name} failed`);
		return name;
	};
	return { task, release };
}

const turn = async () => await new Promise<void>((resolve) => setImmediate(resolve));

test('tasks of one key run one at a time, in call order; a failed task lets the next run', async () => {
	const log: string[] = [];
	const a = gatedTask(log, 'a');
	const b = gatedTask(log, 'b', 'fail');
	const c = gatedTask(log, 'c');
	const results = [
		runExclusive('k', a.task),
		runExclusive('k', b.task),
		runExclusive('k', c.task),
	].map((p) =>
		p.then(
			(v) => `ok ${v}`,
			(e: Error) => e.message,
		),
	);
	await turn();
	expect(log).toEqual(['a start']);
	c.release();
	b.release();
	await turn();
	expect(log).toEqual(['a start']);
	a.release();
	expect(await Promise.all(results)).toEqual(['ok a', 'b failed', 'ok c']);
	expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
	expect(exclusiveKeysInUse()).toBe(0);
});

test('other keys are not held back', async () => {
	const log: string[] = [];
	const a = gatedTask(log, 'a');
	const b = gatedTask(log, 'b');
	const first = runExclusive('workflow-1\nnode-1', a.task);
	const second = runExclusive('workflow-2\nnode-1', b.task);
	await turn();
	expect(log).toEqual(['a start', 'b start']);
	expect(exclusiveKeysInUse()).toBe(2);
	b.release();
	expect(await second).toBe('b');
	expect(exclusiveKeysInUse()).toBe(1);
	a.release();
	expect(await first).toBe('a');
	expect(exclusiveKeysInUse()).toBe(0);
});

test('a read-modify-write of a shared record loses nothing when every call goes through the lock', async () => {
	const record: string[] = [];
	const addKey = async (key: string) => {
		const copy = [...record];
		await turn();
		copy.push(key);
		await turn();
		record.splice(0, record.length, ...copy);
	};
	const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
	await Promise.all(keys.map((key) => runExclusive('record', () => addKey(key))));
	expect(record).toEqual(keys);
	// the same calls without the lock: the later writes overwrite the earlier ones
	record.length = 0;
	await Promise.all(keys.map((key) => addKey(key)));
	expect(record.length).toBeLessThan(keys.length);
});
