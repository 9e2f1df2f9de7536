/* eslint-disable @typescript-eslint/no-require-imports */
const { stuckCandidates } = require('../../scripts/stuck-executions.js');
/* eslint-enable @typescript-eslint/no-require-imports */

describe('scripts/stuck-executions.js', () => {
	const now = Date.parse('2026-11-27T12:00:00Z');
	test('lists running executions older than the limit, oldest first; younger, finished and undated ones are left out', () => {
		const found = stuckCandidates(
			[
				{ id: 1, status: 'running', startedAt: '2026-11-27T11:40:00Z' },
				{ id: 2, status: 'running', startedAt: '2026-11-27T11:58:00Z' },
				{ id: 3, status: 'success', startedAt: '2026-11-27T10:00:00Z' },
				{ id: 4, status: 'running', startedAt: '2026-11-27T11:00:00Z' },
				{ id: 5, status: 'running', startedAt: null },
			],
			now,
			15 * 60_000,
		);
		expect(found.map((e: { id: number }) => e.id)).toEqual([4, 1]);
		expect(found[1].ageMs).toBe(20 * 60_000);
	});
});
