/**
 * Issue 46 through n8n-core's real engine (node version 3), against a loopback stub answering exact
 * bodies in both of the service's layouts, Simplified and Normalized: every decision operation names
 * its adverse facts in words with their source (days past due, an asset class below standard, written
 * off, settled, bounces, cheque returns, negative balances, suspicious credits, tax demands, no current
 * employer; the company operations are in companyDecision.test.cts and below through the simulator); a
 * clean answer has `adverse: []`; no full account number, PAN, mobile number or narration enters the
 * words, under Personal Data Masked and Full; Normalized carries the decision record.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { analysisReference, analysisSample } from '../../sandbox/data/statements.cjs';
import { epfoRecord } from '../../sandbox/data/epfo.cjs';
import { itrReference, itrSample } from '../../sandbox/data/itr.cjs';
import { registryFacts } from '../../sandbox/data/corporate.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import {
	SHAPES,
	sandboxTwoAccounts,
	versionThreeWorkflow,
	withSandbox,
	withStubService,
} from './support.cjs';

const NODE = 'FinVerify';
const SERVICES = '/api/v1/services';
const MULTI_BUREAU = `${SERVICES}/multi-bureau/fetch`;
const EPFO = `${SERVICES}/epfo-combined/fetch`;
const EPFO_CREDIT = `${SERVICES}/epfo-crif-combined/fetch`;
const ITR = `${SERVICES}/itr-analyzer/data`;
const ANALYSIS = `${SERVICES}/aa-bsa-journey/analysis-json`;
const PAN = 'ABCPE1234F';
const MOBILE = '9876543210';
const ACCOUNT = '1234567890123456';
const CARD = '9999888877776666';
const JOB_ID = 'itr_0123456789abcdef01234567';
const CLIENT_ID = 'aa_0123456789abcdef01234567';

/** What must never be in the words: a full account number, the PAN, the mobile number, a narration. */
const SECRETS = [ACCOUNT, CARD, PAN, MOBILE, 'NACH RTN'];

const copy = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const v3 = (parameters: IDataObject): WorkflowJson =>
	versionThreeWorkflow({ requestOptions: { maxRetries: 0 }, ...parameters });

const service = withStubService();

const MODES = ['simplified', 'normalized'] as const;
const PERSONAL = ['masked', 'full'] as const;
type Mode = (typeof MODES)[number];

/** Every item of the Complete and Incomplete outputs, checked against the shipped schemas. */
async function items(workflow: WorkflowJson, path: string, body: unknown): Promise<IDataObject[]> {
	service.stub.respond(path, { body });
	const result = await service.run(workflow);
	expect(result.error).toBeUndefined();
	const node = workflow.nodes.find((n) => n.name === NODE) as INode;
	for (const output of [0, 1]) checkNodeOutput(node, result.json(NODE, output));
	const all = [...result.json(NODE, 0), ...result.json(NODE, 1)];
	expect(all.length).toBeGreaterThan(0);
	return all;
}

interface Fact extends IDataObject {
	text: string;
	source: string;
	kind: string;
}
const adverseOf = (json: IDataObject) => json.adverse as Fact[];

/** The words hold no secret, and each fact starts with its source's name. */
function expectSafeWords(facts: Fact[]) {
	for (const f of facts) {
		for (const secret of SECRETS) expect(f.text).not.toContain(secret);
		for (const secret of SECRETS) expect(JSON.stringify(f)).not.toContain(secret);
		expect(f.text).toMatch(
			/^(CIBIL|CRIF|Equifax|Experian|Credit report|EPFO|Bank statement|Income tax|Company|LLP|Entity): /,
		);
	}
}

/** The decision record of a Normalized item: the verdict, the facts, who ran it. */
function expectDecisionRecord(json: IDataObject, operation: string) {
	const record = json.decisionRecord as IDataObject;
	expect(record).toMatchObject({
		operation,
		nodeVersion: 3,
		decisionReady: json.decisionReady,
		incomplete: json.incomplete,
		adverse: json.adverse,
		nodeName: NODE,
	});
	expect(typeof record.decidedAt).toBe('string');
	expect(record.facts).toEqual(expect.any(Object));
}

// ------------------------------------------------------------------------- Get Multi-Bureau Report

const multiBureau = (outputMode: Mode, personalData: string) =>
	v3({
		resource: 'creditReport',
		operation: 'getMultiBureauReport',
		pan: PAN,
		name: 'Priya Sharma',
		mobileNumber: MOBILE,
		gender: 'female',
		bureaus: ['cibil', 'crif'],
		consent: true,
		outputMode,
		personalData,
	});

const crifLoan = (
	number: string,
	lender: string,
	type: string,
	status: string,
	history: string,
) => ({
	'LOAN-DETAILS': {
		'ACCT-NUMBER': number,
		'CREDIT-GUARANTOR': lender,
		'ACCT-TYPE': type,
		'ACCOUNT-STATUS': status,
		'COMBINED-PAYMENT-HISTORY': history,
	},
});
function multiBureauSample(adverse: boolean) {
	const entry = (credit_report: IDataObject) => ({
		success: true,
		message: 'Success',
		credit_report_link: '',
		data: { name: 'PRIYA SHARMA', pan: PAN, mobile: MOBILE, credit_score: '742', credit_report },
	});
	return {
		success: true,
		status_code: 200,
		message: 'Credit reports fetched',
		doc_id: 'doc_1',
		pan: PAN,
		results: {
			cibil: entry({
				consumerCreditData: [
					{
						accounts: [
							{
								index: 'T001',
								memberShortName: 'HDFC BANK',
								paymentHistory: adverse ? '000030000' : '000000000',
							},
						],
					},
				],
			}),
			crif: entry({
				SCORE: { 'SCORE-VALUE': '742' },
				RESPONSES: {
					RESPONSE: [
						crifLoan(
							ACCOUNT,
							'HDFC BANK',
							'Personal Loan',
							'Active',
							adverse
								? '07:2026,XXX/SUB|06:2026,030/XXX|05:2026,STD/XXX'
								: '07:2026,STD/XXX|06:2026,000/XXX',
						),
						crifLoan(
							CARD,
							'AXIS BANK',
							'Credit Card',
							adverse ? 'Written Off' : 'Closed',
							'07:2026,STD/XXX|06:2026,STD/XXX',
						),
					],
				},
			}),
		},
	};
}
function multiBureauReference(adverse: boolean) {
	const report = (status: string, history: unknown) => ({
		name: 'Priya Sharma',
		pan: PAN,
		mobile: MOBILE,
		accounts: [
			{
				account_type: 'Personal Loan',
				lender_name: 'HDFC Bank',
				account_number: ACCOUNT,
				account_status: status,
			},
		],
		payment_history: [{ account_number: ACCOUNT, history }],
	});
	return {
		status: 'success',
		status_code: 200,
		message: 'Credit reports fetched successfully',
		request_id: 'req_0123456789',
		timestamp: '2026-11-20T10:00:00Z',
		data: {
			cibil: {
				score: 742,
				report: report(
					adverse ? 'Settled' : 'Active',
					adverse ? { '2026-07': 'XXX/DBT', '2026-06': '030', '2026-05': '000' } : '000|000|000',
				),
			},
			crif: { score: 731, report: report('Active', adverse ? '000|060|000' : '000|000|000') },
		},
	};
}

describe.each(SHAPES)('Get Multi-Bureau Report, %s layout', (shape) => {
	const body = (adverse: boolean) =>
		shape === 'sample' ? multiBureauSample(adverse) : multiBureauReference(adverse);

	test.each(MODES.flatMap((m) => PERSONAL.map((p) => [m, p] as const)))(
		'%s, personal data %s: each adverse fact named with its bureau, masked in the words',
		async (mode, personal) => {
			const [json] = await items(multiBureau(mode, personal), MULTI_BUREAU, body(true));
			const facts = adverseOf(json);
			expectSafeWords(facts);
			if (shape === 'sample') {
				expect(facts).toEqual([
					expect.objectContaining({
						source: 'cibil',
						kind: 'daysPastDue',
						figure: 30,
						text: 'CIBIL: account with HDFC BANK 30 days past due in the last 12 reported months',
					}),
					expect.objectContaining({
						source: 'crif',
						kind: 'assetClass',
						account: 'XXXX3456',
						date: '2026-07',
						text: 'CRIF: personal loan with HDFC BANK (account XXXX3456) 90+ days past due (SUB) in July 2026',
					}),
					expect.objectContaining({
						source: 'crif',
						kind: 'writtenOff',
						text: 'CRIF: credit card with AXIS BANK (account XXXX6666) written off',
					}),
				]);
			} else {
				expect(facts).toEqual([
					expect.objectContaining({
						source: 'cibil',
						kind: 'assetClass',
						figure: 'DBT',
						text: 'CIBIL: personal loan with HDFC Bank (account XXXX3456) 90+ days past due (DBT) in July 2026',
					}),
					expect.objectContaining({
						source: 'cibil',
						kind: 'settled',
						text: 'CIBIL: personal loan with HDFC Bank (account XXXX3456) settled',
					}),
					expect.objectContaining({
						source: 'crif',
						kind: 'daysPastDue',
						figure: 60,
						text: 'CRIF: personal loan with HDFC Bank (account XXXX3456) 60 days past due in the last 12 reported months',
					}),
				]);
			}
			if (mode === 'normalized') {
				expectDecisionRecord(json, 'creditReport.getMultiBureauReport');
				const record = json.decisionRecord as IDataObject;
				expect(record.consentRecord).toMatchObject({ subjectConsented: true });
				if (shape === 'reference')
					expect(record).toMatchObject({
						requestId: 'req_0123456789',
						reportedAt: '2026-11-20T10:00:00.000Z',
					});
				else expect(record.requestId).toBe('doc_1');
				// the record's facts are masked like the item (the PAN under Masked)
				if (personal === 'masked') expect(JSON.stringify(record)).not.toContain(PAN);
			} else expect(json).not.toHaveProperty('decisionRecord');
		},
	);

	test.each(MODES)('%s: a clean answer has adverse: []', async (mode) => {
		const [json] = await items(multiBureau(mode, 'masked'), MULTI_BUREAU, body(false));
		expect(json).toMatchObject({ decisionReady: true, maxDaysPastDue: 0, adverse: [] });
	});

	test("split into one item per bureau: each carries the whole answer's adverse facts", async () => {
		const wf = multiBureau('simplified', 'masked');
		wf.nodes = wf.nodes.map((n) =>
			n.name === NODE
				? { ...n, parameters: { ...n.parameters, options: { splitIntoItems: true } } }
				: n,
		);
		const all = await items(wf, MULTI_BUREAU, body(true));
		expect(all.map((json) => json.bureau)).toEqual(['cibil', 'crif']);
		for (const json of all) expect(adverseOf(json)).toHaveLength(3);
	});
});

// ---------------------------------------------------------------------------------- Get Analysis

const accounts = sandboxTwoAccounts();
const view = {
	clientId: CLIENT_ID,
	status: 'completed',
	failedAtStage: null,
	errorMessage: null,
	createdAt: '2025-03-31T09:58:00Z',
	updatedAt: '2025-03-31T10:00:00Z',
};
const getAnalysis = (outputMode: Mode, personalData = 'masked') =>
	v3({
		resource: 'bankStatementJourney',
		operation: 'getAnalysis',
		clientId: CLIENT_ID,
		outputMode,
		personalData,
	});

/** The sample layout, every account clean, or the first with one of each flagged fact. */
function analysisSampleBody(adverse: boolean) {
	const body = copy(analysisSample(view as never, accounts)) as {
		data: { accounts: Array<IDataObject & { analysis_json: IDataObject }> };
	};
	body.data.accounts.forEach((account, index) => {
		account.account_number = index === 0 ? ACCOUNT : account.account_number;
		const json = account.analysis_json as IDataObject & {
			flagged_transactions: IDataObject & { summary: IDataObject };
			suspicious_transactions: IDataObject & { summary: IDataObject };
			health_score: IDataObject & { details: Record<string, IDataObject> };
			summary_card: IDataObject;
		};
		(json.summary_card as IDataObject).account_number = account.account_number;
		const on = adverse && index === 0;
		const bounces = on
			? [
					{
						date: '2026-08-05',
						description: `NACH RTN HDFC LOAN ${MOBILE}`,
						amount: 12000,
						type: 'debit',
					},
				]
			: [];
		const negatives = on
			? [{ date: '2026-08-06', description: 'ATM', amount: 500, type: 'debit', balance: -350 }]
			: [];
		const suspicious = on
			? [
					{
						date: '2026-08-10',
						description: `UPI ${MOBILE}`,
						amount: 150000,
						reason: 'Large credit',
					},
				]
			: [];
		const flagged = json.flagged_transactions;
		flagged.bounce_transactions = bounces;
		flagged.negative_balance_transactions = negatives;
		flagged.summary.bounces = bounces.length;
		flagged.summary.negative_balances = negatives.length;
		flagged.cheque_return_summary = on
			? { count: 1, total_amount: 5000 }
			: { count: 0, total_amount: 0 };
		const details = json.health_score?.details;
		if (details?.bounces) details.bounces.count = bounces.length;
		if (details?.negative_balances) details.negative_balances.count = negatives.length;
		json.suspicious_transactions.suspicious_credits = suspicious;
		json.suspicious_transactions.summary.total_suspicious_credits = suspicious.length;
	});
	return body;
}
function analysisReferenceBody(adverse: boolean) {
	const body = copy(analysisReference(CLIENT_ID, accounts)) as { data: { flags: IDataObject } };
	body.data.flags = {
		...body.data.flags,
		salary_bounce: false,
		emi_bounce: adverse,
		inward_cheque_return: adverse,
	};
	return body;
}

describe.each(SHAPES)('Get Analysis, %s layout', (shape) => {
	const body = (adverse: boolean) =>
		shape === 'sample' ? analysisSampleBody(adverse) : analysisReferenceBody(adverse);

	test.each(MODES.flatMap((m) => PERSONAL.map((p) => [m, p] as const)))(
		'%s, personal data %s: bounces, cheque returns, negative balances, suspicious credits, in words',
		async (mode, personal) => {
			const [json] = await items(getAnalysis(mode, personal), ANALYSIS, body(true));
			const facts = adverseOf(json);
			expectSafeWords(facts);
			const bank = String(accounts[0].bankName);
			if (shape === 'sample')
				expect(facts).toEqual([
					expect.objectContaining({
						source: 'bankStatement',
						kind: 'bounce',
						date: '2026-08-05',
						figure: 12000,
						text: `Bank statement: payment bounce on 5 August 2026 (₹12,000), ${bank} account XXXX3456`,
					}),
					expect.objectContaining({ kind: 'chequeReturn', account: 'XXXX3456' }),
					expect.objectContaining({
						kind: 'negativeBalance',
						text: `Bank statement: negative balance on 6 August 2026 (₹500), ${bank} account XXXX3456`,
					}),
					expect.objectContaining({
						kind: 'suspiciousCredit',
						text: `Bank statement: 1 suspicious credit on 10 August 2026 (₹1,50,000), ${bank} account XXXX3456`,
					}),
				]);
			else
				expect(facts).toEqual([
					expect.objectContaining({ kind: 'bounce', text: 'Bank statement: EMI bounce' }),
					expect.objectContaining({
						kind: 'chequeReturn',
						text: 'Bank statement: inward cheque returned',
					}),
				]);
			if (mode === 'normalized') expectDecisionRecord(json, 'bankStatementJourney.getAnalysis');
		},
	);

	test.each(MODES)('%s: a clean answer has adverse: []', async (mode) => {
		const [json] = await items(getAnalysis(mode), ANALYSIS, body(false));
		expect(json.adverse).toEqual([]);
	});
});

// ---------------------------------------------------------------------------- EPFO and ITR

describe('Get EPFO Record', () => {
	const run = (mode: Mode) =>
		v3({
			resource: 'employment',
			operation: 'getEpfoRecord',
			mobileNumber: MOBILE,
			outputMode: mode,
		});

	test.each(MODES)('%s: every job ended is "no current employer", from EPFO', async (mode) => {
		const body = copy(epfoRecord(MOBILE)) as { data: { employment_history: IDataObject[] } };
		const [current] = body.data.employment_history;
		current.date_of_exit = '2026-06-30';
		current.is_current = false;
		const [json] = await items(run(mode), EPFO, body);
		expect(json.currentlyEmployed).toBe(false);
		expect(adverseOf(json)).toEqual([
			expect.objectContaining({
				source: 'epfo',
				kind: 'noCurrentEmployer',
				date: '2026-06-30',
				text: expect.stringMatching(
					/^EPFO: no current employer \(last employment with .+ ended on 30 June 2026\)$/,
				) as unknown,
			}),
		]);
		expectSafeWords(adverseOf(json));
	});

	test.each(MODES)('%s: employed now: adverse: []', async (mode) => {
		const [json] = await items(run(mode), EPFO, copy(epfoRecord(MOBILE)));
		expect(json).toMatchObject({ currentlyEmployed: true, adverse: [] });
	});
});

describe('Get EPFO Record with Credit Report', () => {
	const run = (mode: Mode) =>
		v3({
			resource: 'employment',
			operation: 'getEpfoRecordWithCredit',
			mobileNumber: MOBILE,
			consent: true,
			outputMode: mode,
		});
	const body = (history: string) => ({
		success: true,
		message: 'EPFO and credit details fetched successfully',
		data: {
			mobile_number: MOBILE,
			epfo: {
				uan: '101234567890',
				name: 'PRIYA SHARMA',
				total_employers: 1,
				employment_history: [
					{
						employer_name: 'NEW CO',
						establishment_id: 'E2',
						date_of_joining: '2021-05-01',
						date_of_exit: null,
						service_duration_months: 66,
					},
				],
			},
			crif: {
				credit_score: 731,
				pan: PAN,
				dpd_history: history,
				total_accounts: 1,
				accounts: [
					{
						account_type: 'Personal Loan',
						lender_name: 'ICICI Bank',
						account_number: ACCOUNT,
						account_status: 'Active',
					},
				],
			},
		},
	});

	test.each(MODES)(
		'%s: an account 90+ days past due (SUB) named from the credit part',
		async (mode) => {
			const [json] = await items(run(mode), EPFO_CREDIT, body('000|030/SUB|000'));
			expect(adverseOf(json)).toEqual([
				expect.objectContaining({
					source: 'credit',
					kind: 'assetClass',
					account: 'XXXX3456',
					text: 'Credit report: personal loan with ICICI Bank (account XXXX3456) 90+ days past due (SUB) in the last 12 reported months',
				}),
			]);
			expectSafeWords(adverseOf(json));
		},
	);

	test.each(MODES)('%s: clean: adverse: []', async (mode) => {
		const [json] = await items(run(mode), EPFO_CREDIT, body('000|000|000'));
		expect(json.adverse).toEqual([]);
	});
});

describe.each(SHAPES)('Get ITR Data, %s layout', (shape) => {
	const run = (mode: Mode) =>
		v3({ resource: 'incomeTaxReturn', operation: 'getData', jobId: JOB_ID, outputMode: mode });
	const body = (demand: number) => {
		if (shape === 'reference') {
			const b = copy(itrReference({ jobId: JOB_ID })) as { data: { itr_records: IDataObject[] } };
			b.data.itr_records.forEach((r, i) => (r.demand_amount = i === 0 ? demand : 0));
			return b;
		}
		const b = copy(itrSample({ jobId: JOB_ID }, (ack) => `${service.stub.url}/files/${ack}`)) as {
			data: { filings: IDataObject[]; outstanding_demands: unknown[] };
		};
		b.data.outstanding_demands =
			demand > 0 ? [{ assessment_year: '2025-26', amount: demand, section: '143(1)' }] : [];
		return b;
	};

	test.each(MODES)('%s: a tax demand, with its amount and year', async (mode) => {
		const [json] = await items(run(mode), ITR, body(25000));
		const facts = adverseOf(json);
		expect(facts.length).toBeGreaterThanOrEqual(1);
		expect(facts[0]).toMatchObject({ source: 'itr', kind: 'taxDemand', figure: 25000 });
		expect(facts[0].text).toMatch(/^Income tax: (outstanding )?tax demand of ₹25,000/);
		expectSafeWords(facts);
	});

	test.each(MODES)('%s: no demand: adverse: []', async (mode) => {
		const b = body(0);
		if (shape === 'sample')
			for (const f of (b.data as { filings?: IDataObject[] }).filings ?? [])
				for (const holder of [f, f.computation as IDataObject, f.tax_computation as IDataObject])
					if (holder && typeof holder === 'object' && 'demand_amount' in holder)
						holder.demand_amount = 0;
		const [json] = await items(run(mode), ITR, b);
		expect(json.adverse).toEqual([]);
	});
});

// ------------------------------------------------------------------- company (the simulator)

function cinWith(status: string): string {
	for (let n = 1000; n < 2000; n++) {
		const cin = `U72200KA2011PTC05${n}`;
		if (registryFacts(cin, 'company').status === status) return cin;
	}
	throw new Error(`no CIN with status ${status}`);
}

describe('Get by CIN (simulator, reference layout)', () => {
	const { run } = withSandbox({ shape: 'reference' });
	test.each(MODES)('%s: a struck-off company, status quoted, from the registry', async (mode) => {
		const wf = v3({
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: cinWith('Struck Off') },
			outputMode: mode,
		});
		const result = await run(wf);
		const [json] = result.json(NODE, 0);
		expect(json).toMatchObject({ declinable: true });
		expect(adverseOf(json)).toEqual([
			expect.objectContaining({
				source: 'company',
				kind: 'struckOff',
				figure: 'Struck Off',
				text: "Company: struck off (status 'Struck Off')",
			}),
		]);
		if (mode === 'normalized') {
			expectDecisionRecord(json, 'company.getByCin');
			expect((json.decisionRecord as IDataObject).declinable).toBe(true);
		}
	});
});
