import type { IDataObject } from 'n8n-workflow';

import { hasDecisionViews } from '../../../shared/versions';
import { asObject } from './common';

/**
 * The Simplified output mode (node version 2): at most 10 facts a decision needs, picked from the
 * Normalized record (so they are the same in both response shapes), decision fields first: scores,
 * statuses and the figures a rule branches on lead, identifiers follow
 * (test/unit/simplifiedOrder.test.cts checks the first keys of every operation). Each operation
 * declares its views in its own module (`views`: actions/operation.ts); an operation without one has a
 * Normalized record of 10 fields or fewer that already starts with them, which Simplified keeps as it is
 * (without `shape`).
 */

type Pick = (json: IDataObject) => unknown;
type View = Record<string, Pick>;

/** One Simplified view: the fields it picks, or a choice of them by the item (one bureau, one filing). */
export type SimplifiedView = View | ((json: IDataObject) => View);

/**
 * What an operation declares of its Simplified item (`views` in its module): version 2's pick, and the
 * version 3 decision view where the verdict leads (the decision operations).
 */
export interface SimplifiedViews {
	simplified?: SimplifiedView;
	decision?: SimplifiedView;
}

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
export const ITR_JOB = lead('status', 'isComplete', 'isFinal', 'progress');

// a portal password reset and its OTP confirmation
export const PASSWORD_RESET = lead('status', 'message');

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

export const LLP_VIEW = same(
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

/** The Simplified view of `creditReport.getMultiBureauReport`. */
export const MULTI_BUREAU_VIEW: SimplifiedView = (json) =>
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
			);

/** The Simplified view of `creditReport.getCommercialReport`. */
export const COMMERCIAL_REPORT_VIEW: SimplifiedView = lead('success', 'message');

/** The Simplified view of `company.getByCin`: Get by CIN returns the LLP record when it is given an LLPIN (an LLP has no CIN) */
export const CIN_VIEW: SimplifiedView = (json) => ('cin' in json ? COMPANY_VIEW : LLP_VIEW);

/** The Simplified view of `company.searchByName`: which entity to pick: its name and whether it is active lead */
export const SEARCH_BY_NAME_VIEW: SimplifiedView = lead(
	'name',
	'status',
	'entityType',
	'identifier',
);

/** The Simplified view of `company.getEntityByPan`. */
export const ENTITY_VIEW: SimplifiedView = same(
	'status',
	'entityType',
	'dateOfIncorporation',
	'pan',
	'name',
	'cin',
	'llpin',
	'state',
);

/** The Simplified view of `employment.getEpfoRecord`. */
export const EPFO_VIEW: SimplifiedView = {
	currentEmployer: at('currentEmployer'),
	totalTenureMonths: at('totalTenureMonths'),
	monthlyWage: at('contributions.latestMonthlyWage'),
	lastContributionMonth: at('contributions.lastContributionMonth'),
	employerCount: at('employerCount'),
	totalContribution: at('contributions.total'),
	uan: at('uan'),
	name: at('member.name'),
	mobileNumber: at('mobileNumber'),
};

/** The Simplified view of `employment.getEpfoRecordWithCredit`. */
export const EPFO_WITH_CREDIT_VIEW: SimplifiedView = {
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
};

/** The Simplified view of `incomeTaxReturn.getData`. */
export const ITR_DATA_VIEW: SimplifiedView = (json) =>
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
			};

/** The Simplified view of `bankStatementJourney.getStatus`. */
export const JOURNEY_STATUS_VIEW: SimplifiedView = () => JOURNEY_STATUS;

/** The Simplified view of `bankStatementJourney.start`: Start Journey: the link to send the customer; with a wait for a final status, the journey status */
export const JOURNEY_START_VIEW: SimplifiedView = (json) =>
	'isSuccessful' in json ? JOURNEY_STATUS : lead('journeyUrl', 'clientId', 'status')(json);

/** The Simplified view of `bankStatementJourney.getStatementResult`. */
export const STATEMENT_RESULT_VIEW: SimplifiedView = lead(
	'status',
	'totalAccounts',
	'totalTransactions',
);

/** The Simplified view of `bankStatementJourney.getAnalysis`: the flags and figures a lending rule branches on (the health score is the sample shape's alone; a suspicious credit is flagged by the sample shape only, and is null, unknown, in the reference); null when an account was not analysed (Normalized's coverage says which) */
export const ANALYSIS_VIEW: SimplifiedView = {
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
};

/** The Simplified view of `collectionSession.create`: the session's status leads (with Wait for Completion it is the final one), then the hosted link */
export const SESSION_VIEW: SimplifiedView = lead('status', 'isFinal', 'hostedUrl');

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

export const V3_LLP_VIEW = same(
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

/** Version 3: the Simplified view of `creditReport.getMultiBureauReport`. */
export const MULTI_BUREAU_DECISION_VIEW: SimplifiedView = (json) =>
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
			);

/** Version 3: the Simplified view of `company.getByCin`. */
export const CIN_DECISION_VIEW: SimplifiedView = (json) =>
	'cin' in json ? V3_COMPANY_VIEW : V3_LLP_VIEW;

/** Version 3: the Simplified view of `company.getEntityByPan`. */
export const ENTITY_DECISION_VIEW: SimplifiedView = same(
	...REGISTRY_VERDICT,
	'status',
	'statusCategory',
	'bureauDefaults',
	'gstFilingDelay',
	'tdsDefaults',
	'entityType',
	'pan',
	'name',
);

/** Version 3: the Simplified view of `employment.getEpfoRecord`. */
export const EPFO_DECISION_VIEW: SimplifiedView = {
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
};

/** Version 3: the Simplified view of `employment.getEpfoRecordWithCredit`. */
export const EPFO_WITH_CREDIT_DECISION_VIEW: SimplifiedView = {
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
};

/** Version 3: the Simplified view of `incomeTaxReturn.getData`. */
export const ITR_DATA_DECISION_VIEW: SimplifiedView = (json) =>
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
			};

/** Version 3: the Simplified view of `bankStatementJourney.getAnalysis`: the reference layout states no health score, negative-balance or suspicious-credit check: its item leaves those fields out (a rule comparing them meets no value, not a null n8n compares like 0) and names them in `notInLayout` */
export const ANALYSIS_DECISION_VIEW: SimplifiedView = (json): View =>
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
			};

/**
 * The Simplified item of one Normalized output item, by the views its operation declares (`views` in
 * its module, actions/operation.ts) for a node of `version`: version 3 picks the decision view where
 * there is one, else the version 2 view; without a view the record is kept whole (without `shape`).
 */
export function simplifyWith(
	views: SimplifiedViews | undefined,
	json: IDataObject,
	version: number,
): IDataObject {
	const entry = (hasDecisionViews(version) ? views?.decision : undefined) ?? views?.simplified;
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
