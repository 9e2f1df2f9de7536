/**
 * The decision facts of one answer, read from the node's real output item (test/unit/drift/decisions.cts's
 * tables on the Normalized output, plus version 3's aggregates; the Simplified output's decision fields),
 * and the judgement of a drifted answer against the undrifted one under its drift's oracle (kinds.cts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { IDataObject } from 'n8n-workflow';

import { decide, hasDecision } from '../../../nodes/FinVerify/actions/declarations';
import { missingField } from '../../../nodes/FinVerify/transport';
import { RESPONSES } from '../../contract/responses.cjs';
import { DECISIONS } from '../../unit/drift/decisions.cjs';
import type { ItemResult, OutputMode, Version } from './engineRun.cjs';
import type { Drift, Oracle } from './kinds.cjs';

export type Facts = Record<string, unknown>;

/** Version 3's aggregates of an operation (maxDaysPastDue, currentlyEmployed, statusCategory…). */
const aggregateKeys = (operation: string) =>
	Object.keys(decide(operation, {})).filter(
		// the verdict's words: what is unknown, what is adverse (test/unit/drift holds `adverse` to the verdict)
		(k) => k !== 'decisionReady' && k !== 'incomplete' && k !== 'adverse',
	);

/**
 * Simplified fields that are not decision facts: identifiers, the subject's name, the lists that say
 * what an aggregate covers (they change by design when an entry fails), the verdict's words, the period.
 */
const NOT_FACTS = new Set([
	'decisionReady',
	'incomplete',
	'adverse',
	'pan',
	'name',
	'uan',
	'mobileNumber',
	'cin',
	'llpin',
	'clientId',
	'jobId',
	'requestId',
	'state',
	'rocCode',
	'email',
	'failedBureaus',
	'successfulBureaus',
	'coverage',
	'missing',
	'partial',
	'latestForm',
	'periodFrom',
	'periodTo',
	'consentRecord',
]);

/** The decision facts of a Normalized record as the pure reader gives it (sources are found with it). */
export function pureFacts(operation: string, body: IDataObject): Facts | null {
	const contract = RESPONSES.find((c) => c.operation === operation);
	const table = DECISIONS[operation];
	if (!contract || !table) throw new Error(`no contract or decision table for ${operation}`);
	if (missingField(body, table.required) !== undefined) return null;
	let normalized: unknown;
	try {
		normalized = contract.normalize(body);
	} catch {
		return null;
	}
	const facts: Facts = { ...table.fields(normalized) };
	if (hasDecision(operation) && !Array.isArray(normalized)) {
		const verdict = decide(operation, normalized as IDataObject);
		for (const key of aggregateKeys(operation)) facts[key] = verdict[key];
	}
	return facts;
}

/** The decision facts of an output item of the node. */
export function outputFacts(
	operation: string,
	version: Version,
	mode: OutputMode,
	json: IDataObject,
): Facts {
	if (mode === 'simplified') {
		const facts: Facts = {};
		for (const [key, value] of Object.entries(json)) {
			if (NOT_FACTS.has(key)) continue;
			// a map per source (scores, scoreKinds, riskFlags): one fact per entry, so one unknown entry is
			// unknown, not a change of the others
			if (typeof value === 'object' && value !== null && !Array.isArray(value))
				for (const [entry, v] of Object.entries(value)) facts[`${key}.${entry}`] = v;
			else facts[key] = value;
		}
		return facts;
	}
	const facts: Facts = { ...DECISIONS[operation].fields(json) };
	if (version >= 3) for (const key of aggregateKeys(operation)) facts[key] = json[key] ?? null;
	return facts;
}

export type Outcome =
	/** Not ready (version 3's Incomplete output) or a failed item: refused. */
	| 'refused'
	/** Ready, every fact as the oracle allows. */
	| 'kept'
	/** Ready with a changed decision fact: the figure that must be 0. */
	| 'changed'
	/**
	 * Ready, and a fact the undrifted answer knew is null: version 3 promises a ready answer has every
	 * decision fact (a rule reads null as 0); on version 2, which has no verdict, only a meaning-preserving
	 * drift may not make a fact unknown (a needless unknown).
	 */
	| 'lost'
	/** The undrifted answer failed: nothing to compare. */
	| 'noBase';

export interface Judgement {
	outcome: Outcome;
	/** `field: before → after` of what changed or was lost. */
	details: string[];
}

const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

const isReady = (result: ItemResult) => result.route === 'complete';

/** Asset classes from the mildest: `none` (nothing below standard) to LSS (loss). */
const CLASS_ORDER = ['none', 'SMA', 'SMA-1', 'SMA-2', 'SUB', 'DBT', 'LSS'];
const severity = (value: unknown) => CLASS_ORDER.indexOf(String(value));
/** The mildest class a month of at least `floor` days past due's class can be (SUB for 90). */
const classAtLeast = (floor: number) =>
	floor >= 90
		? severity('SUB')
		: floor >= 61
			? severity('SMA-2')
			: floor >= 31
				? severity('SMA-1')
				: severity('SMA');

/** How a worst-days-past-due or delinquent-months fact relates to the adverse month's credit file. */
function adverseRole(field: string, scope: string | undefined): 'must' | 'mayRise' | 'other' {
	if (field === 'maxDaysPastDue' || field === 'delinquentMonths') return 'must';
	if (
		field === 'credit.maxDaysPastDue' ||
		field === 'credit.delinquentMonths' ||
		field === 'credit.worstAssetClass'
	)
		return 'must';
	if (scope !== undefined && field.includes(`[${scope}]`)) return 'must';
	if (field.includes('accounts[')) return 'mayRise';
	return 'other';
}

const caseInsensitive = (operation: string, field: string) =>
	(DECISIONS[operation].caseInsensitive ?? []).includes(field.replace(/\[[^\]]*\]/g, '')) ||
	/currentEmployer$/.test(field);

const same = (operation: string, field: string, a: unknown, b: unknown) =>
	caseInsensitive(operation, field) && typeof a === 'string' && typeof b === 'string'
		? a.toLowerCase() === b.toLowerCase()
		: isDeepStrictEqual(a, b);

/**
 * Fields an operation shows beside its decision facts but does not decide on (docs/output.md, "Which facts
 * decide, per operation"): version 3's verdict does not cover them, so a ready answer may leave them null
 * (a rule tests them with "is not empty" first). They must still never change to another definite value.
 */
const SHOWN_ONLY: Record<string, RegExp> = {
	'creditReport.getMultiBureauReport':
		/^bureaus\[[^\]]*\]\.(accountCount|enquiryCount|lengthOfHistoryMonths)$/,
	'employment.getEpfoRecord':
		/^(monthlyWage|lastContributionMonth|member\..*|contributions\..*|passbookTotals\..*)$/,
	'employment.getEpfoRecordWithCredit':
		/^(monthlyWage|lastContributionMonth|totalOutstanding|contributions\..*|passbookTotals\..*|credit\.(totalAccounts|activeAccounts|overdueAccounts|totalOutstanding|totalSanctioned|totalOverdue|lengthOfHistoryMonths|accounts\[.*))$/,
	'incomeTaxReturn.getData': /^(filingStatus|status)$/,
	'bankStatementJourney.getAnalysis': /^(minimumMonthlyBalance|rating|healthScore\.rating)$/,
	'company.getByCin': /^(employeeCount|latestFinancials\..*|shareholdingSummary\..*)$/,
	'company.getLlpByLlpin': /^(employeeCount|latestFinancials\..*|shareholdingSummary\..*)$/,
};
export const shownOnly = (operation: string, field: string) =>
	SHOWN_ONLY[operation]?.test(field) ?? false;

/**
 * A month replaced by `XXX` (not reported) leaves a history one month shorter; where another source
 * states the same account's months (EPFO with credit's `dpd_history` beside `accounts[].dpd`) the two
 * then disagree, and unknown is the right reading even without a verdict.
 */
const dropsMonth = (drift: Pick<Drift, 'kind'>) => drift.kind === 'month not reported XXX';

/** A drifted answer against the undrifted one, under the drift's oracle. */
export function judge(
	operation: string,
	version: Version,
	mode: OutputMode,
	base: ItemResult,
	drifted: ItemResult,
	drift: Pick<Drift, 'oracle' | 'floor' | 'scope' | 'kind'>,
): Judgement {
	if (base.route === 'failed' || base.route === 'missing')
		return { outcome: 'noBase', details: [] };
	if (!isReady(drifted)) return { outcome: 'refused', details: [] };
	// an answer the node knows less of is never more ready than the undrifted one
	if (!isReady(base))
		return {
			outcome: 'changed',
			details: ['decisionReady: false → true (the undrifted answer is not ready)'],
		};
	const before = outputFacts(operation, version, mode, base.json);
	const after = outputFacts(operation, version, mode, drifted.json);
	const changed: string[] = [];
	const lost: string[] = [];
	const oracle: Oracle = drift.oracle;
	for (const [field, was] of Object.entries(before)) {
		if (was === null || was === undefined) continue;
		const now = after[field];
		const line = `${field}: ${show(was)} → ${show(now)}`;
		const assetClass = /worstAssetClass$/.test(field);
		const dpd = /maxDaysPastDue$/.test(field);
		const months = /delinquentMonths$/.test(field);
		if (oracle === 'adverse' && (assetClass || dpd || months)) {
			const role = adverseRole(field, drift.scope);
			if (now === null || now === undefined) {
				if (version >= 3 && !shownOnly(operation, field)) lost.push(line);
				continue;
			}
			if (role === 'other') {
				if (!same(operation, field, was, now)) changed.push(line);
				continue;
			}
			if (assetClass) {
				// the file (or account) with the adverse month: its worst class is at least the month's class,
				// and never milder than it was
				const least = classAtLeast(drift.floor ?? 90);
				if (severity(now) < severity(was))
					changed.push(`${line} (milder than before an adverse month)`);
				else if (role === 'must' && severity(now) < least)
					changed.push(`${line} (an asset class of at least ${drift.floor} days)`);
				continue;
			}
			if (typeof now !== 'number' || typeof was !== 'number') {
				changed.push(line);
				continue;
			}
			if (dpd && role === 'must' && now < (drift.floor ?? 90))
				changed.push(`${line} (an asset class of at least ${drift.floor} days)`);
			else if (dpd && role === 'mayRise' && now !== was && now < (drift.floor ?? 90))
				changed.push(line);
			else if (months && now < was) changed.push(line);
			continue;
		}
		if (now === null || now === undefined) {
			if (
				version >= 3 ? !shownOnly(operation, field) : oracle === 'preserving' && !dropsMonth(drift)
			)
				lost.push(line);
			continue;
		}
		if (!same(operation, field, was, now)) changed.push(line);
	}
	if (changed.length > 0) return { outcome: 'changed', details: changed };
	if (lost.length > 0) return { outcome: 'lost', details: lost };
	return { outcome: 'kept', details: [] };
}
