import {
	MAX_BLIND_MS,
	MAX_SLOT_MS,
	MAX_WAITING,
	MIN_BLIND_MS,
	TICK_MS,
	RESUMES_AT_ONCE,
	ResumeGate,
	resumeGate,
	type Slot,
} from '../../nodes/FinVerify/completion/resumeGate';

/** A gate on a hand-driven clock: `advance(ms)` runs the timers due by then, in time order. */
function gateOf(capacity: number) {
	let now = 0;
	const timers: Array<{ at: number; fn: () => void; cancelled: boolean }> = [];
	const gate = new ResumeGate(
		capacity,
		() => now,
		(fn, ms) => {
			timers.push({ at: now + ms, fn, cancelled: false });
		},
	);
	const advance = async (ms: number) => {
		const until = now + ms;
		for (;;) {
			const due = timers
				.filter((t) => !t.cancelled && t.at <= until)
				.sort((a, b) => a.at - b.at)[0];
			if (!due) break;
			due.cancelled = true;
			now = due.at;
			due.fn();
			await flush();
		}
		now = until;
		await flush();
	};
	const pending = () => timers.filter((t) => !t.cancelled).length;
	return { gate, advance, pending, setNow: (ms: number) => (now = ms) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Enters `n` callbacks; returns the slots in the order they were admitted (filled in as they are). */
function enterMany(gate: ResumeGate, n: number) {
	const admitted: Array<{ index: number; slot: Slot }> = [];
	for (let index = 0; index < n; index++)
		void gate.enter().then((slot) => admitted.push({ index, slot }));
	return admitted;
}

describe('the resume gate (at most N resumes handed to n8n at once per process)', () => {
	test('no timer runs while nothing waits for a slot', async () => {
		const { gate, pending } = gateOf(2);
		const admitted = enterMany(gate, 2);
		await flush();
		expect(admitted).toHaveLength(2);
		expect(pending()).toBe(0);
		enterMany(gate, 1);
		expect(pending()).toBe(1);
	});

	test('the process gate lets a few resumes in at once and a few more wait', () => {
		expect(MAX_WAITING).toBeGreaterThanOrEqual(1);
		expect(MAX_WAITING).toBeLessThanOrEqual(50);
		expect(RESUMES_AT_ONCE).toBeGreaterThanOrEqual(1);
		expect(RESUMES_AT_ONCE).toBeLessThanOrEqual(10);
		expect(resumeGate.heldCount).toBe(0);
	});

	test('admits up to its capacity; the others wait, first come first served, and none is refused', async () => {
		const { gate } = gateOf(2);
		const admitted = enterMany(gate, 5);
		await flush();
		expect(admitted.map((a) => a.index)).toEqual([0, 1]);
		expect(gate.waitingCount).toBe(3);
		admitted[1].slot.answered();
		await flush();
		expect(admitted.map((a) => a.index)).toEqual([0, 1, 2]);
		admitted[0].slot.answered();
		admitted[2].slot.answered();
		await flush();
		expect(admitted.map((a) => a.index)).toEqual([0, 1, 2, 3, 4]);
		expect(gate.waitingCount).toBe(0);
		expect(gate.heldCount).toBe(2);
	});

	test('tryEnter refuses once the slots are taken and maxWaiting callbacks wait; a freed slot makes room again', async () => {
		const { gate } = gateOf(2);
		const first = [gate.tryEnter(1), gate.tryEnter(1), gate.tryEnter(1)];
		expect(first.every((p) => p !== undefined)).toBe(true);
		expect(gate.tryEnter(1)).toBeUndefined();
		expect(gate.waitingCount).toBe(1);
		const slot = await first[0]!;
		slot.answered();
		await flush();
		expect(gate.waitingCount).toBe(0);
		expect(gate.tryEnter(1)).toBeDefined();
		expect(gate.tryEnter(1)).toBeUndefined();
	});

	test('tryEnter with room never refuses, whatever maxWaiting', () => {
		const { gate } = gateOf(3);
		expect(gate.tryEnter(0)).toBeDefined();
		expect(gate.tryEnter(0)).toBeDefined();
		expect(gate.tryEnter(0)).toBeDefined();
		expect(gate.tryEnter(0)).toBeUndefined();
	});

	test('an answer frees its own slot once: a second call frees nothing more', async () => {
		const { gate } = gateOf(1);
		const admitted = enterMany(gate, 3);
		await flush();
		admitted[0].slot.answered();
		admitted[0].slot.answered();
		admitted[0].slot.callerGone();
		await flush();
		expect(admitted.map((a) => a.index)).toEqual([0, 1]);
		expect(gate.heldCount).toBe(1);
	});

	test('a slot whose caller has gone is freed after twice the recent answer time, within bounds', async () => {
		const { gate, advance } = gateOf(1);
		const admitted = enterMany(gate, 3);
		await flush();
		// the first answer takes 2 s: the moving average goes from 1 s towards it
		await advance(2_000);
		admitted[0].slot.answered();
		await flush();
		expect(gate.recentAnswerMs).toBe(1_200);
		expect(gate.blindMs()).toBe(2_400);
		admitted[1].slot.callerGone();
		// looked at every TICK_MS while a callback waits: freed at the first look after 2.4 s
		await advance(2_250);
		expect(admitted).toHaveLength(2);
		await advance(250);
		expect(admitted).toHaveLength(3);
	});

	test('the blind time is at least MIN_BLIND_MS and at most MAX_BLIND_MS', async () => {
		const fast = gateOf(1);
		for (let i = 0; i < 30; i++) {
			const admitted = enterMany(fast.gate, 1);
			await flush();
			admitted[0].slot.answered();
		}
		expect(fast.gate.blindMs()).toBe(MIN_BLIND_MS);
		const slow = gateOf(1);
		for (let i = 0; i < 30; i++) {
			const admitted = enterMany(slow.gate, 1);
			await flush();
			await slow.advance(50_000);
			admitted[0].slot.answered();
		}
		expect(slow.gate.blindMs()).toBe(MAX_BLIND_MS);
	});

	test('an answer also frees older slots whose caller had gone (n8n takes resumes in order), not older answered-pending ones', async () => {
		const { gate } = gateOf(3);
		const admitted = enterMany(gate, 6);
		await flush();
		admitted[0].slot.callerGone();
		// slot 1 still waits for its own answer
		admitted[2].slot.answered();
		await flush();
		expect(gate.heldCount).toBe(3);
		expect(admitted.map((a) => a.index)).toEqual([0, 1, 2, 3, 4]);
	});

	test('no slot is held longer than MAX_SLOT_MS, answered or not', async () => {
		const { gate, advance, pending } = gateOf(1);
		const admitted = enterMany(gate, 2);
		await flush();
		await advance(MAX_SLOT_MS - 1);
		expect(admitted).toHaveLength(1);
		await advance(TICK_MS);
		expect(admitted).toHaveLength(2);
		// nothing waits any more: no timer runs
		await advance(TICK_MS);
		expect(pending()).toBe(0);
		admitted[1].slot.answered();
		expect(gate.heldCount).toBe(0);
	});

	test('a late answer of a slot freed by its time limit frees nothing else', async () => {
		const { gate, advance } = gateOf(1);
		const admitted = enterMany(gate, 3);
		await flush();
		await advance(MAX_SLOT_MS);
		expect(admitted).toHaveLength(2);
		admitted[0].slot.answered();
		await flush();
		expect(admitted).toHaveLength(2);
		expect(gate.heldCount).toBe(1);
	});
});
