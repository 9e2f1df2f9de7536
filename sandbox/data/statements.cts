import { addDays, addMonths, ANCHOR, ddmmyy, ddmmyyyy, iso, round2 } from './dates.cjs';
import { BANKS, digits, ifsc as makeIfsc, mask } from './ids.cjs';
import { person, type Person } from './person.cjs';
import { hexOf, seeded, type Faker } from './random.cjs';

export const MODES = ['UPI', 'NEFT', 'IMPS', 'RTGS', 'ATM', 'NACH', 'Cheque'] as const;
export type Mode = (typeof MODES)[number];
type Category =
	| 'salary'
	| 'emi'
	| 'bounce'
	| 'bounce_charge'
	| 'cash'
	| 'rent'
	| 'spend'
	| 'transfer'
	| 'interest';

export interface Txn {
	date: string;
	description: string;
	type: 'CREDIT' | 'DEBIT';
	amount: number;
	balance: number;
	mode: Mode;
	reference: string;
	category: Category;
}

export interface BankAccount {
	index: number;
	bankName: string;
	accountNumber: string;
	masked: string;
	ifsc: string;
	micr: string;
	accountType: 'SAVINGS' | 'CURRENT';
	branch: string;
	holder: Person;
	customerId: string;
	from: string;
	to: string;
	opening: number;
	closing: number;
	employer: string;
	lender: string;
	transactions: Txn[];
}

export const STATEMENT_MONTHS = 3;

/** The bank accounts an account-aggregator journey fetches for a mobile number (1 or 2 accounts). */
export function bankAccounts(mobile: string): BankAccount[] {
	return seeded(['aa-accounts', mobile], (f) => {
		const holder = person(f, { mobile });
		const count = f.number.int({ min: 1, max: 2 });
		return Array.from({ length: count }, (_, i) => bankAccount(f, holder, i, i === 0));
	});
}

function bankAccount(f: Faker, holder: Person, index: number, primary: boolean): BankAccount {
	const bank = f.helpers.arrayElement(BANKS);
	const accountNumber = digits(f, 14);
	const to = ANCHOR;
	const from = addDays(addMonths(to, -STATEMENT_MONTHS), 1);
	const employer = `${f.person.lastName().toUpperCase()} TECHNOLOGIES PVT LTD`;
	const lender = f.helpers.arrayElement([
		'BAJAJ FINANCE',
		'HDFC BANK',
		'TATA CAPITAL',
		'ICICI BANK',
	]);
	const salary = primary ? f.number.int({ min: 35, max: 180 }) * 1000 : 0;
	const opening = f.number.int({ min: 15, max: 200 }) * 1000 + f.number.int({ min: 0, max: 99 });
	const raw = primary
		? primaryTransactions(f, from, salary, employer, lender)
		: secondaryTransactions(f, from);
	raw.sort((a, b) => a.date.localeCompare(b.date));
	let balance = opening;
	const transactions = raw.map((t) => {
		balance = round2(balance + (t.type === 'CREDIT' ? t.amount : -t.amount));
		return { ...t, balance };
	});
	return {
		index,
		bankName: bank.name,
		accountNumber,
		masked: mask(accountNumber),
		ifsc: makeIfsc(f, bank.code),
		micr: digits(f, 9),
		accountType: primary ? 'SAVINGS' : f.helpers.arrayElement(['SAVINGS', 'CURRENT'] as const),
		branch: `${holder.address.city.toUpperCase()} MAIN`,
		holder,
		customerId: digits(f, 9),
		from: iso(from),
		to: iso(to),
		opening,
		closing: balance,
		employer,
		lender,
		transactions,
	};
}

type RawTxn = Omit<Txn, 'balance'>;

function txn(
	f: Faker,
	date: Date,
	type: Txn['type'],
	amount: number,
	mode: Mode,
	description: string,
	category: Category,
): RawTxn {
	const reference =
		mode === 'Cheque' ? digits(f, 6) : mode === 'ATM' ? digits(f, 6) : digits(f, 12);
	return { date: iso(date), description, type, amount: round2(amount), mode, reference, category };
}

function primaryTransactions(
	f: Faker,
	from: Date,
	salary: number,
	employer: string,
	lender: string,
): RawTxn[] {
	const out: RawTxn[] = [];
	const emi = Math.round(salary * f.number.float({ min: 0.1, max: 0.35 }));
	const bounceMonth = f.datatype.boolean(0.25)
		? f.number.int({ min: 0, max: STATEMENT_MONTHS - 1 })
		: -1;
	const rent = Math.round((salary * 0.2) / 500) * 500;
	for (let m = 0; m < STATEMENT_MONTHS; m++) {
		const monthStart = addMonths(from, m);
		const day = (d: number) => addDays(monthStart, d);
		out.push(
			txn(
				f,
				day(0),
				'CREDIT',
				salary,
				'NEFT',
				`NEFT/SALARY/${employer}/${monthStart.toISOString().slice(0, 7)}`,
				'salary',
			),
		);
		out.push(txn(f, day(4), 'DEBIT', emi, 'NACH', `ACH D- ${lender}-EMI ${digits(f, 8)}`, 'emi'));
		if (m === bounceMonth) {
			out.push(
				txn(f, day(5), 'CREDIT', emi, 'NACH', `ACH RTN/${lender}/INSUFFICIENT FUNDS`, 'bounce'),
			);
			out.push(
				txn(f, day(5), 'DEBIT', 590, 'NACH', 'ACH RETURN CHARGES INCL GST', 'bounce_charge'),
			);
		}
		out.push(
			txn(
				f,
				day(2),
				'DEBIT',
				rent,
				'IMPS',
				`IMPS/P2A/${digits(f, 12)}/${f.person.lastName().toUpperCase()}/RENT`,
				'rent',
			),
		);
		out.push(
			txn(
				f,
				day(f.number.int({ min: 8, max: 26 })),
				'DEBIT',
				f.number.int({ min: 2, max: 10 }) * 1000,
				'ATM',
				`ATM WDL/${f.location.city().toUpperCase()}/${digits(f, 6)}`,
				'cash',
			),
		);
		const spends = f.number.int({ min: 5, max: 9 });
		for (let i = 0; i < spends; i++) {
			const merchant = f.helpers.arrayElement([
				'SWIGGY',
				'ZOMATO',
				'AMAZON',
				'FLIPKART',
				'BIGBASKET',
				'BHARAT PETROLEUM',
				'JIO RECHARGE',
				'MAKEMYTRIP',
				'APOLLO PHARMACY',
				'DMART',
			]);
			out.push(
				txn(
					f,
					day(f.number.int({ min: 1, max: 27 })),
					'DEBIT',
					f.number.int({ min: 80, max: 4500 }),
					'UPI',
					`UPI/${digits(f, 12)}/${merchant}/${merchant.toLowerCase().replace(/\s+/g, '')}@ybl`,
					'spend',
				),
			);
		}
		if (f.datatype.boolean(0.5)) {
			out.push(
				txn(
					f,
					day(f.number.int({ min: 10, max: 25 })),
					'CREDIT',
					f.number.int({ min: 5, max: 60 }) * 100,
					'UPI',
					`UPI/${digits(f, 12)}/${f.person.fullName().toUpperCase()}/REFUND`,
					'transfer',
				),
			);
		}
		if (m === 1)
			out.push(
				txn(
					f,
					day(12),
					'DEBIT',
					f.number.int({ min: 5, max: 40 }) * 1000,
					'Cheque',
					`CHQ PAID-${digits(f, 6)}-${f.person.lastName().toUpperCase()} ENTERPRISES`,
					'spend',
				),
			);
	}
	out.push(
		txn(
			f,
			addDays(from, STATEMENT_MONTHS * 30 - 3),
			'CREDIT',
			f.number.int({ min: 50, max: 900 }),
			'NEFT',
			'CREDIT INTEREST CAPITALISED',
			'interest',
		),
	);
	return out;
}

function secondaryTransactions(f: Faker, from: Date): RawTxn[] {
	return Array.from({ length: f.number.int({ min: 6, max: 12 }) }, () => {
		const credit = f.datatype.boolean(0.4);
		const mode = f.helpers.arrayElement(['IMPS', 'NEFT', 'UPI', 'RTGS'] as const);
		const amount =
			mode === 'RTGS'
				? f.number.int({ min: 200, max: 500 }) * 1000
				: f.number.int({ min: 500, max: 20_000 });
		const who = f.person.fullName().toUpperCase();
		return txn(
			f,
			addDays(from, f.number.int({ min: 0, max: STATEMENT_MONTHS * 30 - 2 })),
			credit ? 'CREDIT' : 'DEBIT',
			amount,
			mode,
			`${mode}/${credit ? 'FROM' : 'TO'} ${who}/${digits(f, 10)}`,
			'transfer',
		);
	}).map((t) => (t.mode === 'RTGS' && t.type === 'DEBIT' ? { ...t, type: 'CREDIT' as const } : t));
}

// ---------------------------------------------------------------- derived figures

const sumBy = (txns: Txn[], pred: (t: Txn) => boolean) =>
	round2(txns.filter(pred).reduce((s, t) => s + t.amount, 0));
const credits = (t: Txn) => t.type === 'CREDIT';
const debits = (t: Txn) => t.type === 'DEBIT';

function monthEnds(
	a: BankAccount,
): Array<{ month: string; balance: number; credits: number; debits: number; min: number }> {
	const months = new Map<string, Txn[]>();
	for (const t of a.transactions)
		months.set(t.date.slice(0, 7), [...(months.get(t.date.slice(0, 7)) ?? []), t]);
	return [...months.entries()].map(([month, txns]) => ({
		month,
		balance: txns[txns.length - 1].balance,
		credits: sumBy(txns, credits),
		debits: sumBy(txns, debits),
		min: Math.min(...txns.map((t) => t.balance)),
	}));
}

export function accountFigures(a: BankAccount) {
	const ends = monthEnds(a);
	const salaries = a.transactions.filter((t) => t.category === 'salary');
	const emis = a.transactions.filter((t) => t.category === 'emi');
	const bounces = a.transactions.filter((t) => t.category === 'bounce');
	const balances = a.transactions.map((t) => t.balance);
	return {
		ends,
		totalCredits: sumBy(a.transactions, credits),
		totalDebits: sumBy(a.transactions, debits),
		averageMonthlyBalance: round2(
			ends.reduce((s, e) => s + e.balance, 0) / Math.max(1, ends.length),
		),
		minimumMonthlyBalance: Math.min(...ends.map((e) => e.balance)),
		minBalance: Math.min(a.opening, ...balances),
		maxBalance: Math.max(a.opening, ...balances),
		salaries,
		emis,
		bounces,
		cash: sumBy(a.transactions, (t) => t.category === 'cash'),
		negatives: a.transactions.filter((t) => t.balance < 0),
	};
}

// ---------------------------------------------------------------- statement result

export function statementReference(clientId: string, accounts: BankAccount[]) {
	return {
		success: true,
		message: 'Statement fetched successfully',
		data: {
			client_id: clientId,
			accounts: accounts.map((a) => ({
				account_id: `acc_${hexOf(16, clientId, a.index)}`,
				account_number: a.masked,
				ifsc: a.ifsc,
				bank_name: a.bankName,
				account_type: a.accountType,
				holder_name: a.holder.fullName.toUpperCase(),
				opening_balance: a.opening,
				closing_balance: a.closing,
				statement_from: a.from,
				statement_to: a.to,
				transactions: a.transactions.map((t) => ({
					date: t.date,
					description: t.description,
					type: t.type,
					amount: t.amount,
					balance: t.balance,
					mode: t.mode,
				})),
			})),
		},
	};
}

export interface JourneyView {
	clientId: string;
	status: string;
	failedAtStage: string | null;
	errorMessage: string | null;
	createdAt: string;
	updatedAt: string;
}

export interface FileLinks {
	analysisHtml: string;
	analysisJson: string;
	statementPdf: string;
	analysisPdf: string;
}

export const bsaClientId = (clientId: string, a: BankAccount) =>
	`bsa_${hexOf(20, clientId, a.index)}`;

export function statementSample(
	j: JourneyView,
	accounts: BankAccount[],
	links: (a: BankAccount) => FileLinks,
) {
	return {
		success: true,
		status_code: 200,
		message: 'Success',
		data: {
			client_id: j.clientId,
			status: j.status,
			failed_at_stage: j.failedAtStage,
			total_accounts: accounts.length,
			completed_accounts: accounts.length,
			failed_accounts: 0,
			error_message: j.errorMessage,
			is_charged: true,
			amount_charged: (25 * accounts.length).toFixed(2),
			created_at: j.createdAt,
			updated_at: j.updatedAt,
			accounts: accounts.map((a) => {
				const fig = accountFigures(a);
				const l = links(a);
				const count = (mode: Mode) => a.transactions.filter((t) => t.mode === mode).length;
				return {
					account_index: a.index,
					bank_name: a.bankName,
					account_number: a.masked,
					bsa_status: 'completed',
					bsa_client_id: bsaClientId(j.clientId, a),
					error_message: null,
					account_info: {
						bank_name: a.bankName,
						account_holder_name: a.holder.fullName.toUpperCase(),
						account_number: a.masked,
						address: a.holder.address.full.toUpperCase(),
						ifsc: a.ifsc,
						micr_code: a.micr,
						customer_id: a.customerId,
						ckyc_number: mask(`${a.customerId}${a.micr.slice(0, 5)}`),
						email: a.holder.email,
						phone: a.holder.mobile,
						pincode: a.holder.address.pinCode,
						account_type: a.accountType,
						branch_name: a.branch,
						statement_period: {
							from: ddmmyy(new Date(`${a.from}T00:00:00Z`)),
							to: ddmmyy(new Date(`${a.to}T00:00:00Z`)),
						},
					},
					analysis_completed: true,
					analysis_result: null,
					analysis_url: l.analysisHtml,
					analysis_json_url: l.analysisJson,
					input_s3_url: l.statementPdf,
					analysis_pdf_s3_url: l.analysisPdf,
					transactions: a.transactions.map((t, i) => ({
						sr_no: i + 1,
						txn_date: ddmmyyyy(new Date(`${t.date}T00:00:00Z`)),
						value_date: ddmmyyyy(new Date(`${t.date}T00:00:00Z`)),
						reference_no: t.reference,
						description: t.description,
						txn_type: t.type === 'CREDIT' ? 'Cr.' : 'Dr.',
						credit: t.type === 'CREDIT' ? t.amount : '',
						debit: t.type === 'DEBIT' ? t.amount : '',
						balance: t.balance,
					})),
					mismatched_sequence_date: [] as unknown[],
					negative_balance: fig.negatives.map((t) => ({ date: t.date, balance: t.balance })),
					discrepancies: {
						balance_errors: [] as unknown[],
						swapped_credit_debit_rows: 0,
						corrected_row_indices: [] as number[],
					},
					checkpoint: 'analysis_completed',
					progress: null,
					analysis_summary: {
						total_credits: fig.totalCredits,
						total_debits: fig.totalDebits,
						average_monthly_balance: fig.averageMonthlyBalance,
						opening_balance: a.opening,
						closing_balance: a.closing,
						total_transactions: a.transactions.length,
						credit_transactions: a.transactions.filter(credits).length,
						debit_transactions: a.transactions.filter(debits).length,
						upi_transactions: count('UPI'),
						neft_transactions: count('NEFT'),
						imps_transactions: count('IMPS'),
						ach_transactions: count('NACH'),
					},
				};
			}),
		},
	};
}

// ---------------------------------------------------------------- analysis

export function analysisReference(clientId: string, accounts: BankAccount[]) {
	const all = accounts.flatMap((a) => a.transactions);
	const figs = accounts.map(accountFigures);
	const primary = figs[0];
	const months = [...new Set(all.map((t) => t.date.slice(0, 7)))].sort();
	const income = primary.salaries.reduce((s, t) => s + t.amount, 0) / Math.max(1, months.length);
	const emiPerMonth = primary.emis.reduce((s, t) => s + t.amount, 0) / Math.max(1, months.length);
	const salaryAmounts = primary.salaries.map((t) => t.amount);
	const spread = salaryAmounts.length
		? (Math.max(...salaryAmounts) - Math.min(...salaryAmounts)) /
			Math.max(1, Math.max(...salaryAmounts))
		: 1;
	return {
		success: true,
		message: 'Analysis fetched successfully',
		data: {
			client_id: clientId,
			analysis_period: {
				from: accounts.map((a) => a.from).sort()[0],
				to: accounts
					.map((a) => a.to)
					.sort()
					.reverse()[0],
			},
			summary: {
				total_credits: round2(figs.reduce((s, x) => s + x.totalCredits, 0)),
				total_debits: round2(figs.reduce((s, x) => s + x.totalDebits, 0)),
				average_monthly_balance: round2(figs.reduce((s, x) => s + x.averageMonthlyBalance, 0)),
				minimum_monthly_balance: round2(figs.reduce((s, x) => s + x.minimumMonthlyBalance, 0)),
			},
			income: {
				average_monthly_income: round2(income),
				income_stability_score:
					salaryAmounts.length === months.length ? Math.round(100 - spread * 100) : 40,
				identified_salary_credits: primary.salaries.map((t) => ({
					month: t.date.slice(0, 7),
					amount: t.amount,
					source: accounts[0].employer,
				})),
			},
			obligations: {
				total_emi_per_month: round2(emiPerMonth),
				fixed_obligations_ratio: income > 0 ? Math.round((emiPerMonth / income) * 1000) / 1000 : 0,
				emi_accounts: primary.emis.length
					? [{ lender: accounts[0].lender, amount: primary.emis[0].amount, mode: 'NACH' }]
					: [],
			},
			cash_flow: {
				monthly_trend: months.map((month) => {
					const c = sumBy(all, (t) => credits(t) && t.date.startsWith(month));
					const d = sumBy(all, (t) => debits(t) && t.date.startsWith(month));
					return { month, total_credits: c, total_debits: d, net: round2(c - d) };
				}),
			},
			flags: {
				salary_bounce: false,
				emi_bounce: primary.bounces.length > 0,
				high_cash_withdrawal: primary.cash > income * 0.3,
				inward_cheque_return: false,
				end_of_month_stress: figs.some((x) => x.ends.some((e) => e.balance < 1000)),
			},
		},
	};
}

const RATINGS: Array<[number, string, string]> = [
	[90, 'excellent', 'Healthy account conduct with no material issues'],
	[75, 'good', 'Generally healthy account conduct with minor issues'],
	[50, 'fair', 'Some irregularities that deserve a closer look'],
	[25, 'poor', 'Frequent irregularities in account conduct'],
	[0, 'critical', 'Severe irregularities in account conduct'],
];

function analysisJson(a: BankAccount) {
	const fig = accountFigures(a);
	const weights = { bounces: 15, negative_balances: 10, reconciliation_issues: 5 };
	const item = (count: number, weight: number) => ({ count, penalty: count * weight, weight });
	const breakdown = {
		bounces: item(fig.bounces.length, weights.bounces),
		negative_balances: item(fig.negatives.length, weights.negative_balances),
		reconciliation_issues: item(0, weights.reconciliation_issues),
	};
	const totalPenalties =
		breakdown.bounces.penalty +
		breakdown.negative_balances.penalty +
		breakdown.reconciliation_issues.penalty;
	const score = Math.max(0, 100 - totalPenalties);
	const [, rating, description] =
		RATINGS.find(([min]) => score >= min) ?? RATINGS[RATINGS.length - 1];
	const row = (t: Txn) => ({
		date: t.date,
		description: t.description,
		amount: t.amount,
		type: t.type,
		balance: t.balance,
	});
	const bigCredits = a.transactions.filter(
		(t) => credits(t) && t.category === 'transfer' && t.amount >= 100_000,
	);
	const modeBreakdown = Object.fromEntries(
		MODES.filter((m) => a.transactions.some((t) => t.mode === m)).map((m) => {
			const txns = a.transactions.filter((t) => t.mode === m);
			return [
				m,
				{
					count: txns.length,
					total_credit: sumBy(txns, credits),
					total_debit: sumBy(txns, debits),
				},
			];
		}),
	);
	const from = new Date(`${a.from}T00:00:00Z`);
	const to = new Date(`${a.to}T00:00:00Z`);
	return {
		entity_type: a.accountType === 'CURRENT' ? 'business' : 'individual',
		health_score: {
			score,
			rating,
			rating_description: description,
			total_penalties: totalPenalties,
			breakdown,
			details: breakdown,
			thresholds: { excellent: 90, good: 75, fair: 50, poor: 25, critical: 0 },
		},
		flagged_transactions: {
			bounce_transactions: fig.bounces.map(row),
			negative_balance_transactions: fig.negatives.map(row),
			reconciliation_issues: [] as unknown[],
			date_mismatch_transactions: [] as unknown[],
			cheque_return_summary: { count: 0, total_amount: 0 },
			summary: {
				total_flagged: fig.bounces.length + fig.negatives.length,
				bounces: fig.bounces.length,
				negative_balances: fig.negatives.length,
				reconciliation_issues: 0,
				date_mismatches: 0,
			},
		},
		suspicious_transactions: {
			suspicious_credits: bigCredits.map((t) => ({
				...row(t),
				reason: 'Large credit from an individual',
			})),
			suspicious_debits: [] as unknown[],
			monthwise_summary: fig.ends.map((e) => ({
				month: e.month,
				suspicious_credits: bigCredits.filter((t) => t.date.startsWith(e.month)).length,
				suspicious_debits: 0,
			})),
			summary: {
				total_suspicious_credits: bigCredits.length,
				total_suspicious_debits: 0,
				total_amount: sumBy(bigCredits, () => true),
			},
		},
		summary_card: {
			customer_name: a.holder.fullName.toUpperCase(),
			account_number: a.masked,
			bank_name: a.bankName,
			ifsc_code: a.ifsc,
			account_type: a.accountType,
			statement_period: {
				start_date: ddmmyyyy(from),
				end_date: ddmmyyyy(to),
				days: Math.round((to.getTime() - from.getTime()) / 86_400_000) + 1,
				months: STATEMENT_MONTHS,
			},
			balance_summary: {
				opening_balance: a.opening,
				closing_balance: a.closing,
				average_monthly_balance: fig.averageMonthlyBalance,
				min_balance: fig.minBalance,
				max_balance: fig.maxBalance,
			},
			transaction_summary: {
				total_transactions: a.transactions.length,
				credit_count: a.transactions.filter(credits).length,
				debit_count: a.transactions.filter(debits).length,
				total_credits: fig.totalCredits,
				total_debits: fig.totalDebits,
			},
			mode_breakdown: modeBreakdown,
		},
		monthly_summary: fig.ends.map((e) => ({
			month: e.month,
			total_credits: e.credits,
			total_debits: e.debits,
			closing_balance: e.balance,
			min_balance: e.min,
		})),
	};
}

export function analysisSample(j: JourneyView, accounts: BankAccount[]) {
	return {
		success: true,
		status_code: 200,
		message: 'Success',
		data: {
			client_id: j.clientId,
			status: j.status,
			total_accounts: accounts.length,
			accounts: accounts.map((a) => ({
				account_index: a.index,
				bank_name: a.bankName,
				account_number: a.masked,
				bsa_status: 'completed',
				bsa_client_id: bsaClientId(j.clientId, a),
				analysis_json: analysisJson(a),
			})),
		},
	};
}

export { analysisJson };
