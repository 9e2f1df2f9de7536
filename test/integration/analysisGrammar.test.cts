/**
 * Get Analysis's grammar through the real engine (node version 3, Incomplete Answers: Send to the
 * Incomplete Output): answers carrying an impossible value, a contradiction, a repeated account or an
 * account the reference layout left out leave on output 1 (Incomplete) with the fact unknown; a
 * well-formed answer of each layout leaves on output 0 (Complete). Bodies are the sandbox's, changed in
 * one place, served exactly by a loopback stub.
 */
import type { IDataObject } from 'n8n-workflow';

import { analysisReference, analysisSample } from '../../sandbox/data/statements.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import {
	sandboxTwoAccounts,
	versionThreeOutputs,
	versionThreeWorkflow,
	withStubService,
} from './support.cjs';

const PATH = '/api/v1/services/aa-bsa-journey/analysis-json';
const CLIENT_ID = 'aa_0123456789abcdef01234567';

const service = withStubService();

/** A journey of two accounts (the sandbox's accounts of a mobile number that links two). */
const accounts = sandboxTwoAccounts();
const view = {
	clientId: CLIENT_ID,
	status: 'completed',
	failedAtStage: null,
	errorMessage: null,
	createdAt: '2025-03-31T09:58:00Z',
	updatedAt: '2025-03-31T10:00:00Z',
};
const reference = () => structuredClone(analysisReference(CLIENT_ID, accounts)) as IDataObject;
const sample = () =>
	structuredClone(analysisSample(view as never, accounts)) as {
		data: { total_accounts: number; accounts: Array<IDataObject & { analysis_json: IDataObject }> };
	};
/** The sample layout with the first account alone (total_accounts 1). */
function oneAccountSample() {
	const body = sample();
	body.data.accounts = [body.data.accounts[0]];
	body.data.total_accounts = 1;
	return body;
}
const firstAnalysis = (body: ReturnType<typeof sample>) =>
	body.data.accounts[0].analysis_json as {
		health_score: IDataObject;
		flagged_transactions: IDataObject;
		suspicious_transactions: IDataObject & { summary: IDataObject };
		summary_card: { balance_summary: IDataObject; transaction_summary: IDataObject };
	};

function getAnalysis(outputMode: 'simplified' | 'normalized' = 'simplified'): WorkflowJson {
	return versionThreeWorkflow({
		resource: 'bankStatementJourney',
		operation: 'getAnalysis',
		clientId: CLIENT_ID,
		outputMode,
	});
}

/** The items on each of the node's outputs after one answer. */
async function run(body: unknown, outputMode: 'simplified' | 'normalized' = 'simplified') {
	service.stub.respond(PATH, { body });
	const result = await service.run(getAnalysis(outputMode));
	expect(result.error).toBeUndefined();
	const { complete, incomplete } = versionThreeOutputs(result);
	return { complete, incomplete };
}

describe('well-formed answers leave on Complete', () => {
	test('sample layout, two accounts: ready, every fact known', async () => {
		const { complete, incomplete } = await run(sample());
		expect(incomplete).toEqual([]);
		expect(complete).toHaveLength(1);
		expect(complete[0]).toMatchObject({
			decisionReady: true,
			incomplete: [],
			anyBounce: expect.any(Boolean),
			inwardChequeReturn: false,
			negativeBalance: expect.any(Boolean),
			suspiciousCredit: expect.any(Boolean),
			healthScore: expect.any(Number),
			averageMonthlyBalance: expect.any(Number),
			netFlow: expect.any(Number),
		});
	});

	test('reference layout: ready, and the facts it never states are absent and named, not null', async () => {
		const { complete, incomplete } = await run(reference());
		expect(incomplete).toEqual([]);
		expect(complete[0]).toMatchObject({
			decisionReady: true,
			anyBounce: expect.any(Boolean),
			averageMonthlyBalance: expect.any(Number),
			netFlow: expect.any(Number),
			notInLayout: ['healthScore', 'flags.negativeBalance', 'flags.suspiciousCredit'],
		});
		// a rule `healthScore < 40` meets no value, never a null n8n compares like 0
		expect(complete[0]).not.toHaveProperty('healthScore');
		expect(complete[0]).not.toHaveProperty('negativeBalance');
		expect(complete[0]).not.toHaveProperty('suspiciousCredit');
	});
});

describe('misread facts are unknown and leave on Incomplete', () => {
	test('an inward cheque-return count of -1 is not "no return"', async () => {
		const body = sample();
		firstAnalysis(body).flagged_transactions.cheque_return_summary = { count: -1, total_amount: 0 };
		const { complete, incomplete } = await run(body);
		expect(complete).toEqual([]);
		expect(incomplete[0]).toMatchObject({
			decisionReady: false,
			inwardChequeReturn: null,
			incomplete: [expect.stringContaining('inward cheque returns')],
		});
	});

	test('a health score of 99,999 is unknown, not 100', async () => {
		const body = sample();
		firstAnalysis(body).health_score.score = 99_999;
		const { complete, incomplete } = await run(body);
		expect(complete).toEqual([]);
		expect(incomplete[0]).toMatchObject({
			decisionReady: false,
			healthScore: null,
			incomplete: ['health score unknown'],
		});
	});

	test('balances and credits of 1e21 are unknown (sample and reference layouts)', async () => {
		const body = sample();
		firstAnalysis(body).summary_card.balance_summary.average_monthly_balance = 1e21;
		firstAnalysis(body).summary_card.transaction_summary.total_credits = 1e21;
		const sampleRun = await run(body);
		expect(sampleRun.complete).toEqual([]);
		expect(sampleRun.incomplete[0]).toMatchObject({
			averageMonthlyBalance: null,
			netFlow: null,
			incomplete: ['average monthly balance unknown', 'net flow unknown (total credits or debits)'],
		});
		const ref = reference();
		const summary = (ref.data as IDataObject).summary as IDataObject;
		summary.average_monthly_balance = 1e21;
		const referenceRun = await run(ref);
		expect(referenceRun.complete).toEqual([]);
		expect(referenceRun.incomplete[0]).toMatchObject({
			averageMonthlyBalance: null,
			incomplete: ['average monthly balance unknown'],
		});
	});

	test('suspicious credits counted 1 with the list empty: unknown, not false', async () => {
		// one account: a suspicious credit another account shows would make the flag true, known
		const body = oneAccountSample();
		const suspicious = firstAnalysis(body).suspicious_transactions;
		suspicious.suspicious_credits = [];
		suspicious.summary.total_suspicious_credits = 1;
		const { complete, incomplete } = await run(body);
		expect(complete).toEqual([]);
		expect(incomplete[0]).toMatchObject({
			suspiciousCredit: null,
			incomplete: ['flags unknown: suspicious credits'],
		});
	});

	test('a repeated account is counted once: the average monthly balance is not summed over it', async () => {
		const once = oneAccountSample();
		const [alone] = (await run(once, 'normalized')).complete;
		const twice = sample();
		twice.data.accounts = [
			twice.data.accounts[0],
			{ ...structuredClone(twice.data.accounts[0]), account_index: 1 },
		];
		twice.data.total_accounts = 2;
		const { complete, incomplete } = await run(twice, 'normalized');
		// the journey says two accounts, the answer holds one twice: the other is not analysed
		expect(complete).toEqual([]);
		expect(incomplete[0]).toMatchObject({
			decisionReady: false,
			averageMonthlyBalance: null,
			coverage: { accounts: 2, analysed: 1, complete: false, repeatedAccounts: 1 },
		});
		// with total_accounts 1 the copy is the same account: counted once, ready, as the single account
		twice.data.total_accounts = 1;
		const merged = (await run(twice, 'normalized')).complete;
		expect(merged[0]).toMatchObject({
			decisionReady: true,
			averageMonthlyBalance: alone.averageMonthlyBalance,
			coverage: { accounts: 1, analysed: 1, complete: true, repeatedAccounts: 1 },
		});
		// two copies of one account that disagree: unknown
		const differing = sample();
		const copy = structuredClone(differing.data.accounts[0]);
		(
			copy.analysis_json as ReturnType<typeof firstAnalysis>
		).summary_card.balance_summary.average_monthly_balance = 1;
		differing.data.accounts = [differing.data.accounts[0], copy];
		differing.data.total_accounts = 1;
		const conflict = await run(differing);
		expect(conflict.complete).toEqual([]);
		expect(conflict.incomplete[0].incomplete).toContain(
			'an account listed twice with different analyses',
		);
	});

	test('reference layout: an account the answer lists without its analysis is not analysed', async () => {
		const body = reference();
		(body.data as IDataObject).accounts = accounts.map((a, i) => ({
			account_index: i,
			bank_name: a.bankName,
			account_number: a.masked,
			bsa_status: i === 0 ? 'completed' : 'failed',
		}));
		const { complete, incomplete } = await run(body);
		expect(complete).toEqual([]);
		expect(incomplete[0]).toMatchObject({
			decisionReady: false,
			incomplete: ['account not analysed: 1'],
		});
	});
});
