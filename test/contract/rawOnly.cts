/**
 * The reviewed "raw only" list: properties of the service's responses that the Normalized output does
 * not carry, each with the reason. Everything else a response schema in openapi/finverify.openapi.yaml
 * documents must be read by the operation's normalizer (test/unit/contract/coverage.test.cts). All of
 * these stay available with Output: Raw (Simplify off in version 1). docs/output.md shows this list.
 *
 * A path is `a.b[].c` (array items as `[]`); an entry covers that property and everything under it; `*`
 * stands for one property name (a bureau, a related-entity group).
 */
export interface RawOnly {
	path: string;
	reason: string;
	/** Envelope fields, listed for every schema; the staleness check skips them where absent. */
	envelope?: true;
}

const ENVELOPE: RawOnly[] = (
	[
		{ path: 'success', reason: 'Envelope: always true on a result (failures become node errors).' },
		{ path: 'status', reason: 'Envelope: always "success" on a result.' },
		{ path: 'status_code', reason: 'Envelope: the HTTP status, always 200 on a result.' },
		{ path: 'message', reason: 'Envelope: fixed service text such as "Success".' },
	] as RawOnly[]
).map((entry) => ({ ...entry, envelope: true }));

export const RAW_ONLY: Record<string, RawOnly[]> = {
	MultiBureauReference: [
		...ENVELOPE.filter((e) => e.path !== 'status'),
		{
			path: 'data.*.report.accounts',
			reason:
				'Account list of the bureau report: counted in accountCount; the list itself comes with the option Include Full Bureau Reports (report, reportLayout "reference").',
		},
		{
			path: 'data.*.report.inquiries',
			reason:
				'Enquiry list: counted in enquiryCount; the list comes with Include Full Bureau Reports.',
		},
	],
	MultiBureauSample: [
		...ENVELOPE,
		{ path: 'results.*.data.client_id', reason: "The service's internal id of one bureau pull." },
		{ path: 'results.equifax.data.id_number', reason: 'The identifier that was sent (the PAN).' },
		{ path: 'results.equifax.data.id_type', reason: 'The kind of identifier that was sent.' },
		{
			path: 'results.*.data.credit_report',
			reason:
				"The bureau's own report layout: score, account count, enquiry count and payment history are read from it; the whole report comes with Include Full Bureau Reports (reportLayout names the bureau).",
		},
	],
	CompanyReference: ENVELOPE,
	CompanySample: [
		...ENVELOPE,
		{ path: 'data.doc_id', reason: "The service's internal document id." },
		{ path: 'data.result.client_id', reason: "The service's internal id of the lookup." },
		{
			path: 'data.result.description.desc_thousand_char',
			reason: 'A longer version of description.summary (kept as summary).',
		},
		{
			path: 'data.result.principal_business_activities[].main_activity_group_description',
			reason: 'Activity group heading; the activity itself is kept (activity).',
		},
		{
			path: 'data.result.principal_business_activities[].percentage_of_turnover',
			reason: 'Turnover share of an activity; only the main activity is kept.',
		},
		{
			path: 'data.result.financials[].pnl.lineItems',
			reason:
				'Profit-and-loss line items: latestFinancials keeps revenue, operating profit, profit before and after tax.',
		},
		{
			path: 'data.result.financials[].bs.assets',
			reason: 'Balance-sheet asset lines: latestFinancials keeps total assets.',
		},
		{
			path: 'data.result.financials[].bs.liabilities',
			reason: 'Balance-sheet liability lines: latestFinancials keeps total equity and total debt.',
		},
		{
			path: 'data.result.financials[].bs.subTotals.net_fixed_assets',
			reason: 'A balance-sheet subtotal not needed for decisions.',
		},
		{
			path: 'data.result.financials[].cash_flow',
			reason: 'Cash-flow statement lines (a statement, not a decision fact).',
		},
		{
			path: 'data.result.financials[].ratios',
			reason:
				'Further ratios: latestFinancials keeps net margin, revenue growth, debt to equity and current ratio.',
		},
		{
			path: 'data.result.financials[].auditor.auditor_name',
			reason: 'The signing auditor; the audit firm is kept (auditorFirm).',
		},
		{
			path: 'data.result.financials[].auditor.firm_registration_number',
			reason: "The audit firm's registration number.",
		},
		{
			path: 'data.result.*_entities',
			reason: 'Holding, subsidiary and associate entities (lists of names and shares).',
		},
		{ path: 'data.result.joint_ventures', reason: 'Joint ventures (a list of names and shares).' },
		{
			path: 'data.result.shareholdings',
			reason: 'Shareholding by category: the latest totals are kept in shareholdingSummary.',
		},
	],
	LlpReference: ENVELOPE,
	LlpSample: [
		// the company record's groups, and the LLP's own extra lists
		...[
			'success',
			'status_code',
			'message',
			'data.doc_id',
			'data.result.client_id',
			'data.result.description.desc_thousand_char',
			'data.result.principal_business_activities[].main_activity_group_description',
			'data.result.principal_business_activities[].percentage_of_turnover',
			'data.result.financials[].pnl.lineItems',
			'data.result.financials[].bs.assets',
			'data.result.financials[].bs.liabilities',
			'data.result.financials[].bs.subTotals.net_fixed_assets',
			'data.result.financials[].cash_flow',
			'data.result.financials[].ratios',
			'data.result.financials[].auditor.auditor_name',
			'data.result.financials[].auditor.firm_registration_number',
			'data.result.*_entities',
			'data.result.joint_ventures',
			'data.result.shareholdings',
		].map((path) => ({ path, reason: 'As for the company record (CompanySample).' })),
		{
			path: 'data.result.company',
			reason:
				'Company-only fields (registration number, category, class, capital, members) the service sends empty for an LLP.',
		},
		{
			path: 'data.result.shareholdings_more_than_five_percent',
			reason: 'Shareholder lists: not defined by the specification.',
		},
		{ path: 'data.result.director_shareholdings', reason: 'Not defined by the specification.' },
		{ path: 'data.result.securities_allotment', reason: 'Not defined by the specification.' },
		{
			path: 'data.result.msme_supplier_payment_delays',
			reason: 'MSME payment-delay trend: not defined in detail by the specification.',
		},
		{ path: 'data.result.industry_segments', reason: 'Industry classification lists.' },
		{
			path: 'data.result.establishments_registered_with_epfo',
			reason: 'Not defined by the specification.',
		},
		{ path: 'data.result.struckoff248_details', reason: 'Not defined by the specification.' },
	],
	PanEntityReference: ENVELOPE,
	PanEntitySample: [
		...ENVELOPE,
		{ path: 'data.doc_id', reason: "The service's internal document id." },
		{ path: 'data.result.client_id', reason: "The service's internal id of the lookup." },
	],
	AutocompleteReference: [
		...ENVELOPE,
		{ path: 'total_results', reason: 'The number of output items (one item per match).' },
	],
	AutocompleteSample: [
		...ENVELOPE,
		{ path: 'doc_id', reason: "The service's internal document id." },
		{ path: 'company_name', reason: 'The query as sent (uppercased); the output carries query.' },
	],
	EpfoCrifSample: [
		{ path: 'status_code', reason: 'Envelope: the HTTP status, always 200 on a result.' },
		{ path: 'data.epfo.prefill.mobile', reason: 'The mobile number that was sent.' },
		{
			path: 'data.epfo.prefill.details.phone_info',
			reason: 'Phone numbers reported to the bureau (contact data, not a decision fact).',
		},
		{
			path: 'data.epfo.prefill.details.address_info',
			reason: 'Addresses reported to the bureau (contact data, not a decision fact).',
		},
		{
			path: 'data.epfo.prefill.details.email_info',
			reason: 'E-mail addresses reported to the bureau (contact data, not a decision fact).',
		},
		{
			path: 'data.epfo.prefill.details.identity_info',
			reason: 'Identity documents other than the PAN (the PAN is kept); sensitive, not copied.',
		},
		{ path: 'data.credit_report.aadhaar_number', reason: 'Masked Aadhaar number; sensitive.' },
		{
			path: 'data.credit_report.credit_report.HEADER',
			reason: 'Report header batch and enquiry ids and status (report id and dates are kept).',
		},
		{
			path: 'data.credit_report.credit_report.PERSONAL-INFO-VARIATION',
			reason: 'Name, address and identity variations seen by the bureau.',
		},
		{
			path: 'data.credit_report.credit_report.SECONDARY-MATCHES',
			reason: 'Other bureau records that might be this person.',
		},
		{
			path: 'data.credit_report.credit_report.EMPLOYMENT-DETAILS',
			reason: 'Employment as reported to the bureau (the EPFO part is the source for employment).',
		},
	],
	ItrJobStarted: [ENVELOPE[0]],
	ItrJobStatus: [ENVELOPE[0]],
	ItrDataReference: ENVELOPE,
	ItrDataSample: [
		...ENVELOPE,
		{ path: 'data.doc_id', reason: "The service's internal document id." },
		{
			path: 'data.profile.jurisdiction',
			reason: "The taxpayer's assessing-officer jurisdiction (an address, not a decision fact).",
		},
		{
			path: 'data.filings[].parsed_data.ITR',
			reason: "The return as filed, in the form's own layout (hundreds of fields per form).",
		},
		{
			path: 'data.filings[].analyzed_data.personal_info',
			reason: 'Repeats the profile (kept once).',
		},
		{
			path: 'data.filings[].analyzed_data.verification',
			reason: 'Verification declaration of the return.',
		},
	],
	PasswordResetState: [ENVELOPE[0]],
	JourneyCreated: ENVELOPE,
	JourneyStatusReference: ENVELOPE,
	StatementReference: ENVELOPE,
	StatementSample: [
		...ENVELOPE,
		{
			path: 'data.failed_at_stage',
			reason: 'Journey progress: see Get Status, which carries it.',
		},
		{ path: 'data.completed_accounts', reason: 'Journey progress: see Get Status.' },
		{ path: 'data.failed_accounts', reason: 'Journey progress: see Get Status.' },
		{ path: 'data.error_message', reason: 'Journey progress: see Get Status.' },
		{ path: 'data.created_at', reason: 'Journey timestamps: see Get Status.' },
		{ path: 'data.updated_at', reason: 'Journey timestamps: see Get Status.' },
		{ path: 'data.is_charged', reason: 'Billing of the analysis (not a fact about the subject).' },
		{
			path: 'data.amount_charged',
			reason: 'Billing of the analysis (not a fact about the subject).',
		},
		{ path: 'data.accounts[].error_message', reason: 'Per-account progress: see Get Status.' },
		{
			path: 'data.accounts[].account_info.address',
			reason: "Account holder's contact data (not a decision fact).",
		},
		{
			path: 'data.accounts[].account_info.micr_code',
			reason: 'Cheque MICR code of the branch (the IFSC is kept).',
		},
		{ path: 'data.accounts[].account_info.customer_id', reason: "The bank's customer number." },
		{ path: 'data.accounts[].account_info.ckyc_number', reason: 'Central KYC number; sensitive.' },
		{ path: 'data.accounts[].account_info.email', reason: "Account holder's contact data." },
		{ path: 'data.accounts[].account_info.phone', reason: "Account holder's contact data." },
		{ path: 'data.accounts[].account_info.pincode', reason: "Account holder's contact data." },
		{
			path: 'data.accounts[].analysis_completed',
			reason: 'Progress of the analysis: Get Analysis carries its result.',
		},
		{ path: 'data.accounts[].analysis_result', reason: 'See Get Analysis.' },
		{
			path: 'data.accounts[].analysis_url',
			reason: 'Time-limited links to files of the analysis (expire; not stable output).',
		},
		{ path: 'data.accounts[].analysis_json_url', reason: 'Time-limited link (see analysis_url).' },
		{ path: 'data.accounts[].input_s3_url', reason: 'Time-limited link (see analysis_url).' },
		{
			path: 'data.accounts[].mismatched_sequence_date',
			reason: 'Statement parsing diagnostics of the service.',
		},
		{
			path: 'data.accounts[].negative_balance',
			reason: 'Negative-balance rows: Get Analysis carries the flag.',
		},
		{ path: 'data.accounts[].discrepancies', reason: 'Statement parsing diagnostics.' },
		{ path: 'data.accounts[].checkpoint', reason: 'Internal progress marker of the service.' },
		{ path: 'data.accounts[].progress', reason: 'Internal progress of the service.' },
		{
			path: 'data.accounts[].analysis_summary',
			reason:
				'Summary counts per mode and balances: derived from the transactions, which are all in the output; Get Analysis carries the analysis.',
		},
	],
	AnalysisReference: ENVELOPE,
	AnalysisSample: [
		...ENVELOPE,
		{ path: 'data.accounts[].bsa_client_id', reason: "The service's internal id of one analysis." },
		{
			path: 'data.accounts[].analysis_json.entity_type',
			reason: 'Not defined by the specification.',
		},
		{
			path: 'data.accounts[].analysis_json.health_score.breakdown',
			reason: 'Penalty breakdown of the health score (the score, rating and counts are kept).',
		},
		{
			path: 'data.accounts[].analysis_json.health_score.details.*.penalty',
			reason: 'Penalty arithmetic of the health score.',
		},
		{
			path: 'data.accounts[].analysis_json.health_score.details.*.weight',
			reason: 'Penalty arithmetic of the health score.',
		},
		{
			path: 'data.accounts[].analysis_json.health_score.thresholds',
			reason: 'Fixed rating thresholds (documented in the specification).',
		},
		{
			path: 'data.accounts[].analysis_json.flagged_transactions.reconciliation_issues',
			reason: 'Statement parsing diagnostics.',
		},
		{
			path: 'data.accounts[].analysis_json.flagged_transactions.date_mismatch_transactions',
			reason: 'Statement parsing diagnostics.',
		},
		{
			path: 'data.accounts[].analysis_json.suspicious_transactions.suspicious_debits',
			reason:
				'Debits the analysis flags: not defined in detail by the specification (the suspicious credits are kept).',
		},
		{
			path: 'data.accounts[].analysis_json.suspicious_transactions.monthwise_summary',
			reason:
				'Suspicious transactions counted per month (the suspicious credits themselves are kept).',
		},
		{
			path: 'data.accounts[].analysis_json.summary_card.statement_period.days',
			reason: 'Derived from the period dates, which are kept.',
		},
		{
			path: 'data.accounts[].analysis_json.summary_card.statement_period.months',
			reason: 'Derived from the period dates, which are kept.',
		},
	],
	CollectionSession: [
		...ENVELOPE.filter((e) => e.path !== 'status' && e.path !== 'message'),
		{
			path: 'data.token',
			reason: 'The session token is part of the session link (link), kept there.',
		},
	],
};

/** Whether `leaf` is `entry` or lies under it (`*` matches one property name). */
export function covers(entry: string, leaf: string): boolean {
	const pattern = new RegExp(
		`^${entry
			.split('*')
			.map((part) => part.replace(/[.[\]^$()+?{}|\\]/g, '\\$&'))
			.join('[^.\\[\\]]+')}($|[.[])`,
	);
	return pattern.test(leaf);
}
