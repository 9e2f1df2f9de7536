import { addDays, assessmentYears, financialYearOf, iso } from './dates.cjs';
import { digits, maskedAadhaar, pan as makePan, tan } from './ids.cjs';
import { person, type Person } from './person.cjs';
import { hexOf, seeded, type Faker } from './random.cjs';

export const ITR_DEFAULT_YEARS = 3;

/** What an analysis job was started with; jobs the sandbox did not create are derived from their id. */
export interface ItrJobInput {
	jobId: string;
	pan?: string;
	assessmentYears?: string[];
}

interface YearFiling {
	ay: string;
	form: 'ITR-1' | 'ITR-2' | 'ITR-3' | 'ITR-4';
	filingDate: string;
	ack: string;
	filingType: 'Original' | 'Revised' | 'Belated';
	heads: {
		salary: number;
		house_property: number;
		business_profession: number;
		capital_gains: number;
		other_sources: number;
	};
	gross: number;
	deductions: number;
	taxable: number;
	taxPayable: number;
	tds: number;
	advanceTax: number;
	selfAssessment: number;
	refund: number;
	demand: number;
}

function taxOn(income: number): number {
	// New regime slabs (FY 2023-24), rounded; enough for plausible synthetic numbers.
	const slabs: Array<[number, number]> = [
		[300_000, 0],
		[600_000, 0.05],
		[900_000, 0.1],
		[1_200_000, 0.15],
		[1_500_000, 0.2],
		[Infinity, 0.3],
	];
	let tax = 0;
	let lower = 0;
	for (const [upper, rate] of slabs) {
		if (income > lower) tax += (Math.min(income, upper) - lower) * rate;
		lower = upper;
	}
	return income <= 700_000 ? 0 : Math.round(tax * 1.04);
}

function yearFiling(f: Faker, ay: string, base: number, salaried: boolean): YearFiling {
	const growth = f.number.float({ min: 0.9, max: 1.15 });
	const salary = salaried ? Math.round(base * growth) : 0;
	const business = salaried ? 0 : Math.round(base * growth);
	const heads = {
		salary,
		house_property: f.helpers.arrayElement([
			0,
			0,
			-f.number.int({ min: 20, max: 200 }) * 1000,
			f.number.int({ min: 60, max: 240 }) * 1000,
		]),
		business_profession: business,
		capital_gains: f.datatype.boolean(0.3) ? f.number.int({ min: 5, max: 300 }) * 1000 : 0,
		other_sources: f.number.int({ min: 2, max: 60 }) * 1000,
	};
	const gross = Object.values(heads).reduce((s, v) => s + v, 0);
	const deductions = Math.min(gross, f.number.int({ min: 50, max: 200 }) * 1000);
	const taxable = gross - deductions;
	const taxPayable = taxOn(taxable);
	const tds = salaried
		? Math.round(taxPayable * f.number.float({ min: 0.8, max: 1.2 }))
		: Math.round(taxPayable * 0.2);
	const advanceTax = salaried ? 0 : Math.round(taxPayable * 0.6);
	const paid = tds + advanceTax;
	const selfAssessment = Math.max(0, taxPayable - paid);
	const startYear = Number(ay.slice(0, 4));
	const filingType = f.helpers.weightedArrayElement([
		{ weight: 8, value: 'Original' as const },
		{ weight: 1, value: 'Revised' as const },
		{ weight: 1, value: 'Belated' as const },
	]);
	return {
		ay,
		form: salaried
			? gross > 5_000_000 || heads.capital_gains > 0
				? 'ITR-2'
				: 'ITR-1'
			: f.helpers.arrayElement(['ITR-3', 'ITR-4'] as const),
		filingDate: iso(
			addDays(
				new Date(Date.UTC(startYear, 6, 1)),
				f.number.int({ min: 0, max: filingType === 'Belated' ? 150 : 30 }),
			),
		),
		ack: digits(f, 15),
		filingType,
		heads,
		gross,
		deductions,
		taxable,
		taxPayable,
		tds,
		advanceTax,
		selfAssessment,
		refund: Math.max(0, paid - taxPayable),
		demand: 0,
	};
}

interface Taxpayer {
	person: Person;
	filings: YearFiling[];
}

function taxpayer(input: ItrJobInput): Taxpayer {
	const pan = input.pan ?? seeded(['itr-job-pan', input.jobId], (f) => makePan(f, 'P'));
	return seeded(['itr', pan], (f) => {
		const p = person(f, { pan });
		const salaried = f.datatype.boolean(0.7);
		const base = f.number.int({ min: 45, max: 400 }) * 10_000;
		const years = input.assessmentYears?.length
			? input.assessmentYears
			: assessmentYears(ITR_DEFAULT_YEARS);
		return {
			person: p,
			filings: years.map((ay) =>
				seeded(['itr-year', pan, ay], (g) => yearFiling(g, ay, base, salaried)),
			),
		};
	});
}

const REFUND_STATUS = (y: YearFiling) =>
	y.refund > 0 ? (y.ay === assessmentYears(1)[0] ? 'Pending' : 'Issued') : 'Not Applicable';

export function itrReference(input: ItrJobInput) {
	const t = taxpayer(input);
	const latest = t.filings[0];
	return {
		success: true,
		message: 'ITR data fetched successfully',
		data: {
			job_id: input.jobId,
			pan: t.person.pan,
			name: t.person.fullName.toUpperCase(),
			filing_status: latest
				? ({ Original: 'Regular', Revised: 'Revised', Belated: 'Belated' } as const)[
						latest.filingType
					]
				: 'Regular',
			itr_records: t.filings.map((y) => ({
				assessment_year: y.ay,
				itr_type: y.form,
				filing_date: y.filingDate,
				acknowledgement_number: y.ack,
				refund_status: REFUND_STATUS(y),
				gross_total_income: y.gross,
				total_deductions: y.deductions,
				net_taxable_income: y.taxable,
				tax_payable: y.taxPayable,
				tds_amount: y.tds,
				advance_tax_paid: y.advanceTax,
				self_assessment_tax: y.selfAssessment,
				refund_amount: y.refund,
				demand_amount: y.demand,
				income_heads: y.heads,
			})),
		},
	};
}

export function itrSample(input: ItrJobInput, downloadLink: (ack: string) => string) {
	const t = taxpayer(input);
	const p = t.person;
	return seeded(['itr-sample', p.pan], (f) => ({
		success: true,
		status_code: 200,
		message: 'Success',
		data: {
			doc_id: `doc_${hexOf(20, 'itr', input.jobId)}`,
			job_id: input.jobId,
			pan: p.pan,
			status: 'completed',
			profile: {
				pan: p.pan,
				name: p.fullName.toUpperCase(),
				dob: p.dob,
				gender: p.gender === 'male' ? 'M' : 'F',
				category: 'Individual',
				status: 'Active',
				mobile: p.mobile,
				email: p.email,
				address: {
					country: 'INDIA',
					door_number: p.address.line2,
					street: p.address.line1,
					pin_code: p.address.pinCode,
					zip_code: p.address.pinCode,
					locality: p.address.line1.split(' ').slice(1).join(' '),
					post_office: p.address.city,
					city: p.address.city,
					state: p.address.state.toUpperCase(),
				},
				aadhaar_number: maskedAadhaar(f),
				aadhaar_status: 'Linked',
				jurisdiction: {
					area_code: f.string.alpha({ length: 3, casing: 'upper' }),
					ao_type: 'W',
					range_code: String(f.number.int({ min: 1, max: 200 })),
					ao_number: String(f.number.int({ min: 1, max: 999 })),
					jurisdiction: `WARD ${f.number.int({ min: 1, max: 30 })}(${f.number.int({ min: 1, max: 5 })}), ${p.address.city.toUpperCase()}`,
					building_name: 'AAYAKAR BHAWAN',
					email_id: `${p.address.city.toLowerCase().replace(/[^a-z]/g, '')}.ito@incometax.gov.in`,
					ao_building_id: String(f.number.int({ min: 100, max: 999 })),
				},
			},
			filings: t.filings.map((y) => ({
				filing_year: y.ay,
				filing_date: y.filingDate,
				itr_form: y.form,
				filing_type: y.filingType,
				filing_section:
					y.filingType === 'Revised' ? '139(5)' : y.filingType === 'Belated' ? '139(4)' : '139(1)',
				filled_by: 'Self',
				acknowledgement_no: y.ack,
				itr_status: [
					{ status: 'Submitted and pending for e-verification', date: y.filingDate },
					{ status: 'Successfully e-Verified', date: y.filingDate },
					{
						status: 'ITR Processed',
						date: iso(addDays(new Date(`${y.filingDate}T00:00:00Z`), 40)),
					},
				],
				download_link: downloadLink(y.ack),
				parsed_data: parsedReturn(p, y),
				analyzed_data: {
					form_type: y.form,
					personal_info: {
						name: p.fullName.toUpperCase(),
						pan: p.pan,
						dob: p.dob,
						mobile: p.mobile,
						email: p.email,
					},
					filing_info: {
						assessment_year: y.ay,
						filing_date: y.filingDate,
						filing_type: y.filingType,
						acknowledgement_no: y.ack,
					},
					income_summary: {
						...y.heads,
						gross_total_income: y.gross,
						total_deductions: y.deductions,
						total_income: y.taxable,
					},
					tax_computation: {
						tax_payable: y.taxPayable,
						tds: y.tds,
						advance_tax: y.advanceTax,
						self_assessment_tax: y.selfAssessment,
						refund: y.refund,
						demand: y.demand,
					},
					verification: {
						verified: true,
						verification_mode: 'Aadhaar OTP',
						verification_date: y.filingDate,
					},
				},
			})),
			tds_26as: t.filings
				.filter((y) => y.tds > 0)
				.map((y) => ({
					financial_year: financialYearOf(y.ay),
					deductor_name: `${f.person.lastName().toUpperCase()} ${f.helpers.arrayElement(['TECHNOLOGIES', 'INDUSTRIES', 'BANK'])} LIMITED`,
					deductor_tan: tan(f),
					tds_amount: y.tds,
					certificate_no: f.string.alphanumeric({ length: 8, casing: 'upper' }),
					income_type: y.heads.salary > 0 ? 'Salary (192)' : 'Interest (194A)',
				})),
			outstanding_demands: [] as unknown[],
		},
	}));
}

/** The return as filed, under `ITR.<form key>` (a small part of the real schema). */
function parsedReturn(p: Person, y: YearFiling) {
	const key = y.form.replace('-', '');
	return {
		ITR: {
			[key]: {
				CreationInfo: {
					SWVersionNo: '1.0',
					SWCreatedBy: 'SW00000001',
					JSONCreatedBy: 'SW00000001',
					JSONCreationDate: y.filingDate,
					IntermediaryCity: 'Delhi',
				},
				[`Form_${key}`]: {
					FormName: y.form,
					AssessmentYear: y.ay.slice(0, 4),
					SchemaVer: 'Ver1.0',
				},
				PersonalInfo: {
					AssesseeName: {
						FirstName: p.firstName.toUpperCase(),
						SurNameOrOrgName: p.lastName.toUpperCase(),
					},
					PAN: p.pan,
					DOB: p.dob,
				},
				IncomeDeductions: {
					IncomeFromSal: y.heads.salary,
					TotalIncomeOfHP: y.heads.house_property,
					IncomeFromBusinessProf: y.heads.business_profession,
					CapitalGains: y.heads.capital_gains,
					IncomeOthSrc: y.heads.other_sources,
					GrossTotIncome: y.gross,
					DeductUndChapVIA: { TotalChapVIADeductions: y.deductions },
					TotalIncome: y.taxable,
				},
				TaxComputation: {
					TotalTaxPayable: y.taxPayable,
					NetTaxLiability: y.taxPayable,
					TotalIntrstPay: 0,
					TotTaxPlusIntrstPay: y.taxPayable,
				},
				TaxPaid: {
					TaxesPaid: {
						AdvanceTax: y.advanceTax,
						TDS: y.tds,
						SelfAssessmentTax: y.selfAssessment,
						TotalTaxesPaid: y.advanceTax + y.tds + y.selfAssessment,
					},
					BalTaxPayable: 0,
				},
				Refund: { RefundDue: y.refund },
			},
		},
	};
}
