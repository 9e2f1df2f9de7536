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
import {
	AUTOCOMPLETE_REQUIRED,
	COMPANY_REQUIRED,
	ENTITY_REQUIRED,
	LLP_REQUIRED,
} from '../../../nodes/FinVerify/helpers/normalize/company';
import {
	ITR_DATA_REQUIRED,
	JOB_STATUS_REQUIRED,
	PASSWORD_RESET_REQUIRED,
} from '../../../nodes/FinVerify/helpers/normalize/incomeTax';
import { JOURNEY_STATUS_REQUIRED } from '../../../nodes/FinVerify/helpers/normalize/journey';
import {
	ANALYSIS_FACTS,
	ITR_DATA_FACTS,
	MULTI_BUREAU_FACTS,
	STATEMENT_FACTS,
} from '../../../nodes/FinVerify/helpers/answerFacts';
import type { RequiredField } from '../../../nodes/FinVerify/transport';

export type Decisions = Record<string, unknown>;

export interface DecisionTable {
	/** The decision fields of one normalized output (an object, or the list of items). */
	fields: (normalized: unknown) => Decisions;
	/**
	 * The facts an answer must carry to identify its subject: the operation's requiredField (the
	 * transport fails an answer without any of them with INCOMPLETE_RESPONSE, naming them), so a drift
	 * that leads there is no silent change. The same constants the operation passes.
	 */
	required?: RequiredField;
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

const BUREAU_FIELDS = [
	'score',
	'scoreKind',
	'maxDaysPastDue',
	'delinquentMonths',
	'worstAssetClass',
	'accountCount',
];

/** The registry's counts and the latest year's figures (a null entry must not shift or shrink them). */
const REGISTRY_FIELDS = [
	'employeeCount',
	'latestFinancials.yearEnd',
	'latestFinancials.revenue',
	'latestFinancials.profitAfterTax',
	'shareholdingSummary.financialYear',
];
const COMPANY_FIELDS = [
	'status',
	'dateOfIncorporation',
	'paidUpCapital',
	'authorisedCapital',
	'companyType',
	'listed',
	...REGISTRY_FIELDS,
];
const LLP_FIELDS = [
	'status',
	'dateOfIncorporation',
	'totalObligationOfContribution',
	'creditRating',
	'openChargeCount',
	'chargeHolders',
	'creditRatingCount',
	'legalCaseCount',
	...REGISTRY_FIELDS,
];

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
	'worstAssetClass',
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
		required: [MULTI_BUREAU_REQUIRED, MULTI_BUREAU_FACTS],
	},
	'creditReport.getCommercialReport': {
		fields: (n) => pick(n, ['success', 'reportSize']),
		required: COMMERCIAL_REQUIRED,
	},
	'company.getByCin': {
		fields: (n) => pick(n, 'cin' in obj(n) ? COMPANY_FIELDS : LLP_FIELDS),
		required: COMPANY_REQUIRED,
		caseInsensitive: ['shareholdingSummary.financialYear'],
	},
	'company.getLlpByLlpin': {
		fields: (n) => pick(n, LLP_FIELDS),
		required: LLP_REQUIRED,
		caseInsensitive: ['shareholdingSummary.financialYear'],
	},
	'company.getEntityByPan': {
		fields: (n) => pick(n, ['status', 'entityType', 'dateOfIncorporation']),
		required: ENTITY_REQUIRED,
	},
	'company.searchByName': {
		fields: (n) => each(n, 'items', ['name', 'status', 'entityType']),
		required: AUTOCOMPLETE_REQUIRED,
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
				'passbookTotals.entries',
				'passbookTotals.total',
				'member.panLinked',
				'member.aadhaarLinked',
			]),
		}),
		required: EPFO_REQUIRED,
		caseInsensitive: ['currentEmployer'],
	},
	'employment.getEpfoRecordWithCredit': {
		fields: (n) => ({
			...pick(get(n, 'credit'), CREDIT_FIELDS, 'credit.'),
			// keyed by the account (its number), so a repeated or reordered entry is compared with itself
			...each(
				get(n, 'credit.accounts'),
				'credit.accounts',
				['maxDaysPastDue', 'worstAssetClass', 'status'],
				(account, i) =>
					typeof account.accountNumber === 'string' ? account.accountNumber : String(i),
			),
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
	'incomeTaxReturn.getAnalysisStatus': {
		fields: (n) => pick(n, JOB_FIELDS),
		required: JOB_STATUS_REQUIRED,
	},
	'incomeTaxReturn.getData': {
		fields: (n) =>
			pick(n, [
				'status',
				'filingStatus',
				'latestFiling.grossTotalIncome',
				'latestFiling.taxableIncome',
				'latestFiling.assessmentYear',
				'filingCount',
			]),
		required: [ITR_DATA_REQUIRED, ITR_DATA_FACTS],
	},
	'incomeTaxReturn.resetPortalPassword': {
		fields: (n) => pick(n, ['status']),
		required: PASSWORD_RESET_REQUIRED,
	},
	'bankStatementJourney.start': { fields: (n) => pick(n, ['status', 'isFinal']) },
	'bankStatementJourney.getStatus': {
		fields: (n) => pick(n, ['status', 'isSuccessful', 'isFinal']),
		required: JOURNEY_STATUS_REQUIRED,
	},
	'bankStatementJourney.getStatementResult': {
		fields: (n) => ({
			...pick(n, ['status', 'totalAccounts', 'totalTransactions']),
			...each(get(n, 'accounts'), 'accounts', STATEMENT_ACCOUNT_FIELDS),
		}),
		required: STATEMENT_FACTS,
	},
	'bankStatementJourney.getAnalysis': {
		fields: (n) => ({
			...pick(n, [
				'flags.anyBounce',
				'flags.inwardChequeReturn',
				'flags.salaryBounce',
				'flags.emiBounce',
				'flags.negativeBalance',
				'flags.suspiciousCredit',
				'healthScore.score',
				'healthScore.rating',
				'averageMonthlyBalance',
				'minimumMonthlyBalance',
				'netFlow',
				'totalCredits',
				'totalDebits',
			]),
			...each(get(n, 'accounts'), 'accounts', [
				'flags.anyBounce',
				'flags.inwardChequeReturn',
				'flags.suspiciousCredit',
				'healthScore.score',
				'totalCredits',
			]),
		}),
		required: ANALYSIS_FACTS,
	},
	'collectionSession.create': { fields: (n) => pick(n, ['status', 'isFinal']) },
};
