import { missingField } from '../../../nodes/FinVerify/transport';
import {
	ITR_DATA_REQUIRED,
	JOB_STATUS_REQUIRED,
	PASSWORD_RESET_REQUIRED,
	normalizeAnalysisJob,
	normalizeItrData,
	normalizePasswordReset,
	splitFilings,
	toAssessmentYear,
	toItrForm,
} from '../../../nodes/FinVerify/helpers/normalize/incomeTax';

// Hand-written after the contract's ItrDataReference (openapi/finverify.openapi.yaml)
const reference = {
	success: true,
	message: 'ok',
	data: {
		job_id: 'itr_0123456789abcdef01234567',
		pan: 'abcde1234f',
		name: 'Priya Sharma',
		filing_status: 'Regular',
		itr_records: [
			{
				assessment_year: '2023-24',
				itr_type: 'ITR-1',
				filing_date: '2023-07-20',
				acknowledgement_number: '111',
				refund_status: 'Issued',
				gross_total_income: 900000,
				total_deductions: 150000,
				net_taxable_income: 750000,
				tax_payable: 62400,
				tds_amount: 70000,
				advance_tax_paid: 0,
				self_assessment_tax: 0,
				refund_amount: 7600,
				demand_amount: 0,
				income_heads: {
					salary: 880000,
					house_property: -20000,
					business_profession: 0,
					capital_gains: 10000,
					other_sources: 30000,
				},
			},
			{
				assessment_year: '2024-25',
				itr_type: 'ITR-2',
				filing_date: '2024-07-28',
				acknowledgement_number: '222',
				refund_status: 'Pending',
				gross_total_income: '10,50,000',
				total_deductions: 150000,
				net_taxable_income: 900000,
				tax_payable: 93600,
				tds_amount: 90000,
				advance_tax_paid: 0,
				self_assessment_tax: 3600,
				refund_amount: 0,
				demand_amount: 0,
				income_heads: {
					salary: 1000000,
					house_property: 0,
					business_profession: 0,
					capital_gains: 20000,
					other_sources: 30000,
				},
			},
		],
	},
};

// Sample shape
const sample = {
	status_code: 200,
	data: {
		doc_id: 'doc_1',
		job_id: 'itr_abc',
		pan: 'ABCDE1234F',
		status: 'COMPLETED',
		profile: {
			pan: 'ABCDE1234F',
			name: 'PRIYA SHARMA',
			dob: '15-08-1990',
			gender: 'F',
			category: 'Individual',
			status: 'Active',
			mobile: '98XXXXXX10',
			email: 'p***@example.com',
			address: {
				country: 'INDIA',
				door_number: '12',
				street: 'MG Road',
				pin_code: '560001',
				zip_code: null,
				locality: 'Ashok Nagar',
				post_office: null,
				city: 'Bengaluru',
				state: 'Karnataka',
			},
			aadhaar_number: 'XXXXXXXX1234',
			aadhaar_status: 'Linked',
			jurisdiction: { area_code: 'BLR', ao_type: 'W', range_code: '1', ao_number: '2' },
		},
		filings: [
			{
				filing_year: '2024-25',
				filing_date: '28-07-2024',
				itr_form: 'ITR1',
				filing_type: 'Original',
				filing_section: '139(1)',
				filled_by: 'Self',
				acknowledgement_no: '333',
				itr_status: [
					{ status: 'Submitted', date: '28-07-2024' },
					{ status: 'Processed', date: '15-09-2024' },
					{ status: 'Verified', date: '29-07-2024' },
				],
				download_link: 'https://files.example.com/itr-2024.pdf',
				parsed_data: { ITR: { ITR1: {} } },
				analyzed_data: {
					form_type: 'ITR-1',
					personal_info: {},
					filing_info: {},
					income_summary: {
						gross_total_income: 810000,
						salary: 780000,
						house_property: 0,
						other_sources: 30000,
						total_deductions: 50000,
						total_income: 760000,
					},
					tax_computation: { total_tax_liability: 52000, tds: 55000, refund: 3000 },
					verification: {},
				},
			},
		],
		tds_26as: [
			{
				financial_year: '2023-24',
				deductor_name: 'ACME LTD',
				deductor_tan: 'BLRA12345B',
				tds_amount: '55000',
				certificate_no: 'C1',
				income_type: 'Salary',
			},
		],
		outstanding_demands: [{ assessment_year: 'AY 2020-21', amount: '1200', section: '143(1)' }],
	},
};

describe('toAssessmentYear / toItrForm', () => {
	it.each([
		['2024-25', '2024-25'],
		['AY 2024-25', '2024-25'],
		['2024-2025', '2024-25'],
		['2024_25', '2024-25'],
		[null, null],
	])('toAssessmentYear(%p) = %p', (input, expected) =>
		expect(toAssessmentYear(input)).toBe(expected),
	);
	it.each([
		['ITR-1', 'ITR-1'],
		['ITR1', 'ITR-1'],
		['itr 4', 'ITR-4'],
		['2', 'ITR-2'],
		['ITR-U', 'ITR-U'],
		['', null],
	])('toItrForm(%p) = %p', (input, expected) => expect(toItrForm(input)).toBe(expected));
});

describe('normalizeItrData', () => {
	it('reads the reference shape, newest year first, amounts as numbers', () => {
		const d = normalizeItrData(reference);
		expect(d).toMatchObject({
			shape: 'reference',
			jobId: 'itr_0123456789abcdef01234567',
			pan: 'ABCDE1234F',
			name: 'Priya Sharma',
			filingStatus: 'Regular',
			profile: { pan: 'ABCDE1234F', name: 'Priya Sharma', dateOfBirth: null },
			tds: [],
			outstandingDemands: [],
		});
		expect(d.filings.map((f) => f.assessmentYear)).toEqual(['2024-25', '2023-24']);
		expect(d.latestFiling).toEqual(d.filings[0]);
		expect(d.filings[0]).toMatchObject({
			form: 'ITR-2',
			filingDate: '2024-07-28',
			acknowledgementNumber: '222',
			refundStatus: 'Pending',
			grossTotalIncome: 1050000,
			totalDeductions: 150000,
			taxableIncome: 900000,
			taxPayable: 93600,
			tdsAmount: 90000,
			selfAssessmentTax: 3600,
			refundAmount: 0,
			demandAmount: 0,
			downloadLink: null,
		});
		expect(d.filings[1].incomeHeads).toEqual({
			salary: 880000,
			houseProperty: -20000,
			businessProfession: 0,
			capitalGains: 10000,
			otherSources: 30000,
		});
	});

	it('reads the sample shape into the same fields', () => {
		const d = normalizeItrData(sample);
		expect(d).toMatchObject({
			shape: 'sample',
			jobId: 'itr_abc',
			pan: 'ABCDE1234F',
			name: 'PRIYA SHARMA',
			status: 'completed',
			filingStatus: null,
		});
		expect(d.profile).toEqual({
			pan: 'ABCDE1234F',
			name: 'PRIYA SHARMA',
			dateOfBirth: '1990-08-15',
			gender: 'F',
			category: 'Individual',
			status: 'Active',
			mobile: '98XXXXXX10',
			email: 'p***@example.com',
			address: '12, MG Road, Ashok Nagar, Bengaluru, Karnataka, 560001, INDIA',
			city: 'Bengaluru',
			state: 'Karnataka',
			pinCode: '560001',
			aadhaarNumber: 'XXXXXXXX1234',
			aadhaarStatus: 'Linked',
		});
		expect(d.filings[0]).toMatchObject({
			assessmentYear: '2024-25',
			form: 'ITR-1',
			filingDate: '2024-07-28',
			filingType: 'Original',
			filingSection: '139(1)',
			filedBy: 'Self',
			acknowledgementNumber: '333',
			status: 'Processed',
			statusDate: '2024-09-15',
			grossTotalIncome: 810000,
			totalDeductions: 50000,
			taxableIncome: 760000,
			taxPayable: 52000,
			tdsAmount: 55000,
			refundAmount: 3000,
			demandAmount: null,
			incomeHeads: {
				salary: 780000,
				houseProperty: 0,
				businessProfession: null,
				capitalGains: null,
				otherSources: 30000,
			},
			downloadLink: 'https://files.example.com/itr-2024.pdf',
		});
		expect(d.tds).toEqual([
			{
				financialYear: '2023-24',
				deductorName: 'ACME LTD',
				deductorTan: 'BLRA12345B',
				amount: 55000,
				certificateNumber: 'C1',
				incomeType: 'Salary',
			},
		]);
		expect(d.outstandingDemands[0]).toMatchObject({
			assessmentYear: '2020-21',
			amount: 1200,
			section: '143(1)',
		});
	});

	it('splits into one item per filing with the taxpayer', () => {
		const items = splitFilings(normalizeItrData(reference));
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			jobId: 'itr_0123456789abcdef01234567',
			pan: 'ABCDE1234F',
			name: 'Priya Sharma',
			assessmentYear: '2024-25',
		});
	});

	it('tolerates partial input', () => {
		for (const body of [
			undefined,
			null,
			{},
			{ data: { filings: null } },
			{ data: { itr_records: [null, 5] } },
		]) {
			const d = normalizeItrData(body);
			expect(d.pan).toBeNull();
			expect(d.profile.address).toBeNull();
		}
		const d = normalizeItrData({ data: { itr_records: [{}] } });
		expect(d.filings[0]).toMatchObject({
			assessmentYear: null,
			form: null,
			status: null,
			grossTotalIncome: null,
		});
		expect(
			normalizeItrData({ data: { filings: [{ itr_status: [] }] } }).filings[0].status,
		).toBeNull();
		expect(
			normalizeItrData({ data: { filings: [{ itr_status: [{ status: 'A' }, { status: 'B' }] }] } })
				.filings[0].status,
		).toBe('B');
	});

	it("a return's status history with an unreadable or undated entry has no known latest status", () => {
		const statusOf = (history: unknown[]) =>
			normalizeItrData({ data: { filings: [{ itr_status: history }] } }).filings[0].status;
		const processed = { status: 'ITR Processed', date: '2025-09-01' };
		const verified = { status: 'Successfully E-Verified', date: '2025-08-01' };
		expect(statusOf([verified, processed])).toBe('ITR Processed');
		// the null entry could be the latest: never the older status in its place
		expect(statusOf([verified, processed, null])).toBeNull();
		expect(statusOf([verified, null, processed])).toBeNull();
		expect(statusOf([verified, { status: 'ITR Processed' }])).toBeNull();
		expect(statusOf([verified, { status: 200, date: '2025-09-01' }])).toBeNull();
		// two statuses of the same latest date that disagree
		expect(statusOf([processed, { status: 'Defective', date: '2025-09-01' }])).toBeNull();
	});
});

describe('normalizeAnalysisJob', () => {
	it('reads the assumed start and status answers', () => {
		expect(
			normalizeAnalysisJob({
				success: true,
				message: 'Analysis started',
				data: { job_id: 'itr_1', status: 'processing' },
			}),
		).toEqual({
			jobId: 'itr_1',
			status: 'processing',
			progress: null,
			isFinal: false,
			isComplete: false,
			message: 'Analysis started',
		});
		expect(
			normalizeAnalysisJob({
				success: true,
				data: { job_id: 'itr_1', status: 'COMPLETED', progress: 100 },
			}),
		).toMatchObject({
			status: 'completed',
			progress: 100,
			isFinal: true,
			isComplete: true,
		});
		// undocumented words pass through as they are (lowercased); a failure word ends the wait
		expect(normalizeAnalysisJob({ data: { status: 'error' } })).toMatchObject({
			status: 'error',
			isFinal: true,
			isComplete: false,
		});
		expect(normalizeAnalysisJob({ data: { status: 'in progress' } })).toMatchObject({
			status: 'in_progress',
			isFinal: false,
		});
	});
	it('tolerates partial input', () => {
		expect(normalizeAnalysisJob(undefined)).toEqual({
			jobId: null,
			status: null,
			progress: null,
			isFinal: false,
			// no status: whether the job is complete is unknown
			isComplete: null,
			message: null,
		});
	});
});

describe('normalizePasswordReset', () => {
	it('reads the reset state', () => {
		expect(
			normalizePasswordReset({
				success: true,
				data: { client_id: 'cl_123456', status: 'otp_sent', message: 'OTP sent' },
			}),
		).toEqual({
			clientId: 'cl_123456',
			status: 'otp_sent',
			message: 'OTP sent',
		});
	});
	it('falls back to the outer message and tolerates junk', () => {
		expect(normalizePasswordReset({ message: 'outer', data: {} })).toEqual({
			clientId: null,
			status: null,
			message: 'outer',
		});
		expect(normalizePasswordReset('x')).toEqual({ clientId: null, status: null, message: null });
	});
});

describe('income-tax returns: unknown is null, statuses in one case', () => {
	it('the number of returns is null, not 0, when the answer carries no list of returns', () => {
		expect(normalizeItrData(reference).filingCount).toBe(2);
		expect(normalizeItrData(sample).filingCount).toBe(normalizeItrData(sample).filings.length);
		const withoutList = { ...reference.data } as Record<string, unknown>;
		delete withoutList.itr_records;
		expect(normalizeItrData({ data: withoutList }).filingCount).toBeNull();
		// an empty list is not told apart from a lost one
		expect(
			normalizeItrData({ data: { ...reference.data, itr_records: [] } }).filingCount,
		).toBeNull();
		// a return without a readable year: which one is newest is unknown
		const records = [
			...reference.data.itr_records,
			{ ...reference.data.itr_records[0], acknowledgement_number: '999', assessment_year: null },
		];
		expect(normalizeItrData({ data: { ...reference.data, itr_records: records } })).toMatchObject({
			filingCount: 3,
			latestFiling: null,
		});
	});

	it('filing and refund statuses in one case whichever case the service sends', () => {
		const record = { ...reference.data.itr_records[0], refund_status: 'NOT APPLICABLE' };
		const out = normalizeItrData({
			data: { ...reference.data, filing_status: 'REVISED', itr_records: [record] },
		});
		expect(out.filingStatus).toBe('Revised');
		expect(out.filings[0].refundStatus).toBe('Not Applicable');
	});

	it.each([
		['{}', {}],
		['data: null', { success: true, data: null }],
		['data: {}', { success: true, data: {} }],
	])('answers without their identifying facts (%s) are named as missing', (_, body) => {
		expect(missingField(body, ITR_DATA_REQUIRED)).toMatch(/^a PAN, name, job id or return/);
		expect(missingField(body, JOB_STATUS_REQUIRED)).toBe('data.status');
		expect(missingField(body, PASSWORD_RESET_REQUIRED)).toBe('data.status');
	});

	it('answers that carry them pass', () => {
		expect(missingField(reference, ITR_DATA_REQUIRED)).toBeUndefined();
		expect(missingField(sample, ITR_DATA_REQUIRED)).toBeUndefined();
		expect(
			missingField({ data: { job_id: 'j', status: 'processing' } }, JOB_STATUS_REQUIRED),
		).toBeUndefined();
		expect(
			missingField(
				{ success: true, data: { client_id: 'c', status: 'otp_sent' } },
				PASSWORD_RESET_REQUIRED,
			),
		).toBeUndefined();
	});
});

describe('Get ITR Data grammar', () => {
	const records = reference.data.itr_records;
	const itr = (list: unknown[]) =>
		normalizeItrData({ data: { ...reference.data, itr_records: list } });
	const thisYear = new Date().getUTCFullYear();

	it.each([
		['2024-25', '2024-25'],
		['AY 2024-25', '2024-25'],
		['A.Y. 2024-25', '2024-25'],
		['AY:2024-25', '2024-25'],
		['2024 - 25', '2024-25'],
		['2024/25', '2024-25'],
		['2024-2025', '2024-25'],
		['1999-00', '1999-00'],
		['1999-2000', '1999-00'],
		[' 2024-25 ', '2024-25'],
	])('the assessment year %p reads %p', (input, expected) =>
		expect(toAssessmentYear(input)).toBe(expected),
	);

	it.each([
		['a bare year', '2024'],
		['years that do not follow each other', '2024-26'],
		['a four-digit end that does not follow', '2024-2026'],
		['a year before 1950', '1901-02'],
		['a year not yet open', `${thisYear + 1}-${String((thisYear + 2) % 100).padStart(2, '0')}`],
		['text around it', 'FY 2024-25 (revised)'],
		['a number', 2024],
		['a blank', '  '],
	])('an assessment year that is %s is unknown', (_, input) =>
		expect(toAssessmentYear(input)).toBeNull(),
	);

	it('the same return listed twice (one acknowledgement number) counts once', () => {
		const out = itr([records[0], records[1], { ...records[1] }]);
		expect(out.filingCount).toBe(2);
		expect(out.filings).toHaveLength(2);
		expect(out.latestFiling?.acknowledgementNumber).toBe('222');
	});

	it('two copies of one return that disagree make the count and the latest return unknown', () => {
		const out = itr([records[0], records[1], { ...records[1], gross_total_income: 2_000_000 }]);
		expect(out).toMatchObject({ filingCount: null, latestFiling: null });
	});

	it('without acknowledgement numbers a return is its assessment year and form', () => {
		const bare = records.map(({ acknowledgement_number: _, ...rest }) => rest);
		expect(itr([...bare, { ...bare[1] }]).filingCount).toBe(2);
		expect(itr([...bare, { ...bare[1], net_taxable_income: 1 }]).filingCount).toBeNull();
		// another form for the same year is another return
		expect(itr([...bare, { ...bare[1], itr_type: 'ITR-3' }]).filingCount).toBe(3);
	});

	it('a deep-equal copy of a return without identity is unknown', () => {
		const anonymous = { ...records[0], acknowledgement_number: null, assessment_year: 'x' };
		expect(itr([records[1], anonymous, { ...anonymous }]).filingCount).toBeNull();
	});

	it('an unreadable newest return leaves the latest return unknown, not last year', () => {
		const out = itr([records[0], { ...records[1], assessment_year: '2024-26' }]);
		expect(out.filingCount).toBe(2);
		expect(out.latestFiling).toBeNull();
	});

	it('two returns of the newest year: the later filing is latest, a tie is unknown', () => {
		const revised = { ...records[1], acknowledgement_number: '223', filing_date: '2024-11-02' };
		expect(itr([records[0], records[1], revised]).latestFiling?.acknowledgementNumber).toBe('223');
		const tie = { ...revised, filing_date: records[1].filing_date };
		expect(itr([records[0], records[1], tie]).latestFiling).toBeNull();
		const undated = { ...revised, filing_date: null };
		expect(itr([records[0], records[1], undated]).latestFiling).toBeNull();
	});

	it.each([
		['negative', -900000],
		['beyond 1e13', 1e21],
		['text', 'nine lakh'],
		['a blank', ' '],
	])('a gross total income that is %s is unknown (not skipped for another field)', (_, value) => {
		const out = itr([records[0], { ...records[1], gross_total_income: value }]);
		expect(out.latestFiling?.grossTotalIncome).toBeNull();
		expect(out.filings[0].grossTotalIncome).toBeNull();
	});

	it.each([
		['negative', -1],
		['beyond 1e13', 1e21],
	])('a taxable income that is %s is unknown', (_, value) =>
		expect(
			itr([{ ...records[1], net_taxable_income: value }]).latestFiling?.taxableIncome,
		).toBeNull(),
	);

	it('refund and demand amounts are never negative; income heads may be a loss', () => {
		const out = itr([{ ...records[1], refund_amount: -7600, demand_amount: -1 }]).filings[0];
		expect(out).toMatchObject({ refundAmount: null, demandAmount: null });
		expect(itr([records[0]]).filings[0].incomeHeads.houseProperty).toBe(-20000);
		const heads = { ...records[0].income_heads, salary: -5, capital_gains: 1e21 };
		expect(itr([{ ...records[0], income_heads: heads }]).filings[0].incomeHeads).toMatchObject({
			salary: null,
			capitalGains: null,
			houseProperty: -20000,
		});
	});

	it('the sample shape: the income under analyzed_data follows the same grammar', () => {
		const filing = sample.data.filings[0];
		const analysed = filing.analyzed_data;
		const bad = {
			...filing,
			analyzed_data: {
				...analysed,
				income_summary: { ...analysed.income_summary, gross_total_income: -810000 },
			},
		};
		const out = normalizeItrData({ data: { ...sample.data, filings: [bad] } });
		expect(out.latestFiling?.grossTotalIncome).toBeNull();
		expect(
			normalizeItrData({ data: { ...sample.data, filings: [filing, filing] } }).filingCount,
		).toBe(1);
	});
});
