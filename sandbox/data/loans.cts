import { addMonths, ANCHOR, iso, pastDate } from './dates.cjs';
import { digits, mask } from './ids.cjs';
import type { Faker } from './random.cjs';

/** One retail credit facility; every bureau format is rendered from this common model. */
export interface LoanAccount {
	type: string;
	code: string;
	lender: string;
	accountNumber: string;
	maskedNumber: string;
	openDate: string;
	closeDate: string | null;
	active: boolean;
	sanctioned: number;
	outstanding: number;
	emi: number;
	overdue: number;
	secured: boolean;
	/** Days past due per month, newest first, 24 months. */
	dpd: number[];
	lastPaymentDate: string;
}

const TYPES = [
	{ type: 'Personal Loan', code: '05', secured: false, min: 50_000, max: 1_500_000 },
	{ type: 'Credit Card', code: '10', secured: false, min: 25_000, max: 500_000 },
	{ type: 'Auto Loan', code: '01', secured: true, min: 300_000, max: 1_500_000 },
	{ type: 'Housing Loan', code: '02', secured: true, min: 1_500_000, max: 9_000_000 },
	{ type: 'Consumer Loan', code: '06', secured: false, min: 15_000, max: 150_000 },
	{ type: 'Gold Loan', code: '07', secured: true, min: 30_000, max: 400_000 },
];

const LENDERS = [
	'HDFC Bank',
	'ICICI Bank',
	'State Bank of India',
	'Axis Bank',
	'Bajaj Finance',
	'Kotak Mahindra Bank',
	'Tata Capital',
	'IDFC First Bank',
];

export function loanAccounts(f: Faker, count = f.number.int({ min: 2, max: 5 })): LoanAccount[] {
	return Array.from({ length: count }, () => {
		const kind = f.helpers.arrayElement(TYPES);
		const open = pastDate(f, 0.5, 8);
		const active = f.datatype.boolean(0.7);
		const sanctioned = f.number.int({ min: kind.min / 1000, max: kind.max / 1000 }) * 1000;
		const outstanding = active
			? Math.round(sanctioned * f.number.float({ min: 0.05, max: 0.95 }))
			: 0;
		const overdue =
			active && f.datatype.boolean(0.15) ? f.number.int({ min: 1, max: 40 }) * 500 : 0;
		const dpd = Array.from({ length: 24 }, (_, i) =>
			overdue > 0 && i < 3 ? f.helpers.arrayElement([0, 30, 60]) : 0,
		);
		const accountNumber = digits(f, 12);
		const closeDate = active ? null : iso(f.date.between({ from: open, to: ANCHOR }));
		return {
			type: kind.type,
			code: kind.code,
			lender: f.helpers.arrayElement(LENDERS),
			accountNumber,
			maskedNumber: mask(accountNumber),
			openDate: iso(open),
			closeDate,
			active,
			sanctioned,
			outstanding,
			emi: kind.code === '10' ? 0 : Math.round(sanctioned / f.number.int({ min: 12, max: 84 })),
			overdue,
			secured: kind.secured,
			dpd,
			lastPaymentDate: closeDate ?? iso(addMonths(ANCHOR, -1)),
		};
	});
}

/** `000|000|030|...` style payment history string, newest first. */
export const dpdString = (a: LoanAccount, months = 24): string =>
	a.dpd
		.slice(0, months)
		.map((d) => String(d).padStart(3, '0'))
		.join('|');

export const totals = (accounts: LoanAccount[]) => ({
	total: accounts.length,
	active: accounts.filter((a) => a.active).length,
	closed: accounts.filter((a) => !a.active).length,
	overdueAccounts: accounts.filter((a) => a.overdue > 0).length,
	outstanding: accounts.reduce((s, a) => s + a.outstanding, 0),
	sanctioned: accounts.reduce((s, a) => s + a.sanctioned, 0),
	overdue: accounts.reduce((s, a) => s + a.overdue, 0),
	emi: accounts.reduce((s, a) => s + (a.active ? a.emi : 0), 0),
	secured: accounts.filter((a) => a.secured).reduce((s, a) => s + a.outstanding, 0),
	unsecured: accounts.filter((a) => !a.secured).reduce((s, a) => s + a.outstanding, 0),
});

export interface Enquiry {
	date: string;
	lender: string;
	purpose: string;
	amount: number;
}

export function enquiries(f: Faker, count = f.number.int({ min: 1, max: 4 })): Enquiry[] {
	return Array.from({ length: count }, () => ({
		date: iso(pastDate(f, 0, 1.5)),
		lender: f.helpers.arrayElement(LENDERS),
		purpose: f.helpers.arrayElement(['Personal Loan', 'Credit Card', 'Auto Loan', 'Housing Loan']),
		amount: f.number.int({ min: 5, max: 300 }) * 10_000,
	})).sort((a, b) => b.date.localeCompare(a.date));
}
