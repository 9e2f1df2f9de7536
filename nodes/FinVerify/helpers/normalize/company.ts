import type { IDataObject } from 'n8n-workflow';

import type { Shape } from './common';
import { asArray, asObject, first, toIsoDate, toNumber, toUpperText, unwrap } from './common';
import { isObject, toText } from '../../../shared/values';
import { statusCategory } from './decision';
import { toAmount, toCount, toPercent, toSignedAmount } from './grammar';
import { toStatusText } from './statusText';

/**
 * Corporate registry normalizers (operations cinLookup, llpinLookup, panLookup,
 * companyAutocomplete). Pure and tolerant: every documented field of either response shape is
 * optional; a missing field becomes null (or an empty list) and nothing here throws.
 */

const LLPIN = /^[A-Z]{3}-\d{4}$/;
const CIN = /^([LU])(\d{5})([A-Z]{2})(\d{4})([A-Z]{3})(\d{6})$/;

/** State (or union territory) codes used in the 7th and 8th characters of a CIN. */
const CIN_STATES: Record<string, string> = {
	AN: 'Andaman and Nicobar Islands',
	AP: 'Andhra Pradesh',
	AR: 'Arunachal Pradesh',
	AS: 'Assam',
	BR: 'Bihar',
	CH: 'Chandigarh',
	CT: 'Chhattisgarh',
	DL: 'Delhi',
	DN: 'Dadra and Nagar Haveli',
	GA: 'Goa',
	GJ: 'Gujarat',
	HP: 'Himachal Pradesh',
	HR: 'Haryana',
	JH: 'Jharkhand',
	JK: 'Jammu and Kashmir',
	KA: 'Karnataka',
	KL: 'Kerala',
	LA: 'Ladakh',
	MH: 'Maharashtra',
	ML: 'Meghalaya',
	MN: 'Manipur',
	MP: 'Madhya Pradesh',
	MZ: 'Mizoram',
	NL: 'Nagaland',
	OR: 'Odisha',
	PB: 'Punjab',
	PY: 'Puducherry',
	RJ: 'Rajasthan',
	SK: 'Sikkim',
	TG: 'Telangana',
	TN: 'Tamil Nadu',
	TR: 'Tripura',
	TS: 'Telangana',
	UP: 'Uttar Pradesh',
	UR: 'Uttarakhand',
	UT: 'Uttarakhand',
	WB: 'West Bengal',
};

/**
 * What a CIN itself says: listed or not, and the state of registration. Null parts when it is not a
 * CIN.
 */
export function parseCin(value: unknown): { listed: boolean | null; state: string | null } {
	const match = CIN.exec(toText(value)?.toUpperCase() ?? '');
	if (!match) return { listed: null, state: null };
	return { listed: match[1] === 'L', state: CIN_STATES[match[3]] ?? null };
}

// ---------------------------------------------------------------- the registry's grammar

/**
 * What the registry may send for each fact a decision rests on (docs/output.md, "The registry's
 * grammar"). A value outside it is unknown (null), never read as the clean value.
 */

/**
 * A registry status in the documented case, when it is a word of the registry's vocabulary (Active,
 * Strike Off, Struck Off, Under Process of Striking Off, Defunct, Dissolved, Amalgamated, Under CIRP,
 * Under Liquidation, Dormant…; `decision.ts` statusCategory); null when missing, not a word, or a word
 * the registry does not use.
 */
export function registryStatus(value: unknown): string | null {
	const text = toStatusText(value);
	return text !== null && statusCategory(text) !== null ? text : null;
}

const YES = new Set(['true', 'y', 'yes']);
const NO = new Set(['false', 'n', 'no']);

/**
 * A risk flag: a boolean, or `Y`/`N`, `Yes`/`No`, `"true"`/`"false"` in any case; anything else (a
 * number, a date, another word) is unknown.
 */
export function registryFlag(value: unknown): boolean | null {
	if (typeof value === 'boolean') return value;
	if (typeof value !== 'string') return null;
	const word = value.trim().toLowerCase();
	return YES.has(word) ? true : NO.has(word) ? false : null;
}

/**
 * A date of incorporation (or registration): a real calendar date, not after today; else unknown
 * (`2019-02-30`, a date in the future).
 */
export function registryDate(value: unknown, today: Date = new Date()): string | null {
	const iso = toIsoDate(value);
	if (iso === null) return null;
	const [year, month, day] = iso.split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
	return iso <= today.toISOString().slice(0, 10) ? iso : null;
}

/** Capital or a contribution: a non-negative amount within the shared range (grammar.ts). */
const registryAmount = (value: unknown): number | null => toAmount(value);

// ---------------------------------------------------------------- autocomplete

export interface AutocompleteEntry extends IDataObject {
	name: string | null;
	/** Null when neither the entry's type, its category nor its identifier says which. */
	entityType: 'Company' | 'LLP' | null;
	/** CIN for companies, LLPIN for LLPs. */
	identifier: string | null;
	cin: string | null;
	llpin: string | null;
	status: string | null;
	state: string | null;
}

/** The result list of an autocomplete response, either shape; null when the answer has none. */
function resultList(body: unknown): unknown[] | null {
	const object = asObject(body);
	const nested = asObject(object.data);
	if (Array.isArray(object.data)) return object.data;
	if (Array.isArray(object.result)) return object.result;
	return Array.isArray(nested.result) ? nested.result : null;
}

/**
 * The entries of an autocomplete response, either shape: entries that name an entity (a name or an
 * identifier) only, so a null or empty entry never becomes an item.
 */
export function autocompleteEntries(body: unknown): IDataObject[] {
	return asArray(resultList(body)).filter(
		(entry): entry is IDataObject =>
			isObject(entry) &&
			toText(first(entry.entity_name, entry.company_name, entry.name, entry.cin, entry.llpin)) !==
				null,
	);
}

/** What a Search by Name answer must carry: its result list (an empty list is "no results"). */
export const AUTOCOMPLETE_REQUIRED = (body: unknown): string | undefined =>
	resultList(body) === null ? 'a result list (data or result)' : undefined;

/**
 * Autocomplete, either shape: reference
 * `{data:[{entity_name, entity_type, cin, llpin, status, state}]}` or sample
 * `{result:[{company_name, cin (an LLPIN for LLPs), category: ltd|llp}]}`.
 */
export function normalizeAutocomplete(body: unknown): AutocompleteEntry[] {
	return autocompleteEntries(body).map((entry) => {
		const category = toText(entry.category)?.toLowerCase();
		const declaredType = toUpperText(entry.entity_type);
		const rawCin = toUpperText(entry.cin);
		const rawLlpin = toUpperText(entry.llpin);
		const isLlp =
			declaredType === 'LLP' ||
			category === 'llp' ||
			(declaredType === null &&
				category === undefined &&
				((rawCin !== null && LLPIN.test(rawCin)) || (rawCin === null && rawLlpin !== null)));
		const isCompany =
			!isLlp &&
			(declaredType === 'COMPANY' ||
				category === 'ltd' ||
				(declaredType === null && category === undefined && rawCin !== null));
		const llpin = isLlp ? (rawLlpin ?? rawCin) : null;
		const cin = isLlp ? null : rawCin;
		return {
			name: toText(first(entry.entity_name, entry.company_name, entry.name)),
			entityType: isLlp ? 'LLP' : isCompany ? 'Company' : null,
			identifier: isLlp ? llpin : cin,
			cin,
			llpin,
			status: registryStatus(entry.status),
			state: toText(first(entry.state, isLlp ? null : parseCin(cin).state)),
		};
	});
}

// ------------------------------------------------------------ shared groups of the sample shapes

export interface Person extends IDataObject {
	name: string | null;
	designation: string | null;
	din: string | null;
	appointedOn: string | null;
	ceasedOn: string | null;
	/**
	 * Whether the person holds the designation now: true when the answer states no cessation (null) or
	 * one after today, false when one on or before today; null when the answer does not say (no
	 * cessation field, or one that is not a date).
	 */
	current: boolean | null;
}

function people(list: unknown, today: Date = new Date()): Person[] {
	return asArray(list).map((raw) => {
		const p = asObject(raw);
		const ceasedOn = toIsoDate(p.date_of_cessation);
		const stated = 'date_of_cessation' in p;
		return {
			name: toText(p.name),
			designation: toText(p.designation),
			din: toText(p.din),
			appointedOn: registryDate(
				first(p.date_of_appointment_for_current_designation, p.date_of_appointment),
				today,
			),
			ceasedOn,
			current:
				ceasedOn !== null
					? ceasedOn > today.toISOString().slice(0, 10)
					: stated && p.date_of_cessation === null
						? true
						: null,
		};
	});
}

export interface GstRegistration extends IDataObject {
	gstin: string | null;
	state: string | null;
	status: string | null;
	taxpayerType: string | null;
	filingTimeliness: string | null;
	registeredOn: string | null;
}

function gstRegistrations(list: unknown): GstRegistration[] {
	return asArray(list).map((raw) => {
		const g = asObject(raw);
		return {
			gstin: toUpperText(g.gstin),
			state: toText(g.state),
			status: toStatusText(g.status),
			taxpayerType: toText(g.taxpayer_type),
			filingTimeliness: toText(g.filing_timeliness),
			registeredOn: toIsoDate(g.date_of_registration),
		};
	});
}

export interface RiskFlags extends IDataObject {
	pendingCases: boolean | null;
	bureauDefaults: boolean | null;
	gstFilingDelay: boolean | null;
	epfPaymentDelay: boolean | null;
}

function riskFlags(indicators: IDataObject): RiskFlags {
	return {
		pendingCases: registryFlag(indicators.pending_cases_filed_against_this_corporate),
		bureauDefaults: registryFlag(indicators.bureau_defaults),
		gstFilingDelay: registryFlag(indicators.gst_filing_delay),
		epfPaymentDelay: registryFlag(indicators.epf_payment_delay),
	};
}

export interface FinancialYear extends IDataObject {
	/** Financial year end, YYYY-MM-DD. */
	yearEnd: string | null;
	nature: string | null;
	revenue: number | null;
	operatingProfit: number | null;
	profitBeforeTax: number | null;
	profitAfterTax: number | null;
	totalAssets: number | null;
	totalEquity: number | null;
	totalDebt: number | null;
	netMargin: number | null;
	/** Revenue growth over the previous year, as the service reports it. */
	revenueGrowth: number | null;
	debtToEquity: number | null;
	currentRatio: number | null;
	auditorFirm: string | null;
}

/**
 * The most recent entry of `financials` (by year), in a flat form; null when there is none, or when
 * an entry is null or its year unreadable (it could be the latest year).
 */
function latestFinancials(list: unknown): FinancialYear | null {
	const raw = asArray<unknown>(list);
	if (raw.some((entry) => !isObject(entry) || toIsoDate(entry.year) === null)) return null;
	const years = raw
		.map((entry) => asObject(entry))
		.sort((a, b) => (toIsoDate(b.year) ?? '').localeCompare(toIsoDate(a.year) ?? ''));
	if (years.length === 0) return null;
	const y = years[0];
	const pnl = asObject(asObject(y.pnl).lineItems);
	const bs = asObject(y.bs);
	const subTotals = asObject(bs.subTotals);
	const ratios = asObject(y.ratios);
	return {
		yearEnd: toIsoDate(y.year),
		nature: toText(y.nature),
		revenue: toAmount(pnl.net_revenue),
		operatingProfit: toSignedAmount(pnl.operating_profit),
		profitBeforeTax: toSignedAmount(pnl.profit_before_tax),
		profitAfterTax: toSignedAmount(pnl.profit_after_tax),
		totalAssets: toAmount(asObject(bs.assets).given_assets_total),
		totalEquity: toSignedAmount(subTotals.total_equity),
		totalDebt: toAmount(subTotals.total_debt),
		netMargin: toNumber(ratios.net_margin),
		revenueGrowth: toNumber(ratios.revenue_growth),
		debtToEquity: toNumber(ratios.debt_by_equity),
		currentRatio: toNumber(ratios.current_ratio),
		auditorFirm: toText(asObject(y.auditor).auditor_firm_name),
	};
}

/** Facts only the sample shape has; all null/empty for the reference shape. */
export interface RegistryInsights extends IDataObject {
	activity: string | null;
	summary: string | null;
	phone: string | null;
	revenue: number | null;
	profit: number | null;
	employeeCount: number | null;
	financialScore: number | null;
	/** The parts of the financial score (sample shape). */
	financialSubScores: FinancialSubScores;
	/** Revenue growth of the latest financial year. */
	revenueGrowth: number | null;
	riskFlags: RiskFlags;
	lastAgmDate: string | null;
	lastBalanceSheetDate: string | null;
	lastAnnualReturnDate: string | null;
	latestFinancials: FinancialYear | null;
	/** Other companies and LLPs the directors sit on. */
	directorNetwork: DirectorNetwork[];
	/** The latest year's shareholding pattern. */
	shareholdingSummary: ShareholdingSummary | null;
}

export interface FinancialSubScores extends IDataObject {
	growth: number | null;
	profitability: number | null;
	liquidity: number | null;
	solvency: number | null;
	efficiency: number | null;
}

export interface DirectorNetwork extends IDataObject {
	name: string | null;
	companies: Array<{ name: string | null; designation: string | null }>;
	/** The LLPs the director sits on; null without a list, or with a null entry in it. */
	llpCount: number | null;
}

export interface ShareholdingSummary extends IDataObject {
	financialYear: string | null;
	totalEquityShares: number | null;
	totalPreferenceShares: number | null;
	promoterPercent: number | null;
	publicPercent: number | null;
}

function shareholdingSummary(list: unknown): ShareholdingSummary | null {
	// a null entry, or one without its year, could be the latest year's
	const raw = asArray<unknown>(list);
	if (raw.some((entry) => !isObject(entry) || toText(entry.financial_year) === null)) return null;
	const latest = raw
		.map((raw) => asObject(raw))
		.sort((a, b) =>
			(toText(b.financial_year) ?? '').localeCompare(toText(a.financial_year) ?? ''),
		)[0];
	if (!latest) return null;
	return {
		financialYear: toText(latest.financial_year),
		totalEquityShares: toCount(latest.total_equity_shares),
		totalPreferenceShares: toCount(latest.total_preference_shares),
		promoterPercent: toPercent(latest.promoter),
		publicPercent: toPercent(latest.public),
	};
}

function directorNetwork(list: unknown): DirectorNetwork[] {
	return asArray(list).map((raw) => {
		const d = asObject(raw);
		const network = asObject(d.network);
		return {
			name: toText(d.name),
			companies: asArray(network.companies).map((c) => ({
				name: toText(asObject(c).legal_name),
				designation: toText(asObject(c).designation),
			})),
			llpCount: countEntries(network.llps),
		};
	});
}

function insights(result: IDataObject): RegistryInsights {
	const company = asObject(result.company);
	const indicators = asObject(result.key_indicators);
	const contact = asObject(result.contact_details);
	const filing = asObject(result.filing_dates);
	const activities = asArray(result.principal_business_activities).map((a) => asObject(a));
	const phones = asArray(contact.phone).map((p) => toText(asObject(p).phoneNumber));
	const score = asObject(result.service_financial_score);
	const financials = latestFinancials(result.financials);
	return {
		activity: toText(first(company.activity, activities[0]?.business_activity_description)),
		summary: toText(asObject(result.description).summary),
		phone: toText(first(...phones)),
		revenue: toAmount(indicators.revenue),
		profit: toSignedAmount(indicators.profit),
		employeeCount: toCount(indicators.employee_count),
		financialScore: toNumber(score.overall_financial_score),
		financialSubScores: {
			growth: toNumber(score.growth_score),
			profitability: toNumber(score.profitability_score),
			liquidity: toNumber(score.liquidity_score),
			solvency: toNumber(score.solvency_score),
			efficiency: toNumber(score.efficiency_score),
		},
		revenueGrowth: financials?.revenueGrowth ?? null,
		riskFlags: riskFlags(indicators),
		lastAgmDate: toIsoDate(filing.last_agm_date),
		lastBalanceSheetDate: toIsoDate(filing.balance_sheet_date),
		lastAnnualReturnDate: toIsoDate(filing.annual_return_date),
		latestFinancials: financials,
		directorNetwork: directorNetwork(result.director_network),
		shareholdingSummary: shareholdingSummary(result.shareholdings_summary),
	};
}

const NO_INSIGHTS: RegistryInsights = {
	activity: null,
	summary: null,
	phone: null,
	revenue: null,
	profit: null,
	employeeCount: null,
	financialScore: null,
	financialSubScores: {
		growth: null,
		profitability: null,
		liquidity: null,
		solvency: null,
		efficiency: null,
	},
	revenueGrowth: null,
	riskFlags: {
		pendingCases: null,
		bureauDefaults: null,
		gstFilingDelay: null,
		epfPaymentDelay: null,
	},
	lastAgmDate: null,
	lastBalanceSheetDate: null,
	lastAnnualReturnDate: null,
	latestFinancials: null,
	directorNetwork: [],
	shareholdingSummary: null,
};

const emailOf = (company: IDataObject, result: IDataObject) =>
	toText(
		first(
			company.email,
			...asArray(asObject(result.contact_details).email).map((e) => toText(asObject(e).emailId)),
		),
	);

// ---------------------------------------------------------------- company (CIN lookup)

/**
 * One wording for the company type whichever shape (and spelling) it came in: the sample's class
 * and category, or the reference's `company_type` ("Private", "Pvt Ltd", "Private Limited
 * Company"…) all become "Private Limited Company", "Public Limited Company" or "One Person
 * Company"; other types keep their words with "Company" appended once.
 */
export function companyTypeOf(classOrType: string | null, category: string | null): string | null {
	if (!classOrType) return null;
	const text = classOrType.trim();
	if (/one\s*person|^opc$/i.test(text)) return 'One Person Company';
	const byShares = category === null || /limited by shares/i.test(category);
	const kind = /^(private|pvt\.?)\b/i.test(text)
		? 'Private'
		: /^public\b/i.test(text)
			? 'Public'
			: null;
	const rest = text.replace(/^(private|pvt\.?|public)\b/i, '').trim();
	if (kind && byShares && /^((limited|ltd\.?)(\s+company)?)?$/i.test(rest)) {
		return `${kind} Limited Company`;
	}
	// one case whichever case the service sent ("SECTION 8 COMPANY" is "Section 8 Company")
	const words = toStatusText(text) as string;
	return /\bcompany$/i.test(words) ? words : `${words} Company`;
}

/** The class of a company ("Private", "Public", "One Person Company") from its type wording. */
function classOf(companyType: string | null): string | null {
	if (!companyType) return null;
	if (/^one person/i.test(companyType)) return 'One Person Company';
	if (/^(private|pvt)/i.test(companyType)) return 'Private';
	if (/^public/i.test(companyType)) return 'Public';
	return null;
}

export interface CompanySummary extends RegistryInsights {
	shape: Shape;
	cin: string | null;
	name: string | null;
	status: string | null;
	companyType: string | null;
	companyCategory: string | null;
	companySubCategory: string | null;
	classOfCompany: string | null;
	listed: boolean | null;
	dateOfIncorporation: string | null;
	registeredAddress: string | null;
	state: string | null;
	rocCode: string | null;
	registrationNumber: string | null;
	authorisedCapital: number | null;
	paidUpCapital: number | null;
	numberOfMembers: number | null;
	email: string | null;
	pan: string | null;
	/** Link to the company report PDF (sample shape only). */
	pdfUrl: string | null;
	/** The authorised signatories (directors); null when the answer's layout lists none (reference). */
	directors: Person[] | null;
}

/**
 * CIN lookup, either shape, to one stable object. Fields only one shape carries are null in the
 * other.
 */
export function normalizeCompany(body: unknown): CompanySummary {
	const data = unwrap(body);
	if (isObject(data.result)) {
		const result = data.result;
		const company = asObject(result.company);
		const cin = toUpperText(first(company.cin, data.cin));
		const fromCin = parseCin(cin);
		const classOfCompany = toText(company.class_of_company);
		return {
			shape: 'sample',
			cin,
			name: toText(first(company.legal_name, result.legal_name)),
			status: registryStatus(first(company.status, company.company_status, result.status)),
			companyType: companyTypeOf(classOfCompany, toText(company.company_category)),
			companyCategory: toText(company.company_category),
			companySubCategory: toText(company.company_sub_category),
			classOfCompany,
			listed: fromCin.listed,
			dateOfIncorporation: registryDate(company.date_of_incorporation),
			registeredAddress: toText(
				first(company.registered_office_address, company.registered_address),
			),
			state: toText(first(company.state, result.state, fromCin.state)),
			rocCode: toText(first(company.roc_code, result.roc_code)),
			registrationNumber: toText(company.registration_number),
			authorisedCapital: registryAmount(company.authorised_capital),
			paidUpCapital: registryAmount(company.paid_up_capital),
			numberOfMembers: toCount(company.number_of_members),
			email: emailOf(company, result),
			pan: toUpperText(first(company.pan, result.pan)),
			pdfUrl: toText(data.pdf_url),
			directors: people(result.authorized_signatories),
			...insights(result),
		};
	}
	const cin = toUpperText(data.cin);
	const fromCin = parseCin(cin);
	const companyType = companyTypeOf(toText(data.company_type), null);
	return {
		shape: 'reference',
		cin,
		name: toText(data.company_name),
		status: registryStatus(data.status),
		companyType,
		companyCategory: null,
		companySubCategory: null,
		classOfCompany: classOf(companyType),
		listed: fromCin.listed,
		dateOfIncorporation: registryDate(data.date_of_incorporation),
		registeredAddress: toText(data.registered_address),
		state: toText(first(data.state, fromCin.state)),
		rocCode: toText(data.roc_code),
		registrationNumber: cin ? cin.slice(-6) : null,
		authorisedCapital: registryAmount(data.authorised_capital),
		paidUpCapital: registryAmount(data.paid_up_capital),
		numberOfMembers: null,
		email: toText(data.email),
		pan: toUpperText(data.pan),
		pdfUrl: toText(data.pdf_url),
		directors: null,
		...NO_INSIGHTS,
	};
}

/** What a Get by CIN answer must carry: the company's CIN or name, in either shape. */
export const COMPANY_REQUIRED =
	'data.cin|data.company_name|data.result.company.cin|data.result.company.legal_name';

// ---------------------------------------------------------------- LLP (LLPIN lookup)

/** A credit rating of an LLP (sample shape's credit_ratings; entry fields assumed, see docs). */
export interface CreditRating extends IDataObject {
	agency: string | null;
	rating: string | null;
	ratedOn: string | null;
	instrument: string | null;
}

/** A charge registered on an LLP's assets (open_charges): who holds it, for how much. */
export interface OpenCharge extends IDataObject {
	/** The lender (bank) holding the charge. */
	holder: string | null;
	amount: number | null;
	createdOn: string | null;
	status: string | null;
}

/**
 * The entries of a list the answer states, each an object; null without a list or with an entry that
 * is not one (a null entry is an entry the answer lost: the list's count is unknown).
 */
function statedEntries(list: unknown): IDataObject[] | null {
	if (!Array.isArray(list) || !list.every(isObject)) return null;
	return list as IDataObject[];
}

/** The number of entries of a list, null without a list or with a null entry (see statedEntries). */
const countEntries = (list: unknown): number | null =>
	Array.isArray(list) && !list.some((entry) => entry === null || entry === undefined)
		? list.length
		: null;

function creditRatings(list: unknown): CreditRating[] | null {
	const entries = statedEntries(list);
	if (entries === null) return null;
	return entries
		.map((r) => ({
			agency: toText(first(r.rating_agency, r.agency, r.credit_rating_agency, r.agency_name)),
			rating: toUpperText(first(r.rating, r.credit_rating, r.rating_grade)),
			ratedOn: toIsoDate(first(r.rating_date, r.date, r.date_of_rating)),
			instrument: toText(first(r.instrument, r.instrument_type, r.facility)),
		}))
		.sort((a, b) => (b.ratedOn ?? '').localeCompare(a.ratedOn ?? ''));
}

function openCharges(list: unknown): OpenCharge[] | null {
	const entries = statedEntries(list);
	if (entries === null) return null;
	return entries.map((c) => ({
		holder: toText(first(c.charge_holder, c.charge_holder_name, c.holder, c.lender, c.bank_name)),
		amount: toAmount(first(c.amount, c.charge_amount, c.amount_secured)),
		createdOn: toIsoDate(first(c.date_of_creation, c.creation_date, c.created_on)),
		status: toStatusText(c.status),
	}));
}

export interface LlpSummary extends RegistryInsights {
	shape: Shape;
	llpin: string | null;
	name: string | null;
	status: string | null;
	dateOfIncorporation: string | null;
	registeredAddress: string | null;
	state: string | null;
	rocCode: string | null;
	/** Total obligation of contribution of the partners, INR. */
	totalObligationOfContribution: number | null;
	email: string | null;
	pan: string | null;
	/** Designated partners and other signatories; null when the layout lists none (reference). */
	partners: Person[] | null;
	gstRegistrations: GstRegistration[];
	openChargeCount: number | null;
	/** The charges on the LLP's assets, newest listing order kept; null when the answer does not say. */
	openCharges: OpenCharge[] | null;
	/** The distinct lenders holding an open charge; null when the answer does not say. */
	chargeHolders: string[] | null;
	creditRatingCount: number | null;
	/** Credit ratings, newest first; null when the answer does not say. */
	creditRatings: CreditRating[] | null;
	/** The newest rating (e.g. BBB+), or null when there is none or the answer does not say. */
	creditRating: string | null;
	legalCaseCount: number | null;
}

/** LLPIN lookup, either shape, to one stable object. */
export function normalizeLlp(body: unknown): LlpSummary {
	const data = unwrap(body);
	if (isObject(data.result)) {
		const result = data.result;
		const company = asObject(result.company);
		const disputes = asObject(result.legal_cases_of_financial_disputes);
		const charges = openCharges(result.open_charges);
		const ratings = creditRatings(result.credit_ratings);
		return {
			shape: 'sample',
			llpin: toUpperText(first(company.llpin, data.llpin, result.llpin)),
			name: toText(first(company.legal_name, company.llp_name, result.legal_name)),
			status: registryStatus(first(company.status, company.llp_status, result.status)),
			dateOfIncorporation: registryDate(company.date_of_incorporation),
			registeredAddress: toText(
				first(company.registered_office_address, company.registered_address),
			),
			state: toText(
				first(company.state, result.state, asObject(asArray(result.gst_details)[0]).state),
			),
			rocCode: toText(first(company.roc_code, result.roc_code)),
			totalObligationOfContribution: registryAmount(
				first(company.total_obligation_of_contribution, result.total_obligation_of_contribution),
			),
			email: emailOf(company, result),
			pan: toUpperText(first(company.pan, result.pan)),
			partners: people(result.authorized_signatories),
			gstRegistrations: gstRegistrations(result.gst_details),
			openChargeCount: charges ? charges.length : null,
			openCharges: charges,
			// a holder not named leaves the list unknown rather than short
			chargeHolders:
				charges && charges.every((c) => c.holder !== null)
					? [...new Set(charges.map((c) => c.holder as string))]
					: null,
			creditRatingCount: ratings ? ratings.length : null,
			creditRatings: ratings,
			creditRating: ratings ? (ratings[0]?.rating ?? null) : null,
			legalCaseCount: toCount(
				first(
					disputes.total_cases,
					Array.isArray(result.legal_history) ? result.legal_history.length : null,
				),
			),
			...insights(result),
		};
	}
	return {
		shape: 'reference',
		llpin: toUpperText(data.llpin),
		name: toText(first(data.llp_name, data.name)),
		status: registryStatus(data.status),
		dateOfIncorporation: registryDate(data.date_of_incorporation),
		registeredAddress: toText(data.registered_address),
		state: toText(data.state),
		rocCode: toText(data.roc_code),
		totalObligationOfContribution: registryAmount(data.total_obligation_of_contribution),
		email: toText(data.email),
		pan: toUpperText(data.pan),
		partners: null,
		gstRegistrations: [],
		openChargeCount: null,
		openCharges: null,
		chargeHolders: null,
		creditRatingCount: null,
		creditRatings: null,
		creditRating: null,
		legalCaseCount: null,
		...NO_INSIGHTS,
	};
}

/** What an LLPIN lookup's answer must carry: the LLP's LLPIN or name, in either shape. */
export const LLP_REQUIRED =
	'data.llpin|data.llp_name|data.result.company.llpin|data.result.company.legal_name';

// ---------------------------------------------------------------- entity (PAN lookup)

/** The documented entity types (Company, LLP, Trust, Firm) in their documented case. */
const ENTITY_TYPES = ['Company', 'LLP', 'Trust', 'Firm'];

function entityTypeOf(value: unknown): string | null {
	const text = toText(value);
	if (text === null) return null;
	return ENTITY_TYPES.find((t) => t.toLowerCase() === text.toLowerCase()) ?? toStatusText(text);
}

/**
 * One return as an entity lookup (Get Entity by PAN) lists it: year, date, type and status only.
 * The full return of Income Tax Return > Get Data is `ItrFiling` in incomeTax.ts.
 */
export interface ItrFilingSummary extends IDataObject {
	assessmentYear: string | null;
	filedOn: string | null;
	returnType: string | null;
	status: string | null;
}

export interface EntitySummary extends IDataObject {
	shape: Shape;
	pan: string | null;
	name: string | null;
	/** Company, LLP, Trust or Firm. */
	entityType: string | null;
	status: string | null;
	cin: string | null;
	llpin: string | null;
	dateOfIncorporation: string | null;
	registeredAddress: string | null;
	state: string | null;
	companyCategory: string | null;
	classOfCompany: string | null;
	authorisedCapital: number | null;
	paidUpCapital: number | null;
	profit: number | null;
	bureauDefaults: boolean | null;
	gstFilingDelay: boolean | null;
	tdsDefaults: boolean | null;
	lastTdsFilingDate: string | null;
	tdsFilingTimeliness: string | null;
	gstRegistrations: GstRegistration[];
	itrFilings: ItrFilingSummary[];
	/** Null when the layout lists none (reference). */
	directors: Person[] | null;
}

/** PAN lookup, either shape, to one stable object. */
export function normalizeEntity(body: unknown): EntitySummary {
	const data = unwrap(body);
	if (isObject(data.result)) {
		const result = data.result;
		const company = asObject(result.company);
		const entityType = entityTypeOf(result.entity_type);
		const rawCin = toUpperText(first(result.cin, company.cin));
		const isLlp = entityType?.toUpperCase() === 'LLP' || (rawCin !== null && LLPIN.test(rawCin));
		const cin = isLlp ? null : rawCin;
		const indicators = asObject(result.key_indicators);
		const tds = asObject(result.tds_tcs_compliance);
		return {
			shape: 'sample',
			pan: toUpperText(first(result.pan, data.pan)),
			name: toText(first(result.legal_name, company.legal_name)),
			entityType,
			status: registryStatus(result.status),
			cin,
			llpin: toUpperText(first(result.llpin, isLlp ? rawCin : null)),
			dateOfIncorporation: registryDate(
				first(company.date_of_incorporation, result.date_of_registration),
			),
			registeredAddress: toText(
				first(result.registered_address, company.registered_office_address),
			),
			state: toText(
				first(result.state, parseCin(cin).state, asObject(asArray(result.gst_details)[0]).state),
			),
			companyCategory: toText(company.company_category),
			classOfCompany: toText(company.class_of_company),
			authorisedCapital: registryAmount(company.authorised_capital),
			paidUpCapital: registryAmount(company.paid_up_capital),
			profit: toSignedAmount(indicators.profit),
			bureauDefaults: registryFlag(indicators.bureau_defaults),
			gstFilingDelay: registryFlag(indicators.gst_filing_delay),
			tdsDefaults: registryFlag(tds.tds_defaults),
			lastTdsFilingDate: toIsoDate(tds.last_tds_filing_date),
			tdsFilingTimeliness: toText(tds.filing_timeliness),
			gstRegistrations: gstRegistrations(result.gst_details),
			itrFilings: asArray(result.itr_filing_history).map((raw) => {
				const filing = asObject(raw);
				return {
					assessmentYear: toText(filing.assessment_year),
					filedOn: toIsoDate(filing.filing_date),
					returnType: toText(filing.return_type),
					status: toStatusText(filing.status),
				};
			}),
			directors: people(result.directors),
		};
	}
	const cin = toUpperText(data.cin);
	return {
		shape: 'reference',
		pan: toUpperText(data.pan),
		name: toText(first(data.entity_name, data.name)),
		entityType: entityTypeOf(data.entity_type),
		status: registryStatus(data.status),
		cin,
		llpin: toUpperText(data.llpin),
		dateOfIncorporation: registryDate(data.date_of_incorporation),
		registeredAddress: toText(data.registered_address),
		state: toText(first(data.state, parseCin(cin).state)),
		companyCategory: null,
		classOfCompany: null,
		authorisedCapital: null,
		paidUpCapital: null,
		profit: null,
		bureauDefaults: null,
		gstFilingDelay: null,
		tdsDefaults: null,
		lastTdsFilingDate: null,
		tdsFilingTimeliness: null,
		gstRegistrations: [],
		itrFilings: [],
		directors: null,
	};
}

/** What a Get Entity by PAN answer must carry: the entity's PAN or name, in either shape. */
export const ENTITY_REQUIRED =
	'data.pan|data.entity_name|data.result.pan|data.result.legal_name|data.result.company.legal_name';
