import {
	claimInProcess,
	clearInProcess,
	deliveryKey,
	inProcessRecordSize,
	MAX_IN_PROCESS_DELIVERIES,
	MAX_KEY_LENGTH,
	MAX_RECORD_BYTES,
	releaseInProcess,
	type EventIdentity,
} from '../../../nodes/FinVerifyTrigger/dedupe';
import { eventOwnTime, normalizeEvent } from '../../../nodes/shared/events';
import {
	isUnanswered,
	markAnswered,
	markProcessedInProcess,
	markUnanswered,
	unansweredCount,
	UNANSWERED_LIMIT_MS,
} from '../../../nodes/shared/unanswered';

const journey = (fields: Partial<EventIdentity> = {}): EventIdentity => ({
	type: 'journey',
	id: 'a',
	status: 'failed',
	previousStatus: 'consent_pending',
	ownTime: '2026-11-29T10:00:00.000Z',
	...fields,
});

describe('deliveryKey', () => {
	test('the signed body event id wins; the same id gives the same key whatever else differs', () => {
		const key = deliveryKey('evt_1', journey());
		expect(key).toMatch(/^event:[A-Za-z0-9_-]{32}$/);
		expect(deliveryKey('evt_1', journey({ status: 'expired', ownTime: null }))).toBe(key);
		expect(deliveryKey(' evt_1 ', journey())).toBe(key);
		expect(deliveryKey('evt_2', journey())).not.toBe(key);
		expect(deliveryKey(7, journey())).toMatch(/^event:/);
	});

	test("without an id: the event's own fields, the same for every attempt of one event", () => {
		const key = deliveryKey(undefined, journey());
		expect(key).toMatch(/^fields:[A-Za-z0-9_-]{32}$/);
		expect(key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
		// nothing of the delivery takes part: a blank id or a padded subject id is the same event
		expect(deliveryKey(null, journey())).toBe(key);
		expect(deliveryKey('  ', journey())).toBe(key);
		expect(deliveryKey(undefined, journey({ id: ' a ' }))).toBe(key);
	});

	test('each field of the event tells events apart', () => {
		const key = deliveryKey(undefined, journey());
		const others = [
			journey({ type: 'session' }),
			journey({ id: 'b' }),
			journey({ status: 'expired' }),
			journey({ previousStatus: null }),
			journey({ previousStatus: 'initiated' }),
			journey({ ownTime: null }),
			journey({ ownTime: '2026-11-29T10:00:01.000Z' }),
		].map((event) => deliveryKey(undefined, event));
		expect(new Set([key, ...others]).size).toBe(others.length + 1);
	});

	test('field values cannot run into each other (canonical, not concatenated)', () => {
		expect(deliveryKey(undefined, journey({ id: 'a', status: 'b_c' }))).not.toBe(
			deliveryKey(undefined, journey({ id: 'a_b', status: 'c' })),
		);
	});
});

describe('eventOwnTime: the time the event states, never the delivery time', () => {
	test('its own fields, top level first, then data; every spelling of one instant is one value', () => {
		const iso = '2026-11-29T10:00:00.000Z';
		expect(eventOwnTime({ updated_at: '2026-11-29T10:00:00Z' })).toBe(iso);
		expect(eventOwnTime({ updated_at: 1795600800 })).toBe(new Date(1795600800_000).toISOString());
		expect(eventOwnTime({ occurred_at: '2026-11-29T15:30:00+05:30' })).toBe(iso);
		expect(eventOwnTime({ data: { updated_at: iso } })).toBe(iso);
		expect(eventOwnTime({ updated_at: iso, data: { updated_at: '2020-01-01T00:00:00Z' } })).toBe(
			iso,
		);
		expect(eventOwnTime({ client_id: 'a', status: 'failed' })).toBeNull();
		expect(eventOwnTime({ updated_at: '' })).toBeNull();
	});

	test('a body re-serialised or re-signed keeps its key; a new status change gets a new one', () => {
		const body = {
			event: 'aa_bsa_journey.status_changed',
			client_id: 'j1',
			status: 'Completed',
			previous_status: 'data_fetched',
			updated_at: '2026-11-29T10:00:00Z',
		};
		const keyOf = (raw: string, timestampHeader: string) => {
			const parsed = JSON.parse(raw) as Record<string, string>;
			const normalized = normalizeEvent(parsed, { timestamp: timestampHeader });
			if (!normalized.ok) throw new Error(normalized.message);
			const { type, id, status, previousStatus } = normalized.event;
			return deliveryKey(parsed.id, {
				type,
				id,
				status,
				previousStatus,
				ownTime: eventOwnTime(parsed),
			});
		};
		const first = keyOf(JSON.stringify(body), '1795600800');
		// the next attempt: signed 30 s later, keys in another order, another spacing
		const reordered = JSON.stringify(
			{ ...body, client_id: 'j1', event: body.event },
			Object.keys(body).reverse(),
			2,
		);
		expect(keyOf(reordered, '1795600830')).toBe(first);
		expect(keyOf(JSON.stringify({ ...body, status: 'analysis_complete' }), '1795600900')).toBe(
			first,
		);
		expect(
			keyOf(JSON.stringify({ ...body, updated_at: '2026-11-29T10:05:00Z' }), '1795600830'),
		).not.toBe(first);
		// without a time of its own, the event is its type, subject and status change
		const { updated_at: _dropped, ...timeless } = body;
		expect(keyOf(JSON.stringify(timeless), '1795600800')).toBe(
			keyOf(JSON.stringify(timeless), '1795600999'),
		);
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
			const key = deliveryKey(undefined, journey({ id: `j${i}` }));
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

describe('version 1.3: deliveries whose sender is not answered yet', () => {
	const scope = 'wf-unanswered:node:';
	const t0 = 1_800_000_000_000;

	test('accepted and not answered: a copy is "being processed"; answered: no longer', () => {
		markUnanswered(scope, 'event:a', t0);
		expect(isUnanswered(scope, 'event:a', t0 + 1000)).toBe(true);
		expect(isUnanswered(scope, 'event:b', t0 + 1000)).toBe(false);
		// the same key of another trigger is another delivery
		expect(isUnanswered('wf-other:node:', 'event:a', t0 + 1000)).toBe(false);
		markAnswered(scope, 'event:a');
		expect(isUnanswered(scope, 'event:a', t0 + 2000)).toBe(false);
	});

	test('a sender that hung up: the entry ends after the limit, and old entries are dropped as new ones are checked', () => {
		const before = unansweredCount();
		markUnanswered(scope, 'event:hung-up', t0);
		markUnanswered(scope, 'event:later', t0 + UNANSWERED_LIMIT_MS - 1);
		expect(isUnanswered(scope, 'event:hung-up', t0 + UNANSWERED_LIMIT_MS - 1)).toBe(true);
		expect(isUnanswered(scope, 'event:hung-up', t0 + UNANSWERED_LIMIT_MS)).toBe(false);
		// the expired entry is gone, the later one stays
		expect(unansweredCount()).toBe(before + 1);
		expect(isUnanswered(scope, 'event:later', t0 + UNANSWERED_LIMIT_MS)).toBe(true);
		markAnswered(scope, 'event:later');
		expect(unansweredCount()).toBe(before);
	});

	test('accepted again (the first answered with an error, then re-sent): counted from the new time', () => {
		markUnanswered(scope, 'event:again', t0);
		markUnanswered(scope, 'event:again', t0 + UNANSWERED_LIMIT_MS);
		expect(isUnanswered(scope, 'event:again', t0 + UNANSWERED_LIMIT_MS + 1000)).toBe(true);
		markAnswered(scope, 'event:again');
	});

	test('marked processed (Mark Processed of the same workflow): no longer being processed, for every trigger of that workflow only', () => {
		markUnanswered('wf-m:trigger-a:', 'event:d', t0);
		markUnanswered('wf-m:trigger-b:', 'event:d', t0);
		markUnanswered('wf-m:trigger-a:', 'event:other', t0);
		markUnanswered('wf-mx:trigger-a:', 'event:d', t0);
		markProcessedInProcess('wf-m', 'event:d');
		expect(isUnanswered('wf-m:trigger-a:', 'event:d', t0 + 1)).toBe(false);
		expect(isUnanswered('wf-m:trigger-b:', 'event:d', t0 + 1)).toBe(false);
		expect(isUnanswered('wf-m:trigger-a:', 'event:other', t0 + 1)).toBe(true);
		// another workflow whose id starts the same
		expect(isUnanswered('wf-mx:trigger-a:', 'event:d', t0 + 1)).toBe(true);
		markAnswered('wf-m:trigger-a:', 'event:other');
		markAnswered('wf-mx:trigger-a:', 'event:d');
	});

	test('unpublishing the workflow forgets its deliveries only', () => {
		markUnanswered(scope, 'event:c', t0);
		markUnanswered('wf-kept:node:', 'event:c', t0);
		clearInProcess(scope);
		expect(isUnanswered(scope, 'event:c', t0 + 1)).toBe(false);
		expect(isUnanswered('wf-kept:node:', 'event:c', t0 + 1)).toBe(true);
		markAnswered('wf-kept:node:', 'event:c');
	});
});
