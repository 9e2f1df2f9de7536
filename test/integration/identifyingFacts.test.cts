/**
 * Unknown is never the clean value, through n8n-core's real engine against the sandbox: a read whose
 * answer carries none of the operation's identifying facts (`{}`, `data: null`, an HTTP code as the
 * status) stops with an error naming what is missing, never an all-null success; and an analysis with
 * an account the answer does not analyse gives null flags and figures with its coverage, not "clean".
 * The sandbox's fault API serves the odd answers (HTTP 200) on the operation's path; the transport
 * fails them (requiredField) in every output mode, as it fails a create's answer without its id.
 */
import type { IDataObject } from 'n8n-workflow';

import { withParameters } from '../harness/index.cjs';
import { fixtures, NODE, withSandbox } from './support.cjs';

const company = fixtures('company');
const journey = fixtures('bankStatementJourney');
const itr = fixtures('incomeTaxReturn');

/** Each read, the path its answer comes from, and the words of the error naming what is missing. */
const READS = [
	['Get by CIN', company('getByCin'), 'cin-lookup', /without data\.cin or data\.company_name or /],
	[
		'Get LLP by LLPIN',
		company('getLlpByLlpin'),
		'llpin-lookup',
		/without data\.llpin or data\.llp_name or /,
	],
	[
		'Get Entity by PAN',
		company('getEntityByPan'),
		'pan-lookup',
		/without data\.pan or data\.entity_name or /,
	],
	['Search by Name', company('searchByName'), 'company-autocomplete', /without a result list/],
	['Get Status', journey('getStatus'), 'aa-bsa-journey/status', /without a journey status/],
	[
		'Get Statement Result',
		journey('getStatementResult'),
		'aa-bsa-journey/statement-result',
		/without an account \(data\.accounts\)/,
	],
	['Get Analysis', journey('getAnalysis'), 'aa-bsa-journey/analysis-json', /without the analysis/],
	['Get ITR Data', itr('getData'), 'itr-analyzer/data', /without a PAN, name, job id or return/],
	['Get Analysis Status', itr('getAnalysisStatus'), 'itr-analyzer/status', /without data\.status$/],
] as const;

const EMPTY_BODIES: Array<[string, IDataObject]> = [
	['{}', {}],
	['data: null', { success: true, data: null }],
];

describe('a read without its identifying facts is an error naming them', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	describe.each(READS)('%s', (_, workflow, path, missing) => {
		test.each(EMPTY_BODIES)('answered %s', async (__, body) => {
			await sandbox.control.fault({ path, body });
			const result = await sandbox.run(workflow);
			expect(result.error).toBeDefined();
			expect(result.error?.message).toMatch(missing);
			expect(result.error?.description).toContain('nothing in the answer can be used');
			expect((result.error as unknown as { httpCode: string }).httpCode).toBe('200');
		});
	});

	test('Get Status never shows the HTTP code as the journey status', async () => {
		for (const body of [
			{ success: true, status: 200, data: null },
			{ status: '200', message: 'OK' },
			{ success: true, status: 'success', message: 'OK' },
		]) {
			await sandbox.control.clearFaults();
			await sandbox.control.fault({ path: 'aa-bsa-journey/status', body });
			const result = await sandbox.run(journey('getStatus'));
			expect(result.error?.message).toMatch(/without a journey status/);
		}
	});

	test('Output Raw fails the same way (nothing in the answer can be used)', async () => {
		await sandbox.control.fault({ path: 'cin-lookup', body: { success: true, data: null } });
		const result = await sandbox.run(
			withParameters(company('getByCin'), NODE, { simplify: false }),
		);
		expect(result.error?.description).toContain('nothing in the answer can be used');
	});

	test('Get by CIN given an LLPIN: the LLP answer must name the LLP', async () => {
		await sandbox.control.fault({ path: 'llpin-lookup', body: { success: true, data: {} } });
		const result = await sandbox.run(
			withParameters(company('getByCin'), NODE, {
				company: { __rl: true, mode: 'id', value: 'AAB-1234' },
			}),
		);
		expect(result.error?.message).toMatch(/without data\.llpin or data\.llp_name or /);
	});

	test('with Continue On Fail, the item carries the error and the next item still runs', async () => {
		await sandbox.control.fault({ path: 'pan-lookup', body: {}, times: 1 });
		const wf = company('getEntityByPan');
		const result = await sandbox.run({
			...wf,
			nodes: wf.nodes.map((n) => (n.name === NODE ? { ...n, continueOnFail: true } : n)),
		});
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		expect(String(json.message)).toMatch(/without data\.pan or data\.entity_name or /);
		expect(json.error).toMatchObject({ code: 'INCOMPLETE_RESPONSE', httpCode: 200 });
		// the fault is spent: the same read answers normally
		const again = await sandbox.run(wf);
		expect(again.error).toBeUndefined();
		expect(again.json(NODE)[0]).toMatchObject({ pan: expect.any(String) });
	});

	test('a null entry in the search results is no item', async () => {
		await sandbox.control.fault({
			path: 'company-autocomplete',
			body: {
				success: true,
				message: 'ok',
				total_results: 2,
				data: [
					null,
					{
						entity_name: 'ACME TEXTILES LIMITED',
						entity_type: 'COMPANY',
						cin: 'L17110MH1973PLC019786',
						llpin: null,
						status: 'ACTIVE',
						state: 'Maharashtra',
					},
				],
			},
		});
		const result = await sandbox.run(company('searchByName'));
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)).toEqual([
			expect.objectContaining({
				name: 'ACME TEXTILES LIMITED',
				entityType: 'Company',
				status: 'Active',
				identifier: 'L17110MH1973PLC019786',
			}),
		]);
	});
});

/** A sample-shape analysis of two accounts; the second holds a returned inward cheque. */
function twoAccountAnalysis(secondAnalysed: boolean): IDataObject {
	const analysis = (score: number, rating: string, chequeReturns: number) => ({
		entity_type: 'individual',
		health_score: {
			score,
			rating,
			rating_description: rating,
			total_penalties: 100 - score,
			details: {
				bounces: { count: 0, penalty: 0, weight: 1 },
				negative_balances: { count: 0, penalty: 0, weight: 1 },
				reconciliation_issues: { count: 0, penalty: 0, weight: 1 },
			},
		},
		flagged_transactions: {
			bounce_transactions: [],
			negative_balance_transactions: [],
			reconciliation_issues: [],
			date_mismatch_transactions: [],
			cheque_return_summary: { count: chequeReturns, total_amount: chequeReturns * 15000 },
			summary: { bounces: 0, negative_balances: 0 },
		},
		suspicious_transactions: {
			suspicious_credits: [],
			suspicious_debits: [],
			monthwise_summary: [],
			summary: { total_suspicious_credits: 0, total_suspicious_debits: 0, total_amount: 0 },
		},
		summary_card: {
			customer_name: 'PRIYA SHARMA',
			account_number: 'XXXX0001',
			bank_name: 'HDFC Bank',
			ifsc_code: 'HDFC0000001',
			account_type: 'SAVINGS',
			statement_period: { start_date: '01-01-2025', end_date: '31-03-2025', days: 90, months: 3 },
			balance_summary: { average_monthly_balance: 20000, min_balance: 500 },
			transaction_summary: { total_credits: 90000, total_debits: 60000 },
			mode_breakdown: {},
		},
	});
	const account = (index: number, analysisJson: unknown) => ({
		account_index: index,
		bank_name: 'HDFC Bank',
		account_number: `XXXX000${index}`,
		bsa_status: 'completed',
		bsa_client_id: `bsa_${index}`,
		analysis_json: analysisJson,
	});
	return {
		success: true,
		status_code: 200,
		message: 'Success',
		data: {
			client_id: 'aa_0123456789abcdef01234567',
			status: 'completed',
			total_accounts: 2,
			accounts: [
				account(0, analysis(100, 'excellent', 0)),
				account(1, secondAnalysed ? analysis(85, 'good', 1) : null),
			],
		},
	};
}

describe('Get Analysis: an account without analysis leaves the decision fields unknown', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });
	const path = 'aa-bsa-journey/analysis-json';
	const v2 = (outputMode: string) => {
		const wf = journey('getAnalysis');
		return {
			...wf,
			nodes: wf.nodes.map((n) =>
				n.name === NODE ? { ...n, typeVersion: 2, parameters: { ...n.parameters, outputMode } } : n,
			),
		};
	};

	test('both accounts analysed: a bounce, and the worst health score 85 "good"', async () => {
		await sandbox.control.fault({ path, body: twoAccountAnalysis(true) });
		const [normalized] = (await sandbox.run(v2('normalized'))).json(NODE);
		expect(normalized).toMatchObject({
			flags: { anyBounce: true, inwardChequeReturn: true, suspiciousCredit: false },
			healthScore: { score: 85, rating: 'good' },
			coverage: { accounts: 2, analysed: 2, complete: true },
			totalCredits: 180000,
		});
	});

	test('the account holding the cheque return not analysed: null, not "no bounce" and 100 "excellent"', async () => {
		await sandbox.control.fault({ path, body: twoAccountAnalysis(false) });
		const [normalized] = (await sandbox.run(v2('normalized'))).json(NODE);
		expect(normalized).toMatchObject({
			flags: { anyBounce: null, inwardChequeReturn: null, suspiciousCredit: null },
			healthScore: null,
			coverage: { accounts: 2, analysed: 1, complete: false, unanalysedAccounts: [1] },
			totalCredits: null,
			averageMonthlyBalance: null,
		});
		const [simplified] = (await sandbox.run(v2('simplified'))).json(NODE);
		expect(simplified).toMatchObject({
			anyBounce: null,
			inwardChequeReturn: null,
			suspiciousCredit: null,
			averageMonthlyBalance: null,
			totalCredits: null,
		});
	});
});
