import { escapeHtml } from '../pages/html.cjs';
import { ANCHOR, addDays, iso, ddmmyyyy } from './dates.cjs';
import { digits } from './ids.cjs';
import {
	dpdString,
	enquiries,
	loanAccounts,
	totals,
	type Enquiry,
	type LoanAccount,
} from './loans.cjs';
import { person, type Person } from './person.cjs';
import { hexOf, seeded, type Faker } from './random.cjs';

export const BUREAUS = ['equifax', 'experian', 'cibil', 'crif'] as const;
export type Bureau = (typeof BUREAUS)[number];

export interface MultiBureauInput {
	pan: string;
	name: string;
	mobile_number: string;
	gender: 'male' | 'female';
	bureaus: Bureau[];
}

/** Everything every bureau knows about one subject; derived from the PAN alone. */
export interface Subject {
	person: Person;
	accounts: LoanAccount[];
	enquiries: Enquiry[];
}

export function subject(input: {
	pan: string;
	name?: string;
	mobile?: string;
	gender?: 'male' | 'female';
}): Subject {
	return seeded(['subject', input.pan], (f) => ({
		person: person(f, {
			pan: input.pan,
			fullName: input.name,
			mobile: input.mobile,
			gender: input.gender,
		}),
		accounts: loanAccounts(f),
		enquiries: enquiries(f),
	}));
}

/** Bureau scores differ a little per bureau but are stable per PAN. */
export const scoreOf = (pan: string, bureau: string): number =>
	seeded(['score', pan, bureau], (f) => f.number.int({ min: 640, max: 860 }));

const isNoHit = (name: string) => /nohit/i.test(name);

export function multiBureauReference(input: MultiBureauInput, requestId: string) {
	const s = subject({
		pan: input.pan,
		name: input.name,
		mobile: input.mobile_number,
		gender: input.gender,
	});
	const data = Object.fromEntries(
		input.bureaus.map((b) => [
			b,
			isNoHit(input.name)
				? { score: null, report: null, message: `No record found at ${b} for this PAN` }
				: {
						score: scoreOf(input.pan, b),
						report: {
							name: s.person.fullName,
							pan: input.pan,
							accounts: s.accounts.map((a) => ({
								account_type: a.type,
								lender_name: a.lender,
								account_number: a.maskedNumber,
								open_date: a.openDate,
								close_date: a.closeDate,
								account_status: a.active ? 'Active' : 'Closed',
								sanctioned_amount: a.sanctioned,
								outstanding_amount: a.outstanding,
								overdue_amount: a.overdue,
							})),
							inquiries: s.enquiries.map((e) => ({
								date: e.date,
								lender_name: e.lender,
								purpose: e.purpose,
								amount: e.amount,
							})),
							payment_history: s.accounts.map((a) => ({
								account_number: a.maskedNumber,
								history: dpdString(a, 12),
							})),
						},
					},
		]),
	);
	return {
		status: 'success',
		status_code: 200,
		message: 'Credit reports fetched successfully',
		request_id: requestId,
		timestamp: new Date().toISOString(),
		data,
	};
}

export function multiBureauSample(input: MultiBureauInput, reportLink: (bureau: Bureau) => string) {
	const s = subject({
		pan: input.pan,
		name: input.name,
		mobile: input.mobile_number,
		gender: input.gender,
	});
	const docId = `doc_${hexOf(20, 'multi-bureau', input.pan)}`;
	const results = Object.fromEntries(
		input.bureaus.map((b) => {
			if (isNoHit(input.name))
				return [
					b,
					{ success: false, message: 'No record found', credit_report_link: '', data: null },
				];
			const score = scoreOf(input.pan, b);
			const data: Record<string, unknown> = {
				client_id: `${b}_${hexOf(16, 'client', b, input.pan)}`,
				name: s.person.fullName.toUpperCase(),
				mobile: input.mobile_number,
				pan: input.pan,
				credit_score: String(score),
				credit_report: seeded([b, input.pan], (f) => BUREAU_REPORTS[b](f, s, score)),
			};
			if (b === 'equifax')
				Object.assign(data, { id_number: input.pan, id_type: 'pan', gender: input.gender });
			return [b, { success: true, message: 'Success', credit_report_link: reportLink(b), data }];
		}),
	);
	return {
		success: true,
		status_code: 200,
		message: 'Credit reports fetched',
		doc_id: docId,
		pan: input.pan,
		results,
	};
}

/**
 * Month `m` months before the anchor's month, formatted as `MM`, `YYYY` or `MM-YY`. Counted from the
 * month's first day: from 31 March, a month back is February (not 3 March), so no history lists a
 * month twice.
 */
function monthsAgo(m: number, format: 'MM' | 'YYYY' | 'MM-YY'): string {
	const d = new Date(Date.UTC(ANCHOR.getUTCFullYear(), ANCHOR.getUTCMonth() - m, 1));
	const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
	const yyyy = String(d.getUTCFullYear());
	return format === 'MM' ? mm : format === 'YYYY' ? yyyy : `${mm}-${yyyy.slice(2)}`;
}

const BUREAU_REPORTS: Record<
	Bureau,
	(f: Faker, s: Subject, score: number) => Record<string, unknown>
> = {
	equifax: equifaxReport,
	experian: experianReport,
	cibil: cibilReport,
	crif: crifReport,
};

function equifaxReport(f: Faker, s: Subject, score: number) {
	const p = s.person;
	const t = totals(s.accounts);
	return {
		InquiryResponseHeader: {
			ClientID: digits(f, 6),
			CustRefField: digits(f, 8),
			ReportOrderNO: digits(f, 9),
			ProductCode: ['PCS'],
			SuccessCode: '1',
			Date: iso(ANCHOR),
			Time: '10:15:30',
		},
		InquiryRequestInfo: {
			InquiryPurpose: 'Personal Loan',
			FirstName: p.fullName.toUpperCase(),
			InquiryPhones: [{ seq: '1', PhoneType: ['M'], Number: p.mobile }],
			IDDetails: [{ seq: '1', IDType: 'T', IDValue: p.pan, Source: 'Inquiry' }],
		},
		CCRResponse: {
			Status: '1',
			CIRReportDataLst: [
				{
					InquiryResponseHeader: {
						CustomerCode: 'SNDBX',
						CustRefField: digits(f, 8),
						ReportOrderNO: digits(f, 9),
						ProductCode: ['PCS'],
						SuccessCode: '1',
					},
					CIRReportData: {
						IDAndContactInfo: {
							PersonalInfo: {
								Name: {
									FullName: p.fullName.toUpperCase(),
									FirstName: p.firstName.toUpperCase(),
									LastName: p.lastName.toUpperCase(),
								},
								DateOfBirth: p.dob,
								Gender: p.gender === 'male' ? 'Male' : 'Female',
								Age: { Age: String(ANCHOR.getUTCFullYear() - Number(p.dob.slice(0, 4))) },
								TotalIncome: String(f.number.int({ min: 30, max: 300 }) * 10_000),
								Occupation: f.helpers.arrayElement(['Salaried', 'Self Employed']),
							},
							IdentityInfo: {
								PANId: [{ seq: '1', ReportedDate: iso(addDays(ANCHOR, -90)), IdNumber: p.pan }],
							},
							AddressInfo: [
								{
									Seq: '1',
									ReportedDate: iso(addDays(ANCHOR, -60)),
									Address: p.address.full.toUpperCase(),
									State: p.address.stateCode,
									Postal: p.address.pinCode,
									Type: 'Permanent',
								},
							],
							PhoneInfo: [
								{
									seq: '1',
									typeCode: 'M',
									ReportedDate: iso(addDays(ANCHOR, -60)),
									Number: p.mobile,
								},
							],
							EmailAddressInfo: [
								{
									seq: '1',
									ReportedDate: iso(addDays(ANCHOR, -60)),
									EmailAddress: p.email.toUpperCase(),
								},
							],
						},
						RetailAccountDetails: s.accounts.map((a, i) => ({
							seq: String(i + 1),
							AccountNumber: a.maskedNumber,
							Institution: a.lender.toUpperCase(),
							AccountType: a.type,
							OwnershipType: 'Individual',
							Balance: String(a.outstanding),
							PastDueAmount: String(a.overdue),
							Open: a.active ? 'Yes' : 'No',
							SanctionAmount: String(a.sanctioned),
							InstallmentAmount: String(a.emi),
							DateReported: iso(ANCHOR),
							DateOpened: a.openDate,
							DateClosed: a.closeDate ?? '',
							AccountStatus: a.active ? 'Current Account' : 'Closed Account',
							History48Months: a.dpd.map((d, m) => ({
								key: monthsAgo(m, 'MM-YY'),
								PaymentStatus: d === 0 ? '000' : String(d).padStart(3, '0'),
								SuitFiledStatus: '*',
								AssetClassificationStatus: '*',
							})),
						})),
						RetailAccountsSummary: {
							NoOfAccounts: String(t.total),
							NoOfActiveAccounts: String(t.active),
							NoOfWriteOffs: '0',
							TotalPastDue: String(t.overdue),
							NoOfPastDueAccounts: String(t.overdueAccounts),
							NoOfZeroBalanceAccounts: String(t.closed),
							TotalBalanceAmount: String(t.outstanding),
							TotalSanctionAmount: String(t.sanctioned),
							TotalMonthlyPaymentAmount: String(t.emi),
							MostSevereStatusWithIn24Months: t.overdueAccounts > 0 ? '30+' : 'Std',
							OldestAccount: s.accounts.map((a) => a.openDate).sort()[0] ?? '',
							RecentAccount:
								s.accounts
									.map((a) => a.openDate)
									.sort()
									.reverse()[0] ?? '',
						},
						ScoreDetails: [
							{
								Type: 'ERS',
								Version: '4.0',
								Name: 'M3',
								Value: String(score),
								ScoringElements: [
									{
										type: 'RES',
										seq: '1',
										code: '5',
										Description: 'Number of accounts with balances',
									},
								],
							},
						],
						EnquirySummary: {
							Purpose: 'ALL',
							Total: String(s.enquiries.length),
							Past30Days: String(
								s.enquiries.filter((e) => e.date >= iso(addDays(ANCHOR, -30))).length,
							),
							Past12Months: String(
								s.enquiries.filter((e) => e.date >= iso(addDays(ANCHOR, -365))).length,
							),
							Past24Months: String(s.enquiries.length),
							Recent: s.enquiries[0]?.date ?? '',
						},
						Enquiries: s.enquiries.map((e, i) => ({
							seq: String(i),
							Institution: e.lender.toUpperCase(),
							Date: e.date,
							RequestPurpose: e.purpose,
							Amount: String(e.amount),
						})),
					},
				},
			],
		},
	};
}

function experianReport(f: Faker, s: Subject, score: number) {
	const t = totals(s.accounts);
	const compact = (d: string | null) => (d ? d.replaceAll('-', '') : '');
	return {
		CreditProfileHeader: {
			Enquiry_Username: 'sandbox_user',
			ReportDate: compact(iso(ANCHOR)),
			ReportTime: '101530',
			Version: 'V2.4',
			ReportNumber: digits(f, 13),
			Subscriber: '',
			Subscriber_Name: 'FinVerify Sandbox',
		},
		CAIS_Account: {
			CAIS_Summary: {
				Credit_Account: {
					CreditAccountTotal: t.total,
					CreditAccountActive: t.active,
					CreditAccountDefault: t.overdueAccounts,
					CreditAccountClosed: t.closed,
					CADSuitFiledCurrentBalance: 0,
				},
				Total_Outstanding_Balance: {
					Outstanding_Balance_Secured: t.secured,
					Outstanding_Balance_UnSecured: t.unsecured,
					Outstanding_Balance_All: t.outstanding,
				},
			},
			CAIS_Account_DETAILS: s.accounts.map((a) => ({
				Identification_Number: digits(f, 6),
				Subscriber_Name: a.lender,
				Account_Number: a.maskedNumber,
				Portfolio_Type: a.type === 'Credit Card' ? 'R' : 'I',
				Account_Type: a.code,
				Open_Date: compact(a.openDate),
				Highest_Credit_or_Original_Loan_Amount: a.sanctioned,
				Current_Balance: a.outstanding,
				Amount_Past_Due: a.overdue,
				Account_Status: a.active ? '11' : '13',
				Date_Closed: compact(a.closeDate),
				Scheduled_Monthly_Payment_Amount: a.emi,
				Payment_History_Profile: a.dpd
					.slice(0, 12)
					.map((d) => (d === 0 ? '0' : String(Math.min(6, d / 30))))
					.join(''),
				CAIS_Account_History: a.dpd.slice(0, 6).map((d, m) => ({
					Year: monthsAgo(m, 'YYYY'),
					Month: monthsAgo(m, 'MM'),
					Days_Past_Due: d,
				})),
			})),
		},
		SCORE: { BureauScore: score, BureauScoreConfidLevel: 'H' },
	};
}

function cibilReport(f: Faker, s: Subject, score: number) {
	const p = s.person;
	const ddmmyyyyCompact = (d: string | null) =>
		d ? ddmmyyyy(new Date(`${d}T00:00:00Z`)).replaceAll('-', '') : '';
	return {
		controlData: { success: true },
		consumerCreditData: [
			{
				tuefHeader: {
					headerType: 'TUEF',
					version: '12',
					memberRefNo: `SNDBX${digits(f, 6)}`,
					enquiryMemberUserId: 'SANDBOX',
					dateProcessed: ddmmyyyyCompact(iso(ANCHOR)),
				},
				names: [
					{
						index: 'N01',
						name: p.fullName.toUpperCase(),
						birthDate: ddmmyyyyCompact(p.dob),
						gender: p.gender === 'male' ? '2' : '1',
					},
				],
				ids: [{ index: 'I01', idType: '01', idNumber: p.pan }],
				telephones: [{ index: 'T01', telephoneNumber: p.mobile, telephoneType: '01' }],
				emails: [{ index: 'C01', emailID: p.email.toUpperCase() }],
				addresses: [
					{
						index: 'A01',
						line1: p.address.line1.toUpperCase(),
						line2: p.address.city.toUpperCase(),
						stateCode: p.address.stateCode,
						pinCode: p.address.pinCode,
						addressCategory: '02',
						dateReported: ddmmyyyyCompact(iso(ANCHOR)),
					},
				],
				scores: [
					{
						scoreName: 'CIBILTUSC3',
						scoreCardName: '08',
						scoreCardVersion: '10',
						scoreDate: ddmmyyyyCompact(iso(ANCHOR)),
						score: String(score).padStart(5, '0'),
						reasonCodes: [{ reasonCodeName: 'reasonCode1', reasonCodeValue: '07' }],
					},
				],
				accounts: s.accounts.map((a, i) => ({
					index: `T${String(i + 1).padStart(3, '0')}`,
					memberShortName: a.lender.toUpperCase(),
					accountType: a.code,
					ownershipIndicator: 1,
					dateOpened: ddmmyyyyCompact(a.openDate),
					lastPaymentDate: ddmmyyyyCompact(a.lastPaymentDate),
					dateClosed: ddmmyyyyCompact(a.closeDate),
					dateReported: ddmmyyyyCompact(iso(ANCHOR)),
					highCreditAmount: a.sanctioned,
					currentBalance: a.outstanding,
					amountOverdue: a.overdue,
					emiAmount: a.emi,
					paymentHistory: a.dpd
						.slice(0, 12)
						.map((d) => String(d).padStart(3, '0'))
						.join(''),
				})),
				enquiries: s.enquiries.map((e, i) => ({
					index: `I${String(i + 1).padStart(3, '0')}`,
					enquiryDate: ddmmyyyyCompact(e.date),
					memberShortName: e.lender.toUpperCase(),
					enquiryPurpose: e.purpose,
					enquiryAmount: e.amount,
				})),
			},
		],
	};
}

/** CRIF High Mark report in the layout of the spec's EPFO+credit sample; also used for `crif` in multi-bureau. */
export function crifReport(f: Faker, s: Subject, score: number) {
	const p = s.person;
	const t = totals(s.accounts);
	const reported = ddmmyyyy(addDays(ANCHOR, -45));
	const variation = (value: string) => ({
		VARIATION: [{ VALUE: value, 'REPORTED-DATE': reported }],
	});
	const summary = (accounts: LoanAccount[]) => {
		const x = totals(accounts);
		return {
			'NUMBER-OF-ACCOUNTS': String(x.total),
			'ACTIVE-ACCOUNTS': String(x.active),
			'OVERDUE-ACCOUNTS': String(x.overdueAccounts),
			'SECURED-ACCOUNTS': String(accounts.filter((a) => a.secured).length),
			'UNSECURED-ACCOUNTS': String(accounts.filter((a) => !a.secured).length),
			'UNTAGGED-ACCOUNTS': '0',
			'TOTAL-CURRENT-BALANCE': String(x.outstanding),
			'CURRENT-BALANCE-SECURED': String(x.secured),
			'CURRENT-BALANCE-UNSECURED': String(x.unsecured),
			'TOTAL-SANCTIONED-AMT': String(x.sanctioned),
			'TOTAL-DISBURSED-AMT': String(x.sanctioned),
			'TOTAL-AMT-OVERDUE': String(x.overdue),
		};
	};
	return {
		HEADER: {
			'DATE-OF-REQUEST': ddmmyyyy(ANCHOR),
			'DATE-OF-ISSUE': ddmmyyyy(ANCHOR),
			'REPORT-ID': `CHM${digits(f, 14)}`,
			'BATCH-ID': digits(f, 12),
			inquiryId_: digits(f, 10),
			STATUS: 'SUCCESS',
		},
		'PERSONAL-INFO-VARIATION': {
			'NAME-VARIATIONS': variation(p.fullName.toUpperCase()),
			'ADDRESS-VARIATIONS': variation(p.address.full.toUpperCase()),
			'PAN-VARIATIONS': variation(p.pan),
			'UID-VARIATIONS': '',
			'OTHER-ID-VARIATIONS': '',
			'DRIVING-LICENSE-VARIATIONS': '',
			'DATE-OF-BIRTH-VARIATIONS': variation(ddmmyyyy(new Date(`${p.dob}T00:00:00Z`))),
			'VOTER-ID-VARIATIONS': '',
			'PASSPORT-VARIATIONS': '',
			'PHONE-NUMBER-VARIATIONS': variation(p.mobile),
			'RATION-CARD-VARIATIONS': '',
			'EMAIL-VARIATIONS': variation(p.email.toUpperCase()),
		},
		'SECONDARY-MATCHES': '',
		'ACCOUNTS-SUMMARY': {
			'DERIVED-ATTRIBUTES': {
				'INQUIRIES-IN-LAST-SIX-MONTHS': String(
					s.enquiries.filter((e) => e.date >= iso(addDays(ANCHOR, -182))).length,
				),
				'LENGTH-OF-CREDIT-HISTORY-YEAR': String(
					ANCHOR.getUTCFullYear() -
						Number((s.accounts.map((a) => a.openDate).sort()[0] ?? iso(ANCHOR)).slice(0, 4)),
				),
				'LENGTH-OF-CREDIT-HISTORY-MONTH': '0',
				'AVERAGE-ACCOUNT-AGE-YEAR': '3',
				'AVERAGE-ACCOUNT-AGE-MONTH': '4',
				'NEW-ACCOUNTS-IN-LAST-SIX-MONTHS': '0',
				'NEW-DELINQ-ACCOUNT-IN-LAST-SIX-MONTHS': String(t.overdueAccounts),
			},
			'PRIMARY-ACCOUNTS-SUMMARY': summary(s.accounts),
			'SECONDARY-ACCOUNTS-SUMMARY': summary([]),
		},
		'EMPLOYMENT-DETAILS': '',
		RESPONSES: {
			RESPONSE: s.accounts.map((a) => ({
				'LOAN-DETAILS': {
					'ACCT-NUMBER': a.maskedNumber,
					'CREDIT-GUARANTOR': a.lender.toUpperCase(),
					'ACCT-TYPE': a.type,
					'DATE-REPORTED': ddmmyyyy(ANCHOR),
					'OWNERSHIP-IND': 'Individual',
					'ACCOUNT-STATUS': a.active ? 'Active' : 'Closed',
					'DISBURSED-AMT': String(a.sanctioned),
					'DISBURSED-DT': ddmmyyyy(new Date(`${a.openDate}T00:00:00Z`)),
					'CLOSED-DATE': a.closeDate ? ddmmyyyy(new Date(`${a.closeDate}T00:00:00Z`)) : '',
					'INSTALLMENT-AMT': String(a.emi),
					'CURRENT-BAL': String(a.outstanding),
					'OVERDUE-AMT': String(a.overdue),
					'COMBINED-PAYMENT-HISTORY': a.dpd
						.slice(0, 12)
						.map(
							(d, m) =>
								`${monthsAgo(m, 'MM')}:${monthsAgo(m, 'YYYY')},${d === 0 ? 'STD' : String(d).padStart(3, '0')}/XXX`,
						)
						.join('|'),
					'SECURITY-STATUS': a.secured ? 'Secured' : 'Unsecured',
				},
			})),
		},
		SCORE: {
			'SCORE-TYPE': 'PERFORM CONSUMER 2.2',
			'SCORE-VERSION': '2.2',
			'SCORE-VALUE': String(score),
		},
	};
}

/** The commercial (business) credit report as an HTML document. */
export function commercialReportHtml(businessName: string, pan: string): string {
	return seeded(['commercial', pan, businessName], (f) => {
		const rows = Array.from({ length: f.number.int({ min: 2, max: 4 }) }, () => {
			const lender = f.helpers.arrayElement([
				'State Bank of India',
				'HDFC Bank',
				'Bank of Baroda',
				'SIDBI',
				'Axis Bank',
			]);
			const facility = f.helpers.arrayElement([
				'Cash Credit',
				'Term Loan',
				'Overdraft',
				'Bank Guarantee',
			]);
			const sanctioned = f.number.int({ min: 10, max: 500 }) * 100_000;
			return `<tr><td>${lender}</td><td>${facility}</td><td>${sanctioned.toLocaleString('en-IN')}</td><td>${Math.round(sanctioned * 0.6).toLocaleString('en-IN')}</td><td>Standard</td></tr>`;
		}).join('');
		const rank = f.number.int({ min: 1, max: 6 });
		return [
			'<!DOCTYPE html>',
			`<html lang="en"><head><meta charset="utf-8"><title>Commercial credit report: ${escapeHtml(businessName)}</title></head><body>`,
			`<h1>Commercial credit report</h1>`,
			`<p><strong>Business name:</strong> ${escapeHtml(businessName)}<br><strong>PAN:</strong> ${escapeHtml(pan)}<br><strong>CMR rank:</strong> CMR-${rank}</p>`,
			'<table><thead><tr><th>Lender</th><th>Facility</th><th>Sanctioned (INR)</th><th>Outstanding (INR)</th><th>Asset classification</th></tr></thead>',
			`<tbody>${rows}</tbody></table>`,
			'<p><em>Synthetic report generated by the FinVerify sandbox. Not real bureau data.</em></p>',
			'</body></html>',
		].join('\n');
	});
}
