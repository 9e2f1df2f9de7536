import type { IDataObject } from 'n8n-workflow';

import { asObject } from './common';

/**
 * The Simplified output mode: at most 10 facts a decision needs, picked from the Normalized record (so
 * they are the same in both response shapes), decision fields first. An operation not listed here has a
 * Normalized record of 10 fields or fewer, which Simplified keeps as it is (without `shape`).
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
];

// what both shapes of a journey status carry (the reference shape has no account counts)
const JOURNEY_STATUS = same('clientId', 'status', 'isFinal', 'isSuccessful', 'updatedAt');

const COMPANY_VIEW = same(
	'cin',
	'name',
	'status',
	'companyType',
	'listed',
	'dateOfIncorporation',
	'state',
	'authorisedCapital',
	'paidUpCapital',
	'pan',
);

const LLP_VIEW = same(
	'llpin',
	'name',
	'status',
	'dateOfIncorporation',
	'state',
	'rocCode',
	'totalObligationOfContribution',
	'pan',
	'email',
);

const VIEWS: Record<string, View | ((json: IDataObject) => View)> = {
	'creditReport.getMultiBureauReport': (json) =>
		'bureau' in json
			? // one item per bureau (Split Into One Item per Bureau)
				same('bureau', 'success', 'score', 'accountCount', 'maxDaysPastDue', 'message', 'pan')
			: same(
					'lowestScore',
					'highestScore',
					'scores',
					'successfulBureaus',
					'failedBureaus',
					'pan',
					'requestId',
				),
	// Get by CIN returns the LLP record when it is given an LLPIN (an LLP has no CIN)
	'company.getByCin': (json) => ('cin' in json ? COMPANY_VIEW : LLP_VIEW),
	'company.getLlpByLlpin': LLP_VIEW,
	'company.getEntityByPan': same(
		'pan',
		'name',
		'entityType',
		'status',
		'cin',
		'llpin',
		'dateOfIncorporation',
		'state',
	),
	'employment.getEpfoRecord': {
		uan: at('uan'),
		name: at('member.name'),
		currentEmployer: at('currentEmployer'),
		employerCount: at('employerCount'),
		totalTenureMonths: at('totalTenureMonths'),
		totalContribution: at('contributions.total'),
		lastContributionMonth: at('contributions.lastContributionMonth'),
		mobileNumber: at('mobileNumber'),
	},
	'employment.getEpfoRecordWithCredit': {
		partial: at('partial'),
		missing: at('missing'),
		creditScore: at('credit.score'),
		maxDaysPastDue: at('credit.maxDaysPastDue'),
		totalOutstanding: at('credit.totalOutstanding'),
		currentEmployer: at('employment.currentEmployer'),
		totalTenureMonths: at('employment.totalTenureMonths'),
		name: at('member.name'),
		pan: at('member.pan'),
		mobileNumber: at('mobileNumber'),
	},
	'incomeTaxReturn.getData': (json) =>
		'assessmentYear' in json
			? // one item per filing (Split Filings)
				same(
					'assessmentYear',
					'form',
					'filingDate',
					'status',
					'grossTotalIncome',
					'taxableIncome',
					'refundAmount',
					'demandAmount',
					'pan',
				)
			: {
					pan: at('pan'),
					name: at('name'),
					status: at('status'),
					filingStatus: at('filingStatus'),
					latestAssessmentYear: at('latestFiling.assessmentYear'),
					latestForm: at('latestFiling.form'),
					latestGrossTotalIncome: at('latestFiling.grossTotalIncome'),
					latestTaxableIncome: at('latestFiling.taxableIncome'),
					filingCount: (j) => (Array.isArray(j.filings) ? j.filings.length : 0),
					jobId: at('jobId'),
				},
	'bankStatementJourney.getStatus': () => JOURNEY_STATUS,
	// Start Journey with "Wait for a Final Status" outputs the journey status
	'bankStatementJourney.start': (json) =>
		'isSuccessful' in json
			? JOURNEY_STATUS
			: same(...Object.keys(json).filter((k) => k !== 'shape')),
	// what both shapes of an analysis carry (the health score is the sample shape's alone)
	'bankStatementJourney.getAnalysis': {
		totalCredits: at('totalCredits'),
		totalDebits: at('totalDebits'),
		netFlow: at('netFlow'),
		averageMonthlyBalance: at('averageMonthlyBalance'),
		minimumMonthlyBalance: at('minimumMonthlyBalance'),
		anyBounce: at('flags.anyBounce'),
		inwardChequeReturn: at('flags.inwardChequeReturn'),
		periodFrom: at('periodFrom'),
		periodTo: at('periodTo'),
		clientId: at('clientId'),
	},
};

/** Operations whose Simplified view picks fields (the others keep their small record). */
export const SIMPLIFIED_OPERATIONS = Object.keys(VIEWS);

/** The Simplified view of one Normalized output item of `operation` (`<resource>.<operation>`). */
export function simplifyOutput(operation: string, json: IDataObject): IDataObject {
	const entry = VIEWS[operation];
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
