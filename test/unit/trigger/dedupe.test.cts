import {
	checkDelivery,
	claimInProcess,
	deliveryKey,
	readSeen,
	releaseInProcess,
} from '../../../nodes/FinVerifyTrigger/dedupe';
import type { SeenDelivery } from '../../../nodes/FinVerifyTrigger/dedupe';

const HOUR = 3_600_000;
const T0 = 1_750_000_000_000;

describe('checkDelivery', () => {
	test('first delivery is new and remembered; the same id again is a duplicate', () => {
		const first = checkDelivery([], 'id:a', T0, HOUR);
		expect(first).toEqual({ duplicate: false, seen: [{ id: 'id:a', at: T0 }] });
		const again = checkDelivery(first.seen, 'id:a', T0 + 1000, HOUR);
		expect(again.duplicate).toBe(true);
		// the first-seen time is kept, so a stream of retries cannot extend the window forever
		expect(again.seen).toEqual([{ id: 'id:a', at: T0 }]);
	});

	test('other ids are not duplicates', () => {
		const { seen } = checkDelivery([], 'id:a', T0, HOUR);
		const b = checkDelivery(seen, 'id:b', T0 + 1, HOUR);
		expect(b.duplicate).toBe(false);
		expect(b.seen.map((e) => e.id)).toEqual(['id:a', 'id:b']);
	});

	test('outside the window the same id is new again, and old entries are pruned', () => {
		const seen: SeenDelivery[] = [
			{ id: 'id:a', at: T0 },
			{ id: 'id:b', at: T0 + HOUR / 2 },
		];
		const later = checkDelivery(seen, 'id:a', T0 + HOUR, HOUR);
		expect(later.duplicate).toBe(false);
		expect(later.seen).toEqual([
			{ id: 'id:b', at: T0 + HOUR / 2 },
			{ id: 'id:a', at: T0 + HOUR },
		]);
	});

	test('just inside the window is still a duplicate', () => {
		const { seen } = checkDelivery([], 'id:a', T0, HOUR);
		expect(checkDelivery(seen, 'id:a', T0 + HOUR - 1, HOUR).duplicate).toBe(true);
	});

	test('the list is bounded: the oldest entries are dropped first', () => {
		let seen: SeenDelivery[] = [];
		for (let i = 0; i < 10; i++) seen = checkDelivery(seen, `id:${i}`, T0 + i, HOUR, 5).seen;
		expect(seen.map((e) => e.id)).toEqual(['id:5', 'id:6', 'id:7', 'id:8', 'id:9']);
		expect(checkDelivery(seen, 'id:9', T0 + 20, HOUR, 5).duplicate).toBe(true);
		expect(checkDelivery(seen, 'id:0', T0 + 20, HOUR, 5).duplicate).toBe(false);
	});

	test('entries stamped far in the future (clock jump) are pruned', () => {
		const seen = [{ id: 'id:a', at: T0 + 10 * HOUR }];
		expect(checkDelivery(seen, 'id:a', T0, HOUR).duplicate).toBe(false);
	});

	test('does not mutate its input', () => {
		const seen = [{ id: 'id:a', at: T0 }];
		checkDelivery(seen, 'id:b', T0, HOUR);
		expect(seen).toEqual([{ id: 'id:a', at: T0 }]);
	});
});

describe('readSeen', () => {
	test('keeps well-formed entries only', () => {
		expect(readSeen(undefined)).toEqual([]);
		expect(readSeen({ a: 1 })).toEqual([]);
		expect(readSeen([{ id: 'x', at: 1 }, { id: 2, at: 1 }, null, 'x', { id: 'y' }])).toEqual([
			{ id: 'x', at: 1 },
		]);
	});
});

describe('deliveryKey', () => {
	test('the signed body event id wins; the same id gives the same key whatever else differs', () => {
		const key = deliveryKey('evt_1', Buffer.from('{"id":"evt_1"}'), '1700000000');
		expect(key).toMatch(/^event:[A-Za-z0-9_-]{32}$/);
		expect(deliveryKey('evt_1', Buffer.from('{"id":"evt_1","x":1}'), '1700000999')).toBe(key);
		expect(deliveryKey('evt_2', Buffer.from('{"id":"evt_1"}'), '1700000000')).not.toBe(key);
	});

	test('without an id: the signed timestamp and body (a replay of the captured bytes is caught)', () => {
		const body = Buffer.from('{"client_id":"a","status":"failed"}');
		const a = deliveryKey(undefined, body, '1700000000');
		expect(a).toMatch(/^signed:/);
		expect(deliveryKey(null, body.toString(), '1700000000')).toBe(a);
		expect(deliveryKey(null, body, '1700000001')).not.toBe(a);
		expect(
			deliveryKey(null, Buffer.from('{"client_id":"a","status":"expired"}'), '1700000000'),
		).not.toBe(a);
	});

	test('unsigned senders: a hash of the body', () => {
		const a = deliveryKey(null, Buffer.from('{"client_id":"a","status":"failed"}'));
		expect(a).toMatch(/^body:/);
		expect(deliveryKey(undefined, '{"client_id":"a","status":"failed"}')).toBe(a);
		expect(deliveryKey(null, Buffer.from('{"client_id":"a","status":"expired"}'))).not.toBe(a);
	});

	test('nothing to key on', () => {
		expect(deliveryKey(null, undefined)).toBeUndefined();
		expect(deliveryKey('', Buffer.alloc(0))).toBeUndefined();
	});
});

describe('in-process record (simultaneous copies on one process)', () => {
	test('of two claims of one key only the first wins, until the window passes', () => {
		const scope = `t-${Math.random()}`;
		expect(claimInProcess(scope, 'k', 1_000, 60_000)).toBe(true);
		expect(claimInProcess(scope, 'k', 1_001, 60_000)).toBe(false);
		expect(claimInProcess(scope, 'k', 61_000, 60_000)).toBe(true);
	});

	test('a released key (its delivery was not acknowledged) can be claimed again', () => {
		const scope = `t-${Math.random()}`;
		expect(claimInProcess(scope, 'k', 1_000, 60_000)).toBe(true);
		releaseInProcess(scope, 'k');
		expect(claimInProcess(scope, 'k', 1_001, 60_000)).toBe(true);
	});

	test('delivery #1 is remembered inside its window after 5,000 newer ones (time-bounded, not 1,000)', () => {
		const scope = `t-${Math.random()}`;
		claimInProcess(scope, 'first', 0, 3_600_000);
		for (let i = 0; i < 5_000; i++) claimInProcess(scope, `k${i}`, i, 3_600_000);
		expect(claimInProcess(scope, 'first', 6_000, 3_600_000)).toBe(false);
		let seen = readSeen([]);
		seen = checkDelivery(seen, 'first', 0, 3_600_000).seen;
		for (let i = 0; i < 5_000; i++) seen = checkDelivery(seen, `k${i}`, i, 3_600_000).seen;
		expect(checkDelivery(seen, 'first', 6_000, 3_600_000).duplicate).toBe(true);
	});
});
