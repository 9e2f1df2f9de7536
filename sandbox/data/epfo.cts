import { crifReport, scoreOf, subject } from './bureau.cjs';
import { addMonths, ANCHOR, iso, yearMonth } from './dates.cjs';
import { digits, maskedAadhaar, uan as makeUan } from './ids.cjs';
import { dpdString, totals } from './loans.cjs';
import { person, type Person } from './person.cjs';
import { hexOf, seeded, type Faker } from './random.cjs';

/** EPFO with credit report (sample shape) for this mobile: the credit part carries a full Aadhaar number. */
export const FULL_AADHAAR_MOBILE = '9000000012';

interface Employment {
	employer: string;
	establishmentId: string;
	memberId: string;
	joined: string;
	exited: string | null;
	months: number;
	wage: number;
}

interface Member {
	person: Person;
	uan: string;
	jobs: Employment[];
}

/** The EPFO member behind a mobile number; the same number always gives the same member. */
export function member(mobile: string): Member {
	return seeded(['epfo-member', mobile], (f) => {
		const p = person(f, { mobile });
		return { person: p, uan: makeUan(f), jobs: employment(f) };
	});
}

function employment(f: Faker): Employment[] {
	const count = f.number.int({ min: 1, max: 3 });
	let end: Date | null = null;
	const jobs: Employment[] = [];
	for (let i = 0; i < count; i++) {
		const exit = end;
		const to = exit ?? ANCHOR;
		const join = f.date.between({ from: addMonths(to, -60), to: addMonths(to, -8) });
		const months = Math.max(1, Math.round((to.getTime() - join.getTime()) / (30.44 * 86_400_000)));
		const region = f.helpers.arrayElement(['MH', 'KN', 'DL', 'TN', 'GJ', 'AP']);
		const establishmentId = `${region}${f.helpers.arrayElement(['BAN', 'MUM', 'DEL', 'CHE', 'AHM', 'HYD'])}${digits(f, 7)}000`;
		jobs.push({
			employer: `${f.person.lastName().toUpperCase()} ${f.helpers.arrayElement(['TECHNOLOGIES', 'SOLUTIONS', 'INDUSTRIES', 'SERVICES'])} PRIVATE LIMITED`,
			establishmentId,
			memberId: `${establishmentId}${digits(f, 7)}`,
			joined: iso(join),
			exited: exit ? iso(exit) : null,
			months,
			wage: Math.min(15_000, f.number.int({ min: 8, max: 15 }) * 1000),
		});
		end = addMonths(join, -f.number.int({ min: 0, max: 4 }));
	}
	return jobs;
}

const EMPLOYEE_RATE = 0.12;
const PENSION_RATE = 0.0833;
const shares = (j: Employment) => {
	const employee = Math.round(j.wage * EMPLOYEE_RATE);
	const pension = Math.round(j.wage * PENSION_RATE);
	return { employee, employer: employee - pension, pension };
};

/** Endpoint 7: EPFO record by mobile number (one shape). */
export function epfoRecord(mobile: string) {
	const m = member(mobile);
	const passbook = m.jobs.flatMap((j) => {
		// counted back from the first of the last month: from the 31st, "a month before" can land in
		// the same month again (31 March - 1 month = 3 March), listing a wage month twice
		const last = j.exited ? new Date(`${j.exited}T00:00:00Z`) : ANCHOR;
		const first = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 1));
		return Array.from({ length: Math.min(j.months, 6) }, (_, k) => {
			const s = shares(j);
			return {
				wage_month: yearMonth(addMonths(first, -k)),
				establishment_id: j.establishmentId,
				member_id: j.memberId,
				wages: j.wage,
				employee_share: s.employee,
				employer_share: s.employer,
				pension_share: s.pension,
				transaction_type: 'CR',
			};
		});
	});
	const sumOf = (key: 'employee_share' | 'employer_share' | 'pension_share') =>
		passbook.reduce((t, e) => t + e[key], 0);
	return {
		success: true,
		message: 'EPFO details fetched successfully',
		data: {
			mobile_number: mobile,
			uan: m.uan,
			member_profile: {
				name: m.person.fullName.toUpperCase(),
				father_or_husband_name: seeded(['father', mobile], (f) =>
					`${f.person.firstName('male')} ${m.person.lastName}`.toUpperCase(),
				),
				date_of_birth: m.person.dob,
				gender: m.person.gender === 'male' ? 'M' : 'F',
				email: m.person.email,
				pan_linked: true,
				aadhaar_linked: true,
				kyc_verified: true,
			},
			employment_history: m.jobs.map((j) => ({
				establishment_name: j.employer,
				establishment_id: j.establishmentId,
				member_id: j.memberId,
				date_of_joining: j.joined,
				date_of_exit: j.exited,
				tenure_months: j.months,
				is_current: j.exited === null,
			})),
			contribution_summary: {
				total_employee_share: sumOf('employee_share'),
				total_employer_share: sumOf('employer_share'),
				total_pension_share: sumOf('pension_share'),
				total_contribution:
					sumOf('employee_share') + sumOf('employer_share') + sumOf('pension_share'),
				months_contributed: m.jobs.reduce((t, j) => t + j.months, 0),
				last_contribution_month: passbook[0]?.wage_month ?? null,
				average_monthly_wage: Math.round(m.jobs.reduce((t, j) => t + j.wage, 0) / m.jobs.length),
			},
			passbook,
		},
	};
}

export type Missing = 'epfo' | 'credit';

/** Endpoint 8 reference shape; `missing` leaves one part out (the partial-data magic numbers). */
export function epfoCrifReference(mobile: string, missing?: Missing) {
	const m = member(mobile);
	const s = subject({
		pan: m.person.pan,
		name: m.person.fullName,
		mobile,
		gender: m.person.gender,
	});
	const t = totals(s.accounts);
	const epfo = {
		uan: m.uan,
		name: m.person.fullName.toUpperCase(),
		date_of_birth: m.person.dob,
		mobile,
		kyc_verified: true,
		total_employers: m.jobs.length,
		employment_history: m.jobs.map((j) => {
			const sh = shares(j);
			return {
				employer_name: j.employer,
				establishment_id: j.establishmentId,
				date_of_joining: j.joined,
				date_of_exit: j.exited,
				pf_account_number: j.memberId,
				employee_share: sh.employee * j.months,
				employer_share: sh.employer * j.months,
				service_duration_months: j.months,
			};
		}),
	};
	const crif = {
		credit_score: scoreOf(m.person.pan, 'crif'),
		score_version: 'PERFORM CONSUMER 2.2',
		report_date: iso(ANCHOR),
		dpd_history: s.accounts.map((a) => dpdString(a, 12)).join(';'),
		total_accounts: t.total,
		active_accounts: t.active,
		closed_accounts: t.closed,
		overdue_accounts: t.overdueAccounts,
		enquiries_last_30_days: s.enquiries.filter((e) => e.date >= iso(addMonths(ANCHOR, -1))).length,
		enquiries_last_6_months: s.enquiries.filter((e) => e.date >= iso(addMonths(ANCHOR, -6))).length,
		total_outstanding: t.outstanding,
		total_sanctioned: t.sanctioned,
		accounts: s.accounts.map((a) => ({
			account_type: a.type,
			lender_name: a.lender,
			account_number: a.maskedNumber,
			open_date: a.openDate,
			close_date: a.closeDate,
			account_status: a.active ? 'Active' : 'Closed',
			dpd: dpdString(a, 12),
			sanctioned_amount: a.sanctioned,
			outstanding_amount: a.outstanding,
			emi_amount: a.emi,
			overdue_amount: a.overdue,
		})),
	};
	return {
		...envelope(missing),
		data: { epfo: missing === 'epfo' ? null : epfo, crif: missing === 'credit' ? null : crif },
	};
}

/** Endpoint 8 sample shape. */
export function epfoCrifSample(mobile: string, missing?: Missing) {
	const m = member(mobile);
	const p = m.person;
	const s = subject({ pan: p.pan, name: p.fullName, mobile, gender: p.gender });
	const reported = iso(addMonths(ANCHOR, -2));
	const epfo = {
		mobile,
		uan: m.uan as string | null,
		uan_source: 'epfo',
		prefill: {
			mobile,
			details: {
				personal_info: {
					full_name: p.fullName.toUpperCase(),
					dob: p.dob,
					gender: p.gender,
					total_income: String(
						seeded(['income', mobile], (f) => f.number.int({ min: 30, max: 250 }) * 10_000),
					),
					occupation: 'Salaried',
					age: String(ANCHOR.getUTCFullYear() - Number(p.dob.slice(0, 4))),
				},
				phone_info: [{ reported_date: reported, type_code: 'M', number: mobile }],
				address_info: [
					{
						address: `${p.address.line1}, ${p.address.line2}, ${p.address.city}`.toUpperCase(),
						state: p.address.stateCode,
						type: 'Permanent',
						postal: p.address.pinCode,
						reported_date: reported,
					},
				],
				email_info: [{ reported_date: reported, email_address: p.email.toUpperCase() }],
				identity_info: {
					pan_number: [{ id_number: p.pan }],
					passport_number: [] as unknown[],
					driving_license: [] as unknown[],
					voter_id: [] as unknown[],
					aadhaar_number: [] as unknown[],
					ration_card: [] as unknown[],
					other_id: [] as unknown[],
				},
			},
		},
		employment_history: m.jobs.map((j) => ({
			establishment_name: j.employer,
			establishment_id: j.establishmentId,
			member_id: j.memberId,
			date_of_joining: j.joined,
			date_of_exit: j.exited,
		})) as unknown[] | null,
	};
	const score = scoreOf(p.pan, 'crif');
	const credit = {
		first_name: p.firstName.toUpperCase(),
		last_name: p.lastName.toUpperCase(),
		mobile,
		pan: p.pan,
		// the sandbox masks Aadhaar like the service's other answers, except for the magic mobile that
		// shows what the node does with a full one
		aadhaar_number:
			mobile === FULL_AADHAAR_MOBILE
				? seeded(['aadhaar', mobile], (f) => `${f.number.int({ min: 2, max: 9 })}${digits(f, 11)}`)
				: seeded(['aadhaar', mobile], (f) => (f.datatype.boolean() ? maskedAadhaar(f) : null)),
		credit_score: String(score),
		credit_report: seeded(['crif', p.pan], (f) => crifReport(f, s, score)),
	};
	return {
		...envelope(missing),
		data: {
			doc_id: `doc_${hexOf(20, 'epfo-crif', mobile)}`,
			epfo: missing === 'epfo' ? null : epfo,
			credit_report: missing === 'credit' ? null : credit,
		},
	};
}

function envelope(missing?: Missing) {
	return missing
		? {
				success: true,
				status_code: 200,
				message: `Partial data: no ${missing === 'epfo' ? 'EPFO' : 'credit bureau'} record for this mobile number`,
				partial: true,
				missing: [missing],
			}
		: { success: true, status_code: 200, message: 'EPFO and credit details fetched successfully' };
}
