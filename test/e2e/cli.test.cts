/**
 * The real n8n app (2.41.1 on Node 24), headless, through its CLI: the package installed as a community package
 * loads, and every example workflow that starts with a Manual Trigger runs with `n8n execute --rawOutput`
 * against the sandbox and produces the expected items.
 * (The trigger and Wait examples need a running n8n: see server.test.cts and browser.test.cts.)
 */
import { readmeTour } from '../harness/readmeTour.cjs';
import { N8nStack, NODE_TYPES, type RunData } from './helpers/stack.cjs';

jest.setTimeout(120_000);

let stack: N8nStack;
/** Values only the executions produced (from the sandbox's answers): the secret scan must see them. */
const produced: string[] = [];

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'cli' });
	await stack.importAll();
}, 900_000); // a fresh clone installs the cached runtime first (5-8 min, once)

afterAll(async () => {
	await stack?.stop();
});

/** Each example's run, once per file (the README tour test reads the run its example's test made). */
const runs = new Map<string, Promise<RunData>>();
const run = (file: string): Promise<RunData> => {
	if (!runs.has(file)) runs.set(file, stack.execute(stack.example(file).id));
	return runs.get(file) as Promise<RunData>;
};

test('n8n export:nodes lists both node types of the installed package', async () => {
	const types = await stack.exportNodeTypes();
	expect(types).toEqual(expect.arrayContaining([NODE_TYPES.action, NODE_TYPES.trigger]));
	// installed as a community package: the types carry the package name, not CUSTOM.*
	expect(types.filter((t) => t.startsWith('CUSTOM.'))).toEqual([]);
});

test('company-onboarding: search by name → get by CIN → entity by PAN → commercial report as an HTML file', async () => {
	const r = await run('company-onboarding.json');
	expect(r.status).toBe('success');
	expect(r.error).toBeUndefined();

	const matches = r.json('Search company by name');
	expect(matches).toHaveLength(1); // Limit 1
	const match = matches[0];
	expect(match).toMatchObject({ entityType: 'Company', query: 'Tata Agro' });
	expect(match.name).toMatch(/TATA AGRO/);
	expect(match.cin).toMatch(/^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}$/);

	// the CIN came from the search result through the expression {{ $json.cin }}
	const [company] = r.json('Get company by CIN');
	expect(company).toMatchObject({ cin: match.cin, name: match.name, shape: 'sample' });
	produced.push(company.registeredAddress);
	expect(company.dateOfIncorporation).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	expect(typeof company.paidUpCapital).toBe('number');

	const [entity] = r.json('Verify PAN');
	// a company's PAN (holder type C) identifies the business, not a person: kept under Masked, for chaining
	expect(entity).toMatchObject({ pan: 'AAACT1234K', entityType: 'Company' });
	expect(entity.name).toEqual(expect.any(String));

	const [report] = r.items('Commercial credit report');
	expect(report.json).toMatchObject({
		success: true,
		businessName: company.name, // {{ $('Get company by CIN').item.json.name }}
		pan: 'AAACT1234K',
		reportType: 'html',
		binaryProperty: 'report',
	});
	expect(report.json.reportSize).toBeGreaterThan(200);
	expect(report.binary.report).toMatchObject({
		mimeType: 'text/html',
		fileExtension: 'html',
		fileName: report.json.fileName,
	});
	expect(report.json.fileName).toMatch(/-credit-report\.html$/);
	// n8n keeps binary data on disk; the stored size is the report's
	expect(report.binary.report.bytes ?? Number.parseInt(report.binary.report.fileSize, 10)).toBe(
		report.json.reportSize,
	);
});

test('individual-underwriting: multi-bureau + EPFO with credit → a decision consistent with the policy', async () => {
	const r = await run('individual-underwriting.json');
	expect(r.status).toBe('success');

	// version 3's default output, Simplified: the verdict, then the decision fields
	const [bureau] = r.json('Multi-bureau credit report');
	expect(Object.keys(bureau).slice(0, 8)).toEqual([
		'decisionReady',
		'incomplete',
		'adverse',
		'decidedOn',
		'lowestScore',
		'highestScore',
		'maxDaysPastDue',
		'delinquentMonths',
	]);
	expect(bureau).toMatchObject({ decisionReady: true, incomplete: [], failedBureaus: [] });
	expect(bureau.pan).toBe('XXXXXX190K'); // masked by default
	expect(Object.keys(bureau.scores)).toEqual(['cibil', 'experian', 'crif']);
	expect(bureau.maxDaysPastDue).toEqual(expect.any(Number));
	const scores = Object.values(bureau.scores) as number[];
	for (const score of scores) expect(score).toBeGreaterThanOrEqual(300);
	expect(bureau.lowestScore).toBe(Math.min(...scores));

	const [epfo] = r.json('EPFO employment + credit');
	// the Set node's "+91 98765 43210" reached the service normalized
	expect(epfo).toMatchObject({
		decisionReady: true,
		incomplete: [],
		currentlyEmployed: true,
		success: true,
		mobileNumber: 'XXXXXX3210',
		partial: false,
		hasEmployment: true,
		hasCredit: true,
	});
	// both answers complete: nothing left on an Incomplete output
	expect(r.nodesRun).not.toContain('Refer: incomplete answer');

	const [summary] = r.json('Underwriting summary');
	expect(summary).toMatchObject({
		applicationId: 'APP-2024-0917',
		applicant: 'Priya Sharma',
		pan: 'XXXXXX190K', // read from the credit report's (masked) output
		lowestScore: bureau.lowestScore,
		maxDaysPastDue: bureau.maxDaysPastDue,
		scores: bureau.scores,
		bureaus: ['cibil', 'experian', 'crif'],
		employed: true,
		currentEmployer: epfo.employment.currentEmployer,
		tenureMonths: epfo.employment.totalTenureMonths,
		crifScore: epfo.credit.score,
		loanAmount: 500000,
	});

	// the If node applied the policy (lowest score >= 700, worst days past due <= 30, employed, tenure >= 12
	// months) to these facts
	const approve =
		summary.lowestScore >= 700 &&
		summary.maxDaysPastDue <= 30 &&
		summary.employed === true &&
		summary.tenureMonths >= 12;
	const decided = approve ? r.json('Meets credit policy?', 0) : r.json('Meets credit policy?', 1);
	const other = approve ? r.json('Meets credit policy?', 1) : r.json('Meets credit policy?', 0);
	expect(decided).toHaveLength(1);
	expect(other).toHaveLength(0);
	const [decision] = r.json(approve ? 'Approve' : 'Refer to underwriter');
	expect(decision.decision).toBe(approve ? 'approve' : 'refer');
	expect(decision.reason).toContain(String(summary.lowestScore));
	// with the sandbox's deterministic data for this PAN and mobile, the application is approved
	expect(decision.decision).toBe('approve');
	expect(r.nodesRun).not.toContain('Refer to underwriter');
});

test("the README's quick start: the fields it names are in its example's output, in the order of the Simplified output", async () => {
	const tour = readmeTour();
	const r = await run(tour.example);
	expect(r.status).toBe('success');
	const [item] = r.json(tour.node);
	const keys = Object.keys(item);
	expect(tour.fields.length).toBeGreaterThanOrEqual(3);
	expect(tour.fields.filter((f) => !keys.includes(f))).toEqual([]);
	// named in the order the node outputs them
	expect(tour.fields).toEqual(keys.filter((k) => tour.fields.includes(k)));
});

test('error-handling: the not-found CIN leaves through the Failed output and is recorded; the found one, its status unknown, is referred', async () => {
	const r = await run('error-handling.json');
	expect(r.status).toBe('success'); // one CIN found: below When All Items Fail, the execution succeeds

	// the same on n8n 1.x and 2.x: the failed item is its input's fields with { error: { message, code,
	// httpCode, description }, message }, on the node's own Failed output
	expect(stack.runtime.n8nVersion).toMatch(
		process.env.FINVERIFY_N8N_LINE === '1' ? /^1\./ : /^2\./,
	);
	// the found company's answer: the simulator's sample layout states no status, so Get by CIN (default
	// Decide On) sends it to Incomplete (1), and the example refers it; the not-found one leaves on Failed (2)
	expect(r.json('Get company by CIN', 0)).toEqual([]);
	const referred = r.json('Get company by CIN', 1);
	const failed = r.json('Get company by CIN', 2);
	expect(referred.map((i) => i.cin)).toEqual(['L17110MH1973PLC019786']);
	expect(failed).toHaveLength(1);
	expect(failed[0]).toMatchObject({
		cin: 'U00000MH0000PTC000404',
		message: expect.stringContaining('U00000MH0000PTC000404'),
		error: {
			message: expect.stringContaining('U00000MH0000PTC000404'),
			code: 'COMPANY_NOT_FOUND',
			httpCode: 404,
			description: expect.stringContaining('HTTP 404'),
		},
	});

	expect(r.json('Refer: incomplete answer')).toEqual([
		expect.objectContaining({
			cin: 'L17110MH1973PLC019786',
			decision: 'refer',
			reason: expect.stringContaining('status unknown'),
		}),
	]);
	const [recorded] = r.json('Record failure');
	expect(recorded).toMatchObject({
		cin: 'U00000MH0000PTC000404', // paired back to its input item
		verified: false,
		errorCode: 'COMPANY_NOT_FOUND',
		httpCode: 404,
		errorMessage: failed[0].message,
	});
	expect(Date.parse(recorded.recordedAt)).not.toBeNaN();
});

test("http-request-with-credential: n8n's HTTP Request node with the FinVerify credential (predefined type) reaches the sandbox", async () => {
	const before = (await stack.control.requests('llpin-lookup')).length;
	const r = await run('http-request-with-credential.json');
	expect(r.status).toBe('success');
	const [out] = r.json('LLP lookup (HTTP Request)');
	expect(out).toMatchObject({ success: true, status_code: 200, data: { llpin: 'AAB-1234' } });

	const log = (await stack.control.requests('llpin-lookup')).slice(before);
	expect(log).toHaveLength(1);
	const [req] = log;
	expect(req).toMatchObject({
		method: 'POST',
		path: '/api/v1/services/corporate/llpin-lookup',
		status: 200,
		body: { llpin: 'AAB-1234' },
	});
	const headers = req.headers as Record<string, string>;
	// sent by the credential's authenticate block (the sandbox redacts both in its log) and accepted: 200
	expect(headers['x-api-key']).toBe('[REDACTED]');
	expect(headers['x-api-secret']).toBe('[REDACTED]');
	// n8n's own client: 2.x sends "n8n", 1.x axios' default
	expect(headers['user-agent']).toEqual(
		stack.runtime.n8nVersion.startsWith('1.') ? expect.stringMatching(/^axios\//) : 'n8n',
	);
});

test('bank-statement-journey-start: starts a journey whose webhook is the trigger workflow’s production URL', async () => {
	const trigger = stack.example('bank-statement-journey-trigger.json');
	const webhookId = trigger.nodes.find((n) => n.type === NODE_TYPES.trigger)?.webhookId;
	const r = await run('bank-statement-journey-start.json');
	expect(r.status).toBe('success');
	const [journey] = r.json('Start journey');
	expect(journey).toMatchObject({
		status: 'initiated',
		isFinal: false,
		mobileNumber: 'XXXXXX3210', // masked in the output; sent in full (below)
		consentType: 'loan_underwriting',
	});
	expect(journey.clientId).toMatch(/^aa_[0-9a-f]{24}$/);
	produced.push(journey.clientId);
	expect(journey.journeyUrl).toBe(`${stack.sandbox.url}/journey/${journey.clientId}`);

	const [sent] = (await stack.control.requests('aa-bsa-journey/init')).slice(-1);
	expect(sent.body).toMatchObject({
		mobile_number: '9876543210',
		customer_name: 'Rahul Verma',
		webhook_url: `${stack.url}/webhook/${webhookId}/finverify`,
	});
});

test('nothing in the user folder (database, binary data, logs) contains a credential secret', () => {
	// control: the scan sees what the executions stored (the database keeps their data as text, the report
	// file is on disk), so a leaked secret would be found the same way
	expect(produced).toHaveLength(2);
	const control = stack.scanFiles([...produced, '<html']);
	expect(control.scanned).toContain('.n8n/database.sqlite');
	for (const value of produced)
		expect(
			control.hits.filter((h) => h.secret === value && h.file.startsWith('.n8n/database.sqlite'))
				.length,
		).toBeGreaterThan(0);
	expect(control.hits).toContainEqual({
		file: expect.stringMatching(/^\.n8n\/(storage|binaryData)\/.*binary_data/), // 2.x storage/, 1.x binaryData/
		secret: '<html',
	});

	expect(stack.filesWithSecrets()).toEqual([]);
});
