import type { IDataObject } from 'n8n-workflow';

import type { AdverseFact } from './adverse';
import {
	analysisAdverse,
	epfoAdverse,
	epfoWithCreditAdverse,
	itrAdverse,
	multiBureauAdverse,
	registryAdverse,
} from './adverse';
import { asArray, asObject } from './common';

/**
 * Decision readiness (node version 3): one verdict per answer of an operation a lender's rule
 * branches on, computed from its Normalized record, so it is the same in both response shapes.
 *
 * - `decisionReady`: true only when every decision fact of the operation is known (scores, payment
 *   histories, statuses, risk flags, employment dates, analysed accounts…) and none is a special
 *   value that a number rule would read wrongly (a CIBIL -1 or 0). A rule may then compare numbers
 *   without ever meeting a null.
 * - `incomplete`: what is unknown, in words a builder reads ("Experian: payment history unknown").
 *   Empty exactly when `decisionReady` is true.
 *
 * Plus the aggregates a rule needs and a per-source list would leave to an expression (which reads
 * null as 0): the worst days past due and delinquent months over every bureau, whether the member
 * is employed now, a status category. The facts per operation and what makes an answer incomplete
 * are listed in docs/output.md ("Deciding on the output").
 */

export interface DecisionVerdict extends IDataObject {
	decisionReady: boolean;
	incomplete: string[];
}

/**
 * What a builder's policy says the decision rests on (*Decide On*, version 3's company operations);
 * absent: the operation's full set.
 */
export interface DecideOptions {
	decideOn?: readonly string[];
	/**
	 * Get Multi-Bureau Report: which bureaus must answer: every bureau in the answer (`all`, the
	 * default), `atLeastOne` in full, or the named ones (bureau values, e.g. `['cibil']`).
	 */
	bureaus?: 'all' | 'atLeastOne' | readonly string[];
	/** Get Multi-Bureau Report: whether a bureau's payment history must be known (default true). */
	paymentHistory?: boolean;
}

type Decide = (
	record: IDataObject,
	options?: DecideOptions,
) => {
	incomplete: string[];
	aggregates: IDataObject;
	/** Figures that replace the record's own (a policy on fewer bureaus recomputes the scores over them). */
	overrides?: IDataObject;
};

const BUREAU_NAMES: Record<string, string> = {
	cibil: 'CIBIL',
	crif: 'CRIF',
	equifax: 'Equifax',
	experian: 'Experian',
};
const bureauName = (bureau: unknown) =>
	BUREAU_NAMES[String(bureau).toLowerCase()] ?? String(bureau).toUpperCase();

const isNull = (value: unknown) => value === null || value === undefined;

/** What a special score means, in words. */
function specialScoreText(kind: unknown, value: unknown): string | null {
	if (kind === 'noHistory') return `no credit history (score ${String(value ?? -1)})`;
	if (kind === 'new') return `new to credit (score ${String(value ?? 0)})`;
	return null;
}

/**
 * The worst of a figure over sources, null unless every source states it (a source without
 * accounts counts as 0).
 */
function worstOf(values: Array<number | null>): number | null {
	if (values.length === 0 || values.some((v) => v === null)) return null;
	return Math.max(...(values as number[]));
}

/** Facts of one credit file (a bureau's outcome, or the credit part of EPFO with credit). */
function creditFileGaps(
	file: IDataObject,
	prefix: string,
	accountCountKey: 'accountCount' | 'totalAccounts',
): string[] {
	const gaps: string[] = [];
	const special = specialScoreText(file.scoreKind, file.specialScore);
	if (isNull(file.scoreKind)) gaps.push(`${prefix}score unknown`);
	else if (special) gaps.push(`${prefix}${special}`);
	if (isNull(file.maxDaysPastDue) && file[accountCountKey] !== 0)
		gaps.push(`${prefix}payment history unknown`);
	return gaps;
}

/** A file's worst days past due and delinquent months: 0 without accounts, null when unknown. */
const fileFigure = (file: IDataObject, key: string, accountCountKey: string): number | null =>
	typeof file[key] === 'number' ? (file[key] as number) : file[accountCountKey] === 0 ? 0 : null;

/** One bureau's gaps: no report, its score, its payment history (unless the policy leaves it out). */
function bureauGaps(outcome: IDataObject, paymentHistory: boolean): string[] {
	const name = bureauName(outcome.bureau);
	if (outcome.success !== true && isNull(outcome.scoreKind)) return [`${name}: no report`];
	const gaps = creditFileGaps(outcome, `${name}: `, 'accountCount');
	return paymentHistory ? gaps : gaps.filter((gap) => !gap.endsWith('payment history unknown'));
}

/** The bureaus' facts a policy decides on, in words (`decidedOn`). */
function bureauFacts(names: string[], paymentHistory: boolean, anyOne: boolean): string[] {
	const facts = paymentHistory ? ['score', 'payment history'] : ['score'];
	if (anyOne) return [`at least one of ${names.join(', ')}: ${facts.join(' and ')}`];
	return names.flatMap((name) => facts.map((fact) => `${name}: ${fact}`));
}

/** The lowest and highest of the known scores (300 to 900) of some bureaus. */
function scoreRange(bureaus: IDataObject[]): IDataObject {
	const scores = bureaus
		.filter((b) => b.scoreKind === 'score' && typeof b.score === 'number')
		.map((b) => b.score as number);
	return scores.length === 0
		? { lowestScore: null, highestScore: null }
		: { lowestScore: Math.min(...scores), highestScore: Math.max(...scores) };
}

/**
 * The bureaus (Get Multi-Bureau Report). By default every bureau in the answer must have a report, a
 * usable score and a known payment history. A policy may decide on fewer (*Bureaus That Must Answer*,
 * *Payment History Required*): ready when the bureaus it names (or at least one bureau) are complete
 * in what it requires. The figures then cover the bureaus that count and every other bureau whose
 * figure is known (a known low score or delinquency elsewhere is never hidden); what is unknown outside
 * the policy is ignored, which is what a lender gives up (docs/output.md).
 */
const multiBureau: Decide = (record, options) => {
	const bureaus = asArray(record.bureaus).map(asObject);
	const paymentHistory = options?.paymentHistory !== false;
	const must = options?.bureaus ?? 'all';
	const names = bureaus.map((b) => bureauName(b.bureau));
	if (must === 'all' && paymentHistory) {
		const incomplete: string[] = [];
		if (bureaus.length === 0) incomplete.push('no bureau in the answer');
		for (const outcome of bureaus) incomplete.push(...bureauGaps(outcome, true));
		const ready = incomplete.length === 0;
		const figure = (key: string) =>
			ready ? worstOf(bureaus.map((b) => fileFigure(b, key, 'accountCount'))) : null;
		return {
			incomplete,
			aggregates: {
				maxDaysPastDue: figure('maxDaysPastDue'),
				delinquentMonths: figure('delinquentMonths'),
				decidedOn: bureauFacts(names, true, false),
			},
		};
	}
	// the bureaus that must be complete: all, the named ones (absent ones are gaps), or any one
	const counted =
		must === 'atLeastOne'
			? bureaus.filter((b) => bureauGaps(b, paymentHistory).length === 0)
			: must === 'all'
				? bureaus
				: must.map(
						(bureau) =>
							bureaus.find((b) => String(b.bureau).toLowerCase() === bureau.toLowerCase()) ?? {
								bureau,
								success: false,
							},
					);
	const incomplete: string[] = [];
	if (must === 'atLeastOne') {
		if (counted.length === 0) {
			incomplete.push(
				bureaus.length === 0 ? 'no bureau in the answer' : 'no bureau answered in full',
			);
			for (const outcome of bureaus) incomplete.push(...bureauGaps(outcome, paymentHistory));
		}
	} else {
		if (counted.length === 0) incomplete.push('no bureau in the answer');
		for (const outcome of counted) incomplete.push(...bureauGaps(outcome, paymentHistory));
	}
	const ready = incomplete.length === 0;
	// every bureau whose figure is known counts, the required ones are known when ready
	const known = bureaus.filter((b) => !counted.includes(b)).concat(counted);
	const figure = (key: string) => {
		if (!ready) return null;
		const values = known
			.map((b) => fileFigure(b, key, 'accountCount'))
			.filter((v): v is number => v !== null);
		return values.length === 0 ? null : Math.max(...values);
	};
	const decidedOn = bureauFacts(
		must === 'atLeastOne' || must === 'all' ? names : must.map((bureau) => bureauName(bureau)),
		paymentHistory,
		must === 'atLeastOne',
	);
	return {
		incomplete,
		aggregates: {
			maxDaysPastDue: figure('maxDaysPastDue'),
			delinquentMonths: figure('delinquentMonths'),
			decidedOn,
		},
		// the record's scores are null when any bureau's is unknown: over the bureaus that count here
		overrides: ready ? scoreRange(known) : { lowestScore: null, highestScore: null },
	};
};

/**
 * Whether the member is employed now: true, false (every job has ended, or none), or null (also
 * when the history itself is unknown: its count is null, an employer may be listed twice).
 */
function currentlyEmployed(employers: IDataObject[], employerCount: unknown): boolean | null {
	if (isNull(employerCount)) return null;
	if (employers.some((e) => e.current === true)) return true;
	if (employers.length > 0 && employers.every((e) => e.current === false)) return false;
	if (employers.length === 0 && employerCount === 0) return false;
	return null;
}

/** Facts of an employment history (the EPFO record, or the EPFO part of EPFO with credit). */
function employmentGaps(part: IDataObject, prefix = ''): string[] {
	const employers = asArray(part.employers).map(asObject);
	const gaps: string[] = [];
	if (isNull(part.employerCount)) gaps.push(`${prefix}employment history unknown`);
	const undated = employers.filter((e) => isNull(e.dateOfJoining));
	if (undated.length > 0)
		gaps.push(
			`${prefix}employment dates unknown (${undated
				.map((e) => (typeof e.name === 'string' ? e.name : 'an employer'))
				.join(', ')})`,
		);
	const employed = currentlyEmployed(employers, part.employerCount);
	if (employed === null) gaps.push(`${prefix}current employment unknown`);
	// employed now, but which job is current is unknown (another entry's status or the name)
	else if (employed && isNull(part.currentEmployer)) gaps.push(`${prefix}current employer unknown`);
	if (isNull(part.totalTenureMonths) && part.employerCount !== 0)
		gaps.push(`${prefix}total tenure unknown`);
	return gaps;
}

const epfoRecord: Decide = (record) => {
	const employers = asArray(record.employers).map(asObject);
	return {
		incomplete: employmentGaps(record),
		aggregates: { currentlyEmployed: currentlyEmployed(employers, record.employerCount) },
	};
};

const epfoWithCredit: Decide = (record) => {
	const incomplete: string[] = [];
	const employment = record.employment === null ? null : asObject(record.employment);
	const credit = record.credit === null ? null : asObject(record.credit);
	if (employment === null) incomplete.push('EPFO record not in the answer');
	else incomplete.push(...employmentGaps(employment, 'EPFO: '));
	if (credit === null) incomplete.push('credit report not in the answer');
	else incomplete.push(...creditFileGaps(credit, 'credit: ', 'totalAccounts'));
	return {
		incomplete,
		aggregates: {
			currentlyEmployed:
				employment === null
					? null
					: currentlyEmployed(
							asArray(employment.employers).map(asObject),
							employment.employerCount,
						),
		},
	};
};

/** Status groups a rule tests, whatever words the registry used. */
export type StatusCategory =
	| 'active'
	| 'struckOff'
	| 'liquidation'
	| 'dormant'
	| 'amalgamated'
	| 'converted'
	| 'other';

/**
 * The registry's status vocabulary (company, LLP and entity statuses, in either layout and any case or
 * spelling), grouped. A status that matches none of these is outside the grammar: unknown, like a
 * missing one (docs/output.md, "The registry's grammar").
 */
const STATUS_GROUPS: Array<[RegExp, StatusCategory]> = [
	[/^active$/, 'active'],
	[/strik|struck|defunct/, 'struckOff'],
	[/liquidat|dissolv|wound|winding|insolven|cirp/, 'liquidation'],
	[/dormant/, 'dormant'],
	[/amalgamat|merged/, 'amalgamated'],
	[/convert/, 'converted'],
	// statuses of the registry that are none of the above (and never plainly active)
	[/^(active in progress|not available for e ?filing|inactive|under process|captured)$/, 'other'],
];

/**
 * The group of a registry status ("Strike Off", "STRUCK_OFF", "Under Process of Striking Off" and
 * an LLP's "Defunct" are all `struckOff`); null when the status is unknown: missing, not a word, or a
 * word outside the registry's vocabulary.
 */
export function statusCategory(status: unknown): StatusCategory | null {
	if (typeof status !== 'string' || !/\p{L}/u.test(status)) return null;
	const words = status
		.toLowerCase()
		.replace(/[\s_-]+/g, ' ')
		.trim();
	for (const [pattern, category] of STATUS_GROUPS) if (pattern.test(words)) return category;
	return null;
}

/** Statuses that decline on their own: the company no longer exists, or is being wound up. */
const DECLINING: ReadonlySet<StatusCategory> = new Set(['struckOff', 'liquidation']);

/**
 * The facts a lender's policy may decide a company, LLP or entity on (*Decide On*, version 3). `age`
 * is the date of incorporation; the others are the registry's risk flags.
 */
export type RegistryFact =
	| 'status'
	| 'age'
	| 'pendingCases'
	| 'bureauDefaults'
	| 'gstFilingDelay'
	| 'epfPaymentDelay'
	| 'tdsDefaults';

/** What the registry states of a company or an LLP (Get by CIN, Get LLP by LLPIN). */
const MCA_FACTS: readonly RegistryFact[] = [
	'status',
	'age',
	'pendingCases',
	'bureauDefaults',
	'gstFilingDelay',
	'epfPaymentDelay',
];

/** The full set per operation: what *Decide On* means by default (the safe choice). */
export const REGISTRY_FACTS: Record<string, RegistryFact[]> = {
	'company.getByCin': [...MCA_FACTS],
	'company.getLlpByLlpin': [...MCA_FACTS],
	'company.getEntityByPan': ['status', 'age', 'bureauDefaults', 'gstFilingDelay', 'tdsDefaults'],
};

const RISK_FLAG_NAMES: Record<string, string> = {
	pendingCases: 'pending cases',
	bureauDefaults: 'bureau defaults',
	gstFilingDelay: 'GST filing delay',
	epfPaymentDelay: 'EPF payment delay',
	tdsDefaults: 'TDS defaults',
};

/**
 * The facts one answer is decided on: the policy's, in the operation's order, never fewer than
 * chosen (a fact the operation does not know is ignored; nothing left is the full set).
 */
function chosenFacts(operation: string, decideOn: readonly string[] | undefined): RegistryFact[] {
	const all = REGISTRY_FACTS[operation] ?? [];
	if (!decideOn) return all;
	const chosen = all.filter((fact) => decideOn.includes(fact));
	return chosen.length > 0 ? chosen : all;
}

/**
 * A company, an LLP or an entity (Get by CIN, Get LLP by LLPIN, Get Entity by PAN), over the facts its
 * policy chose:
 * - `decisionReady`: every chosen fact known (a status outside the registry's vocabulary is unknown);
 * - `declinable`: the status is chosen and known to decline on its own (struck off, defunct,
 *   dissolved, in liquidation or insolvency), whatever else is unknown; null when the chosen status is
 *   unknown, false when the status is not chosen: the answer leaves on Complete
 *   with `decisionReady` false when other facts are unknown, so a rule declines it on `declinable`
 *   while a rule that tests `decisionReady is true` never sees it as ready;
 * - `adverse`: the chosen facts that are known and not clean (a status other than Active, a risk flag
 *   that is true), in words; null unless the answer is ready or declinable (an empty list is "clean");
 * - `decidedOn`: the chosen facts.
 */
function registryFacts(operation: string): Decide {
	return (record, options) => {
		const facts = chosenFacts(operation, options?.decideOn);
		const flags = operation === 'company.getEntityByPan' ? record : asObject(record.riskFlags);
		const category = statusCategory(record.status);
		const incomplete: string[] = [];
		const adverse: string[] = [];
		if (facts.includes('status')) {
			if (category === null)
				incomplete.push(
					isNull(record.status)
						? 'status unknown'
						: `status unknown ("${String(record.status)}" is not a registry status)`,
				);
			else if (category !== 'active') adverse.push(`status: ${String(record.status)}`);
		}
		if (facts.includes('age') && isNull(record.dateOfIncorporation))
			incomplete.push('date of incorporation unknown');
		const flagNames = facts.filter((fact) => fact in RISK_FLAG_NAMES);
		incomplete.push(...flagGaps(flags, flagNames, 'risk flags'));
		for (const name of flagNames) if (flags[name] === true) adverse.push(RISK_FLAG_NAMES[name]);
		// null when the status is chosen but unknown (it might decline), false when not chosen
		const declinable = !facts.includes('status')
			? false
			: category === null
				? null
				: DECLINING.has(category);
		return {
			incomplete,
			aggregates: {
				declinable,
				adverse: incomplete.length === 0 || declinable === true ? adverse : null,
				decidedOn: facts,
				statusCategory: category,
			},
		};
	};
}

function flagGaps(flags: IDataObject, names: string[], what: string): string[] {
	const unknown = names.filter((name) => isNull(flags[name]));
	return unknown.length === 0
		? []
		: [`${what} unknown: ${unknown.map((n) => RISK_FLAG_NAMES[n] ?? n).join(', ')}`];
}

const itrData: Decide = (record) => {
	const incomplete: string[] = [];
	const latest = record.latestFiling === null ? null : asObject(record.latestFiling);
	if (isNull(record.filingCount)) incomplete.push('returns not in the answer');
	else if (latest === null) incomplete.push('latest return unknown');
	if (latest !== null) {
		if (isNull(latest.assessmentYear)) incomplete.push('latest return: assessment year unknown');
		if (isNull(latest.grossTotalIncome))
			incomplete.push('latest return: gross total income unknown');
		if (isNull(latest.taxableIncome)) incomplete.push('latest return: taxable income unknown');
		// the return's own status is the sample layout's (the reference layout states none)
		if (record.shape === 'sample' && isNull(latest.status))
			incomplete.push('latest return: status unknown');
	}
	return { incomplete, aggregates: {} };
};

const ANALYSIS_FLAG_NAMES: Record<string, string> = {
	anyBounce: 'bounces',
	inwardChequeReturn: 'inward cheque returns',
	negativeBalance: 'negative balance',
	suspiciousCredit: 'suspicious credits',
};

/**
 * Bounces, cheque returns, the average balance, the net flow (total credits and debits) and every
 * account analysed, in both layouts; the sample layout's own checks (negative balance, suspicious
 * credits, the health score) too when the answer is in that layout. The reference layout has none of
 * them: the record lists them in `notInLayout`, and version 3's Simplified item leaves them out in that
 * layout rather than giving a null a rule would compare like 0 (docs/output.md).
 */
const analysis: Decide = (record) => {
	const incomplete: string[] = [];
	const coverage = asObject(record.coverage);
	const isSample = record.shape === 'sample';
	if (coverage.conflictingAccounts === true)
		incomplete.push('an account listed twice with different analyses');
	else if (coverage.complete !== true) {
		const accounts = asArray(coverage.unanalysedAccounts);
		incomplete.push(
			accounts.length > 0
				? `account${accounts.length > 1 ? 's' : ''} not analysed: ${accounts.join(', ')}`
				: 'not every account analysed',
		);
	}
	const flags = asObject(record.flags);
	const flagNames = ['anyBounce', 'inwardChequeReturn'].concat(
		isSample ? ['negativeBalance', 'suspiciousCredit'] : [],
	);
	const unknownFlags = flagNames.filter((name) => isNull(flags[name]));
	if (unknownFlags.length > 0)
		incomplete.push(
			`flags unknown: ${unknownFlags.map((name) => ANALYSIS_FLAG_NAMES[name]).join(', ')}`,
		);
	if (isSample && isNull(asObject(record.healthScore).score))
		incomplete.push('health score unknown');
	if (isNull(record.averageMonthlyBalance)) incomplete.push('average monthly balance unknown');
	if (isNull(record.netFlow)) incomplete.push('net flow unknown (total credits or debits)');
	return { incomplete, aggregates: {} };
};

/**
 * What a decision operation's verdict rests on, declared by the operation itself (`decider` in its
 * module, actions/operation.ts): the facts (what is unknown, the aggregates a rule needs, the figures a
 * policy recomputes) and the adverse facts in words (adverse.ts). An operation with a decider offers
 * *Incomplete Answers* on version 3 (test/unit/operationDeclarations.test.cts holds both ways).
 */
export interface Decider {
	facts: Decide;
	adverse: (record: IDataObject, verdict: IDataObject) => AdverseFact[] | null;
}

/** Get Multi-Bureau Report. */
export const MULTI_BUREAU_DECIDER: Decider = {
	facts: multiBureau,
	adverse: (record) => multiBureauAdverse(record),
};

/** Get by CIN, Get LLP by LLPIN, Get Entity by PAN: over the facts *Decide On* chose. */
export const registryDecider = (operation: string): Decider => ({
	facts: registryFacts(operation),
	adverse: (record, verdict) => registryAdverse(operation, record, verdict),
});

/** Get EPFO Record. */
export const EPFO_DECIDER: Decider = { facts: epfoRecord, adverse: epfoAdverse };

/** Get EPFO Record with Credit. */
export const EPFO_WITH_CREDIT_DECIDER: Decider = {
	facts: epfoWithCredit,
	adverse: epfoWithCreditAdverse,
};

/** Get ITR Data. */
export const ITR_DATA_DECIDER: Decider = {
	facts: itrData,
	adverse: (record) => itrAdverse(record),
};

/** Get Analysis. */
export const ANALYSIS_DECIDER: Decider = {
	facts: analysis,
	adverse: (record) => analysisAdverse(record),
};

/** The verdict and aggregates of one Normalized record, by its operation's decider. */
export function decideWith(
	decider: Decider,
	record: IDataObject,
	options?: DecideOptions,
): DecisionVerdict & IDataObject {
	const { incomplete, aggregates } = decider.facts(record, options);
	const verdict = { decisionReady: incomplete.length === 0, incomplete, ...aggregates };
	// the adverse facts in words with their source (adverse.ts; the company deciders' list, as objects)
	return { ...verdict, adverse: decider.adverse(record, verdict) };
}

/**
 * A Normalized record with its verdict: `decisionReady` and `incomplete` lead, the aggregates follow
 * them (an aggregate the record already names, such as a per-bureau figure, is not overwritten). A
 * record without a decider, or one that carries a verdict already (split items), is returned as it is.
 */
export function withDecisionBy(
	decider: Decider | undefined,
	record: IDataObject,
	options?: DecideOptions,
): IDataObject {
	// split items carry the verdict of their whole answer already
	if (!decider || 'decisionReady' in record) return record;
	const verdict = decideWith(decider, record, options);
	const { decisionReady, incomplete, ...aggregates } = verdict;
	const out: IDataObject = { decisionReady, incomplete };
	for (const [key, value] of Object.entries(aggregates)) if (!(key in record)) out[key] = value;
	// the figures a policy recomputes in place of the record's own (Get Multi-Bureau Report on fewer bureaus)
	const overrides = decider.facts(record, options).overrides ?? {};
	for (const [key, value] of Object.entries(record))
		if (!(key in out)) out[key] = key in overrides ? overrides[key] : value;
	return out;
}

/**
 * Items split from one answer (one per bureau, one per filed return), each led by the verdict of the
 * whole answer: a rule sees the same decisionReady on every item of one subject, and the router routes
 * them together.
 */
export function splitWithVerdict(
	decider: Decider,
	record: IDataObject,
	items: IDataObject[],
	options?: DecideOptions,
): IDataObject[] {
	const { decisionReady, incomplete, decidedOn, adverse } = decideWith(decider, record, options);
	const policy = decidedOn === undefined ? {} : { decidedOn };
	// the whole answer's adverse facts (a bureau's own item may not name them all)
	return items.map((json) => ({ decisionReady, incomplete, ...policy, ...json, adverse }));
}
