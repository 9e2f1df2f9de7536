import {
	claimReconcileLookup,
	isReconcileRequest,
	notFinalYet,
	RECONCILE_SPACING_MS,
} from '../../nodes/FinVerify/completion/reconcile';

describe('reconcile requests (the X-FinVerify-Reconcile header)', () => {
	test.each([
		['true', true],
		['1', true],
		[' TRUE ', true],
		['false', false],
		['0', false],
		['', false],
		[undefined, false],
		['yes', false],
	])('%p asks for a reconcile: %p', (value, expected) => {
		expect(isReconcileRequest(value)).toBe(expected);
	});
});

describe('status lookups of one execution no faster than every 5 seconds', () => {
	test('the first lookup is allowed; another within the spacing is refused with the seconds left; after it, allowed', () => {
		expect(claimReconcileLookup('x1', 100_000)).toEqual({ allowed: true });
		expect(claimReconcileLookup('x1', 100_001)).toEqual({
			allowed: false,
			retryAfterS: RECONCILE_SPACING_MS / 1000,
		});
		expect(claimReconcileLookup('x1', 100_000 + RECONCILE_SPACING_MS - 1500)).toEqual({
			allowed: false,
			retryAfterS: 2,
		});
		expect(claimReconcileLookup('x1', 100_000 + RECONCILE_SPACING_MS - 1)).toEqual({
			allowed: false,
			retryAfterS: 1,
		});
		expect(claimReconcileLookup('x1', 100_000 + RECONCILE_SPACING_MS)).toEqual({ allowed: true });
		// the refused ones did not move the spacing: the next turn counts from the last allowed lookup
		expect(claimReconcileLookup('x1', 100_000 + 2 * RECONCILE_SPACING_MS - 1)).toMatchObject({
			allowed: false,
		});
	});

	test('each execution has its own spacing', () => {
		expect(claimReconcileLookup('y1', 5_000)).toEqual({ allowed: true });
		expect(claimReconcileLookup('y2', 5_000)).toEqual({ allowed: true });
		expect(claimReconcileLookup('y1', 5_001)).toMatchObject({ allowed: false });
	});

	test('a clock that went back does not block an execution for good', () => {
		expect(claimReconcileLookup('z1', 50_000)).toEqual({ allowed: true });
		expect(claimReconcileLookup('z1', 10_000)).toEqual({ allowed: true });
	});
});

test('the answer for journeys not final names how many and their statuses', () => {
	expect(notFinalYet([{ clientId: 'aa_1', status: 'consent_pending' }])).toEqual({
		reconciled: false,
		reason: 'not_final',
		message:
			'1 of the journeys this execution waits for is not final at the service; it keeps waiting.',
		pending: [{ clientId: 'aa_1', status: 'consent_pending' }],
	});
	expect(
		notFinalYet([
			{ clientId: 'aa_1', status: null },
			{ clientId: 'aa_2', status: 'initiated' },
		]).message,
	).toMatch(/^2 of the journeys .* are not final/);
});
