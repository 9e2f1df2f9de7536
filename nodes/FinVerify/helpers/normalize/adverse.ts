import type { IDataObject } from 'n8n-workflow';

import type { DatedMonth } from './common';
import { isObject, toText } from '../../../shared/values';
import { ACCOUNT_NUMBER_NAMES, asArray, asObject, field, LENDER_NAMES, toNumber } from './common';

/**
 * The adverse facts of a decision operation's answer (node version 3): what the answer states against
 * the applicant, independent of any threshold, each in words a letter to the applicant can use and
 * with where it came from (docs/output.md, "The adverse facts"). Facts the answer leaves unknown are
 * not adverse: they are in `incomplete`. A clean answer has none.
 *
 * Personal data: an account is named by its last 4 characters only (`XXXX1234`), whatever Personal
 * Data in Output says; a PAN, a mobile number, an Aadhaar number or a narration never enters the words.
 */

export type AdverseKind =
	| 'daysPastDue'
	| 'assetClass'
	| 'writtenOff'
	| 'settled'
	| 'bounce'
	| 'chequeReturn'
	| 'negativeBalance'
	| 'suspiciousCredit'
	| 'struckOff'
	| 'liquidation'
	| 'status'
	| 'litigation'
	| 'bureauDefault'
	| 'gstFilingDelay'
	| 'epfPaymentDelay'
	| 'tdsDefault'
	| 'taxDemand'
	| 'noCurrentEmployer';

export interface AdverseFact extends IDataObject {
	/** The fact in words, with its source first ("CRIF: personal loan with HDFC Bank …"). */
	text: string;
	/** `cibil`, `crif`, `equifax`, `experian`, `credit`, `epfo`, `company`, `itr`, `bankStatement`. */
	source: string;
	kind: AdverseKind;
	/** The lender, bank or employer the fact is about; null when none. */
	lender: string | null;
	/** The account, its last 4 characters only (`XXXX1234`); null when none. */
	account: string | null;
	/** The month (`YYYY-MM`) or day (`YYYY-MM-DD`) the fact is of; null when the answer does not say. */
	date: string | null;
	/** The figure: days past due, an amount, a count, a status word; null when none. */
	figure: number | string | null;
}

/**
 * Where a reader leaves what an answer's Normalized record does not carry but its adverse facts name
 * (an account's month-by-month history, a bounce's date and amount): a symbol, so it never reaches an
 * output item (n8n keeps only the record's JSON), and it survives the spreads an operation makes.
 */
export const ADVERSE_DETAIL = Symbol.for('finverify.adverseDetail');

/** An account of a credit report with its dated history, as a reader left it (see ADVERSE_DETAIL). */
export interface CreditAccountDetail {
	account: unknown;
	/** Its reported months, newest first; null when its history is unknown. */
	months: DatedMonth[] | null;
}

/** One flagged transaction of a bank statement (a bounce, a negative balance). */
export interface FlaggedTransaction {
	date: string | null;
	amount: number | null;
}

export interface StatementDetail {
	bounces: FlaggedTransaction[];
	negativeBalances: FlaggedTransaction[];
}

const SOURCE_NAMES: Record<string, string> = {
	cibil: 'CIBIL',
	crif: 'CRIF',
	equifax: 'Equifax',
	experian: 'Experian',
	credit: 'Credit report',
	epfo: 'EPFO',
	company: 'Company',
	llp: 'LLP',
	entity: 'Entity',
	itr: 'Income tax',
	bankStatement: 'Bank statement',
};
const sourceName = (source: string) => SOURCE_NAMES[source] ?? source.toUpperCase();

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];

/** `2026-07` → `July 2026`, `2026-08-05` → `5 August 2026`; anything else as it is. */
export function dateWords(date: string): string {
	const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(date);
	if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return date;
	const month = `${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
	return m[3] ? `${Number(m[3])} ${month}` : month;
}

/** An amount in rupees, Indian grouping: ₹1,20,000. */
export const rupees = (amount: number): string =>
	`₹${amount.toLocaleString('en-IN', { maximumFractionDigits: 2 })}`;

/**
 * An account number as the words show it: its last 4 letters and digits, the rest `X`
 * (`XXXX1234`); null when it has fewer than 4 or none. Masked already (`XXXXXX1234`) reads the same.
 */
export function lastFour(value: unknown): string | null {
	const text = toText(value);
	if (text === null) return null;
	const characters = text.replace(/[^A-Za-z0-9]/g, '');
	if (characters.length < 4) return null;
	const last = characters.slice(-4);
	// a mask's own X are not digits of the account
	if (!/[0-9]/.test(last)) return null;
	return `XXXX${last.toUpperCase()}`;
}

function fact(
	source: string,
	kind: AdverseKind,
	words: string,
	details: Partial<Pick<AdverseFact, 'lender' | 'account' | 'date' | 'figure'>> = {},
): AdverseFact {
	return {
		text: `${sourceName(source)}: ${words}`,
		source,
		kind,
		lender: details.lender ?? null,
		account: details.account ?? null,
		date: details.date ?? null,
		figure: details.figure ?? null,
	};
}

// ---- credit reports -----------------------------------------------------------------------------

const TYPE_NAMES = ['account_type', 'acct_type', 'type', 'accountType'];
const STATUS_NAMES = [
	'account_status',
	'status',
	'written_off_settled_status',
	'suit_filed_wilful_default_written_off_status',
	'suit_filed_status',
	'credit_facility_status',
];
const WRITTEN_OFF_AMOUNT_NAMES = [
	'written_off_amount',
	'written_off_amt',
	'written_off_amt_total',
	'write_off_amount',
	'writeoff_amount',
	'written_off_amount_total',
];
const SETTLEMENT_AMOUNT_NAMES = ['settlement_amount', 'settlement_amt', 'settled_amount'];

/** The bureaus' common account type codes (CIBIL, Experian). */
const ACCOUNT_TYPE_CODES: Record<string, string> = {
	'01': 'auto loan',
	'02': 'housing loan',
	'03': 'property loan',
	'05': 'personal loan',
	'06': 'consumer loan',
	'07': 'gold loan',
	'08': 'education loan',
	'10': 'credit card',
	'13': 'two-wheeler loan',
};

/** `Personal Loan` → `personal loan`, `05` → `personal loan`; another code: `account`. */
function accountTypeWords(value: unknown): string {
	const text = toText(value);
	if (text !== null && /^\d{1,2}$/.test(text.trim()))
		return ACCOUNT_TYPE_CODES[text.trim().padStart(2, '0')] ?? 'account';
	if (text === null || !/\p{L}/u.test(text)) return 'account';
	return text.toLowerCase().replace(/[_-]+/g, ' ');
}

/** Written off or settled, from an account's status words or its written-off / settlement amount. */
function closureOf(
	account: unknown,
): { kind: 'writtenOff' | 'settled'; amount: number | null } | null {
	const words = STATUS_NAMES.map((name) => toText(field(account, [name])))
		.filter((w): w is string => w !== null)
		.join(' ')
		.toLowerCase();
	const writtenOffAmount = toNumber(field(account, WRITTEN_OFF_AMOUNT_NAMES));
	const settledAmount = toNumber(field(account, SETTLEMENT_AMOUNT_NAMES));
	if (/writ\w*[\s_-]*off|write[\s_-]*off/.test(words) || (writtenOffAmount ?? 0) > 0)
		return {
			kind: 'writtenOff',
			amount: writtenOffAmount !== null && writtenOffAmount > 0 ? writtenOffAmount : null,
		};
	if (/settl/.test(words) || (settledAmount ?? 0) > 0)
		return {
			kind: 'settled',
			amount: settledAmount !== null && settledAmount > 0 ? settledAmount : null,
		};
	return null;
}

const NPA_CLASSES = new Set(['SUB', 'DBT', 'LSS']);

export interface CreditAccountFacts {
	lender: string | null;
	account: string | null;
	type: string;
	/** Its 12 newest reported months (the window of maxDaysPastDue); null when unknown. */
	months: DatedMonth[] | null;
	closure: ReturnType<typeof closureOf>;
	/** Days past due and class stated without a history (EPFO with Credit's accounts). */
	maxDaysPastDue?: number | null;
	worstAssetClass?: string | null;
}

/**
 * The adverse facts of one credit account: its worst month with days past due (or a class below
 * standard) over the 12 newest reported months (one fact per account: the worst, the newest of equals),
 * and written off or settled.
 */
export function creditAccountAdverse(source: string, a: CreditAccountFacts): AdverseFact[] {
	const facts: AdverseFact[] = [];
	const who = `${a.type}${a.lender ? ` with ${a.lender}` : ''}${a.account ? ` (account ${a.account})` : ''}`;
	const details = { lender: a.lender, account: a.account };
	let worst: { days: number; assetClass: string | null; month: string | null } | null = null;
	if (a.months)
		for (const m of a.months.slice(0, 12)) {
			const cls = m.assetClass !== null && m.assetClass !== 'STD' ? m.assetClass : null;
			if (m.days <= 0 && cls === null) continue;
			if (worst === null || m.days > worst.days) worst = { ...m, assetClass: cls };
		}
	else if ((a.maxDaysPastDue ?? 0) > 0 || NPA_CLASSES.has(String(a.worstAssetClass)))
		worst = {
			days: a.maxDaysPastDue ?? 90,
			assetClass:
				a.worstAssetClass && a.worstAssetClass !== 'none' ? String(a.worstAssetClass) : null,
			month: null,
		};
	if (worst !== null) {
		const npa = worst.assetClass !== null && NPA_CLASSES.has(worst.assetClass);
		const days = npa && worst.days === 90 ? '90+ days' : `${worst.days} days`;
		const cls = worst.assetClass ? ` (${worst.assetClass})` : '';
		const when = worst.month ? ` in ${dateWords(worst.month)}` : ' in the last 12 reported months';
		facts.push(
			fact(source, npa ? 'assetClass' : 'daysPastDue', `${who} ${days} past due${cls}${when}`, {
				...details,
				date: worst.month,
				figure: npa ? (worst.assetClass as string) : worst.days,
			}),
		);
	}
	if (a.closure) {
		const amount = a.closure.amount !== null ? ` (${rupees(a.closure.amount)})` : '';
		facts.push(
			fact(
				source,
				a.closure.kind,
				`${who} ${a.closure.kind === 'writtenOff' ? 'written off' : 'settled'}${amount}`,
				{ ...details, figure: a.closure.amount },
			),
		);
	}
	return facts;
}

/** The facts of a raw bureau account with its dated history (a reader's CreditAccountDetail). */
export function creditAccountFacts(detail: CreditAccountDetail): CreditAccountFacts {
	return {
		lender: toText(field(detail.account, LENDER_NAMES)),
		account: lastFour(field(detail.account, ACCOUNT_NUMBER_NAMES)),
		type: accountTypeWords(field(detail.account, TYPE_NAMES)),
		months: detail.months,
		closure: closureOf(detail.account),
	};
}

const detailOf = <T>(value: unknown): T | undefined =>
	isObject(value)
		? ((value as Record<symbol, unknown>)[ADVERSE_DETAIL] as T | undefined)
		: undefined;

/**
 * Attach a reader's detail to its record (see ADVERSE_DETAIL), not enumerable: equality and copies of
 * the record's fields do not see it; an object the output carries by reference keeps it.
 */
export function withAdverseDetail<T extends object>(record: T, detail: unknown): T {
	Object.defineProperty(record, ADVERSE_DETAIL, {
		value: detail,
		enumerable: false,
		configurable: true,
		writable: true,
	});
	return record;
}

/**
 * Get Multi-Bureau Report: per bureau, per account, days past due, a class below standard, written
 * off or settled. An answer whose accounts the record no longer carries (it went through JSON) is
 * named per bureau from its figures (`worstAssetClass`, `maxDaysPastDue`).
 */
export function multiBureauAdverse(record: IDataObject): AdverseFact[] {
	const facts: AdverseFact[] = [];
	for (const outcome of asArray(record.bureaus).map(asObject)) {
		const source = String(outcome.bureau).toLowerCase();
		// the outcome's own, else the answer's (an operation that copies each outcome keeps `coverage`)
		const accounts =
			detailOf<CreditAccountDetail[]>(outcome) ??
			detailOf<Record<string, CreditAccountDetail[]>>(record.coverage)?.[source];
		if (accounts) {
			for (const detail of accounts)
				facts.push(...creditAccountAdverse(source, creditAccountFacts(detail)));
			continue;
		}
		const worstClass = toText(outcome.worstAssetClass);
		const days = toNumber(outcome.maxDaysPastDue);
		facts.push(...fileFiguresAdverse(source, days, worstClass));
	}
	return facts;
}

/**
 * A credit file known only by its figures (no per-account detail): one fact for its worst days past due
 * or its worst asset class below standard; none when both are clean.
 */
function fileFiguresAdverse(
	source: string,
	days: number | null,
	worstClass: string | null,
): AdverseFact[] {
	if ((days ?? 0) <= 0 && (worstClass === null || worstClass === 'none')) return [];
	return creditAccountAdverse(source, {
		lender: null,
		account: null,
		type: 'an account',
		months: null,
		closure: null,
		maxDaysPastDue: days,
		worstAssetClass: worstClass,
	});
}

// ---- employment ---------------------------------------------------------------------------------

/** No current employer: every job has ended (or none is listed). */
function employmentAdverse(part: IDataObject, currentlyEmployed: unknown): AdverseFact[] {
	if (currentlyEmployed !== false) return [];
	const employers = asArray(part.employers).map(asObject);
	const ended = employers
		.filter((e) => typeof e.dateOfExit === 'string')
		.sort((a, b) => String(b.dateOfExit).localeCompare(String(a.dateOfExit)));
	const last = ended[0];
	if (!last)
		return [fact('epfo', 'noCurrentEmployer', 'no current employer (no employment listed)')];
	const name = toText(last.name);
	return [
		fact(
			'epfo',
			'noCurrentEmployer',
			`no current employer (last employment${name ? ` with ${name}` : ''} ended on ${dateWords(String(last.dateOfExit))})`,
			{ lender: name, date: String(last.dateOfExit) },
		),
	];
}

export function epfoAdverse(record: IDataObject, verdict: IDataObject): AdverseFact[] {
	return employmentAdverse(record, verdict.currentlyEmployed);
}

/** EPFO with Credit: no current employer, and the credit part's accounts (source `credit`). */
export function epfoWithCreditAdverse(record: IDataObject, verdict: IDataObject): AdverseFact[] {
	const facts: AdverseFact[] = [];
	if (isObject(record.employment))
		facts.push(...employmentAdverse(asObject(record.employment), verdict.currentlyEmployed));
	const credit = isObject(record.credit) ? asObject(record.credit) : null;
	if (credit === null) return facts;
	const accounts = detailOf<CreditAccountDetail[]>(credit);
	const normalized = asArray(credit.accounts).map(asObject);
	normalized.forEach((account, index) => {
		const detail = accounts?.[index];
		const base = detail ? creditAccountFacts(detail) : null;
		facts.push(
			...creditAccountAdverse('credit', {
				lender: toText(account.lender),
				account: lastFour(account.accountNumber),
				type: accountTypeWords(account.type),
				months: base?.months ?? null,
				closure: closureOf({ status: account.status }) ?? base?.closure ?? null,
				maxDaysPastDue: toNumber(account.maxDaysPastDue),
				worstAssetClass: toText(account.worstAssetClass),
			}),
		);
	});
	if (normalized.length === 0) {
		const days = toNumber(credit.maxDaysPastDue);
		const worstClass = toText(credit.worstAssetClass);
		facts.push(...fileFiguresAdverse('credit', days, worstClass));
	}
	return facts;
}

// ---- company, LLP, entity -----------------------------------------------------------------------

const FLAG_FACTS: Record<string, [AdverseKind, string]> = {
	pendingCases: ['litigation', 'pending cases (litigation)'],
	bureauDefaults: ['bureauDefault', 'defaults reported to a credit bureau'],
	gstFilingDelay: ['gstFilingDelay', 'GST returns filed late'],
	epfPaymentDelay: ['epfPaymentDelay', 'EPF contributions paid late'],
	tdsDefaults: ['tdsDefault', 'TDS defaults'],
};

const STATUS_KIND: Record<string, AdverseKind> = {
	struckOff: 'struckOff',
	liquidation: 'liquidation',
};
const STATUS_WORDS: Record<string, string> = {
	struckOff: 'struck off',
	liquidation: 'in liquidation or dissolved',
	dormant: 'dormant',
	amalgamated: 'amalgamated into another company',
	converted: 'converted',
	other: 'not active',
};

/**
 * Get by CIN, Get LLP by LLPIN, Get Entity by PAN: the chosen facts (`decidedOn`) that are known and
 * not clean, as the deciders find them (a status other than Active, a risk flag that is true); null
 * exactly when the decider's list is null (the answer is neither ready nor declinable).
 */
export function registryAdverse(
	operation: string,
	record: IDataObject,
	verdict: IDataObject,
): AdverseFact[] | null {
	if (verdict.adverse === null || verdict.adverse === undefined) return null;
	const decidedOn = asArray<string>(verdict.decidedOn);
	const source =
		operation === 'company.getEntityByPan'
			? 'entity'
			: operation === 'company.getLlpByLlpin' || record.llpin
				? 'llp'
				: 'company';
	const facts: AdverseFact[] = [];
	const category = toText(verdict.statusCategory);
	if (decidedOn.includes('status') && category !== null && category !== 'active') {
		const status = String(record.status);
		facts.push(
			fact(
				source,
				STATUS_KIND[category] ?? 'status',
				`${STATUS_WORDS[category] ?? 'not active'} (status '${status}')`,
				{ figure: status },
			),
		);
	}
	const flags = operation === 'company.getEntityByPan' ? record : asObject(record.riskFlags);
	for (const name of decidedOn) {
		if (!(name in FLAG_FACTS) || flags[name] !== true) continue;
		const [kind, words] = FLAG_FACTS[name];
		const cases = name === 'pendingCases' ? toNumber(record.legalCaseCount) : null;
		facts.push(
			fact(source, kind, cases !== null && cases > 0 ? `${words}: ${cases} cases` : words, {
				figure: cases,
			}),
		);
	}
	return facts;
}

// ---- income tax ---------------------------------------------------------------------------------

/** Get ITR Data: a tax demand on a return, and each outstanding demand (sample layout). */
export function itrAdverse(record: IDataObject): AdverseFact[] {
	const facts: AdverseFact[] = [];
	const years = new Set<string>();
	for (const demand of asArray(record.outstandingDemands).map(asObject)) {
		const amount = toNumber(demand.amount);
		if (amount === null || amount <= 0) continue;
		const year = toText(demand.assessmentYear);
		if (year) years.add(year);
		const section = toText(demand.section);
		facts.push(
			fact(
				'itr',
				'taxDemand',
				`outstanding tax demand of ${rupees(amount)}${year ? ` for assessment year ${year}` : ''}${section ? ` (section ${section})` : ''}`,
				{ date: year, figure: amount },
			),
		);
	}
	for (const filing of asArray(record.filings).map(asObject)) {
		const amount = toNumber(filing.demandAmount);
		const year = toText(filing.assessmentYear);
		if (amount === null || amount <= 0 || (year !== null && years.has(year))) continue;
		facts.push(
			fact(
				'itr',
				'taxDemand',
				`tax demand of ${rupees(amount)} on the return${year ? ` for assessment year ${year}` : ''}`,
				{ date: year, figure: amount },
			),
		);
	}
	return facts;
}

// ---- bank statement analysis --------------------------------------------------------------------

function flaggedWords(rows: FlaggedTransaction[]): string {
	return rows
		.map(
			(r) =>
				`${r.date ? `on ${dateWords(r.date)}` : 'undated'}${r.amount !== null ? ` (${rupees(r.amount)})` : ''}`,
		)
		.join(', ');
}

/**
 * Get Analysis: per analysed account (sample layout), bounces (each with its date and amount where the
 * answer lists them), inward cheque returns, negative balances and suspicious credits; the reference
 * layout's flags (salary bounce, EMI bounce, inward cheque return) for the journey.
 */
export function analysisAdverse(record: IDataObject): AdverseFact[] {
	const facts: AdverseFact[] = [];
	const accounts = asArray(record.accounts).map(asObject);
	if (record.shape === 'sample' || accounts.length > 0) {
		for (const account of accounts) {
			const bank = toText(account.bankName);
			const number = lastFour(account.accountNumber);
			const where = `${bank ?? 'bank'} account${number ? ` ${number}` : ''}`;
			const details = { lender: bank, account: number };
			const flags = asObject(account.flags);
			const health = asObject(account.healthScore);
			const detail = detailOf<StatementDetail>(account);
			// a returned inward cheque sets anyBounce too: a bounce fact needs a bounce of its own
			const bounced =
				detail && 'bounced' in detail
					? (detail as StatementDetail & { bounced: unknown }).bounced === true
					: flags.anyBounce === true &&
						(flags.inwardChequeReturn !== true || (toNumber(health.bounces) ?? 0) > 0);
			if (bounced) {
				const rows = detail?.bounces ?? [];
				if (rows.length > 0)
					for (const row of rows)
						facts.push(
							fact('bankStatement', 'bounce', `payment bounce ${flaggedWords([row])}, ${where}`, {
								...details,
								date: row.date,
								figure: row.amount,
							}),
						);
				else {
					const count = toNumber(health.bounces);
					facts.push(
						fact(
							'bankStatement',
							'bounce',
							`${count !== null && count > 0 ? `${count} ` : ''}payment bounce${count === 1 ? '' : 's'}, ${where}`,
							{ ...details, figure: count },
						),
					);
				}
			}
			if (flags.inwardChequeReturn === true)
				facts.push(
					fact('bankStatement', 'chequeReturn', `inward cheque returned, ${where}`, details),
				);
			if (flags.negativeBalance === true) {
				const rows = detail?.negativeBalances ?? [];
				const count = rows.length || toNumber(health.negativeBalances);
				facts.push(
					fact(
						'bankStatement',
						'negativeBalance',
						`negative balance${rows.length > 0 ? ` ${flaggedWords(rows)}` : count ? ` (${count} times)` : ''}, ${where}`,
						{ ...details, date: rows[0]?.date ?? null, figure: count || null },
					),
				);
			}
			if (flags.suspiciousCredit === true) {
				const rows = asArray(account.suspiciousCredits).map(asObject);
				const count = toNumber(account.suspiciousCreditCount) ?? rows.length;
				const listed = rows
					.map((r) => ({ date: toText(r.date), amount: toNumber(r.amount) }))
					.filter((r) => r.date !== null || r.amount !== null);
				facts.push(
					fact(
						'bankStatement',
						'suspiciousCredit',
						`${count} suspicious credit${count === 1 ? '' : 's'}${listed.length > 0 ? ` ${flaggedWords(listed)}` : ''}, ${where}`,
						{ ...details, date: listed[0]?.date ?? null, figure: count },
					),
				);
			}
		}
		return facts;
	}
	const flags = asObject(record.flags);
	if (flags.emiBounce === true) facts.push(fact('bankStatement', 'bounce', 'EMI bounce'));
	if (flags.salaryBounce === true) facts.push(fact('bankStatement', 'bounce', 'salary bounce'));
	if (flags.anyBounce === true && flags.emiBounce !== true && flags.salaryBounce !== true)
		facts.push(fact('bankStatement', 'bounce', 'payment bounce'));
	if (flags.inwardChequeReturn === true)
		facts.push(fact('bankStatement', 'chequeReturn', 'inward cheque returned'));
	if (flags.negativeBalance === true)
		facts.push(fact('bankStatement', 'negativeBalance', 'negative balance'));
	if (flags.suspiciousCredit === true)
		facts.push(fact('bankStatement', 'suspiciousCredit', 'suspicious credits'));
	return facts;
}
