import type { IDataObject } from 'n8n-workflow';

import { asArray, asObject, first, isObject, toIsoDate, toNumber, toText, unwrap } from './common';

export interface AutocompleteEntry {
	name: string;
	entityType: 'Company' | 'LLP';
	/** CIN for companies, LLPIN for LLPs. */
	identifier: string | null;
	cin: string | null;
	llpin: string | null;
	status: string | null;
	state: string | null;
}

const LLPIN = /^[A-Z]{3}-\d{4}$/;

/**
 * Autocomplete, either shape: reference `{data:[{entity_name, entity_type, cin, llpin, status, state}]}`
 * or sample `{result:[{company_name, cin (an LLPIN for LLPs), category: ltd|llp}]}`.
 */
export function normalizeAutocomplete(body: unknown): AutocompleteEntry[] {
	const object = asObject(body);
	const nested = asObject(object.data);
	const list = Array.isArray(object.data)
		? object.data
		: Array.isArray(object.result)
			? object.result
			: asArray(nested.result);
	return asArray(list).map((raw) => {
		const entry = asObject(raw);
		const category = toText(entry.category)?.toLowerCase();
		const declaredType = toText(entry.entity_type);
		const rawCin = toText(entry.cin)?.toUpperCase() ?? null;
		const isLlp =
			declaredType === 'LLP' ||
			category === 'llp' ||
			(declaredType === null && rawCin !== null && LLPIN.test(rawCin));
		const llpin = isLlp ? (toText(entry.llpin)?.toUpperCase() ?? rawCin) : null;
		const cin = isLlp ? null : rawCin;
		return {
			name: toText(first(entry.entity_name, entry.company_name, entry.name)) ?? '',
			entityType: isLlp ? 'LLP' : 'Company',
			identifier: isLlp ? llpin : cin,
			cin,
			llpin,
			status: toText(entry.status),
			state: toText(entry.state),
		};
	});
}

export interface CompanySummary extends IDataObject {
	shape: 'reference' | 'sample';
	cin: string | null;
	name: string | null;
	status: string | null;
	companyType: string | null;
	dateOfIncorporation: string | null;
	registeredAddress: string | null;
	state: string | null;
	rocCode: string | null;
	authorisedCapital: number | null;
	paidUpCapital: number | null;
	email: string | null;
	pan: string | null;
	pdfUrl: string | null;
}

/** CIN lookup, either shape, to one stable object. Sample-only groups are kept under `details`. */
export function normalizeCompany(body: unknown): CompanySummary {
	const data = unwrap(body);
	if (isObject(data.result)) {
		const result = data.result;
		const company = asObject(result.company);
		const contact = asObject(result.contact_details);
		const emails = asArray(contact.email).map((e) => toText(asObject(e).emailId)).filter(Boolean);
		const indicators = asObject(result.key_indicators);
		const score = asObject(result.service_financial_score);
		return {
			shape: 'sample',
			cin: toText(first(company.cin, data.cin))?.toUpperCase() ?? null,
			name: toText(company.legal_name),
			status: toText(first(company.status, result.status)),
			companyType: toText(first(company.company_category, company.class_of_company)),
			dateOfIncorporation: toIsoDate(company.date_of_incorporation),
			registeredAddress: toText(company.registered_office_address),
			state: toText(first(company.state, result.state)),
			rocCode: toText(first(company.roc_code, company.registration_number)),
			authorisedCapital: toNumber(company.authorised_capital),
			paidUpCapital: toNumber(company.paid_up_capital),
			email: toText(first(company.email, emails[0])),
			pan: toText(first(company.pan, result.pan))?.toUpperCase() ?? null,
			pdfUrl: toText(data.pdf_url),
			revenue: toNumber(indicators.revenue),
			profit: toNumber(indicators.profit),
			employeeCount: toNumber(indicators.employee_count),
			financialScore: toNumber(score.overall_financial_score),
			directors: asArray(result.authorized_signatories).map((s) => {
				const signatory = asObject(s);
				return {
					name: toText(signatory.name),
					designation: toText(signatory.designation),
					din: toText(signatory.din),
					appointedOn: toIsoDate(signatory.date_of_appointment_for_current_designation),
					ceasedOn: toIsoDate(signatory.date_of_cessation),
				};
			}),
			details: result,
		};
	}
	return {
		shape: 'reference',
		cin: toText(data.cin)?.toUpperCase() ?? null,
		name: toText(data.company_name),
		status: toText(data.status),
		companyType: toText(data.company_type),
		dateOfIncorporation: toIsoDate(data.date_of_incorporation),
		registeredAddress: toText(data.registered_address),
		state: toText(data.state),
		rocCode: toText(data.roc_code),
		authorisedCapital: toNumber(data.authorised_capital),
		paidUpCapital: toNumber(data.paid_up_capital),
		email: toText(data.email),
		pan: toText(data.pan)?.toUpperCase() ?? null,
		pdfUrl: null,
		revenue: null,
		profit: null,
		employeeCount: null,
		financialScore: null,
		directors: [],
		details: null,
	};
}
