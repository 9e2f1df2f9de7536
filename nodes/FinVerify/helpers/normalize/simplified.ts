import type { IDataObject } from 'n8n-workflow';

import { hasDecisionViews } from '../../../shared/versions';
import { asObject } from './common';

/**
 * The Simplified output mode (node version 2): at most 10 facts a decision needs, picked from the
 * Normalized record (so they are the same in both response shapes), decision fields first: scores,
 * statuses and the figures a rule branches on lead, identifiers follow
 * (test/unit/simplifiedOrder.test.cts checks the first keys of every operation). An operation not
 * listed here has a Normalized record of 10 fields or fewer that already starts with them, which
 * Simplified keeps as it is (without `shape`).
 */

type Pick = (json: IDataObject) => unknown;
type View = Record<string, Pick>;

/** A field of the normalized record, or a field of one of its objects (`member.name`). */
const at =
	(path: string): Pick =>
	(json) => {
		let value: unknown = json;
		for (const key of path.split('.')) value = asObject(value)[key];
		return value === undefined ? null : value;
	};

const same = (...keys: string[]): View => Object.fromEntries(keys.map((key) => [key, at(key)]));

/** A small record kept whole (without `shape`), its decision fields moved to the front. */
const lead =
	(...keys: string[]) =>
	(json: IDataObject): View =>
		same(
			...keys.filter((key) => key in json),
			...Object.keys(json).filter((key) => key !== 'shape' && !keys.includes(key)),
		);

/** Fields an option asked for (a downloaded file, a full report): kept in every mode. */
const REQUESTED_EXTRAS = [
	'binaryProperty',
	'fileName',
	'reportFile',
	'reportHtml',
	'report',
	'reportLayout',
	'query',
	// Wait for a Final Status
	'polls',
	'waitedSeconds',
	'timedOut',
	// a credit pull's consent record (added by the router in every mode)
	'consentRecord',
];

// what both shapes of a journey status carry (the reference shape has no account counts)
const JOURNEY_STATUS = same('status', 'isSuccessful', 'isFinal', 'clientId', 'updatedAt');

// one filed return (Get ITR Data with Split Filings), decision figures first
const ITR_FILING = [
	'grossTotalIncome',
	'taxableIncome',
	'refundAmount',
	'demandAmount',
	'status',
	'assessmentYear',
	'form',
	'filingDate',
	'pan',
];

// an ITR analysis job (Start Analysis, Get Analysis Status)
const ITR_JOB = lead('status', 'isComplete', 'isFinal', 'progress');

// a portal password reset and its OTP confirmation
const PASSWORD_RESET = lead('status', 'message');

const COMPANY_VIEW = same(
	'status',
	'dateOfIncorporation',
	'paidUpCapital',
	'authorisedCapital',
	'companyType',
	'listed',
	'cin',
	'name',
	'state',
	'pan',
);

const LLP_VIEW = same(
	'status',
	'dateOfIncorporation',
	'totalObligationOfContribution',
	'llpin',
	'name',
	'state',
	'rocCode',
	'pan',
	'email',
);

const VIEWS: Record<string, View | ((json: IDataObject) => View)> = {
	'creditReport.getMultiBureauReport': (json) =>
		'bureau' in json
			? // one item per bureau (Split Into One Item per Bureau); missing names the unknown facts
				same(
					'score',
					'scoreKind',
					'maxDaysPastDue',
					'accountCount',
					'missing',
					'success',
					'bureau',
					'message',
					'pan',
				)
			: // lowestScore is null unless coverage.complete; scoreKinds tells a thin file apart
				same(
					'lowestScore',
					'highestScore',
					'scores',
					'scoreKinds',
					'coverage',
					'failedBureaus',
					'successfulBureaus',
					'pan',
					'requestId',
				),
	'creditReport.getCommercialReport': lead('success', 'message'),
	// Get by CIN returns the LLP record when it is given an LLPIN (an LLP has no CIN)
	'company.getByCin': (json) => ('cin' in json ? COMPANY_VIEW : LLP_VIEW),
	'company.getLlpByLlpin': LLP_VIEW,
	// which entity to pick: its name and whether it is active lead
	'company.searchByName': lead('name', 'status', 'entityType', 'identifier'),
	'company.getEntityByPan': same(
		'status',
		'entityType',
		'dateOfIncorporation',
		'pan',
		'name',
		'cin',
		'llpin',
		'state',
	),
	'employment.getEpfoRecord': {
		currentEmployer: at('currentEmployer'),
		totalTenureMonths: at('totalTenureMonths'),
		monthlyWage: at('contributions.latestMonthlyWage'),
		lastContributionMonth: at('contributions.lastContributionMonth'),
		employerCount: at('employerCount'),
		totalContribution: at('contributions.total'),
		uan: at('uan'),
		name: at('member.name'),
		mobileNumber: at('mobileNumber'),
	},
	'employment.getEpfoRecordWithCredit': {
		creditScore: at('credit.score'),
		// noHistory / new: no score for a thin file (creditScore is null then)
		creditScoreKind: at('credit.scoreKind'),
		maxDaysPastDue: at('credit.maxDaysPastDue'),
		totalOutstanding: at('credit.totalOutstanding'),
		currentEmployer: at('employment.currentEmployer'),
		totalTenureMonths: at('employment.totalTenureMonths'),
		partial: at('partial'),
		missing: at('missing'),
		pan: at('member.pan'),
		mobileNumber: at('mobileNumber'),
	},
	'incomeTaxReturn.getData': (json) =>
		'assessmentYear' in json
			? // one item per filing (Split Filings)
				same(...ITR_FILING)
			: {
					latestGrossTotalIncome: at('latestFiling.grossTotalIncome'),
					latestTaxableIncome: at('latestFiling.taxableIncome'),
					latestAssessmentYear: at('latestFiling.assessmentYear'),
					filingStatus: at('filingStatus'),
					filingCount: at('filingCount'),
					status: at('status'),
					latestForm: at('latestFiling.form'),
					pan: at('pan'),
					name: at('name'),
					jobId: at('jobId'),
				},
	'incomeTaxReturn.startAnalysis': ITR_JOB,
	'incomeTaxReturn.getAnalysisStatus': ITR_JOB,
	'incomeTaxReturn.resetPortalPassword': PASSWORD_RESET,
	'incomeTaxReturn.confirmPasswordReset': PASSWORD_RESET,
	'bankStatementJourney.getStatus': () => JOURNEY_STATUS,
	// Start Journey: the link to send the customer; with a wait for a final status, the journey status
	'bankStatementJourney.start': (json) =>
		'isSuccessful' in json ? JOURNEY_STATUS : lead('journeyUrl', 'clientId', 'status')(json),
	'bankStatementJourney.getStatementResult': lead('status', 'totalAccounts', 'totalTransactions'),
	// the flags and figures a lending rule branches on (the health score is the sample shape's alone;
	// a suspicious credit is flagged by the sample shape only, and is null, unknown, in the reference);
	// null when an account was not analysed (Normalized's coverage says which)
	'bankStatementJourney.getAnalysis': {
		anyBounce: at('flags.anyBounce'),
		inwardChequeReturn: at('flags.inwardChequeReturn'),
		suspiciousCredit: at('flags.suspiciousCredit'),
		averageMonthlyBalance: at('averageMonthlyBalance'),
		minimumMonthlyBalance: at('minimumMonthlyBalance'),
		netFlow: at('netFlow'),
		totalCredits: at('totalCredits'),
		periodFrom: at('periodFrom'),
		periodTo: at('periodTo'),
		clientId: at('clientId'),
	},
	// the session's status leads (with Wait for Completion it is the final one), then the hosted link
	'collectionSession.create': lead('status', 'isFinal', 'hostedUrl'),
};

/**
 * Node version 3: the operations a lender's rule decides on lead with the verdict (`decisionReady`,
 * `incomplete`: helpers/normalize/decision.ts), then the decision figures, aggregated where a per-source
 * list would leave the worst value to an expression; still at most 10 fields. The other operations keep
 * their version 2 view.
 */
const VERDICT = ['decisionReady', 'incomplete'];
/** The verdict and the adverse facts (adverse.ts), ahead of the 10 facts. */
const VERDICT_ADVERSE = [...VERDICT, 'adverse'];

/**
 * The company operations' verdict also says what the lender's policy (*Decide On*) decided on, whether
 * a known adverse status declines on its own, and the adverse facts: part of the verdict, not of the
 * 10 facts that follow it.
 */
const REGISTRY_VERDICT = [...VERDICT, 'declinable', 'adverse', 'decidedOn'];

const V3_COMPANY_VIEW = same(
	...REGISTRY_VERDICT,
	'status',
	'statusCategory',
	'riskFlags',
	'dateOfIncorporation',
	'paidUpCapital',
	'cin',
	'name',
	'pan',
);

const V3_LLP_VIEW = same(
	...REGISTRY_VERDICT,
	'status',
	'statusCategory',
	'riskFlags',
	'dateOfIncorporation',
	'totalObligationOfContribution',
	'llpin',
	'name',
	'pan',
);

const V3_VIEWS: Record<string, View | ((json: IDataObject) => View)> = {
	'creditReport.getMultiBureauReport': (json) =>
		'bureau' in json
			? // one item per bureau: the verdict of the whole answer, then this bureau's facts
				same(
					...VERDICT_ADVERSE,
					'decidedOn',
					'score',
					'scoreKind',
					'maxDaysPastDue',
					'accountCount',
					'success',
					'bureau',
					'message',
					'pan',
				)
			: // maxDaysPastDue and delinquentMonths: the worst over every bureau, null unless all are known
				same(
					...VERDICT_ADVERSE,
					'decidedOn',
					'lowestScore',
					'highestScore',
					'maxDaysPastDue',
					'delinquentMonths',
					'scores',
					'scoreKinds',
					'failedBureaus',
					'pan',
				),
	'company.getByCin': (json) => ('cin' in json ? V3_COMPANY_VIEW : V3_LLP_VIEW),
	'company.getLlpByLlpin': V3_LLP_VIEW,
	'company.getEntityByPan': same(
		...REGISTRY_VERDICT,
		'status',
		'statusCategory',
		'bureauDefaults',
		'gstFilingDelay',
		'tdsDefaults',
		'entityType',
		'pan',
		'name',
	),
	'employment.getEpfoRecord': {
		decisionReady: at('decisionReady'),
		incomplete: at('incomplete'),
		adverse: at('adverse'),
		currentlyEmployed: at('currentlyEmployed'),
		currentEmployer: at('currentEmployer'),
		totalTenureMonths: at('totalTenureMonths'),
		monthlyWage: at('contributions.latestMonthlyWage'),
		lastContributionMonth: at('contributions.lastContributionMonth'),
		employerCount: at('employerCount'),
		uan: at('uan'),
		name: at('member.name'),
	},
	'employment.getEpfoRecordWithCredit': {
		decisionReady: at('decisionReady'),
		incomplete: at('incomplete'),
		adverse: at('adverse'),
		creditScore: at('credit.score'),
		creditScoreKind: at('credit.scoreKind'),
		maxDaysPastDue: at('credit.maxDaysPastDue'),
		totalOutstanding: at('credit.totalOutstanding'),
		currentlyEmployed: at('currentlyEmployed'),
		currentEmployer: at('employment.currentEmployer'),
		totalTenureMonths: at('employment.totalTenureMonths'),
		pan: at('member.pan'),
	},
	'incomeTaxReturn.getData': (json) =>
		'assessmentYear' in json
			? // the verdict in place of the filing date: still at most 10 fields
				same(...VERDICT_ADVERSE, ...ITR_FILING.filter((key) => key !== 'filingDate'))
			: {
					decisionReady: at('decisionReady'),
					incomplete: at('incomplete'),
					adverse: at('adverse'),
					latestGrossTotalIncome: at('latestFiling.grossTotalIncome'),
					latestTaxableIncome: at('latestFiling.taxableIncome'),
					latestAssessmentYear: at('latestFiling.assessmentYear'),
					latestStatus: at('latestFiling.status'),
					filingCount: at('filingCount'),
					filingStatus: at('filingStatus'),
					pan: at('pan'),
					name: at('name'),
				},
	// the reference layout states no health score, negative-balance or suspicious-credit check: its item
	// leaves those fields out (a rule comparing them meets no value, not a null n8n compares like 0) and
	// names them in `notInLayout`
	'bankStatementJourney.getAnalysis': (json): View =>
		json.shape === 'reference'
			? {
					decisionReady: at('decisionReady'),
					incomplete: at('incomplete'),
					adverse: at('adverse'),
					anyBounce: at('flags.anyBounce'),
					inwardChequeReturn: at('flags.inwardChequeReturn'),
					averageMonthlyBalance: at('averageMonthlyBalance'),
					netFlow: at('netFlow'),
					notInLayout: at('notInLayout'),
					clientId: at('clientId'),
				}
			: {
					decisionReady: at('decisionReady'),
					incomplete: at('incomplete'),
					adverse: at('adverse'),
					anyBounce: at('flags.anyBounce'),
					inwardChequeReturn: at('flags.inwardChequeReturn'),
					negativeBalance: at('flags.negativeBalance'),
					suspiciousCredit: at('flags.suspiciousCredit'),
					healthScore: at('healthScore.score'),
					averageMonthlyBalance: at('averageMonthlyBalance'),
					netFlow: at('netFlow'),
					clientId: at('clientId'),
				},
};

/** Operations whose Simplified view picks fields (the others keep their small record). */
export const SIMPLIFIED_OPERATIONS = Object.keys(VIEWS);

/** Operations whose version 3 Simplified view differs from version 2's (the decision operations). */
export const V3_SIMPLIFIED_OPERATIONS = Object.keys(V3_VIEWS);

/**
 * The Simplified view of one Normalized output item of `operation` (`<resource>.<operation>`) for a
 * node of `version` (2 unless said; version 3 has the decision views).
 */
export function simplifyOutput(operation: string, json: IDataObject, version = 2): IDataObject {
	const entry = (hasDecisionViews(version) ? V3_VIEWS[operation] : undefined) ?? VIEWS[operation];
	const out: IDataObject = {};
	if (!entry) {
		for (const [key, value] of Object.entries(json)) if (key !== 'shape') out[key] = value;
		return out;
	}
	const view = typeof entry === 'function' ? entry(json) : entry;
	for (const [key, pick] of Object.entries(view)) out[key] = pick(json) as IDataObject[string];
	for (const key of REQUESTED_EXTRAS) if (key in json && !(key in out)) out[key] = json[key];
	return out;
}
