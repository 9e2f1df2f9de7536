/**
 * The drift kinds of the operation drift suite, each with its oracle, applied at the places the operation's
 * reader reads (the recording proxy of the coverage test, as test/unit/drift/mutations.cts does):
 *
 * - Payment-history months (every bureau's form: a delimited line `000|030|…`, CRIF's combined
 *   `03:2025,000/STD`, CIBIL's run-together `000030…`, Equifax's and Experian's month entries): an asset
 *   class code alone or after a slash (`SUB`, `DBT`, `LSS`, `SMA-1`, `SMA-2`, `030/SUB`, `XXX/DBT`), an
 *   Equifax month's own AssetClassificationStatus, a month not reported (`XXX`), an unknown code, a blank
 *   month, a run-together month 4 characters wide, a padded day count (`0030`), a delimited line written
 *   run-together (CIBIL's own form), a month repeated.
 * - Figures that are sources of a decision fact (a read property whose removal changes the fact, found as
 *   test/unit/drift/overNulling.cts finds them): the same number padded, in spaces, as a string or as a
 *   number; negative and huge values outside the field's range.
 * - Entries listed twice (an account, a history line, a month, an employer, a return, an analysed
 *   account): identically, with or without an identity, and with one figure changed.
 * - A summary count contradicting its list (the list read; the count read or not): one more, or the list
 *   emptied.
 * - Exit markers: `date_of_exit` "NA", "-" or " " where it was null (a current job).
 *
 * Oracles (what the answer of a drifted body may be, against the undrifted body's; "ready" is version 3's
 * Complete output, and on version 2, which has no verdict, any answer that is not a failed item):
 * - preserving: every decision fact unchanged, or the answer not ready.
 * - destroying: the answer not ready, or every decision fact unchanged (on version 2 a fact may also
 *   become null: that version's only way to say unknown).
 * On version 3 a fact the undrifted answer knew that is null on a ready answer breaks every oracle (a
 * rule reads null as 0): reported apart from a changed value, as a lost fact.
 * - adverse (an asset class added to a month): on a ready answer the affected bureau's (or credit
 *   file's) and the aggregate worst days past due are at least the class's floor (SUB, DBT, LSS 90;
 *   SMA-2 61; SMA-1 31; SMA 1), delinquent months do not fall, every other fact is unchanged.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { recording } from '../../contract/openapiExamples.cjs';

export type Oracle = 'preserving' | 'destroying' | 'adverse';
export type Path = Array<string | number>;

export interface Drift {
	/** The kind, as the report groups them (`month code SUB`, `huge 1e21`, `duplicate, disagreeing`). */
	kind: string;
	oracle: Oracle;
	/** adverse: the least days past due the month now means. */
	floor?: number;
	/** adverse: the credit file the month belongs to (a bureau, or `credit`). */
	scope?: string;
	/** Where and what, for the report. */
	where: string;
	body: IDataObject;
}

/** `a.b[].c`: array indexes collapsed (the recording proxy's notation). */
export const collapsed = (path: Path): string =>
	path.map((p, i) => (typeof p === 'number' ? '[]' : i === 0 ? p : `.${p}`)).join('');

export const pathText = (path: Path): string =>
	path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

/** A key without case and separators: `Days_Past_Due` → `dayspastdue`. */
export const bare = (key: string | number): string =>
	String(key)
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');

/** What the normalizer reads of `body` (collapsed paths). */
export function readSet(body: IDataObject, normalize: (body: unknown) => unknown): Set<string> {
	const { proxy, read } = recording(structuredClone(body));
	try {
		normalize(proxy);
	} catch {
		// an answer the operation rejects still shows what it read
	}
	return read;
}

interface Node {
	path: Path;
	value: unknown;
}

/** Every node of a value with its concrete path (the root excluded). */
export function nodes(value: unknown, path: Path = [], out: Node[] = []): Node[] {
	if (path.length > 0) out.push({ path, value });
	if (Array.isArray(value)) value.forEach((item, i) => nodes(item, [...path, i], out));
	else if (typeof value === 'object' && value !== null)
		for (const [key, v] of Object.entries(value)) nodes(v, [...path, key], out);
	return out;
}

export function getAt(body: unknown, path: Path): unknown {
	let holder: unknown = body;
	for (const p of path) holder = (holder as Record<string | number, unknown> | undefined)?.[p];
	return holder;
}

/** A copy of `body` with `change` applied to the holder of `path`. */
export function edit(
	body: IDataObject,
	path: Path,
	change: (holder: Record<string | number, unknown>, key: string | number) => void,
): IDataObject {
	const copy = structuredClone(body);
	const holder = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
	change(holder, path[path.length - 1]);
	return copy;
}

export const setAt = (body: IDataObject, path: Path, value: unknown): IDataObject =>
	edit(body, path, (holder, key) => {
		holder[key] = value;
	});

const BUREAUS = ['cibil', 'crif', 'equifax', 'experian'];

/** The credit file a path belongs to: a bureau of the multi-bureau answer, else the one credit file. */
const scopeOf = (path: Path): string =>
	path.map((p) => String(p).toLowerCase()).find((p) => BUREAUS.includes(p)) ?? 'credit';

// ------------------------------------------------------------------------------ payment-history months

/** Asset class codes and the least days past due each means (RBI's classes). */
export const CLASS_FLOORS: Record<string, number> = {
	SUB: 90,
	DBT: 90,
	LSS: 90,
	'SMA-2': 61,
	'SMA-1': 31,
	SMA: 1,
};

const isClean = (token: string) => /^0+$/.test(token) || token === 'STD';
const dayCount = (token: string) => (/^\d+$/.test(token) ? Number(token) : null);

interface MonthEdit {
	kind: string;
	oracle: Oracle;
	floor?: number;
	text: string;
}

/** The index of the month to drift: the first clean month of the first 12 (the window read), else 0. */
function cleanIndex(tokens: string[], clean: (token: string) => boolean): number {
	const i = tokens.slice(0, 12).findIndex(clean);
	return i === -1 ? -1 : i;
}

/** The worst month of the first 12 when one is past due, else -1. */
function worstIndex(tokens: string[], days: (token: string) => number | null): number {
	let worst = -1;
	let most = 0;
	tokens.slice(0, 12).forEach((t, i) => {
		const d = days(t);
		if (d !== null && d > most) {
			most = d;
			worst = i;
		}
	});
	return worst;
}

/** A delimited line (`000|030|…`, lines joined by `;`): its tokens and separators. */
function delimited(text: string): { tokens: string[]; seps: string[] } | null {
	const parts = text.split(/([|;,])/);
	const tokens = parts.filter((_, i) => i % 2 === 0);
	const seps = parts.filter((_, i) => i % 2 === 1);
	if (tokens.length < 2) return null;
	if (!tokens.every((t) => /^(\d{1,3}|STD|XXX|SUB|DBT|LSS|SMA)$/.test(t))) return null;
	return { tokens, seps };
}

const join = (tokens: string[], seps: string[]) =>
	tokens.map((t, i) => (i < seps.length ? t + seps[i] : t)).join('');

function delimitedEdits(text: string): MonthEdit[] {
	const line = delimited(text);
	if (!line) return [];
	const { tokens, seps } = line;
	const out: MonthEdit[] = [];
	const put = (i: number, token: string) => join(Object.assign([...tokens], { [i]: token }), seps);
	const clean = cleanIndex(tokens, isClean);
	const worst = worstIndex(tokens, dayCount);
	if (clean >= 0) {
		for (const code of ['SUB', 'DBT', 'LSS', 'SMA-1', 'SMA-2'])
			out.push({
				kind: `month code ${code}`,
				oracle: 'adverse',
				floor: CLASS_FLOORS[code],
				text: put(clean, code),
			});
		out.push({
			kind: 'month days/SUB',
			oracle: 'adverse',
			floor: 90,
			text: put(clean, `${tokens[clean]}/SUB`),
		});
		out.push({ kind: 'month XXX/DBT', oracle: 'adverse', floor: 90, text: put(clean, 'XXX/DBT') });
		out.push({ kind: 'month not reported XXX', oracle: 'preserving', text: put(clean, 'XXX') });
		out.push({ kind: 'month unknown code', oracle: 'destroying', text: put(clean, 'QQQ') });
		out.push({ kind: 'month blank', oracle: 'destroying', text: put(clean, '   ') });
	}
	if (worst >= 0)
		out.push({
			kind: 'month days/SUB',
			oracle: 'adverse',
			floor: 90,
			text: put(worst, `${tokens[worst]}/SUB`),
		});
	const padAt = worst >= 0 ? worst : clean;
	if (padAt >= 0 && dayCount(tokens[padAt]) !== null)
		out.push({
			kind: 'month padded 0030',
			oracle: 'preserving',
			text: put(padAt, `0${tokens[padAt]}`),
		});
	// a month repeated: the line has no month labels, so the repeat shifts every later month
	out.push({
		kind: 'month repeated (unlabelled)',
		oracle: 'destroying',
		text: join([tokens[0], ...tokens], [seps[0] ?? '|', ...seps]),
	});
	// CIBIL's own form: three characters a month, run together (lines still joined by `;`)
	if (tokens.every((t) => /^\d{3}$/.test(t)) && seps.every((s) => s === '|' || s === ';'))
		out.push({
			kind: 'line run together',
			oracle: 'preserving',
			text: join(
				tokens,
				seps.map((s) => (s === '|' ? '' : s)),
			),
		});
	return out;
}

/** CRIF's combined history: `MM:YYYY,<days or STD>/<asset class or XXX>` months joined by `|`. */
function crifEdits(text: string): MonthEdit[] {
	const months = text.split('|');
	if (months.length < 2 || !months.every((m) => /^\d{2}:\d{4},[^,]*$/.test(m))) return [];
	const parts = months.map((m) => {
		const [label, value] = m.split(',');
		const [days, asset] = value.split('/');
		return { label, days, asset };
	});
	const put = (i: number, value: string) =>
		months.map((m, j) => (j === i ? `${parts[i].label},${value}` : m)).join('|');
	const clean = cleanIndex(
		parts.map((p) => p.days),
		isClean,
	);
	const worst = worstIndex(
		parts.map((p) => p.days),
		dayCount,
	);
	const out: MonthEdit[] = [];
	if (clean >= 0) {
		const { days } = parts[clean];
		out.push(
			{ kind: 'month XXX/SUB', oracle: 'adverse', floor: 90, text: put(clean, 'XXX/SUB') },
			{ kind: 'month days/DBT', oracle: 'adverse', floor: 90, text: put(clean, '000/DBT') },
			{ kind: 'month days/LSS', oracle: 'adverse', floor: 90, text: put(clean, `${days}/LSS`) },
			{ kind: 'month days/SMA-1', oracle: 'adverse', floor: 31, text: put(clean, '000/SMA-1') },
			{ kind: 'month XXX/SMA-2', oracle: 'adverse', floor: 61, text: put(clean, 'XXX/SMA-2') },
			{ kind: 'month code SUB', oracle: 'adverse', floor: 90, text: put(clean, 'SUB') },
			{
				kind: 'month not reported XXX',
				oracle: 'preserving',
				text: put(clean, 'XXX/XXX'),
			},
			{ kind: 'month unknown code', oracle: 'destroying', text: put(clean, '000/QQQ') },
		);
	}
	if (worst >= 0) {
		out.push({
			kind: 'month days/SUB',
			oracle: 'adverse',
			floor: 90,
			text: put(worst, `${parts[worst].days}/SUB`),
		});
		out.push({
			kind: 'month padded 0030',
			oracle: 'preserving',
			text: put(worst, `0${parts[worst].days}/${parts[worst].asset ?? 'XXX'}`),
		});
	}
	// months carry their label: a repeat is the same month (identity), or disagrees
	const copy = months[0];
	out.push({
		kind: 'duplicate, same identity',
		oracle: 'preserving',
		text: [copy, ...months].join('|'),
	});
	out.push({
		kind: 'duplicate, disagreeing',
		oracle: 'destroying',
		text: [`${parts[0].label},090/XXX`, ...months].join('|'),
	});
	return out;
}

/** CIBIL's run-together history: exactly three characters a month. */
function runTogetherEdits(text: string): MonthEdit[] {
	if (!/^[0-9A-Z]+$/.test(text) || text.length < 6 || text.length % 3 !== 0) return [];
	const tokens = text.match(/.{3}/g) as string[];
	const put = (i: number, token: string) => Object.assign([...tokens], { [i]: token }).join('');
	const clean = cleanIndex(tokens, isClean);
	const worst = worstIndex(tokens, dayCount);
	const out: MonthEdit[] = [];
	// one month four characters wide: the line no longer divides into months
	out.push({
		kind: 'width: run-together month 4 wide',
		oracle: 'destroying',
		text: put(
			worst >= 0 ? worst : 0,
			worst >= 0 ? `0${tokens[worst]}` : tokens[0] === '000' ? '0030' : `0${tokens[0]}`,
		),
	});
	if (clean >= 0) {
		for (const code of ['SUB', 'DBT', 'LSS', 'SMA'])
			out.push({
				kind: `month code ${code}`,
				oracle: 'adverse',
				floor: CLASS_FLOORS[code],
				text: put(clean, code),
			});
		out.push({ kind: 'month not reported XXX', oracle: 'preserving', text: put(clean, 'XXX') });
		out.push({ kind: 'month unknown code', oracle: 'destroying', text: put(clean, 'QQQ') });
	}
	return out;
}

/** Month entries (Equifax's History48Months, Experian's CAIS_Account_History): the first month. */
function monthEntryDrifts(body: IDataObject, read: Set<string>): Drift[] {
	const out: Drift[] = [];
	for (const { path, value } of nodes(body)) {
		const key = bare(path[path.length - 1]);
		if (key !== 'paymentstatus' && key !== 'dayspastdue') continue;
		if (!read.has(collapsed(path))) continue;
		// the first month of the list only (the most recent: inside every reader's window)
		if (path[path.length - 2] !== 0) continue;
		const text = String(value ?? '');
		if (!isClean(text) && text !== '0') continue;
		const scope = scopeOf(path);
		const where = pathText(path);
		for (const code of ['SUB', 'DBT', 'LSS', 'SMA-1', 'SMA-2'])
			out.push({
				kind: `month code ${code}`,
				oracle: 'adverse',
				floor: CLASS_FLOORS[code],
				scope,
				where: `${where} = ${code}`,
				body: setAt(body, path, code),
			});
		out.push({
			kind: 'month days/SUB',
			oracle: 'adverse',
			floor: 90,
			scope,
			where: `${where} = 000/SUB`,
			body: setAt(body, path, '000/SUB'),
		});
		out.push({
			kind: 'month not reported XXX',
			oracle: 'preserving',
			where: `${where} = XXX`,
			body: setAt(body, path, 'XXX'),
		});
		out.push({
			kind: 'month unknown code',
			oracle: 'destroying',
			where: `${where} = QQQ`,
			body: setAt(body, path, 'QQQ'),
		});
		// Equifax's month states its asset class apart from the days
		const entry = getAt(body, path.slice(0, -1)) as IDataObject;
		const classKey = Object.keys(entry).find((k) => bare(k) === 'assetclassificationstatus');
		if (classKey)
			for (const code of ['SUB', 'DBT', 'LSS', 'SMA-2'])
				out.push({
					kind: `month asset class ${code}`,
					oracle: 'adverse',
					floor: CLASS_FLOORS[code],
					scope,
					where: `${pathText([...path.slice(0, -1), classKey])} = ${code}`,
					body: setAt(body, [...path.slice(0, -1), classKey], code),
				});
	}
	return out;
}

function historyDrifts(body: IDataObject, read: Set<string>): Drift[] {
	const out: Drift[] = [];
	for (const { path, value } of nodes(body)) {
		if (typeof value !== 'string' || !read.has(collapsed(path))) continue;
		const key = bare(path[path.length - 1]);
		const edits = [
			...crifEdits(value),
			...delimitedEdits(value),
			// a run-together line: a payment history (CIBIL's), never a profile of one character a month
			...(/history|dpd/.test(key) && !/profile/.test(key) ? runTogetherEdits(value) : []),
		];
		for (const e of edits)
			out.push({
				kind: e.kind,
				oracle: e.oracle,
				floor: e.floor,
				scope: e.oracle === 'adverse' ? scopeOf(path) : undefined,
				where: `${pathText(path)} = ${JSON.stringify(e.text.slice(0, 48))}`,
				body: setAt(body, path, e.text),
			});
	}
	return [...out, ...monthEntryDrifts(body, read)];
}

// ------------------------------------------------------------------------------ figures

/** Keys of identities, dates and codes: never figures (a padded date is another date). */
const NOT_A_FIGURE =
	/date|dt$|^dt|number$|^no$|id$|^id|code|pin|phone|mobile|seq|index|^key$|version|^month$|^year$|ifsc|ack|uan|^pan|cin$|zip|postal|^age$|status$/;

export const numeric = (value: unknown): number | null => {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
	return null;
};

/** What range a figure has, from its name: decides which values are outside it. */
export function rangeClass(
	path: Path,
): 'score' | 'percent' | 'signed' | 'amount' | 'bounded' | 'count' {
	const key = bare(path[path.length - 1]);
	const context = path
		.slice(-3)
		.map((p) => bare(p))
		.join('.');
	if (/score/.test(context) && !/count|penalt|weight|threshold/.test(key))
		return /health|stability/.test(context) ? 'percent' : 'score';
	if (/percent|pct|ratio|utili/.test(key)) return 'percent';
	if (/balance|bal$|^net|net$|flow|profit|surplus/.test(key)) return 'signed';
	if (
		/amount|amt|outstanding|income|credits?$|debits?$|sanction|overdue|wage|share|salary|tax|refund|demand|capital|revenue|contribution|emi|limit|obligation|payable|deduction|paid|penalt|value$|salary|houseproperty|business|gains|sources/.test(
			key,
		)
	)
		return 'amount';
	if (/tenure|duration|months|dayspastdue|dpd|days|year/.test(key)) return 'bounded';
	return 'count';
}

const OUT_OF_RANGE: Record<ReturnType<typeof rangeClass>, number[]> = {
	// not -1: CIBIL's documented "no credit history"
	score: [-67, 99999, 1e21],
	percent: [-1, -67, 99999, 1e21],
	signed: [1e21, -1e21],
	amount: [-1, -67, 1e21],
	bounded: [-1, -67, 99999, 1e21],
	count: [-1, -67, 1e21],
};

/**
 * The sources of the decision facts of `body`: the read properties (collapsed) whose removal changes a
 * decision fact (every instance removed; as test/unit/drift/overNulling.cts finds them).
 */
export function sourcesOf(
	body: IDataObject,
	read: Set<string>,
	factsOf: (body: IDataObject) => Record<string, unknown> | null,
): Map<string, Set<string>> {
	const base = factsOf(body) ?? {};
	const present = new Map<string, Path[]>();
	for (const { path } of nodes(body)) {
		const at = collapsed(path);
		if (!present.has(at)) present.set(at, []);
		(present.get(at) as Path[]).push(path);
	}
	const sources = new Map<string, Set<string>>();
	for (const at of read) {
		const paths = present.get(at);
		if (!paths) continue;
		const copy = structuredClone(body);
		// deepest first, so removing one instance does not move another
		for (const path of [...paths].reverse()) {
			const holder = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
			if (holder && typeof holder === 'object' && !Array.isArray(holder))
				delete holder[path[path.length - 1]];
		}
		const drifted = factsOf(copy) ?? {};
		const changed = Object.entries(base).filter(
			([field, value]) =>
				value !== null && JSON.stringify(drifted[field]) !== JSON.stringify(value),
		);
		if (changed.length > 0) sources.set(at, new Set(changed.map(([f]) => f)));
	}
	return sources;
}

/** Figures that are sources of a decision fact: at most `perSource` instances of each. */
export function figurePlaces(
	body: IDataObject,
	sources: Map<string, Set<string>>,
	perSource = 2,
): Node[] {
	const seen = new Map<string, number>();
	const out: Node[] = [];
	for (const node of nodes(body)) {
		const at = collapsed(node.path);
		if (!sources.has(at) || numeric(node.value) === null) continue;
		const key = bare(node.path[node.path.length - 1]);
		if (NOT_A_FIGURE.test(key)) continue;
		// a run-together payment history is months, not one number
		if (/history|profile/.test(key) || String(node.value).length > 15) continue;
		const count = seen.get(at) ?? 0;
		if (count >= perSource) continue;
		seen.set(at, count + 1);
		out.push(node);
	}
	return out;
}

function figureDrifts(body: IDataObject, sources: Map<string, Set<string>>): Drift[] {
	const out: Drift[] = [];
	for (const { path, value } of figurePlaces(body, sources)) {
		const n = numeric(value) as number;
		const where = pathText(path);
		const add = (kind: string, oracle: Oracle, next: unknown) =>
			out.push({
				kind,
				oracle,
				where: `${where}: ${JSON.stringify(value)} → ${JSON.stringify(next)}`,
				body: setAt(body, path, next),
			});
		const text = typeof value === 'string' ? value : String(n);
		if (typeof value === 'number') add('number as string "5"', 'preserving', text);
		else add('string as number', 'preserving', n);
		if (n >= 0) add('padded number "0030"', 'preserving', `00${text}`);
		add('number in spaces " 30 "', 'preserving', ` ${text} `);
		for (const bad of OUT_OF_RANGE[rangeClass(path)]) {
			if (bad === n) continue;
			const kind =
				bad < 0
					? `negative ${bad === -1e21 ? '-1e21' : bad}`
					: `huge ${bad === 1e21 ? '1e21' : bad}`;
			add(kind, 'destroying', typeof value === 'string' ? String(bad) : bad);
		}
	}
	return out;
}

// ------------------------------------------------------------------------------ duplicates

/** Keys that identify an entry: an account's number, a month, an employer, a return. */
const IDENTITY = new Set([
	'accountnumber',
	'acctnumber',
	'maskedaccountnumber',
	'accountno',
	'establishmentid',
	'acknowledgementno',
	'acknowledgementnumber',
	'ackno',
	'key',
	'month',
	'wagemonth',
]);

/** An account's number is its identity only with its lender (the grammar's identity of an account). */
const ACCOUNT_NUMBER = new Set(['accountnumber', 'acctnumber', 'maskedaccountnumber', 'accountno']);
const LENDER = new Set([
	'lendername',
	'lender',
	'creditguarantor',
	'institution',
	'subscribername',
	'membershortname',
	'membername',
]);

/**
 * The identity keys an entry has (its own fields, or one object down: CRIF's LOAN-DETAILS); an account
 * number without a lender beside it is no identity.
 */
function identityKeys(entry: unknown, path: Path = []): Path[] {
	const keys = ownIdentityKeys(entry, path);
	const holder = (p: Path) => (p.length > 1 ? (entry as IDataObject)[p[0] as string] : entry);
	return keys.flatMap((p) => {
		if (!ACCOUNT_NUMBER.has(bare(p[p.length - 1]))) return [p];
		const fields = Object.keys((holder(p) ?? {}) as IDataObject);
		const lender = fields.find((k) => LENDER.has(bare(k)));
		return lender === undefined ? [] : [p, [...p.slice(0, -1), lender]];
	});
}

function ownIdentityKeys(entry: unknown, path: Path = []): Path[] {
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return [];
	const out: Path[] = [];
	for (const [key, value] of Object.entries(entry)) {
		if (IDENTITY.has(bare(key)) && (typeof value === 'string' || typeof value === 'number')) {
			if (String(value).trim() !== '') out.push([...path, key]);
		} else if (path.length === 0 && typeof value === 'object' && value !== null)
			out.push(...ownIdentityKeys(value, [key]));
	}
	return out;
}

function duplicateDrifts(
	body: IDataObject,
	read: Set<string>,
	sources: Map<string, Set<string>>,
): Drift[] {
	const out: Drift[] = [];
	const seen = new Map<string, number>();
	const sourcePaths = [...sources.keys()];
	for (const { path, value } of nodes(body)) {
		if (!Array.isArray(value) || value.length === 0) continue;
		const at = collapsed(path);
		if (!read.has(at)) continue;
		// a list a decision fact comes from
		if (!sourcePaths.some((s) => s.startsWith(`${at}[]`))) continue;
		const entry = value[0];
		if (typeof entry !== 'object' || entry === null) continue;
		const count = seen.get(at) ?? 0;
		if (count >= 2) continue;
		seen.set(at, count + 1);
		const identity = identityKeys(entry);
		const where = `${pathText(path)}[0]`;
		const withCopy = (copy: unknown) =>
			setAt(body, path, [value[0], copy, ...value.slice(1)] as unknown[]);
		if (identity.length > 0) {
			out.push({
				kind: 'duplicate, same identity',
				oracle: 'preserving',
				where: `${where} repeated (identity ${identity.map(pathText).join(' + ')})`,
				body: withCopy(structuredClone(entry)),
			});
			// the repeat with one figure of a decision fact changed
			const figure = nodes(entry).find(
				(n) =>
					numeric(n.value) !== null &&
					sources.has(collapsed([...path, 0, ...n.path])) &&
					!identity.some((p) => pathText(p) === pathText(n.path)) &&
					!NOT_A_FIGURE.test(bare(n.path[n.path.length - 1])),
			);
			if (figure) {
				const n = numeric(figure.value) as number;
				const next = typeof figure.value === 'string' ? String(n + 30) : n + 30;
				out.push({
					kind: 'duplicate, disagreeing',
					oracle: 'destroying',
					where: `${where} repeated with ${pathText(figure.path)} ${JSON.stringify(figure.value)} → ${JSON.stringify(next)}`,
					body: withCopy(setAt(structuredClone(entry) as IDataObject, figure.path, next)),
				});
			}
		} else
			out.push({
				kind: 'duplicate, anonymous',
				oracle: 'destroying',
				where: `${where} repeated (no identity)`,
				body: withCopy(structuredClone(entry)),
			});
	}
	return out;
}

// ------------------------------------------------------------------------------ contradictions

const GENERIC = new Set(['total', 'count', 'number', 'summary', 'details', 'data', 'list', 'of']);
/** Lists named apart from what they hold: CRIF's accounts are its RESPONSES.RESPONSE. */
const SYNONYMS: Record<string, string> = { respo: 'accou' };

/** The word stems of a key: `NoOfAccounts` → accou; `total_suspicious_credits` → suspi, credi. */
const stems = (key: string | number) =>
	String(key)
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z]+/)
		.filter((w) => w.length >= 4 && !GENERIC.has(w))
		.map((w) => SYNONYMS[w.slice(0, 5)] ?? w.slice(0, 5));

function contradictionDrifts(body: IDataObject, read: Set<string>): Drift[] {
	const out: Drift[] = [];
	const all = nodes(body);
	const lists = all.filter((n) => Array.isArray(n.value) && read.has(collapsed(n.path)));
	for (const { path, value } of all) {
		// the count need not be read: a reader that ignores the summary still meets the emptied list
		const n = numeric(value);
		if (n === null || !Number.isInteger(n) || n < 0) continue;
		const key = path[path.length - 1];
		if (typeof key !== 'string' || NOT_A_FIGURE.test(bare(key))) continue;
		// a count of entries (NUMBER-OF-ACCOUNTS, NoOfAccounts, total_employers), not a figure of them
		if (!/total|count|numberof|noof|^bounces$/.test(bare(key))) continue;
		if (/amount|amt|balance|average|avg|age|sanction|overdue|due/.test(bare(key))) continue;
		const words = stems(key);
		if (words.length === 0) continue;
		const scope = path.slice(0, Math.max(0, path.length - 3));
		const list = lists.find(
			(l) =>
				(l.value as unknown[]).length === n &&
				pathText(l.path).startsWith(pathText(scope)) &&
				stems(l.path[l.path.length - 1]).some((s) => words.includes(s)),
		);
		if (!list) continue;
		const where = `${pathText(path)} = ${JSON.stringify(value)} beside ${pathText(list.path)} (${n})`;
		const next = typeof value === 'string' ? String(n + 1) : n + 1;
		out.push({
			kind: 'summary count +1',
			oracle: 'destroying',
			where: `${where}: → ${JSON.stringify(next)}`,
			body: setAt(body, path, next),
		});
		if (n > 0)
			out.push({
				kind: 'summary count, list emptied',
				oracle: 'destroying',
				where: `${where}: list → []`,
				body: setAt(body, list.path, []),
			});
	}
	return out;
}

// ------------------------------------------------------------------------------ exit markers

function exitDrifts(body: IDataObject, read: Set<string>): Drift[] {
	const out: Drift[] = [];
	for (const { path, value } of nodes(body)) {
		if (value !== null || !read.has(collapsed(path))) continue;
		if (!/dateofexit|exitdate|^doe$|dateofleaving/.test(bare(path[path.length - 1]))) continue;
		for (const marker of ['NA', '-', ' '])
			out.push({
				kind: `exit marker ${JSON.stringify(marker)}`,
				oracle: 'preserving',
				where: `${pathText(path)}: null → ${JSON.stringify(marker)}`,
				body: setAt(body, path, marker),
			});
	}
	return out;
}

// ------------------------------------------------------------------------------ all kinds

/** Every drift of the new kinds for one body. */
export function drifts(
	body: IDataObject,
	normalize: (body: unknown) => unknown,
	factsOf: (body: IDataObject) => Record<string, unknown> | null,
): Drift[] {
	const read = readSet(body, normalize);
	const sources = sourcesOf(body, read, factsOf);
	return [
		...historyDrifts(body, read),
		...figureDrifts(body, sources),
		...duplicateDrifts(body, read, sources),
		...contradictionDrifts(body, read),
		...exitDrifts(body, read),
	];
}

/** At most `count` of each kind, a seeded sample (all of them when fewer). */
export function capPerKind(all: Drift[], count: number, seed: number): Drift[] {
	const byKind = new Map<string, Drift[]>();
	for (const d of all) {
		if (!byKind.has(d.kind)) byKind.set(d.kind, []);
		(byKind.get(d.kind) as Drift[]).push(d);
	}
	const out: Drift[] = [];
	let k = 0;
	for (const list of byKind.values()) {
		k++;
		if (list.length <= count) out.push(...list);
		else
			out.push(
				...fc.sample(fc.shuffledSubarray(list, { minLength: count, maxLength: count }), {
					seed: seed * 100 + k,
					numRuns: 1,
				})[0],
			);
	}
	return out;
}
