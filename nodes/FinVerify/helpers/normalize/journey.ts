import type { IDataObject } from 'n8n-workflow';

import {
	JOURNEY_COMPLETED_ALIASES,
	JOURNEY_FINAL_STATUSES,
	JOURNEY_STATUSES,
} from '../../../shared/statuses';

import type { FlaggedTransaction, StatementDetail } from './adverse';
import { withAdverseDetail } from './adverse';
import type { Shape } from './common';
import {
	asArray,
	asObject,
	first,
	round2,
	sumPresent,
	toBoolean,
	toIsoDate,
	toIsoMonth,
	toLowerText,
	toNumber,
	toStatusWord,
	toUpperText,
	unwrap,
} from './common';
import {
	canonical,
	distinctEntries,
	toAmount,
	toCount,
	toPercent,
	toSignedAmount,
} from './grammar';
import { isObject, toIsoTimestamp, toText } from '../../../shared/values';

/**
 * Account-aggregator bank statement journey (AA-BSA): status, statement result and analysis, read
 * from either documented response shape into one stable output each. Pure and tolerant: missing or
 * odd fields become null, nothing throws.
 */

// ---------------------------------------------------------------- status

const FINAL_STATUSES = new Set<string>(JOURNEY_FINAL_STATUSES);

export interface JourneyStatusInfo {
	/** One of JOURNEY_STATUSES, or the service's own text (lowercased) when it is unknown. */
	status: string | null;
	isFinal: boolean;
	isSuccessful: boolean;
}

/**
 * Maps a journey status from either shape (`completed` in the sample, `analysis_complete` in the
 * reference).
 */
export function normalizeJourneyStatusValue(raw: unknown): JourneyStatusInfo {
	// a number (an HTTP code such as 200 in an envelope's status) is never a journey status
	const text =
		typeof raw === 'string' && !/^\s*\d+\s*$/.test(raw)
			? (toText(raw)
					?.toLowerCase()
					.replace(/[\s-]+/g, '_') ?? null)
			: null;
	if (text === null) return { status: null, isFinal: false, isSuccessful: false };
	const status = (JOURNEY_STATUSES as readonly string[]).includes(text)
		? text
		: (JOURNEY_COMPLETED_ALIASES[text] ?? text);
	return {
		status,
		isFinal: FINAL_STATUSES.has(status),
		isSuccessful: status === 'analysis_complete',
	};
}

export interface JourneyAccountStatus extends IDataObject {
	accountIndex: number | null;
	bankName: string | null;
	accountNumber: string | null;
	status: string | null;
	bsaClientId: string | null;
	errorMessage: string | null;
}

export interface JourneyStatusSummary extends IDataObject {
	shape: Shape;
	clientId: string | null;
	status: string | null;
	/** The status text exactly as the service sent it. */
	serviceStatus: string | null;
	isFinal: boolean;
	isSuccessful: boolean;
	consentType: string | null;
	mobileNumber: string | null;
	failedAtStage: string | null;
	errorMessage: string | null;
	totalAccounts: number | null;
	completedAccounts: number | null;
	failedAccounts: number | null;
	accounts: JourneyAccountStatus[];
	createdAt: string | null;
	updatedAt: string | null;
}

function accountStatus(raw: unknown): JourneyAccountStatus {
	const a = asObject(raw);
	return {
		accountIndex: toNumber(a.account_index),
		bankName: toText(a.bank_name),
		accountNumber: toText(a.account_number),
		status: toStatusWord(first(a.bsa_status, a.status)),
		bsaClientId: toText(a.bsa_client_id),
		errorMessage: toText(a.error_message),
	};
}

/**
 * Get Status (operation journeyStatus): reference `{success, data:{...}}` or sample (no wrapper,
 * with accounts).
 */
export function normalizeJourneyStatus(body: unknown): JourneyStatusSummary {
	const data = unwrap(body);
	const isSample =
		data.total_accounts !== undefined ||
		Array.isArray(data.accounts) ||
		data.failed_at_stage !== undefined;
	// without a data wrapper, a top-level status is the journey's only in a journey record (the
	// sample shape); an envelope's own status (`success`, 200) is never the journey status
	const isRecord = isObject(asObject(body).data) || isSample || data.client_id !== undefined;
	const info = normalizeJourneyStatusValue(isRecord ? data.status : null);
	const accounts = asArray(data.accounts).map(accountStatus);
	const declaredTotal = toNumber(data.total_accounts);
	// counted from the accounts only when the list is whole (as many as total_accounts says) and
	// every account says its status
	const countBy = (test: (a: JourneyAccountStatus) => boolean) =>
		accounts.length > 0 &&
		(declaredTotal === null || declaredTotal === accounts.length) &&
		accounts.every((a) => a.status !== null)
			? accounts.filter(test).length
			: null;
	return {
		shape: isSample ? 'sample' : 'reference',
		clientId: toText(data.client_id),
		status: info.status,
		serviceStatus: info.status === null ? null : toText(data.status),
		isFinal: info.isFinal,
		isSuccessful: info.isSuccessful,
		consentType: toText(data.consent_type),
		mobileNumber: toText(first(data.mobile_number, data.mobile)),
		failedAtStage: toText(data.failed_at_stage),
		errorMessage: toText(data.error_message),
		totalAccounts: declaredTotal ?? (accounts.length > 0 ? accounts.length : null),
		completedAccounts:
			toNumber(data.completed_accounts) ??
			countBy((a) => normalizeJourneyStatusValue(a.status).isSuccessful),
		failedAccounts: toNumber(data.failed_accounts) ?? countBy((a) => a.status === 'failed'),
		accounts,
		createdAt: toIsoTimestamp(data.created_at),
		updatedAt: toIsoTimestamp(data.updated_at),
	};
}

/**
 * What a Get Status answer must carry (the transport's requiredField): a journey status, a word of
 * the journey's vocabulary, never a number such as an envelope's 200.
 */
export const JOURNEY_STATUS_REQUIRED = (body: unknown): string | undefined =>
	normalizeJourneyStatus(body).status === null
		? 'a journey status (data.status or status)'
		: undefined;

/**
 * The one request for a journey's status: Get Status, Start Journey's polls, Wait for Journey's
 * look-up and the resume URL's look-ups of other journeys send exactly this.
 */
export const journeyStatusRequest = (clientId: string) =>
	({ method: 'GET', path: 'aa-bsa-journey/status', qs: { client_id: clientId } }) as const;

/**
 * The start (init) answer: `{success, data:{client_id, journey_url, status, expires_at}}` (assumed
 * shape).
 */
export function normalizeJourneyStart(body: unknown): IDataObject {
	const data = unwrap(body);
	const info = normalizeJourneyStatusValue(first(data.status, 'initiated'));
	return {
		clientId: toText(first(data.client_id, data.clientId)),
		journeyUrl: toText(first(data.journey_url, data.url, data.redirect_url)),
		status: info.status,
		isFinal: info.isFinal,
		expiresAt: toIsoTimestamp(data.expires_at),
	};
}

// ---------------------------------------------------------------- transactions

export type TransactionType = 'CREDIT' | 'DEBIT';

export interface Transaction extends IDataObject {
	date: string | null;
	valueDate: string | null;
	description: string | null;
	type: TransactionType | null;
	/** Always positive; the direction is in `type`. */
	amount: number | null;
	balance: number | null;
	mode: string | null;
	reference: string | null;
	serialNumber: number | null;
}

const MONTHS: Record<string, string> = {
	jan: '01',
	feb: '02',
	mar: '03',
	apr: '04',
	may: '05',
	jun: '06',
	jul: '07',
	aug: '08',
	sep: '09',
	oct: '10',
	nov: '11',
	dec: '12',
};

/** ISO date from the formats statements use: those of toIsoDate plus `05-Jan-2024`, `05 Jan 24`. */
export function toStatementDate(value: unknown): string | null {
	const iso = toIsoDate(value);
	if (iso) return iso;
	const text = toText(value);
	const m = text ? /^(\d{1,2})[-\s/]([A-Za-z]{3})[A-Za-z]*[-\s/,]+(\d{2}|\d{4})$/.exec(text) : null;
	if (!m) return null;
	const month = MONTHS[m[2].toLowerCase()];
	if (!month) return null;
	return toIsoDate(`${m[1].padStart(2, '0')}-${month}-${m[3]}`);
}

/**
 * Known payment modes (the reference shape's vocabulary), in the order they are looked for in a
 * description, with the narration codes of the major Indian banks: UPI (`UPI/`, `UPI-`, ICICI
 * `UPIAR`, `UPIRET`), NEFT (`NEFT CR-`, `NEFTINW`, SBI `BY TRANSFER-NEFT*`), IMPS (ICICI
 * `MMT/IMPS`, `IMPS-P2A`), RTGS, NACH (`NACH`, `ACH D-`, `ECS`, `MANDATE`), ATM (HDFC `ATW-`
 * own-bank and `NWD-` other-bank withdrawals, `EAW-`, `ATM WDL`, `CASH WDL`, SBI `ATM CASH`, Axis
 * `ATM-CASH`) and cheques (`CHQ`, `CLG`, `CTS`, `INWARD CLG`).
 */
const MODES: Array<[RegExp, string]> = [
	[/\bUPI/i, 'UPI'],
	[/\bNEFT/i, 'NEFT'],
	[/\b(IMPS|MMT)\b/i, 'IMPS'],
	[/\bRTGS/i, 'RTGS'],
	[/\b(NACH|ACH|ECS|MANDATE)\b/i, 'NACH'],
	[/\b(ATM|ATW|NWD|EAW|CASH\s*WDL|CASH\s*WITHDRAWAL|CWDR)\b/i, 'ATM'],
	[/\b(CHQ|CHEQUE|CLG|CTS)\b/i, 'Cheque'],
];

/** The payment mode named in a transaction description, or null. */
export function inferMode(description: string | null): string | null {
	if (!description) return null;
	for (const [pattern, mode] of MODES) if (pattern.test(description)) return mode;
	return null;
}

function transactionType(raw: unknown): TransactionType | null {
	const text = toText(raw)?.toLowerCase().replace(/\./g, '');
	if (!text) return null;
	if (['cr', 'credit', 'c'].includes(text)) return 'CREDIT';
	if (['dr', 'debit', 'd'].includes(text)) return 'DEBIT';
	return null;
}

/**
 * One transaction from either shape: reference `{date, description, type, amount, balance, mode}`
 * or sample
 * `{sr_no, txn_date, value_date, reference_no, description, txn_type: Dr.|Cr., credit, debit,
 * balance}`.
 */
export function normalizeTransaction(raw: unknown): Transaction {
	const t = asObject(raw);
	const credit = toNumber(t.credit);
	const debit = toNumber(t.debit);
	let type = transactionType(first(t.type, t.txn_type, t.transaction_type));
	let amount = toNumber(t.amount);
	if (amount === null) {
		if (type === 'CREDIT') amount = credit;
		else if (type === 'DEBIT') amount = debit;
		else if (credit !== null && credit !== 0) amount = credit;
		else if (debit !== null && debit !== 0) amount = debit;
	}
	if (type === null) {
		if (credit !== null && credit !== 0) type = 'CREDIT';
		else if (debit !== null && debit !== 0) type = 'DEBIT';
		// a negative amount is a debit; a positive one without a type or column says neither
		else if (amount !== null && amount < 0) type = 'DEBIT';
	}
	const description = toText(first(t.description, t.narration, t.remarks));
	return {
		date: toStatementDate(first(t.date, t.txn_date, t.transaction_date)),
		valueDate: toStatementDate(t.value_date),
		description,
		type,
		amount: amount === null ? null : Math.abs(amount),
		balance: toNumber(t.balance),
		mode: toText(t.mode) ?? inferMode(description),
		reference: toText(first(t.reference, t.reference_no, t.ref_no, t.cheque_no)),
		serialNumber: toNumber(t.sr_no),
	};
}

// ---------------------------------------------------------------- statement result

export interface StatementAccount extends IDataObject {
	accountIndex: number | null;
	accountId: string | null;
	bankName: string | null;
	accountNumber: string | null;
	ifsc: string | null;
	accountType: string | null;
	holderName: string | null;
	branchName: string | null;
	status: string | null;
	statementFrom: string | null;
	statementTo: string | null;
	openingBalance: number | null;
	closingBalance: number | null;
	totalCredits: number | null;
	totalDebits: number | null;
	/**
	 * Transactions listed; null when the account carries no list, or an empty one (a statement
	 * account of a finished journey without a single transaction is not told apart from a lost list).
	 */
	transactionCount: number | null;
	/** Time-limited link to the statement analysis PDF (sample shape), or null. */
	pdfUrl: string | null;
	transactions: Transaction[];
}

export interface StatementResult extends IDataObject {
	shape: Shape;
	clientId: string | null;
	status: string | null;
	/** Reference shape: the accounts listed; sample shape: total_accounts (null when not said). */
	totalAccounts: number | null;
	/** Null unless every account of the journey is listed with its transactions. */
	totalTransactions: number | null;
	accounts: StatementAccount[];
}

/** Total of one direction; null when a transaction's direction or amount is unknown. */
function sumOf(transactions: Transaction[], type: TransactionType): number | null {
	if (transactions.length === 0) return null;
	if (transactions.some((t) => t.type === null || t.amount === null)) return null;
	return round2(
		transactions.filter((t) => t.type === type).reduce((s, t) => s + (t.amount ?? 0), 0),
	);
}

/**
 * One account of a statement result. Balances are the ones the service states; totals come from the
 * sample shape's analysis_summary, or (reference shape, which has no summary) from the transactions.
 */
function statementAccount(raw: unknown, position: number, shape: Shape): StatementAccount {
	const a = asObject(raw);
	const info = asObject(a.account_info);
	const period = asObject(first(info.statement_period, a.statement_period));
	const summary = asObject(a.analysis_summary);
	const transactions = asArray(a.transactions).map(normalizeTransaction);
	const fromTransactions = (type: TransactionType) =>
		shape === 'reference' ? sumOf(transactions, type) : null;
	return {
		accountIndex: toNumber(a.account_index) ?? position,
		accountId: toText(first(a.account_id, a.bsa_client_id)),
		bankName: toText(first(a.bank_name, info.bank_name)),
		accountNumber: toText(first(a.account_number, info.account_number)),
		ifsc: toUpperText(first(a.ifsc, info.ifsc)),
		accountType: toText(first(a.account_type, info.account_type)),
		holderName: toText(first(a.holder_name, info.account_holder_name, info.holder_name)),
		branchName: toText(info.branch_name),
		status: toStatusWord(a.bsa_status),
		statementFrom: toStatementDate(first(a.statement_from, period.from, period.start_date)),
		statementTo: toStatementDate(first(a.statement_to, period.to, period.end_date)),
		openingBalance: toNumber(first(a.opening_balance, summary.opening_balance)),
		closingBalance: toNumber(first(a.closing_balance, summary.closing_balance)),
		totalCredits: toNumber(summary.total_credits) ?? fromTransactions('CREDIT'),
		totalDebits: toNumber(summary.total_debits) ?? fromTransactions('DEBIT'),
		transactionCount: transactions.length > 0 ? transactions.length : null,
		pdfUrl: toText(a.analysis_pdf_s3_url),
		transactions,
	};
}

/**
 * Get Statement Result (operation journeyStatementResult), either shape. Dates become ISO,
 * transactions one form.
 */
export function normalizeStatementResult(body: unknown): StatementResult {
	const data = unwrap(body);
	const rawAccounts = asArray(data.accounts);
	const isSample =
		data.total_accounts !== undefined ||
		rawAccounts.some(
			(a) => isObject(a) && (isObject(a.account_info) || a.account_index !== undefined),
		);
	const shape: Shape = isSample ? 'sample' : 'reference';
	const accounts = rawAccounts.map((raw, i) => statementAccount(raw, i, shape));
	// the sample shape says how many accounts the journey has; the reference shape's list is the whole
	const totalAccounts = isSample ? toNumber(data.total_accounts) : accounts.length;
	const counts = accounts.map((a) => a.transactionCount);
	return {
		shape,
		clientId: toText(data.client_id),
		status: normalizeJourneyStatusValue(data.status).status,
		totalAccounts,
		totalTransactions:
			totalAccounts === accounts.length && counts.every((c) => c !== null)
				? (counts as number[]).reduce((s, c) => s + c, 0)
				: null,
		accounts,
	};
}

/** What a Get Statement Result answer must carry: its accounts (a finished journey has one at least). */
export const STATEMENT_REQUIRED = (body: unknown): string | undefined => {
	const accounts = unwrap(body).accounts;
	return Array.isArray(accounts) && accounts.length > 0 ? undefined : 'an account (data.accounts)';
};

/**
 * The account fields each per-transaction item carries when the result is split into transactions.
 */
function accountContext(account: StatementAccount): IDataObject {
	return {
		accountIndex: account.accountIndex,
		accountId: account.accountId,
		bankName: account.bankName,
		accountNumber: account.accountNumber,
		ifsc: account.ifsc,
		holderName: account.holderName,
	};
}

/**
 * One item per transaction of an account, each carrying the journey and the account it belongs to.
 */
export function transactionItems(
	result: StatementResult,
	account: StatementAccount,
): IDataObject[] {
	return account.transactions.map((transaction) => ({
		clientId: result.clientId,
		account: accountContext(account),
		...transaction,
	}));
}

// ---------------------------------------------------------------- analysis

/**
 * Flags of an analysis. Each is tri-state: true, false, or null when the analysis does not say (a
 * missing flag, a missing count, an account without analysis). A flag over several accounts is true
 * when any analysed account shows it, false only when every account was analysed and none shows it.
 */
export interface AnalysisFlags extends IDataObject {
	salaryBounce: boolean | null;
	emiBounce: boolean | null;
	/** Any bounce: a salary or EMI bounce, a bounced transaction or a returned inward cheque. */
	anyBounce: boolean | null;
	highCashWithdrawal: boolean | null;
	inwardChequeReturn: boolean | null;
	endOfMonthStress: boolean | null;
	negativeBalance: boolean | null;
	/** A credit the analysis flags as suspicious (sample shape's suspicious_transactions). */
	suspiciousCredit: boolean | null;
}

export interface HealthScore extends IDataObject {
	score: number | null;
	rating: string | null;
	description: string | null;
	totalPenalties: number | null;
	bounces: number | null;
	negativeBalances: number | null;
	reconciliationIssues: number | null;
}

export interface SuspiciousCredit extends IDataObject {
	date: string | null;
	amount: number | null;
	description: string | null;
	reason: string | null;
}

export interface AnalysisAccount extends IDataObject {
	accountIndex: number | null;
	bankName: string | null;
	accountNumber: string | null;
	ifsc: string | null;
	accountType: string | null;
	holderName: string | null;
	status: string | null;
	/** Whether the answer carries this account's analysis (analysis_json); its figures are null if not. */
	analysed: boolean;
	periodFrom: string | null;
	periodTo: string | null;
	totalCredits: number | null;
	totalDebits: number | null;
	averageMonthlyBalance: number | null;
	/** Lowest month-end balance. */
	minimumMonthlyBalance: number | null;
	/** Lowest balance at any time. */
	minimumBalance: number | null;
	openingBalance: number | null;
	closingBalance: number | null;
	healthScore: HealthScore | null;
	flags: AnalysisFlags;
	/** How many credits the analysis flags as suspicious, or null when it does not say. */
	suspiciousCreditCount: number | null;
	suspiciousCredits: SuspiciousCredit[] | null;
	modeBreakdown: IDataObject[];
	/**
	 * Per month: credits, debits, net and month-end balance (when the analysis carries
	 * monthly_summary).
	 */
	monthlyTrend: IDataObject[];
}

/**
 * Which accounts the figures of a multi-account analysis cover. Totals, the health score and
 * false flags are given only when `complete` (every account analysed); otherwise they are null.
 */
export interface AnalysisCoverage extends IDataObject {
	/**
	 * Accounts of the journey (the larger of total_accounts and the accounts listed); null when the
	 * answer does not say.
	 */
	accounts: number | null;
	/** Accounts whose analysis the answer carries; null when not said (reference shape). */
	analysed: number | null;
	complete: boolean;
	/** account_index (or position) of each listed account without analysis. */
	unanalysedAccounts: number[];
	/**
	 * What the coverage is read from: `accounts`, the accounts and counts the answer lists; `journey`,
	 * the reference layout's one analysis of the whole journey, which names no account (the node cannot
	 * see an account the service left out then: docs/output.md).
	 */
	source: 'accounts' | 'journey';
	/** Copies of one account (same account number and bank) listed again and counted once. */
	repeatedAccounts: number;
	/**
	 * True when one account is listed twice with different analyses, or an account without its number
	 * or bank twice alike: which copy is right is unknown, so are the figures over the accounts.
	 */
	conflictingAccounts: boolean;
}

export interface AnalysisSummary extends IDataObject {
	shape: Shape;
	clientId: string | null;
	status: string | null;
	coverage: AnalysisCoverage;
	periodFrom: string | null;
	periodTo: string | null;
	totalCredits: number | null;
	totalDebits: number | null;
	netFlow: number | null;
	averageMonthlyBalance: number | null;
	minimumMonthlyBalance: number | null;
	averageMonthlyIncome: number | null;
	incomeStabilityScore: number | null;
	salaryCredits: IDataObject[];
	totalEmiPerMonth: number | null;
	fixedObligationsRatio: number | null;
	emiAccounts: IDataObject[];
	monthlyTrend: IDataObject[];
	flags: AnalysisFlags;
	/**
	 * The worst (lowest) health score over the accounts (sample shape only); null unless every account
	 * has one.
	 */
	healthScore: HealthScore | null;
	/**
	 * The decision facts this answer's layout never states (null in it, and not part of its verdict):
	 * the reference layout has no health score, negative-balance or suspicious-credit check; the
	 * sample layout no income, obligations or salary and EMI bounce flags.
	 */
	notInLayout: string[];
	accounts: AnalysisAccount[];
}

/** Facts the reference layout of Get Analysis never states. */
export const NOT_IN_REFERENCE_LAYOUT = [
	'healthScore',
	'flags.negativeBalance',
	'flags.suspiciousCredit',
];

/** Facts the sample layout of Get Analysis never states. */
export const NOT_IN_SAMPLE_LAYOUT = [
	'averageMonthlyIncome',
	'incomeStabilityScore',
	'totalEmiPerMonth',
	'fixedObligationsRatio',
	'flags.salaryBounce',
	'flags.emiBounce',
	'flags.highCashWithdrawal',
	'flags.endOfMonthStress',
];

const emptyFlags = (): AnalysisFlags => ({
	salaryBounce: null,
	emiBounce: null,
	anyBounce: null,
	highCashWithdrawal: null,
	inwardChequeReturn: null,
	endOfMonthStress: null,
	negativeBalance: null,
	suspiciousCredit: null,
});

const positive = (n: number | null): boolean | null => (n === null ? null : n > 0);

/**
 * True when any value is true; false only when every value is false; null when none is true and
 * one is unknown (a missing flag never turns a bounce into "no bounce").
 */
export function anyTrue(values: Array<boolean | null>): boolean | null {
	if (values.some((v) => v === true)) return true;
	return values.length > 0 && values.every((v) => v === false) ? false : null;
}

/** Sum to 2 decimals of values that are all known, or null when one is missing (or none given). */
function sumOfAll(values: Array<number | null>): number | null {
	if (values.length === 0 || values.some((v) => v === null)) return null;
	return round2(sumPresent(values) as number);
}

function healthScoreOf(raw: unknown): HealthScore | null {
	if (!isObject(raw)) {
		const score = toPercent(raw);
		return score === null
			? null
			: {
					score,
					rating: null,
					description: null,
					totalPenalties: null,
					bounces: null,
					negativeBalances: null,
					reconciliationIssues: null,
				};
	}
	const details = asObject(first(raw.details, raw.breakdown));
	return {
		// 0 to 100: 99,999 is unknown, never 100
		score: toPercent(first(raw.score, raw.value)),
		// one case for the rating: the service's own (excellent, good, fair, poor, critical)
		rating: toLowerText(raw.rating),
		description: toText(raw.rating_description),
		totalPenalties: toAmount(raw.total_penalties),
		bounces: countIn(details.bounces),
		negativeBalances: countIn(details.negative_balances),
		reconciliationIssues: countIn(details.reconciliation_issues),
	};
}

/** A count from a `{count}` object or a number, within the count range (else null). */
function countIn(value: unknown): number | null {
	return toCount(isObject(value) ? first(value.count, value.total, value.total_count) : value);
}

/**
 * The identity of a listed transaction (a bounce, a suspicious credit): its transaction id. Date,
 * amount and narration are no identity: two like payments on one day are two payments.
 */
const transactionId = (row: unknown): string | null =>
	isObject(row) ? toText(first(row.transaction_id, row.txn_id, row.id)) : null;

/**
 * How many entries a list of transactions may hold: `{min, max}` (equal when every repeat is certain:
 * an id listed twice with the same content is one entry; a deep-equal copy of an entry without an id
 * may be a repeat or a second like payment, so it widens the range), `unknown` when an entry is no
 * object or one id carries two different entries, null when the value is no list.
 */
function listRange(value: unknown): { min: number; max: number } | 'unknown' | null {
	if (!Array.isArray(value)) return null;
	if (!value.every(isObject)) return 'unknown';
	const byId = new Map<string, string>();
	const anonymous = new Set<string>();
	let anonymousRows = 0;
	for (const row of value) {
		const id = transactionId(row);
		const text = canonical(row);
		if (id === null) {
			anonymous.add(text);
			anonymousRows++;
			continue;
		}
		const seen = byId.get(id);
		if (seen === undefined) byId.set(id, text);
		else if (seen !== text) return 'unknown';
	}
	return { min: byId.size + anonymous.size, max: byId.size + anonymousRows };
}

/** A summary field that is stated (present and not null), even when unreadable. */
const stated = (value: unknown) => value !== undefined && value !== null;

/**
 * A declared count, or `'unknown'` when the summary states it in a form outside the count range (a
 * -1 is not "none": the count is unknown, never the list's length instead).
 */
function declaredCount(...values: unknown[]): number | null | 'unknown' {
	const value = values.find(stated);
	if (value === undefined) return null;
	return toCount(value) ?? 'unknown';
}

interface FlaggedCount {
	/** How many, or null when unknown. */
	count: number | null;
	/** Whether there is one at least: true, false or null (known even when the count is not). */
	any: boolean | null;
}

const UNKNOWN_COUNT: FlaggedCount = { count: null, any: null };

/**
 * A count of flagged entries from every place the analysis states it: the summary's count, the list
 * it summarises, the health score's details. Places that disagree (a count of 1 next to an empty list,
 * a bounce listed next to a count of 0, two counts that differ) make it unknown, as does a count out of
 * its range. A list whose repeats are uncertain pins the count only through a stated count within its
 * range, and says "one at least" when it holds an entry.
 */
function flaggedCount(
	declared: number | null | 'unknown',
	list: unknown,
	others: Array<number | null> = [],
): FlaggedCount {
	if (declared === 'unknown') return UNKNOWN_COUNT;
	const range = listRange(list);
	if (range === 'unknown') return UNKNOWN_COUNT;
	const counts = [...new Set([declared, ...others].filter((c): c is number => c !== null))];
	if (counts.length > 1) return UNKNOWN_COUNT;
	const count = counts.length === 1 ? counts[0] : null;
	if (range === null) return { count, any: positive(count) };
	if (count !== null)
		return count >= range.min && count <= range.max ? { count, any: count > 0 } : UNKNOWN_COUNT;
	return range.min === range.max
		? { count: range.min, any: range.min > 0 }
		: { count: null, any: range.min > 0 ? true : null };
}

function suspiciousCreditsOf(raw: unknown): FlaggedCount & { list: SuspiciousCredit[] | null } {
	if (!isObject(raw)) return { ...UNKNOWN_COUNT, list: null };
	const rows = raw.suspicious_credits;
	const list = Array.isArray(rows)
		? rows.filter(isObject).map((row) => ({
				date: toStatementDate(first(row.date, row.txn_date)),
				amount: toAmount(first(row.amount, row.credit)),
				description: toText(first(row.description, row.narration)),
				reason: toText(first(row.reason, row.remarks)),
			}))
		: null;
	const summary = asObject(raw.summary);
	const { count, any } = flaggedCount(
		declaredCount(summary.total_suspicious_credits, summary.suspicious_credits),
		rows,
	);
	return { count, any, list };
}

/**
 * The inward cheque returns of a cheque-return summary: its count (a whole number from 0; -1 is
 * unknown, not "none"), checked against its total amount when both are stated (a count of 0 with an
 * amount, or returns without one, contradict each other).
 */
function chequeReturnsOf(summary: unknown): number | null {
	if (!isObject(summary)) return toCount(summary);
	const declared = declaredCount(
		summary.total_returns,
		summary.count,
		summary.inward_returns,
		summary.returns,
	);
	if (declared === 'unknown' || declared === null) return null;
	if (!stated(summary.total_amount)) return declared;
	const amount = toAmount(summary.total_amount);
	if (amount === null) return null;
	return (declared === 0) === (amount === 0) ? declared : null;
}

function sampleAccountAnalysis(raw: unknown, position: number): AnalysisAccount {
	const a = asObject(raw);
	const json = asObject(first(a.analysis_json, a.analysis));
	const card = asObject(json.summary_card);
	const period = asObject(card.statement_period);
	const balances = asObject(card.balance_summary);
	const txns = asObject(card.transaction_summary);
	const flagged = asObject(json.flagged_transactions);
	const flaggedSummary = asObject(flagged.summary);
	const health = healthScoreOf(json.health_score);
	const bounces = flaggedCount(
		declaredCount(flaggedSummary.bounce_count, flaggedSummary.bounces),
		flagged.bounce_transactions,
		[health?.bounces ?? null],
	);
	const negatives = flaggedCount(
		declaredCount(flaggedSummary.negative_balance_count, flaggedSummary.negative_balances),
		flagged.negative_balance_transactions,
		[health?.negativeBalances ?? null],
	);
	const chequeReturns = chequeReturnsOf(flagged.cheque_return_summary);
	const suspicious = suspiciousCreditsOf(json.suspicious_transactions);
	const modes = asObject(card.mode_breakdown);
	const trend = monthlyTrend(json.monthly_summary);
	// an average or minimum of month-end balances only when every row is a month with one
	const monthEnds = (trend ?? []).map((m) =>
		isText(m.month) ? (m.closingBalance as number | null) : null,
	);
	const allMonthEnds = monthEnds.length > 0 && monthEnds.every((b) => b !== null);
	const ends = monthEnds as number[];
	// a figure the summary states out of its range is unknown, never replaced by the month-ends
	const balanceFigure = (value: unknown, computed: () => number | null) =>
		stated(value) ? toSignedAmount(value) : computed();
	// the flagged transactions' dates and amounts (never their narration), for the adverse facts
	const flaggedRows = (rows: unknown): FlaggedTransaction[] =>
		asArray(rows)
			.filter(isObject)
			.map((row) => ({
				date: toStatementDate(first(row.date, row.txn_date, row.transaction_date)),
				amount: toAmount(first(row.amount, row.debit, row.credit)),
			}));
	const detail: StatementDetail & { bounced: boolean | null } = {
		bounced: bounces.any,
		bounces: flaggedRows(flagged.bounce_transactions),
		negativeBalances: flaggedRows(flagged.negative_balance_transactions),
	};
	return withAdverseDetail<AnalysisAccount>(
		{
			accountIndex: toCount(a.account_index) ?? position,
			bankName: toText(first(a.bank_name, card.bank_name)),
			accountNumber: toText(first(a.account_number, card.account_number)),
			ifsc: toUpperText(card.ifsc_code),
			accountType: toText(card.account_type),
			holderName: toText(card.customer_name),
			status: toStatusWord(a.bsa_status),
			analysed: Object.keys(json).length > 0,
			periodFrom: toStatementDate(first(period.start_date, period.from)),
			periodTo: toStatementDate(first(period.end_date, period.to)),
			totalCredits: toAmount(
				first(
					txns.total_credits,
					txns.total_credit,
					txns.total_credit_amount,
					balances.total_credits,
				),
			),
			totalDebits: toAmount(
				first(txns.total_debits, txns.total_debit, txns.total_debit_amount, balances.total_debits),
			),
			averageMonthlyBalance: balanceFigure(
				first(
					balances.average_monthly_balance,
					balances.avg_monthly_balance,
					balances.average_balance,
					balances.avg_balance,
				),
				() => (allMonthEnds ? round2(ends.reduce((s, b) => s + b, 0) / ends.length) : null),
			),
			minimumMonthlyBalance: balanceFigure(balances.minimum_monthly_balance, () =>
				allMonthEnds ? Math.min(...ends) : null,
			),
			minimumBalance: toSignedAmount(first(balances.minimum_balance, balances.min_balance)),
			openingBalance: toSignedAmount(balances.opening_balance),
			closingBalance: toSignedAmount(balances.closing_balance),
			healthScore: health,
			flags: {
				...emptyFlags(),
				// a returned inward cheque is a bounce, as in the reference shape's flags
				anyBounce: anyTrue([bounces.any, positive(chequeReturns)]),
				inwardChequeReturn: positive(chequeReturns),
				negativeBalance: negatives.any,
				suspiciousCredit: suspicious.any,
			},
			suspiciousCreditCount: suspicious.count,
			suspiciousCredits: suspicious.list,
			modeBreakdown: Object.entries(modes).map(([mode, value]) => {
				const m = asObject(value);
				return {
					mode,
					count: toCount(m.count),
					totalCredit: toAmount(first(m.total_credit, m.total_credits)),
					totalDebit: toAmount(first(m.total_debit, m.total_debits)),
				};
			}),
			monthlyTrend: trend ?? [],
		},
		detail,
	);
}

/**
 * A list of `{month, ...}` rows with months as `YYYY-MM` and amounts as numbers within their ranges;
 * a month listed twice is one month when both copies agree, and the trend is unknown (null) when they
 * disagree (or when a row without its month is copied).
 */
function monthlyTrend(raw: unknown): IDataObject[] | null {
	const rows = asArray(raw).map((row) => {
		const r = asObject(row);
		const credits = toAmount(first(r.total_credits, r.credits));
		const debits = toAmount(first(r.total_debits, r.debits));
		const net = first(r.net);
		return {
			month: toIsoMonth(r.month) ?? toText(r.month),
			totalCredits: credits,
			totalDebits: debits,
			net: stated(net)
				? toSignedAmount(net)
				: credits !== null && debits !== null
					? round2(credits - debits)
					: null,
			closingBalance: toSignedAmount(first(r.closing_balance, r.month_end_balance)),
		} as IDataObject;
	});
	return distinctEntries(rows, (row) => (isText(row.month) ? row.month : null)).entries;
}

const TREND_FIGURES = ['totalCredits', 'totalDebits', 'net', 'closingBalance'];

/**
 * Per-account monthly rows merged by month, months ascending. A figure of a month is the sum over
 * the accounts only when every account has it for that month; otherwise it is null (a month is never
 * summed over the accounts that happen to report it).
 */
function mergeMonthlyTrends(trends: IDataObject[][]): IDataObject[] {
	const months = [
		...new Set(trends.flatMap((rows) => rows.map((r) => r.month).filter(isText))),
	].sort();
	return months.map((month) => {
		const rows = trends.map((t) => t.find((r) => r.month === month));
		const merged: IDataObject = { month };
		for (const key of TREND_FIGURES)
			merged[key] = sumOfAll(rows.map((r) => (r ? (r[key] as number | null) : null)));
		return merged;
	});
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Account number and bank, compared without case and spaces: one account however it is written. */
function accountIdentity(raw: unknown): string | null {
	const a = asObject(raw);
	const card = asObject(asObject(first(a.analysis_json, a.analysis)).summary_card);
	const key = (value: unknown) => toText(value)?.toUpperCase().replace(/\s+/g, '') ?? null;
	const number = key(first(a.account_number, card.account_number));
	const bank = key(first(a.bank_name, card.bank_name, a.fip_id, a.fip));
	return number === null || bank === null ? null : `${bank}|${number}`;
}

/**
 * Two copies of one account say the same thing when they differ at most in their position
 * (`account_index`) and the service's per-account job id (`bsa_client_id`).
 */
const accountContent = (raw: unknown): string =>
	canonical(
		Object.fromEntries(
			Object.entries(asObject(raw)).filter(
				([key]) => key !== 'account_index' && key !== 'bsa_client_id',
			),
		),
	);

function sameAccount(x: unknown, y: unknown): boolean {
	return accountContent(x) === accountContent(y);
}

interface ListedAccounts {
	/** The raw accounts, each once; the whole list as sent when `conflicting`. */
	raw: unknown[];
	/** Their positions in the answer. */
	positions: number[];
	repeats: number;
	conflicting: boolean;
}

/** The accounts an answer lists, each once (account number and bank), or conflicting copies. */
function listedAccounts(list: unknown[]): ListedAccounts {
	const indexed = list.map((raw, position) => ({ raw, position }));
	const { entries, repeats } = distinctEntries(
		indexed,
		(entry) => accountIdentity(entry.raw),
		(x, y) => sameAccount(x.raw, y.raw),
	);
	// anonymous copies are compared without their position too
	const anonymousCopies =
		entries !== null &&
		(() => {
			const seen = new Set<string>();
			for (const { raw } of entries) {
				if (accountIdentity(raw) !== null) continue;
				const key = accountContent(raw);
				if (seen.has(key)) return true;
				seen.add(key);
			}
			return false;
		})();
	if (entries === null || anonymousCopies)
		return { raw: list, positions: list.map((_, i) => i), repeats, conflicting: true };
	return {
		raw: entries.map((e) => e.raw),
		positions: entries.map((e) => e.position),
		repeats,
		conflicting: false,
	};
}

/**
 * The coverage of a sample-shape analysis: how many accounts the journey has (total_accounts, or the
 * accounts listed when they are more), and which ones lack their analysis. Without total_accounts it
 * is unknown whether the list is whole, so the analysis is not complete.
 */
function coverageOf(
	data: IDataObject,
	accounts: AnalysisAccount[],
	listed: ListedAccounts,
): AnalysisCoverage {
	const declared = toCount(data.total_accounts);
	const count = declared === null ? null : Math.max(declared, accounts.length);
	const unanalysed = accounts.filter((a) => !a.analysed);
	const analysed = accounts.length - unanalysed.length;
	return {
		accounts: listed.conflicting ? declared : count,
		analysed: listed.conflicting ? null : analysed,
		complete: !listed.conflicting && count !== null && count > 0 && analysed === count,
		unanalysedAccounts: unanalysed.map((a) => a.accountIndex as number),
		source: 'accounts',
		repeatedAccounts: listed.repeats,
		conflictingAccounts: listed.conflicting,
	};
}

/** Whether a listed account of a reference-layout answer says it was analysed: true, false or null. */
function accountAnalysed(raw: unknown): boolean | null {
	const a = asObject(raw);
	const flag = toBoolean(first(a.analysis_completed, a.analysed));
	if (flag !== null) return flag;
	const status = toStatusWord(first(a.bsa_status, a.analysis_status, a.status));
	if (status === null) return null;
	if (normalizeJourneyStatusValue(status).isSuccessful) return true;
	return ['failed', 'pending', 'processing', 'skipped', 'not_analysed'].includes(status)
		? false
		: null;
}

/**
 * The coverage of a reference-layout analysis. The layout is one analysis of the whole journey and
 * names no account: without any account list or count the node cannot see an account the service
 * left out (`source: 'journey'`, taken as complete: the service answers only once the journey is
 * analysis_complete). When the answer does list its accounts or counts (`accounts[]`,
 * `total_accounts`, `completed_accounts`, `failed_accounts`), coverage is read from them as in the
 * sample layout: an account listed without its analysis, or a count left over, is not analysed.
 */
function referenceCoverage(data: IDataObject): AnalysisCoverage {
	const hasList = Array.isArray(data.accounts);
	if (
		!hasList &&
		!['total_accounts', 'completed_accounts', 'failed_accounts'].some((k) => k in data)
	)
		return {
			accounts: null,
			analysed: null,
			complete: true,
			unanalysedAccounts: [],
			source: 'journey',
			repeatedAccounts: 0,
			conflictingAccounts: false,
		};
	const listed = listedAccounts(hasList ? (data.accounts as unknown[]) : []);
	const states = listed.raw.map(accountAnalysed);
	const indexOf = (i: number) =>
		toCount(asObject(listed.raw[i]).account_index) ?? listed.positions[i];
	// a count the answer states: undefined when not stated, null when stated out of its range
	const count = (key: string) => (key in data ? toCount(data[key]) : undefined);
	const total = count('total_accounts');
	const completed = count('completed_accounts');
	const failed = count('failed_accounts');
	const listedAnalysed =
		hasList && states.every((s) => s !== null) ? states.filter((s) => s === true).length : null;
	let accounts = total !== undefined ? total : hasList ? listed.raw.length : null;
	// more accounts listed than the answer says it has: which count is right is unknown
	if (accounts !== null && listed.raw.length > accounts) accounts = null;
	let analysed = completed !== undefined ? completed : listedAnalysed;
	if (completed !== undefined && hasList && completed !== listedAnalysed) analysed = null;
	const conflicting = listed.conflicting;
	return {
		accounts: conflicting ? (total ?? null) : accounts,
		analysed: conflicting ? null : analysed,
		complete:
			!conflicting &&
			accounts !== null &&
			accounts > 0 &&
			analysed === accounts &&
			(failed === undefined || failed === 0),
		unanalysedAccounts: conflicting
			? []
			: states.flatMap((state, i) => (state === true ? [] : [indexOf(i)])),
		source: 'accounts',
		repeatedAccounts: listed.repeats,
		conflictingAccounts: conflicting,
	};
}

/** What a Get Analysis answer must carry: the analysis, in either shape. */
export const ANALYSIS_REQUIRED = (body: unknown): string | undefined => {
	const data = unwrap(body);
	return isObject(data.summary) ||
		isObject(data.flags) ||
		(Array.isArray(data.accounts) && data.accounts.length > 0)
		? undefined
		: 'the analysis (data.summary, data.flags or data.accounts)';
};

/**
 * Get Analysis (operation journeyAnalysisJson), either shape, to one summary. Reference:
 * `data.{summary, income, obligations, cash_flow, flags}` for all accounts together. Sample:
 * `data.accounts[].analysis_json` per account, each account once (account number and bank); figures
 * over the accounts (sums, the worst health score, flags that are false) only when every account was
 * analysed (`coverage.complete`), and null otherwise; a flag any analysed account shows is true either
 * way. Every figure is read within its range (normalize/grammar.ts): outside it, it is null.
 */
export function normalizeAnalysis(body: unknown): AnalysisSummary {
	const data = unwrap(body);
	const status = toText(data.status);
	const base = {
		clientId: toText(data.client_id),
		status: status === null ? null : normalizeJourneyStatusValue(status).status,
	};
	const rawAccounts = asArray(data.accounts);
	const isSample =
		!isObject(data.summary) &&
		(rawAccounts.some((a) => isObject(a) && isObject(a.analysis_json)) ||
			data.total_accounts !== undefined);

	if (isSample) {
		const listed = listedAccounts(rawAccounts);
		const accounts = listed.raw.map((raw, i) => sampleAccountAnalysis(raw, listed.positions[i]));
		const coverage = coverageOf(data, accounts, listed);
		const over = (pick: (a: AnalysisAccount) => number | null) =>
			coverage.complete ? sumOfAll(accounts.map(pick)) : null;
		const credits = over((a) => a.totalCredits);
		const debits = over((a) => a.totalDebits);
		const scores = accounts.map((a) => a.healthScore?.score ?? null);
		const worst =
			coverage.complete && scores.every((s) => s !== null)
				? accounts.reduce((w, a) =>
						(a.healthScore?.score as number) < (w.healthScore?.score as number) ? a : w,
					)
				: undefined;
		const dates = (pick: (a: AnalysisAccount) => string | null) => {
			const list = accounts.map(pick);
			return coverage.complete && list.every(isText) ? (list as string[]).sort() : [];
		};
		const froms = dates((a) => a.periodFrom);
		const tos = dates((a) => a.periodTo);
		const flag = (key: keyof AnalysisFlags) => {
			const values = accounts.map((a) => a.flags[key] as boolean | null);
			// a listed account without analysis, or one not listed at all, leaves "no" unknown
			if (!coverage.complete) values.push(null);
			return anyTrue(values);
		};
		return {
			shape: 'sample',
			...base,
			coverage,
			periodFrom: froms[0] ?? null,
			periodTo: tos[tos.length - 1] ?? null,
			totalCredits: credits,
			totalDebits: debits,
			netFlow: credits !== null && debits !== null ? round2(credits - debits) : null,
			averageMonthlyBalance: over((a) => a.averageMonthlyBalance),
			minimumMonthlyBalance: over((a) => a.minimumMonthlyBalance),
			averageMonthlyIncome: null,
			incomeStabilityScore: null,
			salaryCredits: [],
			totalEmiPerMonth: null,
			fixedObligationsRatio: null,
			emiAccounts: [],
			monthlyTrend: coverage.complete
				? mergeMonthlyTrends(accounts.map((a) => a.monthlyTrend))
				: [],
			flags: {
				...emptyFlags(),
				anyBounce: flag('anyBounce'),
				inwardChequeReturn: flag('inwardChequeReturn'),
				negativeBalance: flag('negativeBalance'),
				suspiciousCredit: flag('suspiciousCredit'),
			},
			healthScore: worst?.healthScore ?? null,
			notInLayout: [...NOT_IN_SAMPLE_LAYOUT],
			accounts,
		};
	}

	const summary = asObject(data.summary);
	const income = asObject(data.income);
	const obligations = asObject(data.obligations);
	const cashFlow = asObject(data.cash_flow);
	const flags = asObject(data.flags);
	const period = asObject(data.analysis_period);
	const credits = toAmount(summary.total_credits);
	const debits = toAmount(summary.total_debits);
	const salaryBounce = toBoolean(flags.salary_bounce);
	const emiBounce = toBoolean(flags.emi_bounce);
	const inwardChequeReturn = toBoolean(flags.inward_cheque_return);
	return {
		shape: 'reference',
		...base,
		// one analysis of the whole journey: the service's own figures over all its accounts
		coverage: referenceCoverage(data),
		periodFrom: toStatementDate(first(period.from, period.start_date)),
		periodTo: toStatementDate(first(period.to, period.end_date)),
		totalCredits: credits,
		totalDebits: debits,
		netFlow: credits !== null && debits !== null ? round2(credits - debits) : null,
		averageMonthlyBalance: toSignedAmount(summary.average_monthly_balance),
		minimumMonthlyBalance: toSignedAmount(summary.minimum_monthly_balance),
		averageMonthlyIncome: toAmount(income.average_monthly_income),
		incomeStabilityScore: toPercent(income.income_stability_score),
		salaryCredits: asArray(income.identified_salary_credits).map((row) => {
			const r = asObject(row);
			return { month: toText(r.month), amount: toAmount(r.amount), source: toText(r.source) };
		}),
		totalEmiPerMonth: toAmount(obligations.total_emi_per_month),
		// EMIs over income: a ratio from 0 (it may pass 1)
		fixedObligationsRatio: toAmount(obligations.fixed_obligations_ratio),
		emiAccounts: asArray(obligations.emi_accounts).map((row) => {
			const r = asObject(row);
			return { lender: toText(r.lender), amount: toAmount(r.amount), mode: toText(r.mode) };
		}),
		monthlyTrend: monthlyTrend(cashFlow.monthly_trend) ?? [],
		flags: {
			...emptyFlags(),
			salaryBounce,
			emiBounce,
			anyBounce: anyTrue([salaryBounce, emiBounce, inwardChequeReturn]),
			highCashWithdrawal: toBoolean(flags.high_cash_withdrawal),
			inwardChequeReturn,
			endOfMonthStress: toBoolean(flags.end_of_month_stress),
			negativeBalance: toBoolean(flags.negative_balance),
		},
		healthScore: healthScoreOf(data.health_score),
		notInLayout: [...NOT_IN_REFERENCE_LAYOUT],
		accounts: [],
	};
}
