import { checkDelivery, deliveryKey, readSeen } from '../../../nodes/FinVerifyTrigger/dedupe';
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
	test('prefers the delivery id', () => {
		expect(deliveryKey('wh_1', Buffer.from('{}'))).toBe('id:wh_1');
	});

	test('without an id, identical bodies give the same key and different bodies different keys', () => {
		const a = deliveryKey(null, Buffer.from('{"client_id":"a","status":"failed"}'));
		expect(a).toMatch(/^body:[0-9a-f]{64}$/);
		expect(deliveryKey(undefined, '{"client_id":"a","status":"failed"}')).toBe(a);
		expect(deliveryKey(null, Buffer.from('{"client_id":"a","status":"expired"}'))).not.toBe(a);
	});

	test('nothing to key on', () => {
		expect(deliveryKey(null, undefined)).toBeUndefined();
		expect(deliveryKey('', Buffer.alloc(0))).toBeUndefined();
	});
});
