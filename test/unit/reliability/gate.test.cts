/**
 * The request gate of one node execution (transport/gate.ts) as a pure policy: a fake clock, and
 * waits that advance it, so every case runs instantly and the same way every time.
 */
import type { AttemptOutcome } from '../../../nodes/FinVerify/transport/gate';
import {
	FAILED_ROUNDS_TO_OPEN,
	GateStopped,
	RequestGate,
} from '../../../nodes/FinVerify/transport/gate';

function fakeGate(rateLimitedRoundsToStop = 4, failedRoundsToOpen?: number) {
	let now = 1_000_000;
	const waits: number[] = [];
	const gate = new RequestGate({
		rateLimitedRoundsToStop,
		failedRoundsToOpen,
		now: () => now,
		wait: async (ms) => {
			waits.push(ms);
			now += ms;
		},
	});
	return { gate, waits };
}

const answered: AttemptOutcome = { kind: 'answered' };
const down: AttemptOutcome = { kind: 'unavailable', cause: 'ECONNREFUSED' };
const rejected: AttemptOutcome = {
	kind: 'rejected',
	cause: 'HTTP 401 UNAUTHORIZED',
	code: 'UNAUTHORIZED',
	httpCode: 401,
};
const limited = (waitMs: number): AttemptOutcome => ({
	kind: 'rateLimited',
	cause: 'HTTP 429 RATE_LIMITED',
	waitMs,
});

/** Whether a promise has settled once the pending microtasks ran (one macrotask later). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(
		() => (done = true),
		() => (done = true),
	);
	await new Promise((resolve) => setImmediate(resolve));
	return done;
}

describe('the first request probes alone', () => {
	test('others wait until an answer proves the credential, then all go', async () => {
		const { gate } = fakeGate();
		const [a, b, c] = [{}, {}, {}];
		const round = await gate.admit(a);
		const waitingB = gate.admit(b);
		const waitingC = gate.admit(c);
		expect(await settled(waitingB)).toBe(false);
		gate.record(round, answered);
		expect(await settled(waitingB)).toBe(true);
		expect(await settled(waitingC)).toBe(true);
	});

	test('a probe that fails for good hands the probe to the next request', async () => {
		const { gate } = fakeGate();
		const [a, b, c] = [{}, {}, {}];
		const round = await gate.admit(a);
		const waitingB = gate.admit(b);
		const waitingC = gate.admit(c);
		gate.record(round, down);
		gate.release(a);
		// b probes now; c still waits
		expect(await settled(waitingB)).toBe(true);
		expect(await settled(waitingC)).toBe(false);
	});

	test('once proven, requests are not held back', async () => {
		const { gate } = fakeGate();
		gate.record(await gate.admit({}), answered);
		const many = Array.from({ length: 50 }, () => gate.admit({}));
		expect(await settled(Promise.all(many))).toBe(true);
	});
});

describe('a rejected credential', () => {
	test('stops the gate: no request is admitted any more, each learns why', async () => {
		const { gate } = fakeGate();
		const [a, b] = [{}, {}];
		const round = await gate.admit(a);
		const waitingB = gate.admit(b);
		gate.record(round, rejected);
		await expect(waitingB).rejects.toBeInstanceOf(GateStopped);
		await expect(gate.admit({})).rejects.toMatchObject({
			stop: { reason: 'credentialRejected', code: 'UNAUTHORIZED', httpCode: 401, rounds: 1 },
		});
	});

	test('is not undone by a later answer of a request already in flight', async () => {
		const { gate } = fakeGate();
		const round = await gate.admit({});
		gate.record(round, answered);
		const [x, y] = [await gate.admit({}), await gate.admit({})];
		gate.record(x, rejected);
		gate.record(y, answered);
		expect(gate.stop?.reason).toBe('credentialRejected');
	});
});

describe('the circuit', () => {
	test(`opens after ${FAILED_ROUNDS_TO_OPEN} failed rounds of the probe`, async () => {
		const { gate } = fakeGate();
		const probe = {};
		for (let i = 1; i < FAILED_ROUNDS_TO_OPEN; i++) {
			gate.record(await gate.admit(probe), down);
			expect(gate.stop).toBeUndefined();
		}
		gate.record(await gate.admit(probe), down);
		expect(gate.stop).toEqual({
			reason: 'serviceUnavailable',
			cause: 'ECONNREFUSED',
			rounds: FAILED_ROUNDS_TO_OPEN,
		});
		await expect(gate.admit({})).rejects.toBeInstanceOf(GateStopped);
	});

	test('requests in flight when a round failed count as that one round', async () => {
		const { gate } = fakeGate();
		gate.record(await gate.admit({}), answered);
		const rounds = await Promise.all(Array.from({ length: 50 }, () => gate.admit({})));
		for (const round of rounds) gate.record(round, down);
		expect(gate.stop).toBeUndefined();
	});

	test('a good answer between failures closes it again', async () => {
		const { gate } = fakeGate();
		const probe = {};
		gate.record(await gate.admit(probe), down);
		gate.record(await gate.admit(probe), down);
		gate.record(await gate.admit(probe), answered);
		gate.record(await gate.admit(probe), down);
		gate.record(await gate.admit(probe), down);
		expect(gate.stop).toBeUndefined();
	});

	test('the node can ask for more rounds (one item with many retries)', async () => {
		const { gate } = fakeGate(6, 6);
		const probe = {};
		for (let i = 0; i < 5; i++) gate.record(await gate.admit(probe), down);
		expect(gate.stop).toBeUndefined();
		gate.record(await gate.admit(probe), down);
		expect(gate.stop?.rounds).toBe(6);
	});
});

describe('429: one shared wait', () => {
	test('every request waits out the Retry-After together, then one probes', async () => {
		const { gate, waits } = fakeGate();
		const probe = {};
		gate.record(await gate.admit(probe), answered);
		gate.release(probe);
		const inFlight = await Promise.all(Array.from({ length: 50 }, () => gate.admit({})));
		// 50 answers of one storm: one round, one pause of the longest wait
		inFlight.forEach((round, i) => gate.record(round, limited(i === 0 ? 1000 : 2000)));
		const admittedA = gate.admit({}).then((round) => ({ round, who: 'a' }));
		const admittedB = gate.admit({}).then((round) => ({ round, who: 'b' }));
		const first = await Promise.race([admittedA, admittedB]);
		expect(waits[0]).toBe(2000);
		// after the pause only one request (the probe) goes; the other waits for its answer
		const other = first.who === 'a' ? admittedB : admittedA;
		expect(await settled(other)).toBe(false);
		gate.record(first.round, answered);
		expect(await settled(other)).toBe(true);
	});

	test('stops after as many rounds of 429 as one item has attempts', async () => {
		const { gate } = fakeGate(4);
		const probe = {};
		for (let i = 0; i < 3; i++) gate.record(await gate.admit(probe), limited(1000));
		expect(gate.stop).toBeUndefined();
		gate.record(await gate.admit(probe), limited(1000));
		expect(gate.stop).toMatchObject({ reason: 'rateLimited', rounds: 4 });
	});

	test('rate limiting does not count toward the outage circuit', async () => {
		const { gate } = fakeGate(10);
		const probe = {};
		for (let i = 0; i < 5; i++) gate.record(await gate.admit(probe), limited(10));
		expect(gate.stop).toBeUndefined();
	});
});
