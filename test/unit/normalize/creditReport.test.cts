import {
	bureauReport,
	commercialReportFileName,
	commercialReportHtml,
	normalizeCommercialReport,
	normalizeMultiBureau,
	slugify,
} from '../../../nodes/FinVerify/helpers/normalize/creditReport';

// Hand-written after the contract's MultiBureauReference (openapi/finverify.openapi.yaml)
const reference = {
	status: 'success',
	status_code: 200,
	message: 'Credit reports fetched successfully',
	request_id: 'req_123',
	timestamp: '2025-03-31T10:00:00Z',
	data: {
		cibil: {
			score: 742,
			report: {
				name: 'Priya Sharma',
				pan: 'ABCDE1234F',
				accounts: [{ account_type: 'Personal Loan' }, { account_type: 'Credit Card' }],
				inquiries: [{ date: '2025-01-01' }],
				payment_history: [],
			},
		},
		equifax: {
			score: 701,
			report: { name: 'Priya Sharma', pan: 'abcde1234f', accounts: [], inquiries: [] },
		},
	},
};

// Hand-written after the contract's MultiBureauSample
const sample = {
	doc_id: 'doc_abc',
	pan: 'ABCDE1234F',
	message: 'Credit reports fetched',
	status_code: 200,
	success: true,
	results: {
		equifax: {
			success: true,
			message: 'Success',
			credit_report_link: 'https://files.example.com/equifax.pdf',
			data: {
				client_id: 'equifax_1',
				name: 'PRIYA SHARMA',
				mobile: '9876543210',
				pan: 'ABCDE1234F',
				credit_score: '755',
				id_number: 'ABCDE1234F',
				id_type: 'pan',
				gender: 'Female',
				credit_report: {
					InquiryResponseHeader: {},
					InquiryRequestInfo: {},
					CCRResponse: {
						CIRReportDataLst: [
							{
								CIRReportData: {
									RetailAccountDetails: [{ seq: '1' }, { seq: '2' }, { seq: '3' }],
									ScoreDetails: [{ Value: '755' }],
									EnquirySummary: { Total: '2' },
								},
							},
						],
					},
				},
			},
		},
		experian: {
			success: true,
			message: 'Success',
			credit_report_link: '',
			data: {
				name: 'PRIYA SHARMA',
				mobile: '9876543210',
				pan: 'ABCDE1234F',
				credit_score: '690',
				credit_report: {
					CreditProfileHeader: {},
					CAIS_Account: { CAIS_Account_DETAILS: [{ Account_Type: '05' }, { Account_Type: '10' }] },
				},
			},
		},
	},
};

describe('normalizeMultiBureau', () => {
	it('reads the reference shape: numeric scores, per-bureau outcome, request id', () => {
		const out = normalizeMultiBureau(reference, ['cibil', 'equifax']);
		expect(out.shape).toBe('reference');
		expect(out.success).toBe(true);
		expect(out.requestId).toBe('req_123');
		expect(out.pan).toBe('ABCDE1234F');
		expect(out.bureaus.map((b) => b.bureau)).toEqual(['cibil', 'equifax']);
		expect(out.bureaus[0]).toEqual({
			bureau: 'cibil',
			success: true,
			message: null,
			score: 742,
			scoreKind: 'score',
			specialScore: null,
			reportLink: null,
			name: 'Priya Sharma',
			pan: 'ABCDE1234F',
			mobile: null,
			gender: null,
			accountCount: 2,
			enquiryCount: 1,
			// the report lists accounts but no payment history: unknown, and said so
			maxDaysPastDue: null,
			delinquentMonths: null,
			worstAssetClass: null,
			lengthOfHistoryMonths: null,
			missing: ['paymentHistory'],
		});
		expect(out.bureaus[1].pan).toBe('ABCDE1234F');
		expect(out.scores).toEqual({ cibil: 742, equifax: 701 });
		expect(out.lowestScore).toBe(701);
		expect(out.highestScore).toBe(742);
		expect(out.successfulBureaus).toEqual(['cibil', 'equifax']);
		expect(out.failedBureaus).toEqual([]);
	});

	it('reads the sample shape: score text to number, links, equifax gender, account counts', () => {
		const out = normalizeMultiBureau(sample, ['equifax', 'experian']);
		expect(out.shape).toBe('sample');
		expect(out.requestId).toBe('doc_abc');
		expect(out.pan).toBe('ABCDE1234F');
		const [equifax, experian] = out.bureaus;
		expect(equifax).toMatchObject({
			bureau: 'equifax',
			success: true,
			message: 'Success',
			score: 755,
			reportLink: 'https://files.example.com/equifax.pdf',
			name: 'PRIYA SHARMA',
			mobile: '9876543210',
			gender: 'female',
			accountCount: 3,
			enquiryCount: 2,
		});
		expect(experian).toMatchObject({
			bureau: 'experian',
			score: 690,
			reportLink: null,
			accountCount: 2,
			enquiryCount: null,
		});
		expect(out.scores).toEqual({ equifax: 755, experian: 690 });
	});

	it('gives both shapes the same keys', () => {
		const a = normalizeMultiBureau(reference, ['cibil']);
		const b = normalizeMultiBureau(sample, ['equifax']);
		expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
		expect(Object.keys(a.bureaus[0]).sort()).toEqual(Object.keys(b.bureaus[0]).sort());
	});

	it('adds an unsuccessful outcome for a requested bureau the service left out, in request order', () => {
		const out = normalizeMultiBureau(sample, ['crif', 'equifax']);
		expect(out.bureaus.map((b) => b.bureau)).toEqual(['crif', 'equifax', 'experian']);
		expect(out.bureaus[0]).toMatchObject({ bureau: 'crif', success: false, score: null });
		expect(out.failedBureaus).toEqual(['crif']);
		expect(out.scores.crif).toBeNull();
	});

	it('marks no-hit bureaus as unsuccessful in both shapes', () => {
		const ref = normalizeMultiBureau(
			{
				status: 'success',
				data: { cibil: { score: null, report: null, message: 'No record found at cibil' } },
			},
			['cibil'],
		);
		expect(ref.bureaus[0]).toMatchObject({
			success: false,
			score: null,
			message: 'No record found at cibil',
		});
		expect(ref.lowestScore).toBeNull();
		const smp = normalizeMultiBureau(
			{
				success: true,
				results: {
					cibil: { success: false, message: 'No record found', credit_report_link: '', data: null },
				},
			},
			['cibil'],
		);
		expect(smp.bureaus[0]).toMatchObject({
			success: false,
			message: 'No record found',
			reportLink: null,
			score: null,
		});
	});

	it('never throws on missing or odd input', () => {
		for (const body of [
			undefined,
			null,
			'text',
			42,
			[],
			{},
			{ data: null },
			{ results: { cibil: 'x' } },
		]) {
			const out = normalizeMultiBureau(body);
			expect(out.bureaus).toEqual([]);
			expect(out.lowestScore).toBeNull();
		}
		expect(normalizeMultiBureau({}, ['cibil']).bureaus[0].success).toBe(false);
	});

	it('falls back to the equifax ScoreDetails when credit_score is missing', () => {
		const body = {
			results: {
				equifax: {
					success: true,
					data: {
						credit_report: {
							CCRResponse: { CIRReportDataLst: [{ ScoreDetails: [{ Value: '777' }] }] },
						},
					},
				},
			},
		};
		expect(normalizeMultiBureau(body).bureaus[0].score).toBe(777);
	});
});

describe('bureauReport', () => {
	it('returns the full report object of a bureau in either shape, else null', () => {
		expect(bureauReport(reference, 'cibil')).toEqual(reference.data.cibil.report);
		expect(bureauReport(sample, 'experian')).toEqual(sample.results.experian.data.credit_report);
		expect(bureauReport(sample, 'crif')).toBeNull();
		expect(bureauReport(null, 'cibil')).toBeNull();
	});
});

describe('commercial report', () => {
	const body = {
		status: 'success',
		message: 'Report generated',
		data: {
			business_name: 'Acme Traders',
			pan: 'aaacA1234b',
			report_type: 'HTML',
			report: '<!DOCTYPE html><html><body>Acme Traders</body></html>',
			report_url: 'https://files.example.com/r/1.html',
			generated_at: '2025-03-31T10:15:30+05:30',
		},
	};

	it('normalizes the facts, with an ISO UTC timestamp and the byte size of the HTML', () => {
		expect(normalizeCommercialReport(body)).toEqual({
			success: true,
			message: 'Report generated',
			businessName: 'Acme Traders',
			pan: 'AAACA1234B',
			reportType: 'html',
			reportUrl: 'https://files.example.com/r/1.html',
			generatedAt: '2025-03-31T04:45:30.000Z',
			reportSize: Buffer.byteLength(body.data.report),
		});
		expect(commercialReportHtml(body)).toContain('Acme Traders');
	});

	it('is tolerant of partial input', () => {
		expect(normalizeCommercialReport({})).toMatchObject({
			success: false,
			businessName: null,
			// no report came back: its size is unknown, not 0
			reportSize: null,
			generatedAt: null,
		});
		expect(normalizeCommercialReport({ status: 'failed' }).success).toBe(false);
		expect(commercialReportHtml({ data: { report: '   ' } })).toBeNull();
		expect(commercialReportHtml(null)).toBeNull();
	});

	it('makes file names from business names', () => {
		expect(commercialReportFileName('Acme Traders')).toBe('acme-traders-credit-report.html');
		expect(commercialReportFileName('Acme Traders Pvt. Ltd.')).toBe(
			'acme-traders-pvt-ltd-credit-report.html',
		);
		expect(commercialReportFileName('Shah & Sons')).toBe('shah-and-sons-credit-report.html');
		expect(commercialReportFileName('Café Délice')).toBe('cafe-delice-credit-report.html');
		expect(commercialReportFileName('***')).toBe('business-credit-report.html');
		expect(slugify('x'.repeat(200)).length).toBe(80);
		expect(slugify('../../etc/passwd')).toBe('etc-passwd');
	});
});

describe('sample-shape bureau report layouts', () => {
	const entry = (credit_report: object) => ({
		results: { x: { success: true, data: { credit_report } } },
	});

	it('reads CIBIL accounts, enquiries and a zero-padded score', () => {
		const out = normalizeMultiBureau(
			entry({
				consumerCreditData: [
					{
						scores: [{ score: '00742' }],
						accounts: [{ index: 'T001' }, { index: 'T002' }],
						enquiries: [{}],
					},
				],
			}),
		).bureaus[0];
		expect(out).toMatchObject({ score: 742, accountCount: 2, enquiryCount: 1 });
	});

	it('reads the Experian score and CRIF responses (array or single object)', () => {
		expect(normalizeMultiBureau(entry({ SCORE: { BureauScore: 701 } })).bureaus[0].score).toBe(701);
		const crif = normalizeMultiBureau(
			entry({
				SCORE: { 'SCORE-VALUE': '688' },
				RESPONSES: {
					RESPONSE: [
						{ 'LOAN-DETAILS': { 'ACCT-TYPE': 'Personal Loan' } },
						{ 'LOAN-DETAILS': { 'ACCT-TYPE': 'Credit Card' } },
						{},
					],
				},
			}),
		).bureaus[0];
		expect(crif).toMatchObject({ score: 688, accountCount: 3 });
		expect(
			normalizeMultiBureau(entry({ RESPONSES: { RESPONSE: {} } })).bureaus[0].accountCount,
		).toBe(1);
	});
});
