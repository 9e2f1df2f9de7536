/**
 * The decision fields of every operation: the facts a lender's rule branches on (scores, statuses,
 * days past due, bounce flags, health score, totals, counts), taken from the Normalized record. The
 * list follows the Simplified views (nodes/FinVerify/helpers/normalize/simplified.ts), plus the
 * per-entry facts those views summarise (a bureau's score, an account's days past due). Identifiers,
 * names of the subject and envelope fields (`success`, `message`) are not decision fields; neither are
 * the lists that say what an aggregate covers (`failedBureaus`, `missing`, `coverage`): they change, by
 * design, when an entry fails.
 *
 * The drift suite checks each of them: the drifted body gives the same value or null, never a
 * different definite value.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	COMMERCIAL_REQUIRED,
	MULTI_BUREAU_REQUIRED,
} from '../../../nodes/FinVerify/helpers/normalize/creditReport';
import {
	EPFO_CREDIT_REQUIRED,
	EPFO_REQUIRED,
} from '../../../nodes/FinVerify/helpers/normalize/employment';

export type Decisions = Record<string, unknown>;

export interface DecisionTable {
	/** The decision fields of one normalized output (an object, or the list of items). */
	fields: (normalized: unknown) => Decisions;
	/**
	 * The facts an answer must carry to identify its subject: the operation's requiredField (the
	 * transport fails an answer without any of them with INCOMPLETE_RESPONSE, naming them), so a drift
	 * that leads there is no silent change. The same constant the operation passes.
	 */
	required?: string;
	/** Fields compared without regard to case (names: "ACME PVT LTD" is "Acme Pvt Ltd"). */
	caseInsensitive?: string[];
}

const obj = (value: unknown): IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `a.b.c` of an object, undefined-safe (missing is null). */
function get(value: unknown, path: string): unknown {
	let current: unknown = value;
	for (const key of path.split('.')) current = obj(current)[key];
	return current === undefined ? null : current;
}

/** The named fields of an object. */
const pick = (value: unknown, paths: string[], prefix = ''): Decisions =>
	Object.fromEntries(paths.map((p) => [`${prefix}${p}`, get(value, p)]));

/** The named fields of every entry of a list, keyed `<list>[<key>].<field>`. */
function each(
	entries: unknown,
	name: string,
	paths: string[],
	keyOf: (entry: IDataObject, index: number) => string = (_, i) => String(i),
): Decisions {
	const out: Decisions = {};
	list(entries).forEach((entry, i) =>
		Object.assign(out, pick(entry, paths, `${name}[${keyOf(obj(entry), i)}].`)),
	);
	return out;
}

const BUREAU_FIELDS = ['score', 'scoreKind', 'maxDaysPastDue', 'delinquentMonths', 'accountCount'];

const COMPANY_FIELDS = [
	'status',
	'dateOfIncorporation',
	'paidUpCapital',
	'authorisedCapital',
	'companyType',
	'listed',
];
const LLP_FIELDS = ['status', 'dateOfIncorporation', 'totalObligationOfContribution'];
const JOB_FIELDS = ['status', 'isComplete', 'isFinal', 'progress'];
const STATEMENT_ACCOUNT_FIELDS = [
	'status',
	'openingBalance',
	'closingBalance',
	'totalCredits',
	'totalDebits',
	'transactionCount',
];
const CREDIT_FIELDS = [
	'score',
	'scoreKind',
	'maxDaysPastDue',
	'delinquentMonths',
	'totalAccounts',
	'activeAccounts',
	'overdueAccounts',
	'totalOutstanding',
	'totalSanctioned',
	'totalOverdue',
	'lengthOfHistoryMonths',
];

export const DECISIONS: Record<string, DecisionTable> = {
	'creditReport.getMultiBureauReport': {
		fields: (n) => ({
			...pick(n, ['lowestScore', 'highestScore']),
			...each(get(n, 'bureaus'), 'bureaus', BUREAU_FIELDS, (b) => String(b.bureau)),
		}),
		required: MULTI_BUREAU_REQUIRED,
	},
	'creditReport.getCommercialReport': {
		fields: (n) => pick(n, ['success', 'reportSize']),
		required: COMMERCIAL_REQUIRED,
	},
	'company.getByCin': {
		fields: (n) => pick(n, 'cin' in obj(n) ? COMPANY_FIELDS : LLP_FIELDS),
	},
	'company.getLlpByLlpin': { fields: (n) => pick(n, LLP_FIELDS) },
	'company.getEntityByPan': {
		fields: (n) => pick(n, ['status', 'entityType', 'dateOfIncorporation']),
	},
	'company.searchByName': {
		fields: (n) => each(n, 'items', ['name', 'status', 'entityType']),
		caseInsensitive: ['items.name'],
	},
	'employment.getEpfoRecord': {
		fields: (n) => ({
			...pick(n, ['currentEmployer', 'totalTenureMonths', 'employerCount']),
			...pick(n, [
				'contributions.total',
				'contributions.lastContributionMonth',
				'contributions.averageMonthlyWage',
				'contributions.latestMonthlyWage',
			]),
		}),
		required: EPFO_REQUIRED,
		caseInsensitive: ['currentEmployer'],
	},
	'employment.getEpfoRecordWithCredit': {
		fields: (n) => ({
			...pick(get(n, 'credit'), CREDIT_FIELDS, 'credit.'),
			...each(get(n, 'credit.accounts'), 'credit.accounts', ['maxDaysPastDue', 'status']),
			...pick(
				get(n, 'employment'),
				['currentEmployer', 'totalTenureMonths', 'employerCount'],
				'employment.',
			),
		}),
		required: EPFO_CREDIT_REQUIRED,
		caseInsensitive: ['employment.currentEmployer'],
	},
	'incomeTaxReturn.startAnalysis': { fields: (n) => pick(n, JOB_FIELDS) },
	'incomeTaxReturn.getAnalysisStatus': { fields: (n) => pick(n, JOB_FIELDS) },
	'incomeTaxReturn.getData': {
		fields: (n) => ({
			...pick(n, [
				'status',
				'filingStatus',
				'latestFiling.grossTotalIncome',
				'latestFiling.taxableIncome',
				'latestFiling.assessmentYear',
			]),
			filingCount: Array.isArray(obj(n).filings) ? list(obj(n).filings).length : null,
		}),
	},
	'incomeTaxReturn.resetPortalPassword': { fields: (n) => pick(n, ['status']) },
	'bankStatementJourney.start': { fields: (n) => pick(n, ['status', 'isFinal']) },
	'bankStatementJourney.getStatus': {
		fields: (n) => pick(n, ['status', 'isSuccessful', 'isFinal']),
	},
	'bankStatementJourney.getStatementResult': {
		fields: (n) => ({
			...pick(n, ['status', 'totalAccounts', 'totalTransactions']),
			...each(get(n, 'accounts'), 'accounts', STATEMENT_ACCOUNT_FIELDS),
		}),
	},
	'bankStatementJourney.getAnalysis': {
		fields: (n) => ({
			...pick(n, [
				'flags.anyBounce',
				'flags.inwardChequeReturn',
				'flags.salaryBounce',
				'flags.emiBounce',
				'flags.negativeBalance',
				'healthScore.score',
				'healthScore.rating',
				'averageMonthlyBalance',
				'minimumMonthlyBalance',
				'netFlow',
				'totalCredits',
				'totalDebits',
			]),
		}),
	},
	'collectionSession.create': { fields: (n) => pick(n, ['status', 'isFinal']) },
};
