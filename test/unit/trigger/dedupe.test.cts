import {
	claimInProcess,
	clearInProcess,
	deliveryKey,
	inProcessRecordSize,
	MAX_IN_PROCESS_DELIVERIES,
	MAX_KEY_LENGTH,
	MAX_RECORD_BYTES,
	releaseInProcess,
} from '../../../nodes/FinVerifyTrigger/dedupe';

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
	});

	test('entries older than the window are dropped as new ones arrive', () => {
		const scope = `t-${Math.random()}`;
		for (let i = 0; i < 100; i++) claimInProcess(scope, `k${i}`, i * 1000, 10_000);
		// only the last 10 s are kept (plus the one being added)
		expect(inProcessRecordSize(scope).entries).toBeLessThanOrEqual(11);
		expect(claimInProcess(scope, 'k95', 99_500, 10_000)).toBe(false);
		expect(claimInProcess(scope, 'k0', 99_500, 10_000)).toBe(true);
	});

	test(`bounded in bytes: ${MAX_IN_PROCESS_DELIVERIES.toLocaleString('en')} keys at most, ≤ ${MAX_RECORD_BYTES.toLocaleString('en')} bytes, after 20% more unique deliveries inside one window`, () => {
		const scope = `t-${Math.random()}`;
		const total = Math.round(MAX_IN_PROCESS_DELIVERIES * 1.2);
		const keys: string[] = [];
		// checked once after the loop: 120,000 expect() calls took most of this file's time
		let longest = 0;
		let refused = 0;
		for (let i = 0; i < total; i++) {
			const key = deliveryKey(undefined, Buffer.from(`{"n":${i}}`), '1700000000')!;
			longest = Math.max(longest, key.length);
			keys.push(key);
			if (!claimInProcess(scope, key, i, 3_600_000)) refused++;
		}
		expect(longest).toBeLessThanOrEqual(MAX_KEY_LENGTH);
		expect(refused).toBe(0);
		const size = inProcessRecordSize(scope);
		expect(size.entries).toBe(MAX_IN_PROCESS_DELIVERIES);
		expect(size.bytes).toBeLessThanOrEqual(MAX_RECORD_BYTES);
		// the newest are remembered, the oldest were given up first
		expect(claimInProcess(scope, keys[total - 1], total, 3_600_000)).toBe(false);
		expect(claimInProcess(scope, keys[0], total, 3_600_000)).toBe(true);
		clearInProcess(scope);
		expect(inProcessRecordSize(scope)).toEqual({ entries: 0, bytes: 0 });
	});
});
