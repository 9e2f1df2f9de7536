/**
 * The request gate of one node execution (transport/gate.ts) as a pure policy: a fake clock, and
 * waits that advance it, so every case runs instantly and the same way every time.
 */
import type { AttemptOutcome } from '../../../nodes/FinVerify/transport/gate';
import {
	FAILED_ROUNDS_TO_OPEN,
	GateStopped,
	PROBE_GRACE_MS,
	RequestGate,
	gateOutcome,
} from '../../../nodes/FinVerify/transport/gate';

/**
 * A gate on a fake clock whose waits pass at once. The first probe's grace is off here (a wait that
 * passes at once would end it at once); 'the first probe's grace' below runs it on a clock the test
 * moves.
 */
function fakeGate(rateLimitedRoundsToStop = 4, failedRoundsToOpen?: number) {
	let now = 1_000_000;
	const waits: number[] = [];
	const gate = new RequestGate({
		rateLimitedRoundsToStop,
		failedRoundsToOpen,
		probeGraceMs: Infinity,
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

/** A gate on a clock that only the test moves: `advance(ms)` ends the waits that are due. */
function clockGate() {
	let now = 0;
	const timers: Array<{ at: number; done: () => void }> = [];
	const gate = new RequestGate({
		rateLimitedRoundsToStop: 4,
		now: () => now,
		wait: (ms) => new Promise<void>((done) => timers.push({ at: now + ms, done })),
	});
	const advance = (ms: number) => {
		now += ms;
		for (const timer of timers.filter((t) => t.at <= now)) {
			timers.splice(timers.indexOf(timer), 1);
			timer.done();
		}
	};
	return { gate, advance };
}

describe('the first probe’s grace', () => {
	test(`a probe unanswered for ${PROBE_GRACE_MS} ms lets the others start (a slow service at work)`, async () => {
		const { gate, advance } = clockGate();
		await gate.admit({});
		const others = Array.from({ length: 49 }, () => gate.admit({}));
		advance(PROBE_GRACE_MS - 1);
		expect(await settled(Promise.all(others))).toBe(false);
		advance(1);
		expect(await Promise.all(others)).toEqual(new Array(49).fill(0));
	});

	test('a rejection within the grace stops the gate: nothing else is sent', async () => {
		const { gate, advance } = clockGate();
		const round = await gate.admit({});
		const other = gate.admit({});
		advance(300);
		gate.record(round, rejected);
		await expect(other).rejects.toBeInstanceOf(GateStopped);
	});

	test('after a failed round there is no grace: the next probe goes alone until an answer', async () => {
		const { gate, advance } = clockGate();
		const probe = {};
		gate.record(await gate.admit(probe), down);
		gate.release(probe);
		const next = {};
		await gate.admit(next);
		const other = gate.admit({});
		advance(PROBE_GRACE_MS * 10);
		expect(await settled(other)).toBe(false);
		gate.record(1, answered);
		expect(await other).toBe(1);
	});

	test('the probe answered after the others met a storm is old news: the next probe goes alone', async () => {
		const { gate, advance } = clockGate();
		const first = {};
		const firstRound = await gate.admit(first);
		const wave = Array.from({ length: 3 }, () => gate.admit({}));
		advance(PROBE_GRACE_MS);
		const waveRounds = await Promise.all(wave);
		for (const round of waveRounds) gate.record(round, limited(1000));
		// the first probe's answer, sent before the storm, arrives now
		gate.record(firstRound, answered);
		gate.release(first);
		advance(1000);
		const probe = await gate.admit({});
		expect(probe).toBe(1);
		const other = gate.admit({});
		advance(PROBE_GRACE_MS * 10);
		expect(await settled(other)).toBe(false);
		gate.record(probe, answered);
		expect(await other).toBe(1);
	});

	test('requests after the grace ended start at once, the probe still in flight', async () => {
		const { gate, advance } = clockGate();
		await gate.admit({});
		advance(PROBE_GRACE_MS);
		expect(await settled(gate.admit({}))).toBe(true);
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

describe('what an answer tells the gate', () => {
	test.each<[string, number, unknown, Partial<AttemptOutcome>]>([
		[
			'401, variant A',
			401,
			{ success: false, message: 'Bad key', error_code: 'UNAUTHORIZED' },
			{
				kind: 'rejected',
				cause: 'HTTP 401 UNAUTHORIZED: Bad key',
				code: 'UNAUTHORIZED',
				httpCode: 401,
			},
		],
		[
			'403, variant E',
			403,
			{ status: 'failed', message: 'No access', error_code: 'PERMISSION_DENIED' },
			{ kind: 'rejected', code: 'PERMISSION_DENIED' },
		],
		[
			'401, variant B (no code)',
			401,
			{ status: 'error', status_code: 401, message: 'Auth failed', request_id: 'r1' },
			{ kind: 'rejected' },
		],
		[
			'401, variant D, lower case code',
			401,
			{ success: false, status_code: 401, message: 'Token expired', message_code: 'unauthorized' },
			{ kind: 'rejected', code: 'unauthorized' },
		],
		[
			'UNAUTHORIZED inside HTTP 200',
			200,
			{ success: false, message: 'Bad key', error_code: 'UNAUTHORIZED' },
			{ kind: 'rejected', httpCode: 200 },
		],
		[
			'FORBIDDEN in variant C inside HTTP 400',
			400,
			{ success: false, error: { code: 'forbidden', message: 'no' } },
			{ kind: 'rejected' },
		],
		[
			'status_code 403 in an envelope inside HTTP 200',
			200,
			{ status: 'error', status_code: 403, message: 'no', request_id: 'r' },
			{ kind: 'rejected' },
		],
		[
			'429',
			429,
			{ success: false, message: 'Slow down', error_code: 'RATE_LIMITED' },
			{ kind: 'rateLimited', waitMs: 1500, code: 'RATE_LIMITED' },
		],
		[
			'503',
			503,
			{ success: false, message: 'Down', error_code: 'UPSTREAM_UNAVAILABLE' },
			{ kind: 'unavailable', cause: 'HTTP 503 UPSTREAM_UNAVAILABLE' },
		],
		['502 HTML page', 502, '<html>bad gateway</html>', { kind: 'unavailable', cause: 'HTTP 502' }],
		[
			'404 not found',
			404,
			{ success: false, message: 'No company', error_code: 'COMPANY_NOT_FOUND' },
			{ kind: 'answered' },
		],
		[
			'422',
			422,
			{ status: 'error', status_code: 422, message: 'Unprocessable', request_id: 'r' },
			{ kind: 'answered' },
		],
		['200 success', 200, { success: true, data: {} }, { kind: 'answered' }],
		[
			'200 journey status "failed" (a journey that failed, not an error)',
			200,
			{ status: 'failed', client_id: 'aa_1' },
			{ kind: 'answered' },
		],
	])('%s', (_label, status, body, expected) => {
		expect(gateOutcome(status, body, 1500)).toMatchObject(expected);
	});
});
