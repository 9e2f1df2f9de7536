import { planStatementItems } from '../../nodes/FinVerify/actions/bankStatementJourney/getStatementResult.operation';
import { readClientId } from '../../nodes/FinVerify/actions/bankStatementJourney/shared';
import { consentTypeOf } from '../../nodes/FinVerify/actions/bankStatementJourney/start.operation';
import { safeFileName } from '../../nodes/FinVerify/helpers/documents';
import { normalizeStatementResult } from '../../nodes/FinVerify/helpers/normalize/journey';
import {
	MIN_POLL_INTERVAL_SECONDS,
	nextPollDelay,
	planPolling,
	pollUntil,
} from '../../nodes/FinVerify/helpers/polling';
import { node } from './support.cjs';

const ctx = { node, itemIndex: 2 };

describe('planPolling', () => {
	it('defaults to every 5 s for up to 300 s', () => {
		expect(planPolling()).toEqual({ intervalMs: 5000, timeLimitMs: 300000 });
	});
	it('never polls faster than every 5 s, whatever it is given', () => {
		for (const interval of [0, 1, 4.9, -3, '2'])
			expect(planPolling(interval, 60).intervalMs).toBe(MIN_POLL_INTERVAL_SECONDS * 1000);
		expect(planPolling(7.5, 60).intervalMs).toBe(7500);
		expect(planPolling('10', '20')).toEqual({ intervalMs: 10000, timeLimitMs: 20000 });
	});
	it('clamps the time limit to 0-3600 s and falls back on junk', () => {
		expect(planPolling(5, -1).timeLimitMs).toBe(0);
		expect(planPolling(5, 99999).timeLimitMs).toBe(3600000);
		expect(planPolling('x', 'y')).toEqual({ intervalMs: 5000, timeLimitMs: 300000 });
		expect(planPolling(Number.NaN, Number.POSITIVE_INFINITY)).toEqual({
			intervalMs: 5000,
			timeLimitMs: 300000,
		});
	});
});

describe('nextPollDelay', () => {
	const plan = { intervalMs: 5000, timeLimitMs: 12000 };
	it('waits an interval while another poll fits in the time limit', () => {
		expect(nextPollDelay(0, plan)).toBe(5000);
		expect(nextPollDelay(7000, plan)).toBe(5000);
		expect(nextPollDelay(7001, plan)).toBeNull();
	});
	it('a time limit of 0 means one poll only', () => {
		expect(nextPollDelay(0, { intervalMs: 5000, timeLimitMs: 0 })).toBeNull();
	});
});

/** A fake clock: sleeping moves time forward, nothing really waits. */
function fakeClock(fetchCostMs = 100) {
	let now = 1_000_000;
	const sleeps: number[] = [];
	return {
		sleeps,
		advance: (ms: number) => (now += ms),
		clock: {
			now: () => now,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				now += ms;
			},
		},
		fetchCostMs,
	};
}

describe('pollUntil', () => {
	it('returns after the first poll when it is already final, without sleeping', async () => {
		const f = fakeClock();
		const outcome = await pollUntil(
			async () => 'done',
			(s) => s === 'done',
			planPolling(5, 60),
			f.clock,
		);
		expect(outcome).toEqual({ last: 'done', polls: 1, elapsedMs: 0, timedOut: false });
		expect(f.sleeps).toEqual([]);
	});

	it('polls every interval until the status is final', async () => {
		const f = fakeClock();
		const statuses = ['initiated', 'consent_granted', 'data_fetched', 'analysis_complete'];
		let call = 0;
		const outcome = await pollUntil(
			async () => {
				f.advance(f.fetchCostMs);
				return statuses[call++];
			},
			(s) => s === 'analysis_complete',
			planPolling(5, 60),
			f.clock,
		);
		expect(outcome.polls).toBe(4);
		expect(outcome.timedOut).toBe(false);
		expect(outcome.last).toBe('analysis_complete');
		expect(f.sleeps).toEqual([5000, 5000, 5000]);
		expect(outcome.elapsedMs).toBe(15000 + 4 * 100);
	});

	it('stops at the time limit with the last status and timedOut', async () => {
		const f = fakeClock();
		const outcome = await pollUntil(
			async () => {
				f.advance(f.fetchCostMs);
				return 'consent_pending';
			},
			() => false,
			planPolling(5, 12),
			f.clock,
		);
		// polls at ~0 s, ~5 s, ~10 s; a fourth would end after 12 s
		expect(outcome).toMatchObject({ last: 'consent_pending', polls: 3, timedOut: true });
		expect(f.sleeps).toEqual([5000, 5000]);
	});

	it('never sleeps less than 5 s between polls even when asked to', async () => {
		const f = fakeClock();
		await pollUntil(
			async () => 'x',
			() => false,
			planPolling(1, 30),
			f.clock,
		);
		expect(f.sleeps.length).toBeGreaterThan(0);
		expect(Math.min(...f.sleeps)).toBeGreaterThanOrEqual(5000);
	});

	it('lets a failing status request fail the wait', async () => {
		const f = fakeClock();
		await expect(
			pollUntil(
				async () => {
					throw new Error('boom');
				},
				() => false,
				planPolling(),
				f.clock,
			),
		).rejects.toThrow('boom');
	});
});

describe('readClientId', () => {
	it('accepts service identifiers and trims them', () => {
		expect(readClientId(ctx, ' aa_0123456789abcdef01234567 ')).toBe('aa_0123456789abcdef01234567');
	});
	it.each(['', '   ', 'has space', 'a/b', '../x', 'x?y=1', null, undefined])(
		'rejects %p naming the field and item',
		(value) => {
			expect(() => readClientId(ctx, value)).toThrow(/Invalid Journey Client ID in item 2/);
		},
	);
});

describe('planStatementItems', () => {
	const result = normalizeStatementResult({
		data: {
			client_id: 'aa_1',
			total_accounts: 2,
			accounts: [
				{
					account_index: 0,
					bank_name: 'HDFC',
					analysis_pdf_s3_url: 'https://files.example.com/0.pdf',
					transactions: [
						{ txn_date: '01-01-25', txn_type: 'Cr.', credit: 10, debit: '', balance: 10 },
						{ txn_date: '02-01-25', txn_type: 'Dr.', credit: '', debit: 5, balance: 5 },
					],
				},
				{
					account_index: 1,
					bank_name: 'SBI',
					analysis_pdf_s3_url: null,
					transactions: [
						{ txn_date: '03-01-25', txn_type: 'Cr.', credit: 1, debit: '', balance: 1 },
					],
				},
			],
		},
	});

	it('one item: PDFs go to <name>_<position>, referenced from each account', () => {
		const items = planStatementItems(result, 'none', 'data');
		expect(items).toHaveLength(1);
		expect(items[0].documents).toEqual([
			{
				url: 'https://files.example.com/0.pdf',
				property: 'data_0',
				fileName: 'statement_aa_1_0.pdf',
			},
		]);
		const accounts = items[0].json.accounts as Array<{ binaryProperty: string | null }>;
		expect(accounts.map((a) => a.binaryProperty)).toEqual(['data_0', null]);
	});

	it('no download: no documents and binaryProperty null', () => {
		const items = planStatementItems(result, 'none', undefined);
		expect(items[0].documents).toEqual([]);
	});

	it('per account: one item each, the PDF in <name>', () => {
		const items = planStatementItems(result, 'accounts', 'file');
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({
			clientId: 'aa_1',
			accountIndex: 0,
			bankName: 'HDFC',
			binaryProperty: 'file',
			transactionCount: 2,
		});
		expect(items[0].documents.map((d) => d.property)).toEqual(['file']);
		expect(items[1].documents).toEqual([]);
	});

	it('per transaction: one item each with account context; the PDF on the first item of its account', () => {
		const items = planStatementItems(result, 'transactions', 'data');
		expect(items).toHaveLength(3);
		expect(items.map((i) => i.documents.length)).toEqual([1, 0, 0]);
		expect(items[2].json).toMatchObject({
			clientId: 'aa_1',
			account: { accountIndex: 1, bankName: 'SBI' },
			type: 'CREDIT',
			amount: 1,
			date: '2025-01-03',
		});
	});
});

describe('safeFileName', () => {
	it('keeps safe characters and drops empty parts', () => {
		expect(safeFileName('itr', 'ABCDE1234F', '2024-25', 'ITR-1')).toBe(
			'itr_ABCDE1234F_2024-25_ITR-1.pdf',
		);
		expect(safeFileName('statement', null, 0)).toBe('statement_0.pdf');
		expect(safeFileName('a/b', '../c')).toBe('a-b_-c.pdf');
		expect(safeFileName()).toBe('document.pdf');
	});
});

describe('consentTypeOf', () => {
	it('maps option values to the service values and accepts the service values', () => {
		expect(consentTypeOf(ctx, 'loanUnderwriting')).toBe('loan_underwriting');
		expect(consentTypeOf(ctx, 'loanMonitoring')).toBe('loan_monitoring');
		expect(consentTypeOf(ctx, 'loan_monitoring')).toBe('loan_monitoring');
	});
	it.each(['marketing', '', undefined, 'LOAN_UNDERWRITING'])(
		'rejects %p naming the field',
		(value) => {
			expect(() => consentTypeOf(ctx, value)).toThrow('Invalid Consent Type in item 2');
		},
	);
});
