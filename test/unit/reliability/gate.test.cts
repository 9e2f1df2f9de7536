/**
 * The request gate of one node execution (transport/gate.ts) as a pure policy: a fake clock, waits
 * that advance it, and a credential check the test answers, so every case runs the same way every
 * time, whatever the machine's load.
 */
import type { CredentialVerdict } from '../../../nodes/FinVerify/transport/errors';
import { credentialCheckVerdict } from '../../../nodes/FinVerify/transport/errors';
import type { AttemptOutcome, CredentialCheck } from '../../../nodes/FinVerify/transport/gate';
import {
	DISTINCT_ITEMS_TO_STOP,
	FAILED_ROUNDS_TO_OPEN,
	GateStopped,
	MAX_CREDENTIAL_CHECKS,
	PROBE_GRACE_MS,
	RequestGate,
	gateOutcome,
} from '../../../nodes/FinVerify/transport/gate';

interface FakeOptions {
	rateLimitedRoundsToStop?: number;
	failedRoundsToOpen?: number;
	/** What the credential check answers (a function: asked at each check). */
	check?: () => Promise<CredentialCheck>;
}

/**
 * A gate on a fake clock whose waits pass at once (and advance the clock). The first probe's grace is
 * off here (a wait that passes at once would end it at once); 'the first probe’s grace' below runs it
 * on a clock the test moves.
 */
function fakeGate({ rateLimitedRoundsToStop = 4, failedRoundsToOpen, check }: FakeOptions = {}) {
	let now = 1_000_000;
	const waits: number[] = [];
	const gate = new RequestGate({
		rateLimitedRoundsToStop,
		failedRoundsToOpen,
		checkCredential: check,
		probeGraceMs: Infinity,
		now: () => now,
		wait: async (ms) => {
			waits.push(ms);
			now += ms;
		},
	});
	return { gate, waits };
}

/** A gate on a clock that only the test moves: `advance(ms)` ends the waits that are due. */
function clockGate(options: FakeOptions = {}) {
	let now = 0;
	const timers: Array<{ at: number; done: () => void }> = [];
	const gate = new RequestGate({
		rateLimitedRoundsToStop: options.rateLimitedRoundsToStop ?? 4,
		failedRoundsToOpen: options.failedRoundsToOpen,
		checkCredential: options.check,
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

/** A credential check the test answers when it likes; `asked` counts the checks sent. */
function manualCheck() {
	const pending: Array<(check: CredentialCheck) => void> = [];
	const check = () => new Promise<CredentialCheck>((resolve) => pending.push(resolve));
	return {
		check,
		get asked() {
			return pending.length;
		},
		/** Answers the checks sent so far (after letting the gate send them: one macrotask). */
		answer: async (verdict: CredentialVerdict, cause = `check: ${verdict}`) => {
			await new Promise((resolve) => setImmediate(resolve));
			for (const resolve of pending.splice(0)) resolve({ verdict, cause });
		},
	};
}

const answering =
	(verdict: CredentialVerdict, cause = `HTTP ${verdict === 'rejected' ? 401 : 404}`) =>
	async (): Promise<CredentialCheck> => ({ verdict, cause });

const answered = { kind: 'answered' } as const;
const down = { kind: 'unavailable', cause: 'ECONNREFUSED' } as const;
const refused = { cause: 'HTTP 401 UNAUTHORIZED: Bad key', code: 'UNAUTHORIZED', httpCode: 401 };
const limited = (waitMs: number) =>
	({ kind: 'rateLimited', cause: 'HTTP 429 RATE_LIMITED', waitMs }) as const;

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

/** Requests of items 0..n-1 (one request per item). */
const requests = (n: number) => Array.from({ length: n }, (_, item) => ({ item, request: {} }));

describe('the first request probes alone', () => {
	test('others wait until an answer proves the service, then all go', async () => {
		const { gate } = fakeGate();
		const [a, b, c] = [{}, {}, {}];
		const round = await gate.admit(a, 0);
		const waitingB = gate.admit(b, 1);
		const waitingC = gate.admit(c, 2);
		expect(await settled(waitingB)).toBe(false);
		gate.record(a, round, answered);
		expect(await settled(waitingB)).toBe(true);
		expect(await settled(waitingC)).toBe(true);
	});

	test('without an answer, time alone never lets the others go', async () => {
		const { gate, advance } = clockGate();
		const probe = {};
		const round = await gate.admit(probe, 0);
		const others = Array.from({ length: 49 }, (_, i) => gate.admit({}, i + 1));
		advance(60_000);
		expect(await settled(Promise.all(others))).toBe(false);
		gate.record(probe, round, answered);
		expect(await Promise.all(others)).toEqual(new Array(49).fill(0));
	});

	test('a failed probe lets another item probe; its own retry waits its turn', async () => {
		const { gate } = fakeGate();
		const [a, b, c] = [{}, {}, {}];
		gate.record(a, await gate.admit(a, 0), down);
		const waitingB = gate.admit(b, 1);
		// a's retry came first, but b is waiting and has not failed: b probes
		const retryA = gate.admit(a, 0);
		expect(await settled(waitingB)).toBe(true);
		expect(await settled(retryA)).toBe(false);
		const waitingC = gate.admit(c, 2);
		expect(await settled(waitingC)).toBe(false);
		gate.record(b, await waitingB, answered);
		expect(await settled(retryA)).toBe(true);
		expect(await settled(waitingC)).toBe(true);
	});

	test('a failing item alone (Items in Parallel 1) probes again itself', async () => {
		const { gate } = fakeGate();
		const a = {};
		gate.record(a, await gate.admit(a, 0), down);
		expect(await settled(gate.admit(a, 0))).toBe(true);
	});

	test('once proven, requests are not held back', async () => {
		const { gate } = fakeGate();
		const probe = {};
		gate.record(probe, await gate.admit(probe, 0), answered);
		const many = Array.from({ length: 50 }, (_, i) => gate.admit({}, i + 1));
		expect(await settled(Promise.all(many))).toBe(true);
	});
});

describe('the first probe’s grace: the credential check answers for the waiting requests', () => {
	test(`a probe unanswered for ${PROBE_GRACE_MS} ms: the check is sent; accepted, the others start while the probe is at work`, async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		await gate.admit({}, 0);
		const others = Array.from({ length: 49 }, (_, i) => gate.admit({}, i + 1));
		advance(PROBE_GRACE_MS - 1);
		expect(await settled(Promise.all(others))).toBe(false);
		expect(checks.asked).toBe(0);
		advance(1);
		expect(await settled(Promise.all(others))).toBe(false);
		expect(checks.asked).toBe(1);
		await checks.answer('accepted');
		expect(await Promise.all(others)).toEqual(new Array(49).fill(0));
	});

	test('the check refused: the gate stops, the others are never sent', async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		await gate.admit({}, 0);
		const other = gate.admit({}, 1);
		advance(PROBE_GRACE_MS);
		await checks.answer('rejected', 'HTTP 401 UNAUTHORIZED');
		await expect(other).rejects.toMatchObject({
			stop: { reason: 'credentialRejected', confirmedBy: 'HTTP 401 UNAUTHORIZED' },
		});
	});

	test('the check without an answer of the service: the others wait for the probe, however long', async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		const probe = {};
		const round = await gate.admit(probe, 0);
		const other = gate.admit({}, 1);
		advance(PROBE_GRACE_MS);
		await checks.answer('unknown', 'HTTP 504');
		advance(60_000);
		expect(await settled(other)).toBe(false);
		gate.record(probe, round, answered);
		expect(await other).toBe(0);
	});

	test('nobody waiting (Items in Parallel 1): no check', async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		await gate.admit({}, 0);
		advance(PROBE_GRACE_MS * 10);
		await new Promise((resolve) => setImmediate(resolve));
		expect(checks.asked).toBe(0);
	});

	test('a request that comes after the grace ended, the probe still unanswered, has the check sent', async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		await gate.admit({}, 0);
		advance(PROBE_GRACE_MS);
		const late = gate.admit({}, 1);
		expect(await settled(late)).toBe(false);
		expect(checks.asked).toBe(1);
		await checks.answer('accepted');
		expect(await settled(late)).toBe(true);
	});

	test('the grace’s check is the one a later refusal uses: one check in all', async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		const probe = {};
		const round = await gate.admit(probe, 0);
		const other = gate.admit({}, 1);
		advance(PROBE_GRACE_MS);
		const confirmed = gate.confirmRejection(probe, round, refused);
		await checks.answer('rejected', 'HTTP 401 UNAUTHORIZED');
		expect((await confirmed)?.verdict).toBe('rejected');
		await expect(other).rejects.toBeInstanceOf(GateStopped);
		expect(gate.credentialChecks).toBe(1);
		expect(gate.stop).toMatchObject({ reason: 'credentialRejected' });
	});

	test('after a failed round there is no grace: the next probe goes alone until an answer', async () => {
		const checks = manualCheck();
		const { gate, advance } = clockGate({ check: checks.check });
		const first = {};
		gate.record(first, await gate.admit(first, 0), down);
		gate.release(first);
		const next = {};
		await gate.admit(next, 1);
		const other = gate.admit({}, 2);
		advance(PROBE_GRACE_MS * 10);
		expect(await settled(other)).toBe(false);
		expect(checks.asked).toBe(0);
		gate.record(next, 1, answered);
		expect(await other).toBe(1);
	});
});

describe('a refused answer is confirmed with the credential check', () => {
	test('the check refused too: the gate stops, every waiting request learns why', async () => {
		const checks = manualCheck();
		const { gate } = fakeGate({ check: checks.check });
		const [a, b] = [{}, {}];
		const round = await gate.admit(a, 0);
		const waitingB = gate.admit(b, 1);
		const confirmed = gate.confirmRejection(a, round, refused);
		expect(await settled(waitingB)).toBe(false);
		expect(checks.asked).toBe(1);
		await checks.answer('rejected', 'HTTP 401 UNAUTHORIZED');
		expect(await confirmed).toEqual({ verdict: 'rejected', cause: 'HTTP 401 UNAUTHORIZED' });
		await expect(waitingB).rejects.toBeInstanceOf(GateStopped);
		await expect(gate.admit({}, 2)).rejects.toMatchObject({
			stop: {
				reason: 'credentialRejected',
				cause: refused.cause,
				code: 'UNAUTHORIZED',
				httpCode: 401,
				rounds: 1,
				confirmedBy: 'HTTP 401 UNAUTHORIZED',
			},
		});
		expect(gate.credentialChecks).toBe(1);
	});

	test('the check accepted: the refusal is that record’s own, and it proves the service', async () => {
		const checks = manualCheck();
		const { gate } = fakeGate({ check: checks.check });
		const [a, b] = [{}, {}];
		const round = await gate.admit(a, 0);
		const waitingB = gate.admit(b, 1);
		const confirmed = gate.confirmRejection(a, round, refused);
		await checks.answer('accepted', 'HTTP 404 NOT_FOUND');
		expect((await confirmed)?.verdict).toBe('accepted');
		expect(gate.stop).toBeUndefined();
		expect(await waitingB).toBe(0);
	});

	test('while the check is out, nothing new is admitted, even once proven', async () => {
		const checks = manualCheck();
		const { gate } = fakeGate({ check: checks.check });
		const probe = {};
		gate.record(probe, await gate.admit(probe, 0), answered);
		const x = {};
		const confirmed = gate.confirmRejection(x, await gate.admit(x, 1), refused);
		const later = gate.admit({}, 2);
		expect(await settled(later)).toBe(false);
		await checks.answer('accepted');
		await confirmed;
		expect(await settled(later)).toBe(true);
	});

	test('one check per execution: refusals at the same time share it, later ones reuse its verdict', async () => {
		const checks = manualCheck();
		const { gate } = fakeGate({ check: checks.check });
		const probe = {};
		gate.record(probe, await gate.admit(probe, 0), answered);
		const [x, y, z] = [{}, {}, {}];
		const [rx, ry] = [await gate.admit(x, 1), await gate.admit(y, 2)];
		const both = Promise.all([
			gate.confirmRejection(x, rx, refused),
			gate.confirmRejection(y, ry, refused),
		]);
		await checks.answer('accepted');
		await both;
		await gate.confirmRejection(z, await gate.admit(z, 3), refused);
		expect(checks.asked).toBe(0);
		expect(gate.credentialChecks).toBe(1);
		expect(gate.stop).toBeUndefined();
	});

	test(`a check without an answer of the service proves nothing: sent again, at most ${MAX_CREDENTIAL_CHECKS} times`, async () => {
		let asked = 0;
		const { gate } = fakeGate({
			check: async () => {
				asked++;
				return { verdict: 'unknown', cause: 'HTTP 503' };
			},
		});
		for (let i = 0; i < MAX_CREDENTIAL_CHECKS + 2; i++) {
			const x = {};
			expect((await gate.confirmRejection(x, await gate.admit(x, i), refused))?.verdict).toBe(
				'unknown',
			);
			gate.release(x);
		}
		expect(asked).toBe(MAX_CREDENTIAL_CHECKS);
		expect(gate.stop).toBeUndefined();
	});

	test('a check that throws proves nothing either', async () => {
		const { gate } = fakeGate({
			check: async () => {
				throw new Error('socket hang up');
			},
		});
		const x = {};
		const check = await gate.confirmRejection(x, await gate.admit(x, 0), refused);
		expect(check?.verdict).toBe('unknown');
		expect(gate.stop).toBeUndefined();
	});

	test('without a check, a refused answer is taken at its word', async () => {
		const { gate } = fakeGate();
		const x = {};
		await gate.confirmRejection(x, await gate.admit(x, 0), refused);
		expect(gate.stop?.reason).toBe('credentialRejected');
	});

	test('a stop is not undone by a later answer of a request already in flight', async () => {
		const { gate } = fakeGate({ check: answering('rejected') });
		const probe = {};
		gate.record(probe, await gate.admit(probe, 0), answered);
		const [x, y] = [{}, {}];
		const [rx, ry] = [await gate.admit(x, 1), await gate.admit(y, 2)];
		await gate.confirmRejection(x, rx, refused);
		gate.record(y, ry, answered);
		expect(gate.stop?.reason).toBe('credentialRejected');
	});
});

describe('the circuit counts different items, never one item’s retries', () => {
	test('one item failing round after round never opens it', async () => {
		const { gate } = fakeGate();
		const a = {};
		for (let i = 0; i < 20; i++) gate.record(a, await gate.admit(a, 7), down);
		expect(gate.stop).toBeUndefined();
	});

	test(`opens after ${FAILED_ROUNDS_TO_OPEN} failed rounds of ${DISTINCT_ITEMS_TO_STOP} different items`, async () => {
		const { gate } = fakeGate();
		const items = requests(DISTINCT_ITEMS_TO_STOP);
		for (const [i, { item, request }] of items.entries()) {
			expect(gate.stop).toBeUndefined();
			gate.record(request, await gate.admit(request, item), {
				...down,
				cause: `HTTP 503 (item ${i})`,
			});
		}
		expect(gate.stop).toEqual({
			reason: 'serviceUnavailable',
			cause: `HTTP 503 (item ${DISTINCT_ITEMS_TO_STOP - 1})`,
			rounds: FAILED_ROUNDS_TO_OPEN,
			items: DISTINCT_ITEMS_TO_STOP,
		});
		await expect(gate.admit({}, 99)).rejects.toBeInstanceOf(GateStopped);
	});

	test('and needs the rounds too: Retries 3 asks for 4 (one item’s attempts)', async () => {
		const { gate } = fakeGate({ failedRoundsToOpen: 4 });
		const [a, b, c] = [{}, {}, {}];
		gate.record(a, await gate.admit(a, 0), down);
		gate.record(b, await gate.admit(b, 1), down);
		gate.record(c, await gate.admit(c, 2), down);
		expect(gate.stop).toBeUndefined();
		gate.record(a, await gate.admit(a, 0), down);
		expect(gate.stop).toMatchObject({ rounds: 4, items: 3 });
	});

	test('at Items in Parallel 1: two items exhausting their retries, then a third item fails', async () => {
		const { gate } = fakeGate({ failedRoundsToOpen: 4 });
		for (const item of [0, 1]) {
			const request = {};
			for (let attempt = 0; attempt < 4; attempt++)
				gate.record(request, await gate.admit(request, item), down);
			gate.release(request);
			expect(gate.stop).toBeUndefined();
		}
		const third = {};
		gate.record(third, await gate.admit(third, 2), down);
		expect(gate.stop).toMatchObject({ reason: 'serviceUnavailable', rounds: 9, items: 3 });
	});

	test('requests in flight when a round failed count as that one round', async () => {
		const { gate } = fakeGate();
		const probe = {};
		gate.record(probe, await gate.admit(probe, 0), answered);
		const inFlight = requests(50);
		const rounds = await Promise.all(
			inFlight.map(({ item, request }) => gate.admit(request, item)),
		);
		inFlight.forEach(({ request }, i) => gate.record(request, rounds[i], down));
		expect(gate.stop).toBeUndefined();
	});

	test('a good answer between failures closes it again', async () => {
		const { gate } = fakeGate();
		const items = requests(5);
		const at = async (i: number, outcome: Exclude<AttemptOutcome, { kind: 'rejected' }>) => {
			const { item, request } = items[i];
			gate.record(request, await gate.admit(request, item), outcome);
		};
		await at(0, down);
		await at(1, down);
		await at(2, answered);
		await at(3, down);
		await at(4, down);
		expect(gate.stop).toBeUndefined();
	});

	test('an item that failed before another item was answered fails on its own from then on', async () => {
		const { gate } = fakeGate();
		const [bad, good] = [{}, {}];
		gate.record(bad, await gate.admit(bad, 7), down);
		gate.record(good, await gate.admit(good, 8), answered);
		// item 7's retries fail: the others are not held back, and they never count
		for (let i = 0; i < 10; i++) {
			gate.record(bad, await gate.admit(bad, 7), down);
			expect(await settled(gate.admit({}, 100 + i))).toBe(true);
		}
		const [x, y, z] = [{}, {}, {}];
		gate.record(x, await gate.admit(x, 20), down);
		gate.record(y, await gate.admit(y, 21), down);
		expect(gate.stop).toBeUndefined();
		gate.record(z, await gate.admit(z, 22), down);
		expect(gate.stop).toMatchObject({ items: 3 });
	});
});

describe('429: one shared wait, a stop only when different items keep getting it', () => {
	test('every request waits out the Retry-After together, then another item probes', async () => {
		const { gate, waits } = fakeGate();
		const probe = {};
		gate.record(probe, await gate.admit(probe, 0), answered);
		gate.release(probe);
		const inFlight = requests(50);
		const rounds = await Promise.all(
			inFlight.map(({ item, request }) => gate.admit(request, item)),
		);
		// 50 answers of one storm: one round, one pause of the longest wait
		inFlight.forEach(({ request }, i) =>
			gate.record(request, rounds[i], limited(i === 0 ? 1000 : 2000)),
		);
		// item 0 got the round's news: its retry, though first, lets the next item probe
		const retry0 = gate.admit(inFlight[0].request, 0);
		const next = {};
		const probing = gate.admit(next, 60);
		const retry1 = gate.admit(inFlight[1].request, 1);
		expect(await probing).toBe(1);
		expect(waits[0]).toBe(2000);
		expect(await settled(retry0)).toBe(false);
		expect(await settled(retry1)).toBe(false);
		gate.record(next, 1, answered);
		expect(await settled(retry0)).toBe(true);
		expect(await settled(retry1)).toBe(true);
	});

	test(`stops after 4 rounds (one item's attempts) of 429 over ${DISTINCT_ITEMS_TO_STOP} different items`, async () => {
		const { gate } = fakeGate({ rateLimitedRoundsToStop: 4 });
		const items = requests(4);
		for (const { item, request } of items.slice(0, 3))
			gate.record(request, await gate.admit(request, item), limited(1000));
		expect(gate.stop).toBeUndefined();
		gate.record(items[3].request, await gate.admit(items[3].request, 3), limited(1000));
		expect(gate.stop).toMatchObject({ reason: 'rateLimited', rounds: 4, items: 4 });
	});

	test('one record answering 429 to every attempt (Items in Parallel 1) never stops the gate', async () => {
		const { gate, waits } = fakeGate({ rateLimitedRoundsToStop: 4 });
		const record = {};
		for (let attempt = 0; attempt < 4; attempt++)
			gate.record(record, await gate.admit(record, 7), limited(1000));
		gate.release(record);
		expect(gate.stop).toBeUndefined();
		expect(waits).toEqual([1000, 1000, 1000]);
		const next = {};
		gate.record(next, await gate.admit(next, 8), answered);
		expect(gate.stop).toBeUndefined();
	});

	test('a record’s own 429 (after another item was answered) makes that item wait alone', async () => {
		const { gate, advance } = clockGate();
		const [record, other] = [{}, {}];
		gate.record(record, await gate.admit(record, 7), limited(1000));
		advance(1000);
		gate.record(other, await gate.admit(other, 8), answered);
		// item 7 again: only item 7 waits its Retry-After
		gate.record(record, await gate.admit(record, 7), limited(1000));
		const retry = gate.admit(record, 7);
		expect(await settled(gate.admit({}, 9))).toBe(true);
		expect(await settled(retry)).toBe(false);
		advance(1000);
		expect(await settled(retry)).toBe(true);
	});

	test('rate limiting does not count toward the outage circuit', async () => {
		const { gate } = fakeGate({ rateLimitedRoundsToStop: 10 });
		for (const { item, request } of requests(5))
			gate.record(request, await gate.admit(request, item), limited(10));
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
			'status_code 403 in an envelope inside HTTP 422',
			422,
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

describe('what the credential check says about the key', () => {
	test.each<[string, number | undefined, unknown, CredentialVerdict]>([
		[
			'404 NOT_FOUND (the journey that cannot exist)',
			404,
			{ success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
			'accepted',
		],
		[
			'403 PERMISSION_DENIED (a key without the journey permission)',
			403,
			{ success: false, message: 'No permission', error_code: 'PERMISSION_DENIED' },
			'accepted',
		],
		[
			'403 variant D forbidden (the key recognised, the permission missing)',
			403,
			{ success: false, status_code: 403, message: 'no', message_code: 'forbidden' },
			'accepted',
		],
		[
			'400 INVALID_CLIENT_ID',
			400,
			{ success: false, message: 'Invalid Client ID', error_code: 'INVALID_CLIENT_ID' },
			'accepted',
		],
		[
			'401 UNAUTHORIZED',
			401,
			{ success: false, message: 'Invalid API key or secret', error_code: 'UNAUTHORIZED' },
			'rejected',
		],
		['401 without a body', 401, '', 'rejected'],
		[
			'UNAUTHORIZED inside HTTP 200',
			200,
			{ success: false, message: 'Bad key', error_code: 'unauthorized' },
			'rejected',
		],
		[
			'status_code 401 in variant B inside HTTP 400',
			400,
			{ status: 'error', status_code: 401, message: 'Auth failed', request_id: 'r' },
			'rejected',
		],
		['403 HTML page of a gateway', 403, '<html>Forbidden</html>', 'rejected'],
		['no answer (connection refused)', undefined, undefined, 'unknown'],
		[
			'503',
			503,
			{ success: false, message: 'Down', error_code: 'UPSTREAM_UNAVAILABLE' },
			'unknown',
		],
		['504 HTML page', 504, '<html>Gateway Time-out</html>', 'unknown'],
		['429', 429, { success: false, message: 'Slow down', error_code: 'RATE_LIMITED' }, 'unknown'],
		['200 HTML page (not the service)', 200, '<html>Welcome</html>', 'unknown'],
		['200 without an error code', 200, { success: true, data: {} }, 'unknown'],
	])('%s', (_label, status, body, expected) => {
		expect(credentialCheckVerdict(status, body)).toBe(expected);
	});
});
