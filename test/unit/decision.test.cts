/**
 * Decision readiness (node version 3): the verdict of every decision operation (pure:
 * helpers/normalize/decision.ts), the status groups, Experian's payment-history profile, and the node's
 * outputs and Incomplete Answers field as n8n resolves them (NodeHelpers, the same functions the editor
 * and the engine use): two outputs only on a version 3 decision operation with Send to the Incomplete
 * Output; versions 1 and 2 keep one output and no new field.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import {
	decide,
	DECISION_OPERATIONS,
	simplifyOutput,
	withDecision,
} from '../../nodes/FinVerify/actions/declarations';
import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { readExperianProfile } from '../../nodes/FinVerify/helpers/normalize/common';
import { normalizeMultiBureau } from '../../nodes/FinVerify/helpers/normalize/creditReport';
import { statusCategory } from '../../nodes/FinVerify/helpers/normalize/decision';
import { registry } from '../../nodes/FinVerify/actions/router';

const finVerify = new FinVerify();
const { description } = finVerify;

function node(typeVersion: number, parameters: INodeParameters, onError?: INode['onError']): INode {
	return {
		id: 'n',
		name: 'FinVerify',
		type: 'n8n-nodes-finverify.finVerify',
		typeVersion,
		position: [0, 0],
		parameters,
		...(onError ? { onError } : {}),
	};
}

/** The node's outputs as n8n computes them for a saved node (defaults filled in by the Workflow). */
function outputsOf(saved: INode) {
	const workflow = new Workflow({
		nodes: [saved],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => finVerify,
			getByNameAndVersion: () => finVerify,
			getKnownTypes: () => ({}),
		},
	});
	return NodeHelpers.getNodeOutputs(workflow, workflow.getNode('FinVerify')!, description).map(
		(output) => (typeof output === 'string' ? { type: output } : output),
	);
}

const parametersOf = (typeVersion: number, parameters: INodeParameters) =>
	NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node(typeVersion, parameters),
		{ ...description, version: typeVersion },
	) as INodeParameters;

const [decisionResource, decisionOperation] = DECISION_OPERATIONS[0].split('.');
const multiBureau = { resource: decisionResource, operation: decisionOperation };

describe('outputs and the Incomplete Answers field', () => {
	test('the decision operations are operations of the node', () => {
		for (const key of DECISION_OPERATIONS) {
			const [resource, operation] = key.split('.');
			expect(
				(registry as Record<string, Record<string, unknown>>)[resource][operation],
			).toBeDefined();
		}
		expect(DECISION_OPERATIONS).toHaveLength(8);
	});

	test.each(DECISION_OPERATIONS)(
		'%s, version 3: Complete, Incomplete and Failed by default',
		(key) => {
			const [resource, operation] = key.split('.');
			const parameters = parametersOf(3, { resource, operation });
			expect(parameters.incompleteAnswers).toBe('separateOutput');
			expect(parameters.failedItems).toBe('failedOutput');
			expect(outputsOf(node(3, { resource, operation }))).toEqual([
				{ type: 'main', displayName: 'Complete' },
				{ type: 'main', displayName: 'Incomplete' },
				{ type: 'main', displayName: 'Failed' },
			]);
		},
	);

	// fixed positions: an option never moves a kind of item to another wire (Complete or Success 0,
	// Incomplete 1, Failed 2); Keep in the Output names the first output Success (every answer leaves there)
	test.each([
		['keep', 'failedOutput', ['Success', 'Incomplete', 'Failed']],
		['fail', 'failedOutput', ['Complete', 'Incomplete', 'Failed']],
		['separateOutput', 'onError', ['Complete', 'Incomplete', 'Failed']],
		['keep', 'onError', ['Success', 'Incomplete', 'Failed']],
	])(
		'version 3, Incomplete Answers %s, Failed Items %s: %j',
		(incompleteAnswers, failedItems, names) => {
			expect(
				outputsOf(node(3, { ...multiBureau, incompleteAnswers, failedItems })).map(
					(o) => o.displayName ?? o.type,
				),
			).toEqual(names);
		},
	);

	test("with the error output, n8n adds it after the node's own outputs", () => {
		const outputs = outputsOf(node(3, multiBureau, 'continueErrorOutput'));
		expect(outputs.map((o) => o.displayName ?? o.type)).toEqual([
			'Complete',
			'Incomplete',
			'Failed',
			'Error',
		]);
	});

	test('Failed Items is not offered where the node waits for a callback (one output on resume)', () => {
		for (const params of [
			{ resource: 'bankStatementJourney', operation: 'wait' },
			{ resource: 'collectionSession', operation: 'wait' },
			{ resource: 'bankStatementJourney', operation: 'start', waitForCompletion: 'callback' },
		])
			expect(parametersOf(3, params)).not.toHaveProperty('failedItems');
		expect(
			parametersOf(3, { resource: 'bankStatementJourney', operation: 'start' }).failedItems,
		).toBe('failedOutput');
	});

	test.each([1, 2])(
		'version %s: no Incomplete Answers or Failed Items, one output (saved nodes keep theirs)',
		(v) => {
			expect(parametersOf(v, multiBureau)).not.toHaveProperty('incompleteAnswers');
			expect(parametersOf(v, multiBureau)).not.toHaveProperty('failedItems');
			expect(outputsOf(node(v, multiBureau))).toEqual([{ type: 'main' }]);
		},
	);

	test('Raw output (no verdict): no Incomplete Answers, positions kept; operations without a verdict: Success and Failed', () => {
		const successAndFailed = [
			{ type: 'main', displayName: 'Success' },
			{ type: 'main', displayName: 'Failed' },
		];
		expect(parametersOf(3, { ...multiBureau, outputMode: 'raw' })).not.toHaveProperty(
			'incompleteAnswers',
		);
		// a decision operation keeps its three positions in Raw (no verdict: every answer on Success)
		expect(
			outputsOf(node(3, { ...multiBureau, outputMode: 'raw' })).map((o) => o.displayName),
		).toEqual(['Success', 'Incomplete', 'Failed']);
		for (const params of [
			{ resource: 'company', operation: 'searchByName' },
			{ resource: 'bankStatementJourney', operation: 'start' },
			{ resource: 'creditReport', operation: 'getCommercialReport' },
		]) {
			expect(parametersOf(3, params)).not.toHaveProperty('incompleteAnswers');
			expect(outputsOf(node(3, params))).toEqual(successAndFailed);
		}
	});
});

const bureau = (name: string, facts: IDataObject): IDataObject => ({
	bureau: name,
	success: true,
	message: null,
	score: 720,
	scoreKind: 'score',
	specialScore: null,
	accountCount: 2,
	maxDaysPastDue: 0,
	delinquentMonths: 0,
	...facts,
});
const MULTI = 'creditReport.getMultiBureauReport';

describe('multi-bureau verdict and aggregates', () => {
	test('complete: ready; the worst days past due and delinquent months over every bureau', () => {
		const verdict = decide(MULTI, {
			bureaus: [
				bureau('cibil', { maxDaysPastDue: 30, delinquentMonths: 1 }),
				bureau('experian', { maxDaysPastDue: 90, delinquentMonths: 2 }),
				bureau('crif', { accountCount: 0, maxDaysPastDue: null, delinquentMonths: null }),
			],
		});
		expect(verdict).toEqual({
			decisionReady: true,
			incomplete: [],
			maxDaysPastDue: 90,
			delinquentMonths: 2,
			decidedOn: [
				'CIBIL: score',
				'CIBIL: payment history',
				'Experian: score',
				'Experian: payment history',
				'CRIF: score',
				'CRIF: payment history',
			],
			// a record without its accounts (read back from JSON): each bureau's worst, in words
			adverse: [
				expect.objectContaining({
					source: 'cibil',
					kind: 'daysPastDue',
					text: 'CIBIL: an account 30 days past due in the last 12 reported months',
				}),
				expect.objectContaining({ source: 'experian', kind: 'daysPastDue', figure: 90 }),
			],
		});
	});

	test.each([
		[{ maxDaysPastDue: null, delinquentMonths: null }, 'Experian: payment history unknown'],
		[{ score: null, scoreKind: null }, 'Experian: score unknown'],
		[
			{ score: null, scoreKind: 'noHistory', specialScore: -1 },
			'Experian: no credit history (score -1)',
		],
		[{ score: null, scoreKind: 'new', specialScore: 2 }, 'Experian: new to credit (score 2)'],
		[{ success: false, score: null, scoreKind: null }, 'Experian: no report'],
	])('%j: not ready, "%s", no aggregate', (facts, words) => {
		const verdict = decide(MULTI, {
			bureaus: [bureau('cibil', {}), bureau('experian', facts)],
		});
		expect(verdict.decisionReady).toBe(false);
		expect(verdict.incomplete).toEqual([words]);
		expect(verdict.maxDaysPastDue).toBeNull();
		expect(verdict.delinquentMonths).toBeNull();
	});

	test('no bureau at all is not ready', () => {
		expect(decide(MULTI, { bureaus: [] }).incomplete).toEqual(['no bureau in the answer']);
	});

	test('a missing account list next to a known payment history does not block a decision', () => {
		expect(
			decide(MULTI, { bureaus: [bureau('cibil', { accountCount: null })] }).decisionReady,
		).toBe(true);
	});

	test('reference layout: a payment history missing, null, emptied or short of an account is unknown, never the current days past due', () => {
		const body = (history: unknown) => ({
			status: 'success',
			data: {
				cibil: {
					score: 760,
					report: {
						accounts: [
							{ account_number: 'A1', days_past_due: 0, overdue_amount: 40000 },
							{ account_number: 'A2', days_past_due: 0 },
						],
						...(history === undefined ? {} : { payment_history: history }),
					},
				},
			},
		});
		const lines = [
			{ account_number: 'A1', history: '030|000' },
			{ account_number: 'A2', history: '000|000' },
		];
		const read = (history: unknown) =>
			decide(MULTI, normalizeMultiBureau(body(history), ['cibil']) as unknown as IDataObject);
		expect(read(lines)).toMatchObject({ decisionReady: true, maxDaysPastDue: 30 });
		for (const lost of [undefined, null, [], [lines[0]]])
			expect(read(lost)).toMatchObject({
				decisionReady: false,
				incomplete: ['CIBIL: payment history unknown'],
				maxDaysPastDue: null,
			});
	});

	test('version 3 Simplified: the verdict leads, at most 10 fields', () => {
		const record = withDecision(MULTI, { bureaus: [bureau('cibil', {})], lowestScore: 720 });
		const simplified = simplifyOutput(MULTI, record, 3);
		expect(Object.keys(simplified).slice(0, 4)).toEqual([
			'decisionReady',
			'incomplete',
			'adverse',
			'decidedOn',
		]);
		// 10 facts at most after the verdict (adverse and decidedOn are part of it)
		expect(Object.keys(simplified).length - 2).toBeLessThanOrEqual(10);
		expect(simplified.maxDaysPastDue).toBe(0);
		// version 2 keeps its view
		expect(simplifyOutput(MULTI, record, 2)).not.toHaveProperty('decisionReady');
	});
});

describe("Experian's Payment_History_Profile", () => {
	test.each([
		['000100', [0, 0, 0, 30, 0, 0]],
		['0N1-26', [0, 30, 60, 180]],
		['000000000000', Array(12).fill(0)],
	])('%s → %j', (profile, days) => expect(readExperianProfile(profile)).toEqual(days));
	test.each(['', '   ', '00?0', '00X', null, 12])('%j is unknown', (value) =>
		expect(readExperianProfile(value)).toBeNull(),
	);
	test('an account with only the profile is read from it (sample Experian layout)', () => {
		const body = {
			results: {
				experian: {
					success: true,
					data: {
						credit_score: '740',
						credit_report: {
							CAIS_Account: {
								CAIS_Account_DETAILS: [{ Account_Number: 'X1', Payment_History_Profile: '000100' }],
							},
						},
					},
				},
			},
		};
		const summary = normalizeMultiBureau(body, ['experian']);
		expect(summary.bureaus[0].maxDaysPastDue).toBe(30);
		expect(decide(MULTI, summary as unknown as IDataObject).decisionReady).toBe(true);
	});
});

describe('the other operations', () => {
	test.each([
		['Active', 'active'],
		['ACTIVE', 'active'],
		['Strike Off', 'struckOff'],
		['STRUCK_OFF', 'struckOff'],
		['Under Process of Striking Off', 'struckOff'],
		['Defunct', 'struckOff'],
		['Under Liquidation', 'liquidation'],
		['Dissolved', 'liquidation'],
		['Dormant under section 455', 'dormant'],
		['Amalgamated', 'amalgamated'],
		['Converted to LLP', 'converted'],
		['Not Available for e-filing', 'other'],
		['', null],
		[null, null],
	])('status %j is %j', (status, category) => expect(statusCategory(status)).toBe(category));

	const company = (facts: IDataObject) => ({
		status: 'Strike Off',
		dateOfIncorporation: '2015-01-01',
		riskFlags: {
			pendingCases: false,
			bureauDefaults: false,
			gstFilingDelay: false,
			epfPaymentDelay: false,
		},
		...facts,
	});
	test('a company: status, incorporation date and every risk flag; a known adverse status is ready', () => {
		expect(decide('company.getByCin', company({}))).toEqual({
			decisionReady: true,
			incomplete: [],
			declinable: true,
			adverse: [
				expect.objectContaining({
					kind: 'struckOff',
					source: 'company',
					text: "Company: struck off (status 'Strike Off')",
				}),
			],
			decidedOn: [
				'status',
				'age',
				'pendingCases',
				'bureauDefaults',
				'gstFilingDelay',
				'epfPaymentDelay',
			],
			statusCategory: 'struckOff',
		});
		expect(
			decide('company.getByCin', company({ status: null, riskFlags: { pendingCases: null } }))
				.incomplete,
		).toEqual([
			'status unknown',
			'risk flags unknown: pending cases, bureau defaults, GST filing delay, EPF payment delay',
		]);
	});

	const employer = (facts: IDataObject) => ({
		name: 'Acme',
		dateOfJoining: '2020-01-01',
		current: true,
		...facts,
	});
	test('EPFO: currentlyEmployed tells "not employed" from "unknown"', () => {
		const epfo = (employers: IDataObject[], extra: IDataObject = {}) =>
			decide('employment.getEpfoRecord', {
				employerCount: employers.length,
				totalTenureMonths: 12,
				currentEmployer: employers.some((e) => e.current === true) ? 'Acme' : null,
				employers,
				...extra,
			});
		expect(epfo([employer({})])).toMatchObject({ decisionReady: true, currentlyEmployed: true });
		expect(epfo([employer({ current: false })])).toMatchObject({
			decisionReady: true,
			currentlyEmployed: false,
		});
		expect(epfo([], { totalTenureMonths: null })).toMatchObject({
			decisionReady: true,
			currentlyEmployed: false,
		});
		expect(epfo([employer({ current: null })])).toMatchObject({
			decisionReady: false,
			incomplete: ['current employment unknown'],
			currentlyEmployed: null,
		});
		expect(epfo([employer({ dateOfJoining: null, name: 'Beta' })]).incomplete).toEqual([
			'employment dates unknown (Beta)',
		]);
		expect(epfo([], { employerCount: null }).incomplete).toContain('employment history unknown');
		// employed now, but which employer is current is unknown (an entry's status or name)
		expect(epfo([employer({})], { currentEmployer: null })).toMatchObject({
			decisionReady: false,
			incomplete: ['current employer unknown'],
			currentlyEmployed: true,
		});
		// a history whose count is unknown (an employer that may be listed twice) says nothing of now
		expect(epfo([employer({})], { employerCount: null })).toMatchObject({
			decisionReady: false,
			currentlyEmployed: null,
		});
	});

	test("analysis: the sample layout's own checks count only in that layout", () => {
		const analysis = (shape: string, facts: IDataObject = {}) =>
			decide('bankStatementJourney.getAnalysis', {
				shape,
				coverage: { complete: true, unanalysedAccounts: [] },
				flags: {
					anyBounce: false,
					inwardChequeReturn: false,
					negativeBalance: null,
					suspiciousCredit: null,
				},
				healthScore: null,
				averageMonthlyBalance: 1000,
				netFlow: 500,
				...facts,
			});
		expect(analysis('reference').decisionReady).toBe(true);
		expect(analysis('sample').incomplete).toEqual([
			'flags unknown: negative balance, suspicious credits',
			'health score unknown',
		]);
		expect(
			analysis('reference', { coverage: { complete: false, unanalysedAccounts: [1, 2] } })
				.incomplete,
		).toEqual(['accounts not analysed: 1, 2']);
		// the Simplified item carries the net flow: unknown, it is named
		expect(analysis('reference', { netFlow: null }).incomplete).toEqual([
			'net flow unknown (total credits or debits)',
		]);
		expect(
			analysis('sample', {
				coverage: { complete: false, conflictingAccounts: true, unanalysedAccounts: [] },
				healthScore: { score: 80 },
				flags: {
					anyBounce: false,
					inwardChequeReturn: false,
					negativeBalance: false,
					suspiciousCredit: false,
				},
			}).incomplete,
		).toEqual(['an account listed twice with different analyses']);
	});

	test('ITR: the latest return and its figures; its status in the sample layout', () => {
		const latest = {
			assessmentYear: '2025-26',
			grossTotalIncome: 1,
			taxableIncome: 1,
			status: null,
		};
		expect(
			decide('incomeTaxReturn.getData', {
				shape: 'reference',
				filingCount: 1,
				latestFiling: latest,
			}).decisionReady,
		).toBe(true);
		expect(
			decide('incomeTaxReturn.getData', { shape: 'sample', filingCount: 1, latestFiling: latest })
				.incomplete,
		).toEqual(['latest return: status unknown']);
		expect(
			decide('incomeTaxReturn.getData', { shape: 'sample', filingCount: null, latestFiling: null })
				.incomplete,
		).toEqual(['returns not in the answer']);
	});

	test('an operation without a verdict is left as it is', () => {
		const record = { name: 'x' };
		expect(withDecision('company.searchByName', record)).toBe(record);
	});
});
