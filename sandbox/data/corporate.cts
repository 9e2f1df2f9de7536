import {
	addMonths,
	ANCHOR,
	assessmentYears,
	financialYearOf,
	iso,
	pastDate,
	round2,
} from './dates.cjs';
import {
	cin as makeCin,
	din,
	gstin,
	llpin as makeLlpin,
	pan as makePan,
	stateByCode,
	STATES,
	tan,
} from './ids.cjs';
import { address } from './person.cjs';
import { hexOf, seeded, seedOf, type Faker } from './random.cjs';

/**
 * Names handed out by autocomplete, so that a CIN or LLPIN picked from its results looks up to the same
 * entity. Generation stays a pure function of the input; this only remembers which name belongs to which id.
 */
export class NameRegistry {
	private readonly known = new Map<string, Known>();
	private readonly pans = new Map<string, { id: string; kind: 'company' | 'llp' }>();
	remember(id: string, known: Known): void {
		this.known.set(id.toUpperCase(), known);
	}
	lookup(id: string): Known | undefined {
		return this.known.get(id.toUpperCase());
	}
	/** The PAN a CIN/LLPIN lookup handed out, so a PAN lookup of it finds the same entity. */
	rememberPan(pan: string, entity: { id: string; kind: 'company' | 'llp' }): void {
		this.pans.set(pan.toUpperCase(), entity);
	}
	lookupPan(pan: string): { id: string; kind: 'company' | 'llp' } | undefined {
		return this.pans.get(pan.toUpperCase());
	}
}

interface Known {
	name: string;
	stateCode: string;
	/** Set when a PAN lookup introduced the entity first. */
	pan?: string;
}

/** Both values are computed (so the random sequence does not depend on the registry); the known one wins. */
const preferKnown = <T,>(known: T | undefined, generated: T): T => known ?? generated;
/** The registry's fact, even when it is null (unknown); the value drawn only keeps the sequence. */
const registryWins = <T,>(fact: T, _drawn: unknown): T => fact;

/**
 * What the registry knows of one entity whatever lookup asks (CIN, LLPIN, PAN, name search): its status
 * and risk flags, drawn from a seed of its CIN/LLPIN alone, so every answer about it agrees.
 */
export interface RegistryFacts {
	/** null: the registry does not state it (a status-unstated id, below). */
	status: string | null;
	pendingCases: boolean;
	bureauDefaults: boolean;
	gstFilingDelay: boolean;
	epfPaymentDelay: boolean | null;
	tdsDefaults: boolean;
}

/**
 * Magic (sandbox/README.md): a company or LLP whose registry status is unknown, in every lookup and both
 * layouts (the status null): a CIN whose registration number (its last six digits) is `000000`, an LLPIN
 * whose digits are `0000`. A name search whose query contains `nostatus` finds only such entities, so the
 * chain search by name → Get by CIN → Get Entity by PAN reaches one.
 */
export const STATUS_UNSTATED_QUERY = /nostatus/i;
export const statusUnstated = (id: string): boolean =>
	/^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}000000$/i.test(id) || /^[A-Z]{3}-0000$/i.test(id);

/** A CIN or LLPIN turned into its status-unstated twin (the same id, its registration number zeroed). */
const unstatedId = (id: string, kind: 'company' | 'llp'): string =>
	kind === 'company' ? `${id.slice(0, -6)}000000` : `${id.slice(0, -4)}0000`;

export function registryFacts(id: string, kind: 'company' | 'llp'): RegistryFacts {
	// drawn from hashes, not the shared faker: the lookups call this in the middle of their own seeded
	// generation, which a reseed would disturb
	const draw = (fact: string) => seedOf('registry-facts', id.toUpperCase(), fact) / 2 ** 32;
	const epf = [true, false, false, null][Math.floor(draw('epfPaymentDelay') * 4)];
	return {
		status: statusUnstated(id)
			? null
			: draw('status') < 0.1
				? kind === 'llp'
					? 'Defunct'
					: 'Struck Off'
				: 'Active',
		pendingCases: draw('pendingCases') < 0.1,
		bureauDefaults: draw('bureauDefaults') < 0.05,
		gstFilingDelay: draw('gstFilingDelay') < 0.2,
		epfPaymentDelay: epf,
		tdsDefaults: draw('tdsDefaults') < 0.1,
	};
}

const INDUSTRIES = [
	{ word: 'Textiles', group: 'Manufacturing', activity: 'Manufacture of textiles' },
	{
		word: 'Infotech',
		group: 'Information and communication',
		activity: 'Computer programming, consultancy and related activities',
	},
	{ word: 'Agro Foods', group: 'Manufacturing', activity: 'Manufacture of food products' },
	{
		word: 'Logistics',
		group: 'Transportation and storage',
		activity: 'Warehousing and support activities for transportation',
	},
	{
		word: 'Pharma',
		group: 'Manufacturing',
		activity: 'Manufacture of pharmaceuticals, medicinal chemical and botanical products',
	},
	{ word: 'Infra Projects', group: 'Construction', activity: 'Civil engineering' },
	{
		word: 'Retail',
		group: 'Wholesale and retail trade',
		activity: 'Retail trade, except of motor vehicles and motorcycles',
	},
	{
		word: 'Engineering Works',
		group: 'Manufacturing',
		activity: 'Manufacture of fabricated metal products',
	},
];

const SUFFIX: Record<string, string> = {
	PTC: 'Private Limited',
	PLC: 'Limited',
	OPC: '(OPC) Private Limited',
	LLP: 'LLP',
};

/** The core of a registered entity, derived from its CIN/LLPIN (state, year and class are read from a CIN). */
interface Entity {
	id: string;
	kind: 'company' | 'llp';
	name: string;
	klass: string;
	listed: boolean;
	status: string | null;
	incorporated: string;
	state: (typeof STATES)[number];
	address: string;
	email: string;
	phone: string;
	pan: string;
	industry: (typeof INDUSTRIES)[number];
	authorisedCapital: number;
	paidUpCapital: number;
	revenue: number;
}

function entity(f: Faker, id: string, kind: 'company' | 'llp', known?: Known): Entity {
	const fromCin =
		kind === 'company' ? /^([LU])\d{5}([A-Z]{2})(\d{4})([A-Z]{3})\d{6}$/.exec(id) : null;
	const state =
		stateByCode(known?.stateCode ?? fromCin?.[2] ?? '') ?? f.helpers.arrayElement(STATES);
	const year = fromCin ? Number(fromCin[3]) : f.number.int({ min: 2009, max: 2022 });
	const klass = kind === 'llp' ? 'LLP' : fromCin && SUFFIX[fromCin[4]] ? fromCin[4] : 'PTC';
	const industry = f.helpers.arrayElement(INDUSTRIES);
	const name = known?.name ?? `${f.person.lastName()} ${industry.word} ${SUFFIX[klass]}`;
	const addr = address(f);
	const authorised = f.number.int({ min: 1, max: 500 }) * 100_000;
	const domain = name
		.toLowerCase()
		.replace(/[^a-z]+/g, '')
		.slice(0, 16);
	return {
		id,
		kind,
		name: name.toUpperCase(),
		klass,
		listed: fromCin?.[1] === 'L',
		// drawn as before (so the rest of the record keeps its values), the registry's own facts win
		status: registryWins(
			registryFacts(id, kind).status,
			f.helpers.weightedArrayElement([
				{ weight: 9, value: 'Active' },
				{ weight: 1, value: kind === 'llp' ? 'Defunct' : 'Struck Off' },
			]),
		),
		incorporated: iso(
			f.date.between({
				from: new Date(Date.UTC(Math.min(year, 2024), 0, 1)),
				to: new Date(Date.UTC(Math.min(year, 2024), 11, 31)),
			}),
		),
		state,
		address: `${addr.line1}, ${addr.city}, ${state.name} - ${addr.pinCode}`,
		email: `accounts@${domain || 'company'}.in`,
		phone: `+91${f.helpers.arrayElement(['9', '8'])}${f.string.numeric(9)}`,
		pan: preferKnown(known?.pan, makePan(f, kind === 'llp' ? 'F' : 'C', name)),
		industry,
		authorisedCapital: authorised,
		paidUpCapital: Math.round((authorised * f.number.float({ min: 0.3, max: 1 })) / 1000) * 1000,
		revenue: f.number.int({ min: 20, max: 5000 }) * 1_000_000,
	};
}

/** An entity looked up by CIN/LLPIN; its PAN is remembered so a PAN lookup leads back to it. */
function registeredEntity(
	f: Faker,
	id: string,
	kind: 'company' | 'llp',
	registry: NameRegistry,
): Entity {
	const e = entity(f, id, kind, registry.lookup(id));
	registry.rememberPan(e.pan, { id, kind });
	return e;
}

// ---------------------------------------------------------------- reference shapes

export function companyReference(cin: string, registry: NameRegistry) {
	const e = seeded(['cin', cin], (f) => registeredEntity(f, cin, 'company', registry));
	return {
		success: true,
		message: 'Company details fetched successfully',
		data: {
			cin,
			company_name: e.name,
			status: e.status,
			company_type:
				e.klass === 'PLC'
					? 'Public Limited Company'
					: e.klass === 'OPC'
						? 'One Person Company'
						: 'Private Limited Company',
			date_of_incorporation: e.incorporated,
			registered_address: e.address,
			state: e.state.name,
			roc_code: e.state.roc,
			authorised_capital: e.authorisedCapital,
			paid_up_capital: e.paidUpCapital,
			email: e.email,
			pan: e.pan,
		},
	};
}

export function llpReference(llpin: string, registry: NameRegistry) {
	const e = seeded(['llpin', llpin], (f) => registeredEntity(f, llpin, 'llp', registry));
	return {
		success: true,
		message: 'LLP details fetched successfully',
		data: {
			llpin,
			llp_name: e.name,
			status: e.status,
			date_of_incorporation: e.incorporated,
			registered_address: e.address,
			state: e.state.name,
			roc_code: e.state.roc,
			total_obligation_of_contribution: e.paidUpCapital,
			email: e.email,
			pan: e.pan,
		},
	};
}

// ---------------------------------------------------------------- sample shapes

export function companySample(cin: string, registry: NameRegistry, pdfUrl: string) {
	return seeded(['cin', cin], (f) => {
		const e = registeredEntity(f, cin, 'company', registry);
		return {
			success: true,
			status_code: 200,
			message: 'Success',
			data: {
				doc_id: `doc_${hexOf(20, 'cin', cin)}`,
				cin,
				pdf_url: pdfUrl,
				result: {
					client_id: clientId('corporate', cin),
					company: companyBlock(f, e),
					...commonGroups(f, e),
				},
			},
		};
	});
}

export function llpSample(llpin: string, registry: NameRegistry) {
	return seeded(['llpin', llpin], (f) => {
		const e = registeredEntity(f, llpin, 'llp', registry);
		const { cin: _cin, ...company } = companyBlock(f, e);
		return {
			success: true,
			status_code: 200,
			message: 'Success',
			data: {
				doc_id: `doc_${hexOf(20, 'llpin', llpin)}`,
				llpin,
				result: {
					client_id: clientId('corporate', llpin),
					company: { ...company, llpin, authorised_capital: null, paid_up_capital: null },
					...commonGroups(f, e),
					...llpExtras(f, e),
				},
			},
		};
	});
}

const clientId = (area: string, id: string) => `${area}_${hexOf(20, area, id)}`;

function companyBlock(f: Faker, e: Entity) {
	return {
		legal_name: e.name,
		cin: e.id,
		registration_number: e.id.slice(-6),
		date_of_incorporation: e.incorporated,
		company_category: 'Company limited by shares',
		company_sub_category: 'Non-govt company',
		class_of_company: e.kind === 'llp' ? 'LLP' : e.klass === 'PLC' ? 'Public' : 'Private',
		registered_office_address: e.address,
		email: e.email,
		authorised_capital: e.authorisedCapital as number | null,
		paid_up_capital: e.paidUpCapital as number | null,
		number_of_members: e.kind === 'llp' ? null : f.number.int({ min: 2, max: 40 }),
		activity: e.industry.activity,
	};
}

/** The risk flags of the key indicators: the entity's registry facts (the draws kept for the sequence). */
function riskIndicators(f: Faker, e: Entity) {
	const facts = registryFacts(e.id, e.kind);
	// drawn as before, so the values after them stay as they were
	f.datatype.boolean(0.1);
	f.datatype.boolean(0.05);
	f.datatype.boolean(0.2);
	f.helpers.arrayElement([true, false, false, null]);
	return {
		pending_cases_filed_against_this_corporate: facts.pendingCases,
		bureau_defaults: facts.bureauDefaults,
		gst_filing_delay: facts.gstFilingDelay,
		epf_payment_delay: facts.epfPaymentDelay,
	};
}

function commonGroups(f: Faker, e: Entity) {
	const signatories = Array.from({ length: f.number.int({ min: 2, max: 4 }) }, (_, i) => ({
		name: f.person.fullName().toUpperCase(),
		designation:
			e.kind === 'llp' ? 'Designated Partner' : i === 0 ? 'Managing Director' : 'Director',
		din: din(f),
		date_of_appointment_for_current_designation: iso(
			f.date.between({ from: new Date(`${e.incorporated}T00:00:00Z`), to: ANCHOR }),
		),
		date_of_cessation: null as string | null,
	}));
	const years = financialYears(f, e);
	const latest = years[0];
	const holding = (n: number) => ({
		company: Array.from({ length: n }, () => ({
			legal_name: `${f.person.lastName().toUpperCase()} HOLDINGS PRIVATE LIMITED`,
			cin: makeCin(f),
			share_holding_percentage: round2(f.number.float({ min: 51, max: 100 })),
		})),
		llp: [] as unknown[],
		others: [] as unknown[],
	});
	const totalShares = Math.round(e.paidUpCapital / 10);
	const promoterPct = round2(f.number.float({ min: 55, max: 100 }));
	const fy = assessmentYears(3).map(financialYearOf);
	return {
		description: {
			desc_thousand_char: `${titleCase(e.name)} is a ${e.kind === 'llp' ? 'limited liability partnership' : 'company'} incorporated on ${e.incorporated} and registered with ${e.state.roc}. It is engaged in ${e.industry.activity.toLowerCase()} and has its registered office in ${e.state.name}.`,
			summary: `${titleCase(e.name)}: ${e.industry.group.toLowerCase()}, ${e.state.name}, incorporated ${e.incorporated.slice(0, 4)}.`,
		},
		contact_details: { email: [{ emailId: e.email }], phone: [{ phoneNumber: e.phone }] },
		principal_business_activities: [
			{
				main_activity_group_description: e.industry.group,
				business_activity_description: e.industry.activity,
				percentage_of_turnover: 100,
			},
		],
		filing_dates: {
			annual_return_date: iso(addMonths(ANCHOR, -6)),
			balance_sheet_date: iso(addMonths(ANCHOR, -12)),
			last_agm_date: iso(addMonths(ANCHOR, -6)),
		},
		key_indicators: {
			revenue: latest.pnl.lineItems.net_revenue,
			profit: latest.pnl.lineItems.profit_after_tax,
			employee_count: f.number.int({ min: 5, max: 900 }),
			...riskIndicators(f, e),
		},
		service_financial_score: {
			overall_financial_score: round2(f.number.float({ min: 3, max: 9 })),
			growth_score: round2(f.number.float({ min: 1, max: 10 })),
			profitability_score: round2(f.number.float({ min: 1, max: 10 })),
			liquidity_score: round2(f.number.float({ min: 1, max: 10 })),
			solvency_score: round2(f.number.float({ min: 1, max: 10 })),
			efficiency_score: round2(f.number.float({ min: 1, max: 10 })),
		},
		financials: years,
		holding_entities: holding(f.number.int({ min: 0, max: 1 })),
		subsidiary_entities: holding(f.number.int({ min: 0, max: 2 })),
		associate_entities: null,
		joint_ventures: null,
		authorized_signatories: signatories,
		director_network: signatories.map((s) => ({
			name: s.name,
			network: {
				companies: Array.from({ length: f.number.int({ min: 0, max: 3 }) }, () => ({
					legal_name: `${f.person.lastName().toUpperCase()} ${f.helpers.arrayElement(INDUSTRIES).word.toUpperCase()} PRIVATE LIMITED`,
					cin: makeCin(f),
					designation: 'Director',
				})),
				llps: Array.from({ length: f.number.int({ min: 0, max: 1 }) }, () => ({
					legal_name: `${f.person.lastName().toUpperCase()} ASSOCIATES LLP`,
					llpin: makeLlpin(f),
					designation: 'Designated Partner',
				})),
			},
		})),
		shareholdings: fy.flatMap((year) =>
			[
				{ category: 'Promoter', pct: promoterPct },
				{ category: 'Public', pct: round2(100 - promoterPct) },
			].map(({ category, pct }) => ({
				financial_year: year,
				shareholders:
					category === 'Promoter' ? 'Promoters and promoter group' : 'Public shareholders',
				category,
				indian_held_no_of_shares: Math.round((totalShares * pct) / 100),
				indian_held_percentage_of_shares: pct,
				nri_held_no_of_shares: 0,
				nri_held_percentage_of_shares: 0,
				foreign_held_other_than_nri_no_of_shares: 0,
				foreign_held_other_than_nri_percentage_of_shares: 0,
			})),
		),
		shareholdings_summary: fy.map((year) => ({
			financial_year: year,
			total_equity_shares: totalShares,
			total_preference_shares: 0,
			promoter: promoterPct,
			public: round2(100 - promoterPct),
		})),
	};
}

function llpExtras(f: Faker, e: Entity) {
	const gstStatus = f.helpers.arrayElement(['Active', 'Active', 'Cancelled']);
	return {
		shareholdings_more_than_five_percent: [] as unknown[],
		director_shareholdings: [] as unknown[],
		securities_allotment: [] as unknown[],
		credit_ratings: f.datatype.boolean(0.3)
			? [
					{
						rating_agency: f.helpers.arrayElement(['CRISIL', 'ICRA', 'CARE', 'India Ratings']),
						rating: f.helpers.arrayElement(['BBB', 'BBB+', 'A-', 'BB+']),
						rating_date: iso(addMonths(ANCHOR, -8)),
						instrument: 'Long-term bank facilities',
					},
				]
			: [],
		gst_details: [
			{
				gstin: gstin(e.state.gst, e.pan),
				state: e.state.name,
				status: gstStatus,
				taxpayer_type: 'Regular',
				filing_timeliness: f.helpers.arrayElement(['Regular', 'Delayed']),
			},
		],
		open_charges: f.datatype.boolean(0.5)
			? [
					{
						charge_holder: f.helpers.arrayElement(['State Bank of India', 'HDFC Bank']),
						amount: f.number.int({ min: 10, max: 200 }) * 100_000,
						date_of_creation: iso(pastDate(f, 1, 6)),
						status: 'Open',
					},
				]
			: [],
		legal_history: [] as unknown[],
		legal_cases_of_financial_disputes: {
			total_cases: 0,
			cases_as_petitioner: 0,
			cases_as_respondent: 0,
			cases: [] as unknown[],
		},
		msme_supplier_payment_delays: {
			trend: assessmentYears(2).map((ay) => ({
				period: financialYearOf(ay),
				amount_due: f.number.int({ min: 0, max: 20 }) * 10_000,
				number_of_suppliers: f.number.int({ min: 0, max: 5 }),
			})),
			delays_for_period: {
				period: financialYearOf(assessmentYears(1)[0]),
				amount_due: 0,
				average_delay_days: f.number.int({ min: 0, max: 45 }),
			},
		},
		industry_segments: [{ industry: e.industry.group, segments: [e.industry.activity] }],
		establishments_registered_with_epfo: f.datatype.boolean(0.6)
			? [
					{
						establishment_id: `${e.state.code}${f.string.alpha({ length: 3, casing: 'upper' })}${f.string.numeric(7)}000`,
						establishment_name: e.name,
						city: e.address.split(', ').at(-2) ?? '',
						latest_wage_month: iso(addMonths(ANCHOR, -1)).slice(0, 7),
						latest_employee_count: f.number.int({ min: 3, max: 200 }),
					},
				]
			: [],
		struckoff248_details: null,
	};
}

/** Three years of internally consistent statements, newest first. */
function financialYears(f: Faker, e: Entity) {
	let revenue = e.revenue;
	return [0, 1, 2].map((back) => {
		const previous = Math.round(revenue / f.number.float({ min: 1.02, max: 1.25 }));
		const y = statements(f, revenue, previous);
		const entry = { nature: 'STANDALONE', year: `${ANCHOR.getUTCFullYear() - back}-03-31`, ...y };
		revenue = previous;
		return entry;
	});
}

function statements(f: Faker, revenue: number, previousRevenue: number) {
	const share = (min: number, max: number) => Math.round(revenue * f.number.float({ min, max }));
	const pnl = {
		net_revenue: revenue,
		total_cost_of_materials_consumed: share(0.3, 0.45),
		total_purchases_of_stock_in_trade: share(0.02, 0.08),
		total_changes_in_inventories_or_finished_goods: share(-0.01, 0.01),
		total_employee_benefit_expense: share(0.08, 0.15),
		total_other_expenses: share(0.08, 0.14),
		operating_profit: 0,
		other_income: share(0.002, 0.01),
		depreciation: share(0.01, 0.03),
		interest: share(0.005, 0.02),
		profit_before_tax: 0,
		income_tax: 0,
		profit_after_tax: 0,
	};
	pnl.operating_profit =
		revenue -
		pnl.total_cost_of_materials_consumed -
		pnl.total_purchases_of_stock_in_trade -
		pnl.total_changes_in_inventories_or_finished_goods -
		pnl.total_employee_benefit_expense -
		pnl.total_other_expenses;
	pnl.profit_before_tax = pnl.operating_profit + pnl.other_income - pnl.depreciation - pnl.interest;
	pnl.income_tax = Math.max(0, Math.round(pnl.profit_before_tax * 0.25));
	pnl.profit_after_tax = pnl.profit_before_tax - pnl.income_tax;

	const assets = {
		tangible_assets: share(0.15, 0.3),
		intangible_assets: share(0, 0.02),
		tangible_assets_capital_work_in_progress: share(0, 0.03),
		noncurrent_investments: share(0, 0.05),
		deferred_tax_assets_net: share(0, 0.005),
		long_term_loans_and_advances: share(0, 0.03),
		current_investments: share(0, 0.03),
		inventories: share(0.05, 0.15),
		trade_receivables: share(0.08, 0.2),
		cash_and_bank_balances: share(0.02, 0.08),
		short_term_loans_and_advances: share(0, 0.03),
		other_current_assets: share(0, 0.02),
		other_noncurrent_assets: share(0, 0.02),
		given_assets_total: 0,
	};
	assets.given_assets_total = sum(assets) - assets.given_assets_total;
	const liabilities = {
		share_capital: share(0.02, 0.05),
		reserves_and_surplus: 0,
		long_term_borrowings: share(0.05, 0.15),
		deferred_tax_liabilities_net: share(0, 0.005),
		other_long_term_liabilities: share(0, 0.02),
		long_term_provisions: share(0, 0.01),
		short_term_borrowings: share(0.03, 0.1),
		trade_payables: share(0.05, 0.12),
		other_current_liabilities: share(0.01, 0.04),
		short_term_provisions: share(0, 0.01),
		given_liabilities_total: assets.given_assets_total,
	};
	liabilities.reserves_and_surplus =
		assets.given_assets_total - (sum(liabilities) - liabilities.given_liabilities_total);
	const equity = liabilities.share_capital + liabilities.reserves_and_surplus;
	const debt = liabilities.long_term_borrowings + liabilities.short_term_borrowings;
	const netFixed = assets.tangible_assets + assets.intangible_assets;
	const currentAssets =
		assets.current_investments +
		assets.inventories +
		assets.trade_receivables +
		assets.cash_and_bank_balances +
		assets.short_term_loans_and_advances +
		assets.other_current_assets;
	const currentLiabilities =
		liabilities.short_term_borrowings +
		liabilities.trade_payables +
		liabilities.other_current_liabilities +
		liabilities.short_term_provisions;
	const ratio = (a: number, b: number) => (b === 0 ? 0 : round2(a / b));
	const days = (a: number) => Math.round((a / revenue) * 365);
	const operating = Math.round(pnl.profit_after_tax + pnl.depreciation - share(0, 0.03));
	const investing = -share(0.01, 0.05);
	const financing = -share(-0.02, 0.03);
	return {
		pnl: { lineItems: pnl },
		bs: {
			assets,
			liabilities,
			subTotals: { total_equity: equity, total_debt: debt, net_fixed_assets: netFixed },
		},
		cash_flow: {
			cash_flows_from_used_in_operating_activities: operating,
			cash_flows_from_used_in_investing_activities: investing,
			cash_flows_from_used_in_financing_activities: financing,
			incr_decr_in_cash_cash_equv: operating + investing + financing,
			cash_flow_statement_at_end_of_period: assets.cash_and_bank_balances,
		},
		ratios: {
			revenue_growth: ratio(revenue - previousRevenue, previousRevenue),
			gross_profit_margin: ratio(
				revenue - pnl.total_cost_of_materials_consumed - pnl.total_purchases_of_stock_in_trade,
				revenue,
			),
			net_margin: ratio(pnl.profit_after_tax, revenue),
			ebitda_margin: ratio(pnl.operating_profit, revenue),
			return_on_equity: ratio(pnl.profit_after_tax, equity),
			return_on_capital_employed: ratio(pnl.profit_before_tax + pnl.interest, equity + debt),
			debt_by_equity: ratio(debt, equity),
			debt_ratio: ratio(debt, assets.given_assets_total),
			current_ratio: ratio(currentAssets, currentLiabilities),
			quick_ratio: ratio(currentAssets - assets.inventories, currentLiabilities),
			interest_coverage_ratio: ratio(pnl.operating_profit, pnl.interest),
			inventory_by_sales_days: days(assets.inventories),
			debtors_by_sales_days: days(assets.trade_receivables),
			payables_by_sales_days: days(liabilities.trade_payables),
			cash_conversion_cycle:
				days(assets.inventories) +
				days(assets.trade_receivables) -
				days(liabilities.trade_payables),
			sales_by_net_fixed_assets: ratio(revenue, netFixed),
		},
		auditor: {
			auditor_firm_name: `${f.person.lastName().toUpperCase()} & ASSOCIATES`,
			auditor_name: f.person.fullName().toUpperCase(),
			firm_registration_number: `${f.string.numeric(6)}${f.helpers.arrayElement(['W', 'S', 'N', 'E', 'C'])}`,
		},
	};
}

const sum = (o: Record<string, number>) => Object.values(o).reduce((s, v) => s + v, 0);
const titleCase = (s: string) =>
	s
		.toLowerCase()
		.replace(/\b([a-z])/g, (c) => c.toUpperCase())
		.replace(/\bLlp\b/, 'LLP');

// ---------------------------------------------------------------- PAN entity

type EntityType = 'Company' | 'LLP' | 'Trust' | 'Firm';

function panEntityType(pan: string, f: Faker): EntityType {
	switch (pan[3]) {
		case 'C':
			return 'Company';
		case 'T':
			return 'Trust';
		case 'F':
			return f.datatype.boolean() ? 'LLP' : 'Firm';
		default:
			return 'Firm';
	}
}

type PanEntityType = ReturnType<typeof panEntityType>;

function panEntity(pan: string, registry: NameRegistry) {
	const linked = registry.lookupPan(pan);
	if (linked) {
		// a PAN some CIN/LLPIN lookup handed out: the same entity, built from the same seed
		const e = seeded([linked.kind === 'company' ? 'cin' : 'llpin', linked.id], (f) =>
			entity(f, linked.id, linked.kind, registry.lookup(linked.id)),
		);
		const type: PanEntityType = linked.kind === 'company' ? 'Company' : 'LLP';
		return {
			type,
			e,
			cin: linked.kind === 'company' ? linked.id : null,
			llpin: linked.kind === 'llp' ? linked.id : null,
		};
	}
	const derived = seeded(['pan-entity', pan], (f) => {
		const type = panEntityType(pan, f);
		const id = type === 'Company' ? makeCin(f) : makeLlpin(f);
		const e = entity(f, id, type === 'Company' ? 'company' : 'llp');
		const name =
			type === 'Trust'
				? `${f.person.lastName().toUpperCase()} CHARITABLE TRUST`
				: type === 'Firm'
					? `M/S ${f.person.lastName().toUpperCase()} TRADERS`
					: e.name;
		return {
			type,
			e: { ...e, pan, name },
			cin: type === 'Company' ? id : null,
			llpin: type === 'LLP' ? id : null,
		};
	});
	// the other direction: a CIN/LLPIN first seen here looks up to the same name and PAN, and the PAN
	// lookup answers with the record that lookup gives (date, address, capital…)
	const id = derived.cin ?? derived.llpin;
	if (!id) return derived;
	const kind = derived.cin ? 'company' : 'llp';
	registry.remember(id, { name: derived.e.name, stateCode: derived.e.state.code, pan });
	registry.rememberPan(pan, { id, kind });
	const e = seeded([kind === 'company' ? 'cin' : 'llpin', id], (f) =>
		entity(f, id, kind, registry.lookup(id)),
	);
	return { ...derived, e };
}

/** The entity's id (CIN or LLPIN, also a trust's or firm's internal one) behind a PAN. */
function panEntityId(entity: ReturnType<typeof panEntity>): string {
	return entity.cin ?? entity.llpin ?? entity.e.id;
}

/**
 * The directors of a company or the designated partners of an LLP: the signatories its CIN/LLPIN
 * lookup lists (name, designation, DIN); other holders (a trust's trustees, a firm's partners) are
 * drawn here.
 */
function panDirectors(f: Faker, found: ReturnType<typeof panEntity>, registry: NameRegistry) {
	const drawn = Array.from({ length: f.number.int({ min: 1, max: 3 }) }, () => ({
		name: f.person.fullName().toUpperCase(),
		designation:
			found.type === 'LLP'
				? 'Designated Partner'
				: found.type === 'Company'
					? 'Director'
					: found.type === 'Trust'
						? 'Trustee'
						: 'Partner',
		din: din(f),
	}));
	const signatories = found.cin
		? companySample(found.cin, registry, '').data.result.authorized_signatories
		: found.llpin
			? llpSample(found.llpin, registry).data.result.authorized_signatories
			: null;
	if (!signatories) return drawn;
	return signatories
		.filter((s) => s.date_of_cessation === null)
		.map((s) => ({ name: s.name, designation: s.designation, din: s.din }));
}

export function panReference(pan: string, registry: NameRegistry) {
	const { type, e, cin, llpin } = panEntity(pan, registry);
	return {
		success: true,
		message: 'Entity details fetched successfully',
		data: {
			pan,
			entity_name: e.name,
			entity_type: type,
			status: e.status,
			cin,
			llpin,
			date_of_incorporation: e.incorporated,
			registered_address: e.address,
			state: e.state.name,
		},
	};
}

export function panSample(pan: string, registry: NameRegistry) {
	return seeded(['pan-entity-sample', pan], (f) => {
		const found = panEntity(pan, registry);
		const { type, e, cin } = found;
		const facts = registryFacts(panEntityId(found), found.llpin ? 'llp' : 'company');
		const gst = (n: number) => ({
			gstin: gstin(e.state.gst, pan, n),
			state: e.state.name,
			status: 'Active',
			taxpayer_type: 'Regular',
			filing_timeliness: f.helpers.arrayElement(['Regular', 'Delayed']),
			date_of_registration: iso(pastDate(f, 1, 7)),
		});
		return {
			success: true,
			status_code: 200,
			message: 'Success',
			data: {
				doc_id: `doc_${hexOf(20, 'pan', pan)}`,
				pan,
				result: {
					client_id: clientId('corporate', pan),
					pan,
					entity_type: type,
					legal_name: e.name,
					cin,
					date_of_registration: e.incorporated,
					registered_address: e.address,
					status: e.status,
					company:
						type === 'Company'
							? {
									legal_name: e.name,
									cin,
									company_category: 'Company limited by shares',
									class_of_company: e.klass === 'PLC' ? 'Public' : 'Private',
									registered_office_address: e.address,
									date_of_incorporation: e.incorporated,
									authorised_capital: e.authorisedCapital,
									paid_up_capital: e.paidUpCapital,
								}
							: null,
					gst_details: Array.from({ length: f.number.int({ min: 1, max: 2 }) }, (_, i) =>
						gst(i + 1),
					),
					itr_filing_history: assessmentYears(3).map((ay, i) => ({
						assessment_year: ay,
						filing_date: `${Number(ay.slice(0, 4))}-${type === 'Company' ? '10' : '07'}-${String(10 + i * 5).padStart(2, '0')}`,
						return_type: type === 'Company' ? 'ITR-6' : type === 'Trust' ? 'ITR-7' : 'ITR-5',
						status: 'Filed',
					})),
					tds_tcs_compliance: {
						tds_defaults: preferKnown(facts.tdsDefaults, f.datatype.boolean(0.1)),
						last_tds_filing_date: iso(addMonths(ANCHOR, -1)),
						filing_timeliness: f.helpers.arrayElement(['Regular', 'Delayed']),
						tan: tan(f),
					},
					key_indicators: {
						profit: Math.round(e.revenue * f.number.float({ min: -0.02, max: 0.12 })),
						bureau_defaults: preferKnown(facts.bureauDefaults, f.datatype.boolean(0.05)),
						gst_filing_delay: preferKnown(facts.gstFilingDelay, f.datatype.boolean(0.2)),
					},
					directors: panDirectors(f, found, registry),
				},
			},
		};
	});
}

// ---------------------------------------------------------------- autocomplete

export interface Match {
	name: string;
	kind: 'company' | 'llp';
	id: string;
	status: string | null;
	state: string;
	stateCode: string;
}

/** 3-4 companies and 1-2 LLPs whose names contain the query; their ids are remembered for the lookups. */
export function autocomplete(query: string, registry: NameRegistry): Match[] {
	const q = query.trim().toUpperCase();
	const matches = seeded(['autocomplete', q], (f) => {
		const companies = f.number.int({ min: 3, max: 4 });
		const llps = f.number.int({ min: 1, max: 2 });
		return Array.from({ length: companies + llps }, (_, i): Match => {
			const kind = i < companies ? 'company' : 'llp';
			const industry = f.helpers.arrayElement(INDUSTRIES).word.toUpperCase();
			const klass = f.helpers.arrayElement(['PTC', 'PTC', 'PLC']);
			const core = f.datatype.boolean()
				? `${q} ${industry}`
				: `${f.person.lastName().toUpperCase()} ${q} ${industry}`;
			const state = f.helpers.arrayElement(STATES);
			const drawn =
				kind === 'company'
					? makeCin(f, {
							state: state.code,
							klass,
							listed: klass === 'PLC' && f.datatype.boolean(),
						})
					: makeLlpin(f);
			const id = STATUS_UNSTATED_QUERY.test(q) ? unstatedId(drawn, kind) : drawn;
			return {
				name: `${core} ${(kind === 'llp' ? SUFFIX.LLP : SUFFIX[klass]).toUpperCase()}`,
				kind,
				id,
				// the status its CIN/LLPIN lookup gives
				status: registryFacts(id, kind).status,
				state: state.name,
				stateCode: state.code,
			};
		});
	});
	for (const m of matches) registry.remember(m.id, { name: m.name, stateCode: m.stateCode });
	return matches;
}
