/**
 * Decision fields first: the first keys of every operation's Simplified item (node version 2) are the
 * facts a rule branches on (scores, the lowest score, statuses, the figures of a decision), so they are
 * the first columns of n8n's table view and of the schema preview. Items come from the OpenAPI examples
 * of both response shapes through each operation's normalizer, as the output schemas do.
 */
import { readFileSync } from 'node:fs';
import type { IDataObject } from 'n8n-workflow';

import {
	hasDecision,
	simplifyOutput,
	withDecision,
} from '../../nodes/FinVerify/actions/declarations';
import type { ItrData } from '../../nodes/FinVerify/helpers/normalize/incomeTax';
import { splitFilings } from '../../nodes/FinVerify/helpers/normalize/incomeTax';
import { example } from '../contract/openapiExamples.cjs';
import { operationsWithOutputModes, schemaPath } from '../contract/outputSchemas.cjs';
import { RESPONSES } from '../contract/responses.cjs';

/** The decision fields of each operation (and item kind), in the order they lead the item. */
const DECISION_FIELDS: Record<string, string[]> = {
	'creditReport.getMultiBureauReport': [
		'lowestScore',
		'highestScore',
		'scores',
		'scoreKinds',
		'coverage',
		'failedBureaus',
	],
	'creditReport.getMultiBureauReport per bureau': [
		'score',
		'scoreKind',
		'maxDaysPastDue',
		'accountCount',
		'missing',
		'success',
	],
	'creditReport.getCommercialReport': ['success', 'message'],
	'company.getByCin': ['status', 'dateOfIncorporation', 'paidUpCapital', 'authorisedCapital'],
	'company.getLlpByLlpin': ['status', 'dateOfIncorporation', 'totalObligationOfContribution'],
	'company.getEntityByPan': ['status', 'entityType', 'dateOfIncorporation'],
	'company.searchByName': ['name', 'status', 'entityType', 'identifier'],
	'employment.getEpfoRecord': [
		'currentEmployer',
		'totalTenureMonths',
		'monthlyWage',
		'lastContributionMonth',
	],
	'employment.getEpfoRecordWithCredit': [
		'creditScore',
		'creditScoreKind',
		'maxDaysPastDue',
		'totalOutstanding',
		'currentEmployer',
		'totalTenureMonths',
	],
	'incomeTaxReturn.startAnalysis': ['status', 'isComplete', 'isFinal'],
	'incomeTaxReturn.getAnalysisStatus': ['status', 'isComplete', 'isFinal'],
	'incomeTaxReturn.getData': [
		'latestGrossTotalIncome',
		'latestTaxableIncome',
		'latestAssessmentYear',
		'filingStatus',
	],
	'incomeTaxReturn.getData per filing': [
		'grossTotalIncome',
		'taxableIncome',
		'refundAmount',
		'demandAmount',
		'status',
	],
	'incomeTaxReturn.resetPortalPassword': ['status', 'message'],
	'incomeTaxReturn.confirmPasswordReset': ['status', 'message'],
	// what the workflow acts on after a start: the link to send the customer
	'bankStatementJourney.start': ['journeyUrl', 'clientId'],
	'bankStatementJourney.getStatus': ['status', 'isSuccessful', 'isFinal'],
	'bankStatementJourney.getStatementResult': ['status', 'totalAccounts', 'totalTransactions'],
	'bankStatementJourney.getAnalysis': [
		'anyBounce',
		'inwardChequeReturn',
		'suspiciousCredit',
		'averageMonthlyBalance',
		'minimumMonthlyBalance',
	],
	'collectionSession.create': ['status', 'isFinal', 'hostedUrl'],
};

/** resource.operation of every operation that offers the output choice (so has a Simplified item). */
const withOutputModes = operationsWithOutputModes();

/** Normalized items per operation and item kind, from the OpenAPI examples of every documented shape. */
const items = new Map<string, IDataObject[]>();
const add = (kind: string, list: IDataObject[]) =>
	items.set(kind, [...(items.get(kind) ?? []), ...list]);
for (const contract of RESPONSES) {
	for (const schema of contract.schemas) {
		const out = contract.normalize(example({ $ref: `#/components/schemas/${schema}` }));
		const list = (Array.isArray(out) ? out : [out]) as IDataObject[];
		add(contract.operation, list);
		if (contract.operation === 'creditReport.getMultiBureauReport') {
			// Split Into One Item per Bureau: each bureau's outcome with the request's PAN and id
			for (const summary of list)
				add(
					`${contract.operation} per bureau`,
					(summary.bureaus as IDataObject[]).map((outcome) => ({
						pan: summary.pan,
						requestId: summary.requestId,
						...outcome,
					})),
				);
		}
		if (contract.operation === 'incomeTaxReturn.getData')
			add(
				`${contract.operation} per filing`,
				list.flatMap((d) => splitFilings(d as ItrData)),
			);
		if (contract.operation === 'incomeTaxReturn.resetPortalPassword')
			add('incomeTaxReturn.confirmPasswordReset', list);
	}
}

test('every operation with a Simplified output names its decision fields', () => {
	expect(withOutputModes.length).toBeGreaterThanOrEqual(18);
	for (const operation of withOutputModes)
		expect(Object.keys(DECISION_FIELDS)).toContain(operation);
});

describe.each(Object.entries(DECISION_FIELDS))('%s', (kind, decision) => {
	const operation = kind.split(' ')[0];

	test('the Simplified item starts with its decision fields, in that order', () => {
		const normalized = items.get(kind) ?? [];
		expect(normalized.length).toBeGreaterThan(0);
		for (const json of normalized) {
			const keys = Object.keys(simplifyOutput(operation, json));
			expect(keys.slice(0, decision.length)).toEqual(decision);
			expect(keys).not.toContain('shape');
		}
	});

	test("the schema preview (version 2's schema) lists them first too", () => {
		const [resource, op] = operation.split('.');
		const schema = JSON.parse(
			readFileSync(schemaPath(resource, op, 'simplified') as string, 'utf8'),
		) as IDataObject;
		const keys = Object.keys(schema.properties as IDataObject);
		// a schema covering several item kinds leads with the first kind's fields
		if (kind === operation) expect(keys.slice(0, decision.length)).toEqual(decision);
		else for (const field of decision) expect(keys).toContain(field);
	});
});

/**
 * Node version 3: the decision operations' Simplified item leads with the verdict, then the figures a
 * rule compares (aggregated over bureaus where the per-bureau list would leave it to an expression).
 */
const REGISTRY_VERDICT = ['decisionReady', 'incomplete', 'declinable', 'adverse', 'decidedOn'];

/** The other decision operations: the verdict and the adverse facts (issue 46) lead. */
const VERDICT_ADVERSE = ['decisionReady', 'incomplete', 'adverse'];

const V3_DECISION_FIELDS: Record<string, string[]> = {
	// the bureaus' policy (Bureaus That Must Answer, Payment History Required) in decidedOn (issue 45)
	'creditReport.getMultiBureauReport': [
		...VERDICT_ADVERSE,
		'decidedOn',
		'lowestScore',
		'highestScore',
		'maxDaysPastDue',
		'delinquentMonths',
	],
	'creditReport.getMultiBureauReport per bureau': [
		...VERDICT_ADVERSE,
		'decidedOn',
		'score',
		'scoreKind',
	],
	// the company operations' verdict also says what the policy decided on (issue 45)
	'company.getByCin': [...REGISTRY_VERDICT, 'status', 'statusCategory', 'riskFlags'],
	'company.getLlpByLlpin': [...REGISTRY_VERDICT, 'status', 'statusCategory', 'riskFlags'],
	'company.getEntityByPan': [
		...REGISTRY_VERDICT,
		'status',
		'statusCategory',
		'bureauDefaults',
		'gstFilingDelay',
		'tdsDefaults',
	],
	'employment.getEpfoRecord': [...VERDICT_ADVERSE, 'currentlyEmployed', 'currentEmployer'],
	'employment.getEpfoRecordWithCredit': [
		...VERDICT_ADVERSE,
		'creditScore',
		'creditScoreKind',
		'maxDaysPastDue',
	],
	'incomeTaxReturn.getData': [...VERDICT_ADVERSE, 'latestGrossTotalIncome'],
	'incomeTaxReturn.getData per filing': [...VERDICT_ADVERSE, 'grossTotalIncome'],
	// the sample layout's own checks (negative balance, suspicious credits, health score) follow in that
	// layout; the reference layout's item leaves them out
	'bankStatementJourney.getAnalysis': [...VERDICT_ADVERSE, 'anyBounce', 'inwardChequeReturn'],
};

test('version 3 names the decision fields of every decision operation, and only of those', () => {
	const operations = new Set(Object.keys(V3_DECISION_FIELDS).map((kind) => kind.split(' ')[0]));
	expect(operations.size).toBeGreaterThanOrEqual(8);
	// in words naming the operation and the table
	const gaps = withOutputModes.flatMap((operation) =>
		operations.has(operation) === hasDecision(operation)
			? []
			: hasDecision(operation)
				? [`${operation} declares a decider but has no entry in V3_DECISION_FIELDS`]
				: [`${operation} has an entry in V3_DECISION_FIELDS but declares no decider`],
	);
	expect(gaps).toEqual([]);
});

describe.each(Object.entries(V3_DECISION_FIELDS))('version 3, %s', (kind, decision) => {
	const operation = kind.split(' ')[0];
	const decided = (items.get(kind) ?? []).map((json) =>
		kind === operation
			? withDecision(operation, json)
			: { decisionReady: false, incomplete: [], ...json },
	);

	test('the Simplified item starts with the verdict and its decision fields, at most 10 fields', () => {
		expect(decided.length).toBeGreaterThan(0);
		for (const json of decided) {
			const keys = Object.keys(simplifyOutput(operation, json, 3));
			expect(keys.slice(0, decision.length)).toEqual(decision);
			// at most 10 facts after the verdict (a company's verdict names its policy's facts too)
			const verdict = keys.filter((key) => REGISTRY_VERDICT.slice(2).includes(key)).length;
			// (`adverse` is part of every decision operation's verdict)
			expect(keys.filter((key) => key !== 'consentRecord').length - verdict).toBeLessThanOrEqual(
				10,
			);
		}
	});

	test("the schema preview (version 3's schema) lists them", () => {
		const [resource, op] = operation.split('.');
		const schema = JSON.parse(
			readFileSync(schemaPath(resource, op, 'simplified', 3) as string, 'utf8'),
		) as IDataObject;
		const keys = Object.keys(schema.properties as IDataObject);
		for (const field of decision) expect(keys).toContain(field);
	});
});
