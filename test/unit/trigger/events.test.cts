import {
	applyFilter,
	isFinalStatus,
	normalizeEvent,
	normalizeStatus,
	parseJsonBody,
	toIsoTime,
} from '../../../nodes/shared/events';
import type { EventFilter, NormalizedEvent } from '../../../nodes/shared/events';

const NOW_MS = Date.parse('2025-06-15T10:00:00.000Z');

const ok = (result: ReturnType<typeof normalizeEvent>): NormalizedEvent => {
	if (!result.ok) throw new Error(`expected an event, got ${result.reason}: ${result.message}`);
	return result.event;
};

describe('parseJsonBody', () => {
	test('parses the raw bytes', () => {
		expect(parseJsonBody(Buffer.from('{"a":1}'))).toEqual({ ok: true, body: { a: 1 } });
	});

	test('malformed JSON', () => {
		expect(parseJsonBody(Buffer.from('{"a":'))).toMatchObject({
			ok: false,
			reason: 'malformed_json',
		});
		expect(parseJsonBody('not json')).toMatchObject({ ok: false, reason: 'malformed_json' });
	});

	test('JSON that is not an object', () => {
		expect(parseJsonBody('[1,2]')).toMatchObject({ ok: false, reason: 'not_an_object' });
		expect(parseJsonBody('"text"')).toMatchObject({ ok: false, reason: 'not_an_object' });
		expect(parseJsonBody('null')).toMatchObject({ ok: false, reason: 'not_an_object' });
	});

	test('falls back to the parsed body when there are no raw bytes', () => {
		expect(parseJsonBody(undefined, { a: 2 })).toEqual({ ok: true, body: { a: 2 } });
		expect(parseJsonBody(Buffer.alloc(0), { a: 3 })).toEqual({ ok: true, body: { a: 3 } });
		expect(parseJsonBody(undefined, undefined)).toMatchObject({
			ok: false,
			reason: 'not_an_object',
		});
	});
});

describe('normalizeEvent: the sandbox (documented) bodies', () => {
	test('journey event', () => {
		const body = {
			event: 'aa_bsa_journey.status_changed',
			client_id: 'aa_0123456789abcdef01234567',
			status: 'consent_granted',
			previous_status: 'consent_pending',
			updated_at: '2025-06-15T09:59:58.123Z',
			data: {
				client_id: 'aa_0123456789abcdef01234567',
				status: 'consent_granted',
				total_accounts: 2,
			},
		};
		expect(ok(normalizeEvent(body, { deliveryId: 'wh_1', nowMs: NOW_MS }))).toEqual({
			type: 'journey',
			id: 'aa_0123456789abcdef01234567',
			// the same id under the name Start Journey outputs it
			clientId: 'aa_0123456789abcdef01234567',
			sessionId: null,
			event: 'aa_bsa_journey.status_changed',
			status: 'consent_granted',
			previousStatus: 'consent_pending',
			isFinal: false,
			occurredAt: '2025-06-15T09:59:58.123Z',
			deliveryId: 'wh_1',
			flow: null,
			raw: body,
		});
	});

	test('session event', () => {
		const body = {
			event: 'collection_session.status_changed',
			session_id: 'cs_abc123',
			flow: 'itr',
			status: 'completed',
			previous_status: 'created',
			updated_at: '2025-06-15T09:00:00Z',
			data: { session_id: 'cs_abc123', status: 'completed' },
		};
		expect(ok(normalizeEvent(body, { deliveryId: 'wh_2' }))).toMatchObject({
			type: 'session',
			id: 'cs_abc123',
			event: 'collection_session.status_changed',
			status: 'completed',
			previousStatus: 'created',
			isFinal: true,
			occurredAt: '2025-06-15T09:00:00.000Z',
			deliveryId: 'wh_2',
			flow: 'itr',
		});
	});
});

describe('normalizeEvent: journey status spellings', () => {
	test('the sample shape\'s "completed" becomes analysis_complete (and is final)', () => {
		const event = ok(
			normalizeEvent({
				client_id: 'aa_x12345',
				status: 'completed',
				previous_status: 'data_fetched',
			}),
		);
		expect(event.status).toBe('analysis_complete');
		expect(event.previousStatus).toBe('data_fetched');
		expect(event.isFinal).toBe(true);
	});

	test('previous status "completed" is normalized too; case and spaces are tidied', () => {
		const event = ok(
			normalizeEvent({
				client_id: 'aa_x12345',
				status: 'Consent Denied',
				previous_status: 'COMPLETED',
			}),
		);
		expect(event.status).toBe('consent_denied');
		expect(event.previousStatus).toBe('analysis_complete');
	});

	test('"completed" of a session stays "completed"', () => {
		expect(ok(normalizeEvent({ session_id: 'cs_1', status: 'completed' })).status).toBe(
			'completed',
		);
	});

	test('unknown statuses pass through, not final', () => {
		const event = ok(normalizeEvent({ client_id: 'aa_x12345', status: 'bank_selected' }));
		expect(event).toMatchObject({ status: 'bank_selected', isFinal: false });
	});
});

describe('normalizeEvent: partial and other shapes', () => {
	test('{client_id, status} without event is a journey event with the default event name', () => {
		const event = ok(
			normalizeEvent({ client_id: 'aa_x12345', status: 'initiated' }, { nowMs: NOW_MS }),
		);
		expect(event).toMatchObject({
			type: 'journey',
			id: 'aa_x12345',
			event: 'aa_bsa_journey.status_changed',
			previousStatus: null,
			deliveryId: null,
			occurredAt: '2025-06-15T10:00:00.000Z',
		});
	});

	test('{session_id, status} is a session event', () => {
		expect(ok(normalizeEvent({ session_id: 'cs_1', status: 'abandoned' }))).toMatchObject({
			type: 'session',
			id: 'cs_1',
			event: 'collection_session.status_changed',
			isFinal: true,
			flow: null,
		});
	});

	test('fields wrapped in data (reference status shape) are found', () => {
		const body = {
			success: true,
			message: 'ok',
			data: { client_id: 'aa_x12345', status: 'failed', updated_at: '2025-06-01T00:00:00Z' },
		};
		expect(ok(normalizeEvent(body))).toMatchObject({
			type: 'journey',
			id: 'aa_x12345',
			status: 'failed',
			isFinal: true,
			occurredAt: '2025-06-01T00:00:00.000Z',
		});
	});

	test('the event header names the event when the body does not', () => {
		const event = ok(
			normalizeEvent(
				{ client_id: 'aa_x12345', status: 'expired' },
				{ eventHeader: 'aa_bsa_journey.status_changed' },
			),
		);
		expect(event.event).toBe('aa_bsa_journey.status_changed');
	});

	test('the event name decides the type when both ids are present', () => {
		const both = { client_id: 'aa_x12345', session_id: 'cs_1', status: 'expired' };
		expect(ok(normalizeEvent({ ...both, event: 'collection_session.status_changed' })).type).toBe(
			'session',
		);
		expect(ok(normalizeEvent({ ...both, event: 'aa_bsa_journey.status_changed' })).type).toBe(
			'journey',
		);
		expect(ok(normalizeEvent(both, { eventHeader: 'aa_bsa_journey.status_changed' })).type).toBe(
			'journey',
		);
		// without a name, the session id wins
		expect(ok(normalizeEvent(both)).type).toBe('session');
	});

	test('an event name that contradicts the ids falls back to the ids', () => {
		expect(
			ok(
				normalizeEvent({
					event: 'collection_session.status_changed',
					client_id: 'aa_x12345',
					status: 'failed',
				}),
			).type,
		).toBe('journey');
	});

	test('camelCase field names are tolerated', () => {
		expect(
			ok(
				normalizeEvent({
					clientId: 'aa_x12345',
					status: 'failed',
					previousStatus: 'consent_granted',
				}),
			),
		).toMatchObject({
			id: 'aa_x12345',
			previousStatus: 'consent_granted',
		});
	});

	test('occurredAt from unix seconds, unix milliseconds or the timestamp header', () => {
		expect(
			ok(normalizeEvent({ client_id: 'aa_x12345', status: 'failed', updated_at: 1750000000 }))
				.occurredAt,
		).toBe('2025-06-15T15:06:40.000Z');
		expect(
			ok(normalizeEvent({ client_id: 'aa_x12345', status: 'failed', updated_at: 1750000000000 }))
				.occurredAt,
		).toBe('2025-06-15T15:06:40.000Z');
		expect(
			ok(normalizeEvent({ client_id: 'aa_x12345', status: 'failed' }, { timestamp: '1750000000' }))
				.occurredAt,
		).toBe('2025-06-15T15:06:40.000Z');
		expect(
			ok(
				normalizeEvent(
					{ client_id: 'aa_x12345', status: 'failed', updated_at: 'garbage' },
					{ nowMs: NOW_MS },
				),
			).occurredAt,
		).toBe('2025-06-15T10:00:00.000Z');
	});

	test('delivery id from the body when the header is absent', () => {
		expect(
			ok(normalizeEvent({ client_id: 'aa_x12345', status: 'failed', delivery_id: 'd1' }))
				.deliveryId,
		).toBe('d1');
	});

	test('session flow is lowercased', () => {
		expect(ok(normalizeEvent({ session_id: 'cs_1', status: 'created', flow: 'GST' })).flow).toBe(
			'gst',
		);
	});
});

describe('normalizeEvent: unrecognised bodies', () => {
	test.each([
		[{}],
		[{ hello: 'world' }],
		[{ event: 'aa_bsa_journey.status_changed' }],
		[{ status: 'completed' }],
		[{ client_id: 'aa_x12345' }],
		[{ session_id: 'cs_1', status: '' }],
		[{ client_id: { nested: 1 }, status: 'failed', data: 'x' }],
		[{ client_id: true, status: 'failed' }],
		[{ event: 'ping' }],
	])('%j → unrecognised_event', (body) => {
		expect(normalizeEvent(body as never)).toMatchObject({
			ok: false,
			reason: 'unrecognised_event',
		});
	});
});

describe('status helpers', () => {
	test('normalizeStatus', () => {
		expect(normalizeStatus('journey', ' Analysis-Complete ')).toBe('analysis_complete');
		expect(normalizeStatus('journey', null)).toBeNull();
		expect(normalizeStatus('session', 'COMPLETED')).toBe('completed');
	});

	test('isFinalStatus', () => {
		for (const s of ['analysis_complete', 'consent_denied', 'failed', 'expired'])
			expect(isFinalStatus('journey', s)).toBe(true);
		for (const s of ['initiated', 'consent_pending', 'consent_granted', 'data_fetched'])
			expect(isFinalStatus('journey', s)).toBe(false);
		for (const s of ['completed', 'expired', 'abandoned'])
			expect(isFinalStatus('session', s)).toBe(true);
		expect(isFinalStatus('session', 'created')).toBe(false);
	});

	test('toIsoTime', () => {
		expect(toIsoTime('2025-06-15T10:00:00+05:30')).toBe('2025-06-15T04:30:00.000Z');
		expect(toIsoTime(0)).toBeNull();
		expect(toIsoTime('')).toBeNull();
	});
});

describe('applyFilter', () => {
	const filter = (overrides: Partial<EventFilter> = {}): EventFilter => ({
		events: ['journey', 'session'],
		statusFilter: 'all',
		statuses: [],
		...overrides,
	});
	const journey = (status: string, isFinal = false) => ({
		type: 'journey' as const,
		status,
		isFinal,
	});
	const session = (status: string, isFinal = false) => ({
		type: 'session' as const,
		status,
		isFinal,
	});

	test('everything passes by default', () => {
		expect(applyFilter(journey('initiated'), filter())).toEqual({ pass: true });
		expect(applyFilter(session('created'), filter())).toEqual({ pass: true });
	});

	test('event types not selected are dropped', () => {
		expect(applyFilter(session('completed', true), filter({ events: ['journey'] }))).toEqual({
			pass: false,
			reason: 'event_not_selected',
		});
		expect(applyFilter(journey('failed', true), filter({ events: ['session'] }))).toEqual({
			pass: false,
			reason: 'event_not_selected',
		});
		expect(applyFilter(journey('failed', true), filter({ events: [] }))).toEqual({
			pass: false,
			reason: 'event_not_selected',
		});
	});

	test('only final statuses', () => {
		expect(applyFilter(journey('consent_granted'), filter({ statusFilter: 'finalOnly' }))).toEqual({
			pass: false,
			reason: 'status_not_selected',
		});
		expect(
			applyFilter(journey('analysis_complete', true), filter({ statusFilter: 'finalOnly' })),
		).toEqual({ pass: true });
		expect(applyFilter(session('abandoned', true), filter({ statusFilter: 'finalOnly' }))).toEqual({
			pass: true,
		});
	});

	test('selected statuses are per type (journey:expired does not select session:expired)', () => {
		const f = filter({
			statusFilter: 'selected',
			statuses: ['journey:expired', 'session:completed'],
		});
		expect(applyFilter(journey('expired', true), f)).toEqual({ pass: true });
		expect(applyFilter(session('expired', true), f)).toEqual({
			pass: false,
			reason: 'status_not_selected',
		});
		expect(applyFilter(session('completed', true), f)).toEqual({ pass: true });
		expect(applyFilter(journey('failed', true), f)).toEqual({
			pass: false,
			reason: 'status_not_selected',
		});
	});

	test('a plain status value (set by expression) applies to both types', () => {
		const f = filter({ statusFilter: 'selected', statuses: ['expired'] });
		expect(applyFilter(journey('expired', true), f)).toEqual({ pass: true });
		expect(applyFilter(session('expired', true), f)).toEqual({ pass: true });
	});

	test('"selected" with nothing selected drops everything', () => {
		expect(applyFilter(journey('failed', true), filter({ statusFilter: 'selected' }))).toEqual({
			pass: false,
			reason: 'status_not_selected',
		});
	});
});
