import { missingField } from '../../../nodes/FinVerify/transport';
import {
	autocompleteEntries,
	AUTOCOMPLETE_REQUIRED,
	COMPANY_REQUIRED,
	ENTITY_REQUIRED,
	LLP_REQUIRED,
	normalizeAutocomplete,
	normalizeCompany,
	normalizeEntity,
	normalizeLlp,
	parseCin,
} from '../../../nodes/FinVerify/helpers/normalize/company';
import { toStatusText } from '../../../nodes/FinVerify/helpers/normalize/statusText';

// Hand-written after the contract's CompanyReference (openapi/finverify.openapi.yaml)
const companyReference = {
	success: true,
	message: 'Company details fetched successfully',
	data: {
		cin: 'l17110mh1973plc019786',
		company_name: 'ACME TEXTILES LIMITED',
		status: 'Active',
		company_type: 'Public Limited Company',
		date_of_incorporation: '1973-05-08',
		registered_address: '1 Main Road, Mumbai, Maharashtra - 400001',
		state: 'Maharashtra',
		roc_code: 'RoC-Mumbai',
		authorised_capital: 50000000,
		paid_up_capital: '2,50,00,000',
		email: 'accounts@acme.in',
		pan: 'AAACA1234B',
	},
};

const financial = (year: string, revenue: number) => ({
	nature: 'STANDALONE',
	year,
	pnl: {
		lineItems: {
			net_revenue: revenue,
			operating_profit: 10,
			profit_before_tax: 8,
			profit_after_tax: 6,
		},
	},
	bs: {
		assets: { given_assets_total: 100 },
		liabilities: {},
		subTotals: { total_equity: 40, total_debt: 20, net_fixed_assets: 30 },
	},
	cash_flow: {},
	ratios: { net_margin: 0.06, debt_by_equity: 0.5, current_ratio: 1.4 },
	auditor: { auditor_firm_name: 'SHAH & ASSOCIATES' },
});

const sampleResultGroups = {
	description: { desc_thousand_char: 'Long text', summary: 'Acme: textiles, Maharashtra' },
	contact_details: {
		email: [{ emailId: 'hello@acme.in' }],
		phone: [{ phoneNumber: '+919876543210' }],
	},
	principal_business_activities: [
		{
			main_activity_group_description: 'Manufacturing',
			business_activity_description: 'Manufacture of textiles',
			percentage_of_turnover: 100,
		},
	],
	filing_dates: {
		annual_return_date: '2024-09-30',
		balance_sheet_date: '2024-03-31',
		last_agm_date: '2024-09-30',
	},
	key_indicators: {
		revenue: 120000000,
		profit: 6000000,
		employee_count: 240,
		pending_cases_filed_against_this_corporate: false,
		bureau_defaults: false,
		gst_filing_delay: true,
		epf_payment_delay: null,
	},
	service_financial_score: { overall_financial_score: 7.25, growth_score: 6 },
	financials: [financial('2023-03-31', 100), financial('2024-03-31', 120)],
	authorized_signatories: [
		{
			name: 'RAVI SHAH',
			designation: 'Managing Director',
			din: '01234567',
			date_of_appointment_for_current_designation: '2015-04-01',
			date_of_cessation: null,
		},
	],
};

// Hand-written after the contract's CompanySample
const companySample = {
	success: true,
	data: {
		doc_id: 'doc_1',
		cin: 'U72200KA2010PTC054321',
		pdf_url: 'https://files.example.com/company.pdf',
		result: {
			client_id: 'corporate_1',
			company: {
				legal_name: 'ACME INFOTECH PRIVATE LIMITED',
				cin: 'U72200KA2010PTC054321',
				registration_number: '054321',
				date_of_incorporation: '2010-06-15',
				company_category: 'Company limited by shares',
				company_sub_category: 'Non-govt company',
				class_of_company: 'Private',
				registered_office_address: '2 MG Road, Bengaluru, Karnataka - 560001',
				email: '',
				authorised_capital: 1000000,
				paid_up_capital: 500000,
				number_of_members: 7,
				activity: 'Computer programming',
			},
			...sampleResultGroups,
		},
	},
};

describe('parseCin', () => {
	it('reads listing and state from a CIN', () => {
		expect(parseCin('L17110MH1973PLC019786')).toEqual({ listed: true, state: 'Maharashtra' });
		expect(parseCin('u72200ka2010ptc054321')).toEqual({ listed: false, state: 'Karnataka' });
		expect(parseCin('U72200ZZ2010PTC054321')).toEqual({ listed: false, state: null });
		expect(parseCin('not a cin')).toEqual({ listed: null, state: null });
		expect(parseCin(undefined)).toEqual({ listed: null, state: null });
	});
});

describe('normalizeCompany', () => {
	it('reads the reference shape', () => {
		const out = normalizeCompany(companyReference);
		expect(out).toMatchObject({
			shape: 'reference',
			cin: 'L17110MH1973PLC019786',
			name: 'ACME TEXTILES LIMITED',
			status: 'Active',
			companyType: 'Public Limited Company',
			listed: true,
			dateOfIncorporation: '1973-05-08',
			state: 'Maharashtra',
			rocCode: 'RoC-Mumbai',
			registrationNumber: '019786',
			authorisedCapital: 50000000,
			paidUpCapital: 25000000,
			email: 'accounts@acme.in',
			pan: 'AAACA1234B',
			pdfUrl: null,
			directors: null,
			revenue: null,
			latestFinancials: null,
		});
		expect(out.riskFlags).toEqual({
			pendingCases: null,
			bureauDefaults: null,
			gstFilingDelay: null,
			epfPaymentDelay: null,
		});
	});

	it('reads the sample shape: facts, contacts, flags, newest financial year, directors', () => {
		const out = normalizeCompany(companySample);
		expect(out).toMatchObject({
			shape: 'sample',
			cin: 'U72200KA2010PTC054321',
			name: 'ACME INFOTECH PRIVATE LIMITED',
			companyType: 'Private Limited Company',
			companyCategory: 'Company limited by shares',
			classOfCompany: 'Private',
			listed: false,
			dateOfIncorporation: '2010-06-15',
			registeredAddress: '2 MG Road, Bengaluru, Karnataka - 560001',
			state: 'Karnataka',
			rocCode: null,
			registrationNumber: '054321',
			authorisedCapital: 1000000,
			paidUpCapital: 500000,
			numberOfMembers: 7,
			email: 'hello@acme.in',
			phone: '+919876543210',
			pdfUrl: 'https://files.example.com/company.pdf',
			activity: 'Computer programming',
			summary: 'Acme: textiles, Maharashtra',
			revenue: 120000000,
			profit: 6000000,
			employeeCount: 240,
			financialScore: 7.25,
			lastAgmDate: '2024-09-30',
		});
		expect(out.riskFlags).toEqual({
			pendingCases: false,
			bureauDefaults: false,
			gstFilingDelay: true,
			epfPaymentDelay: null,
		});
		expect(out.latestFinancials).toMatchObject({
			yearEnd: '2024-03-31',
			revenue: 120,
			profitAfterTax: 6,
			totalEquity: 40,
			debtToEquity: 0.5,
			auditorFirm: 'SHAH & ASSOCIATES',
		});
		expect(out.directors).toEqual([
			{
				name: 'RAVI SHAH',
				designation: 'Managing Director',
				din: '01234567',
				appointedOn: '2015-04-01',
				ceasedOn: null,
				current: true,
			},
		]);
	});

	it('gives both shapes the same keys', () => {
		expect(Object.keys(normalizeCompany(companyReference)).sort()).toEqual(
			Object.keys(normalizeCompany(companySample)).sort(),
		);
	});

	it('never throws on partial input', () => {
		for (const body of [
			undefined,
			null,
			{},
			{ data: {} },
			{ data: { result: {} } },
			{ data: { result: { financials: [null], authorized_signatories: [null] } } },
		]) {
			const out = normalizeCompany(body);
			expect(out.cin).toBeNull();
			// the reference layout lists no directors: unknown (null), not none
			expect(out.directors === null || Array.isArray(out.directors)).toBe(true);
		}
	});
});

// Hand-written after the contract's LlpReference
const llpReference = {
	success: true,
	data: {
		llpin: 'aab-1234',
		llp_name: 'SHAH ASSOCIATES LLP',
		status: 'Active',
		date_of_incorporation: '2015-01-20',
		registered_address: '3 Park Street, Kolkata',
		state: 'West Bengal',
		roc_code: 'RoC-Kolkata',
		total_obligation_of_contribution: 250000,
		email: 'info@shah.in',
		pan: 'AAFFS1234C',
	},
};

const llpSample = {
	success: true,
	data: {
		doc_id: 'doc_2',
		llpin: 'AAB-1234',
		result: {
			client_id: 'corporate_2',
			company: {
				legal_name: 'SHAH ASSOCIATES LLP',
				llpin: 'AAB-1234',
				date_of_incorporation: '2015-01-20',
				registered_office_address: '3 Park Street, Kolkata',
				email: 'info@shah.in',
				authorised_capital: null,
				paid_up_capital: null,
			},
			...sampleResultGroups,
			authorized_signatories: [
				{ name: 'A SHAH', designation: 'Designated Partner', din: '07654321' },
			],
			gst_details: [
				{
					gstin: '19aaffs1234c1z5',
					state: 'West Bengal',
					status: 'Active',
					taxpayer_type: 'Regular',
					filing_timeliness: 'Regular',
				},
			],
			open_charges: [{ charge_holder: 'SBI' }],
			credit_ratings: [],
			legal_history: [],
			legal_cases_of_financial_disputes: { total_cases: 2 },
		},
	},
};

describe('normalizeLlp', () => {
	it('reads the reference shape', () => {
		expect(normalizeLlp(llpReference)).toMatchObject({
			shape: 'reference',
			llpin: 'AAB-1234',
			name: 'SHAH ASSOCIATES LLP',
			status: 'Active',
			dateOfIncorporation: '2015-01-20',
			state: 'West Bengal',
			rocCode: 'RoC-Kolkata',
			totalObligationOfContribution: 250000,
			pan: 'AAFFS1234C',
			partners: null,
			gstRegistrations: [],
			openChargeCount: null,
		});
	});

	it('reads the sample shape: partners, GST, charges, cases', () => {
		const out = normalizeLlp(llpSample);
		expect(out).toMatchObject({
			shape: 'sample',
			llpin: 'AAB-1234',
			name: 'SHAH ASSOCIATES LLP',
			registeredAddress: '3 Park Street, Kolkata',
			state: 'West Bengal',
			email: 'info@shah.in',
			totalObligationOfContribution: null,
			openChargeCount: 1,
			creditRatingCount: 0,
			legalCaseCount: 2,
			revenue: 120000000,
		});
		expect(out.partners?.[0]).toMatchObject({
			name: 'A SHAH',
			designation: 'Designated Partner',
			din: '07654321',
			appointedOn: null,
		});
		expect(out.gstRegistrations).toEqual([
			{
				gstin: '19AAFFS1234C1Z5',
				state: 'West Bengal',
				status: 'Active',
				taxpayerType: 'Regular',
				filingTimeliness: 'Regular',
				registeredOn: null,
			},
		]);
	});

	it('gives both shapes the same keys and never throws', () => {
		expect(Object.keys(normalizeLlp(llpReference)).sort()).toEqual(
			Object.keys(normalizeLlp(llpSample)).sort(),
		);
		expect(normalizeLlp(undefined).llpin).toBeNull();
		expect(normalizeLlp({ data: { result: { gst_details: 'x' } } }).gstRegistrations).toEqual([]);
	});
});

// Hand-written after the contract's PanEntityReference
const entityReference = {
	success: true,
	data: {
		pan: 'AAACA1234B',
		entity_name: 'ACME TEXTILES LIMITED',
		entity_type: 'Company',
		status: 'Active',
		cin: 'L17110MH1973PLC019786',
		llpin: null,
		date_of_incorporation: '1973-05-08',
		registered_address: '1 Main Road, Mumbai',
		state: null,
	},
};

const entitySample = {
	success: true,
	data: {
		doc_id: 'doc_3',
		pan: 'AAACA1234B',
		result: {
			client_id: 'c',
			pan: 'AAACA1234B',
			entity_type: 'Company',
			legal_name: 'ACME TEXTILES LIMITED',
			cin: 'L17110MH1973PLC019786',
			date_of_registration: '1973-05-08',
			registered_address: '1 Main Road, Mumbai',
			status: 'Active',
			company: {
				legal_name: 'ACME TEXTILES LIMITED',
				cin: 'L17110MH1973PLC019786',
				company_category: 'Company limited by shares',
				class_of_company: 'Public',
				registered_office_address: '1 Main Road, Mumbai',
				date_of_incorporation: '1973-05-08',
				authorised_capital: 50000000,
				paid_up_capital: 25000000,
			},
			gst_details: [
				{
					gstin: '27AAACA1234B1Z5',
					state: 'Maharashtra',
					status: 'Active',
					taxpayer_type: 'Regular',
					filing_timeliness: 'Delayed',
					date_of_registration: '2017-07-01',
				},
			],
			itr_filing_history: [
				{
					assessment_year: '2024-25',
					filing_date: '2024-10-15',
					return_type: 'ITR-6',
					status: 'Filed',
				},
			],
			tds_tcs_compliance: {
				tds_defaults: false,
				last_tds_filing_date: '2025-02-28',
				filing_timeliness: 'Regular',
			},
			key_indicators: { profit: -120000, bureau_defaults: false, gst_filing_delay: true },
			directors: [{ name: 'RAVI SHAH', designation: 'Director', din: '01234567' }],
		},
	},
};

describe('normalizeEntity', () => {
	it('reads the reference shape (state falls back to the CIN state)', () => {
		expect(normalizeEntity(entityReference)).toMatchObject({
			shape: 'reference',
			pan: 'AAACA1234B',
			name: 'ACME TEXTILES LIMITED',
			entityType: 'Company',
			cin: 'L17110MH1973PLC019786',
			llpin: null,
			dateOfIncorporation: '1973-05-08',
			state: 'Maharashtra',
			gstRegistrations: [],
			tdsDefaults: null,
		});
	});

	it('reads the sample shape: company facts, GST, ITR filings, TDS, directors', () => {
		const out = normalizeEntity(entitySample);
		expect(out).toMatchObject({
			shape: 'sample',
			pan: 'AAACA1234B',
			entityType: 'Company',
			cin: 'L17110MH1973PLC019786',
			llpin: null,
			companyCategory: 'Company limited by shares',
			classOfCompany: 'Public',
			authorisedCapital: 50000000,
			profit: -120000,
			bureauDefaults: false,
			gstFilingDelay: true,
			tdsDefaults: false,
			lastTdsFilingDate: '2025-02-28',
			tdsFilingTimeliness: 'Regular',
			state: 'Maharashtra',
		});
		expect(out.itrFilings).toEqual([
			{ assessmentYear: '2024-25', filedOn: '2024-10-15', returnType: 'ITR-6', status: 'Filed' },
		]);
		expect(out.gstRegistrations[0]).toMatchObject({
			gstin: '27AAACA1234B1Z5',
			registeredOn: '2017-07-01',
		});
		expect(out.directors?.[0]).toMatchObject({ name: 'RAVI SHAH', din: '01234567' });
	});

	it('reads an LLP in the sample shape whose cin holds the LLPIN', () => {
		const out = normalizeEntity({
			data: { result: { entity_type: 'LLP', cin: 'AAB-1234', legal_name: 'X LLP' } },
		});
		expect(out).toMatchObject({ entityType: 'LLP', cin: null, llpin: 'AAB-1234' });
	});

	it('gives both shapes the same keys and never throws', () => {
		expect(Object.keys(normalizeEntity(entityReference)).sort()).toEqual(
			Object.keys(normalizeEntity(entitySample)).sort(),
		);
		expect(normalizeEntity(null).pan).toBeNull();
		expect(
			normalizeEntity({ data: { result: { itr_filing_history: [null] } } }).itrFilings[0]
				.assessmentYear,
		).toBeNull();
	});
});

describe('normalizeAutocomplete', () => {
	it('reads the reference shape', () => {
		const out = normalizeAutocomplete({
			success: true,
			total_results: 2,
			data: [
				{
					entity_name: 'ACME TEXTILES LIMITED',
					entity_type: 'Company',
					cin: 'L17110MH1973PLC019786',
					llpin: null,
					status: 'Active',
					state: 'Maharashtra',
				},
				{
					entity_name: 'ACME ASSOCIATES LLP',
					entity_type: 'LLP',
					cin: null,
					llpin: 'AAB-1234',
					status: 'Active',
					state: 'Delhi',
				},
			],
		});
		expect(out).toEqual([
			{
				name: 'ACME TEXTILES LIMITED',
				entityType: 'Company',
				identifier: 'L17110MH1973PLC019786',
				cin: 'L17110MH1973PLC019786',
				llpin: null,
				status: 'Active',
				state: 'Maharashtra',
			},
			{
				name: 'ACME ASSOCIATES LLP',
				entityType: 'LLP',
				identifier: 'AAB-1234',
				cin: null,
				llpin: 'AAB-1234',
				status: 'Active',
				state: 'Delhi',
			},
		]);
	});

	it('reads the sample shape (LLPIN in cin, category llp; state from the CIN)', () => {
		const body = {
			doc_id: 'd',
			company_name: 'ACME',
			result: [
				{
					company_name: 'ACME INFOTECH PRIVATE LIMITED',
					cin: 'U72200KA2010PTC054321',
					category: 'ltd',
				},
				{ company_name: 'ACME ASSOCIATES LLP', cin: 'AAB-1234', category: 'llp' },
			],
		};
		expect(normalizeAutocomplete(body)).toEqual([
			{
				name: 'ACME INFOTECH PRIVATE LIMITED',
				entityType: 'Company',
				identifier: 'U72200KA2010PTC054321',
				cin: 'U72200KA2010PTC054321',
				llpin: null,
				status: null,
				state: 'Karnataka',
			},
			{
				name: 'ACME ASSOCIATES LLP',
				entityType: 'LLP',
				identifier: 'AAB-1234',
				cin: null,
				llpin: 'AAB-1234',
				status: null,
				state: null,
			},
		]);
		expect(normalizeAutocomplete({ data: body })).toHaveLength(2);
		expect(autocompleteEntries(body)).toHaveLength(2);
	});

	it('recognises an LLPIN without a declared type, and tolerates junk', () => {
		expect(
			normalizeAutocomplete({ result: [{ company_name: 'X', cin: 'aab-1234' }] })[0],
		).toMatchObject({ entityType: 'LLP', llpin: 'AAB-1234' });
		// a null or empty entry is not a company
		expect(normalizeAutocomplete({ result: [null, 'x', {}, { category: 'ltd' }] })).toEqual([]);
		expect(normalizeAutocomplete(undefined)).toEqual([]);
	});
});

describe('company: unknown is null, statuses in one case', () => {
	it('a null entry among the results never becomes an empty "Company" item; raw entries stay aligned', () => {
		const body = {
			success: true,
			data: [
				null,
				{ entity_name: 'ACME LTD', entity_type: 'Company', cin: 'U72200KA2010PTC054321' },
				{ entity_name: null, entity_type: null, cin: null, llpin: null },
				{ entity_name: 'ACME LLP', llpin: 'AAB-1234' },
			],
		};
		const out = normalizeAutocomplete(body);
		expect(out.map((e) => [e.name, e.entityType, e.identifier])).toEqual([
			['ACME LTD', 'Company', 'U72200KA2010PTC054321'],
			['ACME LLP', 'LLP', 'AAB-1234'],
		]);
		expect(autocompleteEntries(body).map((e) => e.entity_name)).toEqual(['ACME LTD', 'ACME LLP']);
		// an entry that names nothing about its kind is not guessed to be a company
		expect(normalizeAutocomplete({ result: [{ company_name: 'X' }] })[0]).toMatchObject({
			name: 'X',
			entityType: null,
		});
	});

	it.each([
		['ACTIVE', 'Active'],
		['active', 'Active'],
		['Active', 'Active'],
		['STRUCK OFF', 'Struck Off'],
		['struck_off', 'Struck Off'],
		['UNDER PROCESS OF STRIKING OFF', 'Under Process of Striking Off'],
		['converted to llp', 'Converted to LLP'],
		['under cirp', 'Under CIRP'],
		[200, null],
		['', null],
	])('status %p reads as %p', (raw, status) => {
		expect(toStatusText(raw)).toBe(status);
		for (const out of [
			normalizeCompany({ data: { ...companyReference.data, status: raw } }),
			normalizeLlp({ data: { ...llpReference.data, status: raw } }),
			normalizeEntity({ data: { ...entityReference.data, status: raw } }),
			normalizeAutocomplete({ data: [{ entity_name: 'A', status: raw, cin: 'A' }] })[0],
		])
			expect(out.status).toBe(status);
	});

	it('entity types in the documented case', () => {
		expect(
			normalizeEntity({ data: { ...entityReference.data, entity_type: 'COMPANY' } }),
		).toMatchObject({ entityType: 'Company' });
		expect(
			normalizeEntity({ data: { ...entityReference.data, entity_type: 'llp' } }).entityType,
		).toBe('LLP');
	});

	it("an LLP's credit rating and the banks holding a charge surface, not only counts", () => {
		const result = {
			...llpSample.data.result,
			credit_ratings: [
				{
					rating_agency: 'ICRA',
					rating: 'bbb',
					rating_date: '2023-01-10',
					instrument: 'Term loan',
				},
				{
					rating_agency: 'CRISIL',
					rating: 'BBB+',
					rating_date: '2024-06-30',
					instrument: 'Long-term bank facilities',
				},
			],
			open_charges: [
				{
					charge_holder: 'State Bank of India',
					amount: 5000000,
					date_of_creation: '2022-04-01',
					status: 'OPEN',
				},
				{
					charge_holder: 'HDFC Bank',
					amount: 1000000,
					date_of_creation: '2023-04-01',
					status: 'Open',
				},
				{
					charge_holder: 'State Bank of India',
					amount: 200000,
					date_of_creation: '2024-04-01',
					status: 'open',
				},
			],
		};
		const out = normalizeLlp({ data: { ...llpSample.data, result } });
		expect(out).toMatchObject({
			creditRating: 'BBB+',
			creditRatingCount: 2,
			openChargeCount: 3,
			chargeHolders: ['State Bank of India', 'HDFC Bank'],
		});
		expect(out.creditRatings?.[0]).toEqual({
			agency: 'CRISIL',
			rating: 'BBB+',
			ratedOn: '2024-06-30',
			instrument: 'Long-term bank facilities',
		});
		expect(out.openCharges?.[0]).toEqual({
			holder: 'State Bank of India',
			amount: 5000000,
			createdOn: '2022-04-01',
			status: 'Open',
		});
		// no list: unknown, not "none"; an empty list: none
		const without = { ...result } as Record<string, unknown>;
		delete without.credit_ratings;
		delete without.open_charges;
		expect(normalizeLlp({ data: { ...llpSample.data, result: without } })).toMatchObject({
			creditRating: null,
			creditRatings: null,
			chargeHolders: null,
			openCharges: null,
			openChargeCount: null,
		});
		expect(
			normalizeLlp({ data: { ...llpSample.data, result: { ...result, open_charges: [] } } }),
		).toMatchObject({ chargeHolders: [], openChargeCount: 0 });
		// a charge whose holder is not named leaves the holders unknown rather than short
		expect(
			normalizeLlp({
				data: { ...llpSample.data, result: { ...result, open_charges: [{ amount: 1 }] } },
			}).chargeHolders,
		).toBeNull();
	});

	it.each([
		['{}', {}],
		['data: null', { success: true, data: null }],
		['data: {}', { success: true, data: {} }],
		['an empty result', { success: true, data: { doc_id: 'd', result: {} } }],
	])('an answer carrying no identifying fact (%s) is named as missing', (_, body) => {
		expect(missingField(body, COMPANY_REQUIRED)).toBe(COMPANY_REQUIRED.split('|').join(' or '));
		expect(missingField(body, LLP_REQUIRED)).toBe(LLP_REQUIRED.split('|').join(' or '));
		expect(missingField(body, ENTITY_REQUIRED)).toBe(ENTITY_REQUIRED.split('|').join(' or '));
	});

	it('answers that carry their identifying facts pass', () => {
		for (const body of [companyReference, companySample])
			expect(missingField(body, COMPANY_REQUIRED)).toBeUndefined();
		for (const body of [llpReference, llpSample])
			expect(missingField(body, LLP_REQUIRED)).toBeUndefined();
		for (const body of [entityReference, entitySample])
			expect(missingField(body, ENTITY_REQUIRED)).toBeUndefined();
		expect(missingField({ success: true, data: [] }, AUTOCOMPLETE_REQUIRED)).toBeUndefined();
		expect(missingField({ doc_id: 'd', result: [] }, AUTOCOMPLETE_REQUIRED)).toBeUndefined();
		expect(missingField({ success: true, data: null }, AUTOCOMPLETE_REQUIRED)).toBe(
			'a result list (data or result)',
		);
		expect(missingField({}, AUTOCOMPLETE_REQUIRED)).toBe('a result list (data or result)');
	});
});
