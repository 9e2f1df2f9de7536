/**
 * Company resource (cinLookup, llpinLookup, panLookup, companyAutocomplete) through n8n-core's real
 * engine against the sandbox, in both response shapes: simplified and raw output, the resource
 * locators (typed and picked from the live list search), search results as items, the report PDF,
 * the sandbox's not-found inputs, and input validation.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { resetSafeRegexEngine, setSafeRegexEngine } from 'n8n-workflow';
import { LoadOptionsContext, ExecutionLifecycleHooks } from 'n8n-core';

import { sandboxCredentials, withParameters } from '../harness/index.cjs';
import type { Engine, WorkflowJson } from '../harness/index.cjs';
import {
	expectNothingSent,
	fixtures,
	NODE,
	SHAPES,
	versionThreeWorkflow,
	withSandbox,
} from './support.cjs';

const fixture = fixtures('company');
const CIN = 'L17110MH1973PLC019786';
const ISO_DATE = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);

/**
 * Calls a listSearch method of the node in n8n-core's real LoadOptionsContext (what the editor
 * does).
 */
async function listSearch(
	engine: Engine,
	wf: WorkflowJson,
	method: 'searchCompanies' | 'searchLlps',
	filter: string,
) {
	const workflow = engine.buildWorkflow(wf);
	const node = workflow.getNode(NODE) as INode;
	const hooks = new ExecutionLifecycleHooks('manual', 'list-search', {
		id: 'w',
		name: 'w',
		nodes: [],
		connections: {},
	} as never);
	const context = new LoadOptionsContext(
		workflow,
		node,
		engine.additionalData(hooks, 'list-search'),
		'parameters.company',
	);
	const type = engine.nodeTypes.getByNameAndVersion(node.type, 1);
	const search = type.methods?.listSearch?.[method];
	if (!search) throw new Error(`no listSearch method ${method}`);
	return await search.call(context, filter);
}

describe.each(SHAPES)('Company, %s shape', (shape) => {
	const sandbox = withSandbox({ shape });
	const { run } = sandbox;

	describe('Get by CIN', () => {
		test('simplified: the company of the CIN, with typed facts', async () => {
			const result = await run(fixture('getByCin'));
			expect(result.error).toBeUndefined();
			const [json] = result.json(NODE);
			expect(json).toMatchObject({
				shape,
				cin: CIN,
				name: expect.any(String),
				listed: true,
				state: 'Maharashtra',
				dateOfIncorporation: expect.stringMatching(/^1973-\d{2}-\d{2}$/),
				registeredAddress: expect.any(String),
				authorisedCapital: expect.any(Number),
				paidUpCapital: expect.any(Number),
				registrationNumber: '019786',
			});
			expect((json.paidUpCapital as number) <= (json.authorisedCapital as number)).toBe(true);
			if (shape === 'sample') {
				expect(json).toMatchObject({
					companyType: 'Public Limited Company',
					pdfUrl: expect.stringMatching(/^https?:\/\//),
					revenue: expect.any(Number),
					financialScore: expect.any(Number),
					latestFinancials: { yearEnd: ISO_DATE, revenue: expect.any(Number) },
				});
				expect((json.directors as IDataObject[]).length).toBeGreaterThan(0);
			} else {
				expect(json).toMatchObject({
					status: expect.any(String),
					rocCode: 'RoC-Mumbai',
					pan: expect.stringMatching(/^[A-Z]{5}\d{4}[A-Z]$/),
					pdfUrl: null,
					directors: null,
				});
			}
		});

		test('raw: the response as the service sent it', async () => {
			const result = await run(withParameters(fixture('getByCin'), NODE, { simplify: false }));
			const data = result.json(NODE)[0].data as IDataObject;
			if (shape === 'sample')
				expect(data).toMatchObject({ cin: CIN, result: { company: { cin: CIN } } });
			else expect(data).toMatchObject({ cin: CIN, company_name: expect.any(String) });
		});

		test('From List mode: the value picked in the list (here lowercase, from an expression) is looked up', async () => {
			const result = await run(fixture('getByCin.fromList'));
			expect(result.error).toBeUndefined();
			expect(result.json(NODE)[0]).toMatchObject({
				cin: 'U72200KA2010PTC054321',
				state: 'Karnataka',
				listed: false,
			});
		});

		test('Download Report PDF: the pdf_url as a binary file (sample shape only has one)', async () => {
			const result = await run(fixture('getByCin.downloadPdf'));
			expect(result.error).toBeUndefined();
			const [item] = result.output(NODE);
			if (shape === 'sample') {
				const file = item.binary!.companyReport;
				expect(file.mimeType).toBe('application/pdf');
				expect(file.fileName).toBe(`${CIN}-company-report.pdf`);
				expect(Buffer.from(file.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
			} else {
				expect(item.binary).toBeUndefined();
				expect(item.json.pdfUrl).toBeNull();
			}
		});

		test('not found: COMPANY_NOT_FOUND on the error output', async () => {
			const result = await run(fixture('getByCin.notFound'));
			expect(result.output(NODE, 0)).toHaveLength(0);
			expect(result.output(NODE, 1)[0].json).toMatchObject({
				error: { code: 'COMPANY_NOT_FOUND', httpCode: 404 },
			});
		});
	});

	describe('Get LLP by LLPIN', () => {
		test('simplified: the LLP of the LLPIN (typed lowercase, sent uppercase)', async () => {
			const result = await run(fixture('getLlpByLlpin'));
			expect(result.error).toBeUndefined();
			const [json] = result.json(NODE);
			expect(json).toMatchObject({
				shape,
				llpin: 'AAB-1234',
				name: expect.stringMatching(/LLP$/),
				dateOfIncorporation: ISO_DATE,
				registeredAddress: expect.any(String),
			});
			if (shape === 'sample') {
				expect((json.partners as IDataObject[])[0]).toMatchObject({
					designation: 'Designated Partner',
					din: expect.any(String),
				});
				expect((json.gstRegistrations as IDataObject[])[0]).toMatchObject({
					gstin: expect.stringMatching(/^\d{2}[A-Z0-9]{13}$/),
				});
				expect(json.openChargeCount).toEqual(expect.any(Number));
			} else {
				expect(json).toMatchObject({
					totalObligationOfContribution: expect.any(Number),
					rocCode: expect.stringMatching(/^RoC-/),
					state: expect.any(String),
				});
			}
			const log = await sandbox.control.requests('llpin-lookup');
			expect(log.at(-1)?.body).toEqual({ llpin: 'AAB-1234' });
		});

		test('raw output', async () => {
			const result = await run(withParameters(fixture('getLlpByLlpin'), NODE, { simplify: false }));
			expect(result.json(NODE)[0]).toMatchObject({ success: true, data: { llpin: 'AAB-1234' } });
		});

		test('not found: LLPIN_NOT_FOUND on the error output', async () => {
			const result = await run(fixture('getLlpByLlpin.notFound'));
			expect(result.output(NODE, 1)[0].json).toMatchObject({
				error: { code: 'LLPIN_NOT_FOUND', httpCode: 404 },
			});
		});
	});

	describe('Get Entity by PAN', () => {
		test('simplified: one item per input PAN, the entity type read from the PAN', async () => {
			const result = await run(fixture('getEntityByPan'));
			expect(result.error).toBeUndefined();
			const items = result.output(NODE);
			expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			const [company, trust] = items.map((i) => i.json);
			expect(company).toMatchObject({
				shape,
				pan: 'AAACA1234B',
				entityType: 'Company',
				cin: expect.stringMatching(/^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}$/),
				llpin: null,
				name: expect.any(String),
			});
			expect(trust).toMatchObject({ pan: 'AABTK5678C', entityType: 'Trust', cin: null });
			if (shape === 'sample') {
				expect((company.itrFilings as IDataObject[])[0]).toMatchObject({
					assessmentYear: expect.stringMatching(/^\d{4}-\d{2}$/),
					returnType: 'ITR-6',
					filedOn: ISO_DATE,
				});
				expect(company.gstRegistrations).toEqual(
					expect.arrayContaining([
						expect.objectContaining({ gstin: expect.stringContaining('AAACA1234B') }),
					]),
				);
				expect(company.tdsDefaults).toEqual(expect.any(Boolean));
			} else {
				expect(company).toMatchObject({
					dateOfIncorporation: ISO_DATE,
					state: expect.any(String),
					itrFilings: [],
				});
			}
		});

		test('raw output', async () => {
			const result = await run(
				withParameters(fixture('getEntityByPan'), NODE, { simplify: false }),
			);
			expect(result.json(NODE)[0]).toMatchObject({ success: true, data: { pan: 'AAACA1234B' } });
		});

		test('not found: PAN_NOT_FOUND on the error output', async () => {
			const result = await run(fixture('getEntityByPan.notFound'));
			expect(result.output(NODE, 1)[0].json).toMatchObject({
				pan: 'ZZZZZ0404Z',
				error: { code: 'PAN_NOT_FOUND', httpCode: 404 },
			});
		});
	});

	describe('Search by Name', () => {
		test('one item per match, companies and LLPs, each paired to the input item', async () => {
			const result = await run(fixture('searchByName'));
			expect(result.error).toBeUndefined();
			const items = result.output(NODE);
			expect(items.length).toBeGreaterThanOrEqual(4);
			for (const item of items) {
				expect(item.pairedItem).toEqual({ item: 0 });
				expect(String(item.json.name)).toContain('ACME');
				expect(item.json.query).toBe('acme');
				if (item.json.entityType === 'Company') {
					expect(item.json.cin).toMatch(/^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}$/);
					expect(item.json.identifier).toBe(item.json.cin);
					expect(item.json.state).toEqual(expect.any(String));
				} else {
					expect(item.json.entityType).toBe('LLP');
					expect(item.json.llpin).toMatch(/^[A-Z]{3}-\d{4}$/);
					expect(item.json.cin).toBeNull();
				}
			}
			const types = new Set(items.map((i) => i.json.entityType));
			expect([...types].sort()).toEqual(['Company', 'LLP']);
		});

		test('a CIN from the search looks up to the same company', async () => {
			const search = await run(fixture('searchByName.companiesOnly'));
			const pick = search.json(NODE)[0];
			const lookup = await run(
				withParameters(fixture('getByCin'), NODE, {
					company: { __rl: true, mode: 'list', value: pick.cin, cachedResultName: pick.name },
				}),
			);
			expect(lookup.json(NODE)[0]).toMatchObject({ cin: pick.cin, name: pick.name });
		});

		test('type filter: companies only, LLPs only', async () => {
			const companies = (await run(fixture('searchByName.companiesOnly'))).json(NODE);
			const llps = (await run(fixture('searchByName.llpsOnly'))).json(NODE);
			const all = (await run(fixture('searchByName'))).json(NODE);
			expect(companies.length).toBeGreaterThan(0);
			expect(llps.length).toBeGreaterThan(0);
			expect(companies.every((c) => c.entityType === 'Company')).toBe(true);
			expect(llps.every((c) => c.entityType === 'LLP')).toBe(true);
			expect(companies.length + llps.length).toBe(all.length);
		});

		test('limit', async () => {
			expect((await run(fixture('searchByName.limit'))).json(NODE)).toHaveLength(2);
		});

		test('raw: one item per raw result entry', async () => {
			const items = (
				await run(withParameters(fixture('searchByName'), NODE, { simplify: false }))
			).json(NODE);
			expect(items.length).toBeGreaterThanOrEqual(4);
			expect(items[0]).toHaveProperty(shape === 'sample' ? 'company_name' : 'entity_name');
			expect(items[0]).not.toHaveProperty('query');
		});

		test('nothing found: no items by default, NO_RESULTS on the error output when asked for', async () => {
			const empty = await run(fixture('searchByName.noResults'));
			expect(empty.error).toBeUndefined();
			expect(empty.output(NODE)).toHaveLength(0);
			const failed = await run(fixture('searchByName.noResultsError'));
			expect(failed.output(NODE, 1)[0].json).toMatchObject({
				error: { code: 'NO_RESULTS', httpCode: 404 },
			});
		});

		test('version 3: a name nothing matches leaves on Failed (NO_RESULTS) with its lead, unless the option is off', async () => {
			const leads = [
				{ leadId: 'L-1', companyName: 'Acme Agro' },
				{ leadId: 'L-2', companyName: 'nomatch industries' },
			];
			const parameters = {
				resource: 'company',
				operation: 'searchByName',
				companyName: '={{ $json.companyName }}',
				entityType: 'all',
				limit: 1,
				requestOptions: { maxRetries: 0 },
			};
			const result = await run(versionThreeWorkflow(parameters, leads));
			expect(result.error).toBeUndefined();
			const success = result.json(NODE, 0);
			const failed = result.json(NODE, 1);
			expect(success).toHaveLength(1);
			expect(success[0]).toMatchObject({ query: 'Acme Agro' });
			expect(failed).toHaveLength(1);
			expect(failed[0]).toMatchObject({
				leadId: 'L-2',
				error: { code: 'NO_RESULTS' },
			});
			// turned off explicitly: the version 1 and 2 behaviour, no item for the lead nothing matches
			const off = await run(
				versionThreeWorkflow({ ...parameters, options: { errorOnNoResults: false } }, leads),
			);
			expect(off.json(NODE, 0)).toHaveLength(1);
			expect(off.json(NODE, 1)).toHaveLength(0);
		});

		test('resource locator list search returns the sandbox companies and LLPs', async () => {
			const { engine } = sandbox;
			engine.setCredentials(sandboxCredentials(sandbox.url));
			const companies = await listSearch(engine, fixture('getByCin'), 'searchCompanies', 'acme');
			expect(companies.results.length).toBeGreaterThan(0);
			// Get by CIN takes either identifier, so its list has companies and LLPs, the identifier last
			for (const r of companies.results) {
				expect(r.name).toMatch(
					/^.{1,40} · (CIN [LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}|LLPIN [A-Z]{3}-\d{4})$/,
				);
				expect(r.value).toMatch(/^([LU]\d{5}|[A-Z]{3}-\d{4}$)/);
			}
			expect(companies.results.some((r) => String(r.value).includes('-'))).toBe(true);
			const llps = await listSearch(engine, fixture('getLlpByLlpin'), 'searchLlps', 'acme');
			expect(llps.results.length).toBeGreaterThan(0);
			for (const r of llps.results) expect(r.value).toMatch(/^[A-Z]{3}-\d{4}$/);
			// under 3 characters nothing is asked and the list says so; "nothing found" is an empty list
			const before = (await sandbox.control.requests('company-autocomplete')).length;
			expect(
				(await listSearch(engine, fixture('getByCin'), 'searchCompanies', 'ac')).results,
			).toEqual([{ name: 'Type at least 3 letters of the name', value: '' }]);
			expect(await sandbox.control.requests('company-autocomplete')).toHaveLength(before);
			expect(
				(await listSearch(engine, fixture('getByCin'), 'searchCompanies', 'nomatch')).results,
			).toEqual([]);
		});
	});
});

describe('Company input validation: nothing is sent', () => {
	const sandbox = withSandbox();

	test.each([
		[
			'getByCin.invalidCin',
			'cin-lookup',
			'Invalid Company (CIN or LLPIN) in item 0 (got "L17110MH1973PLC01978")',
			'21 letters and digits',
		],
		[
			'getLlpByLlpin.invalidLlpin',
			'llpin-lookup',
			'Invalid LLP (LLPIN) in item 0 (got "AAB1234")',
			'three letters, a hyphen and four digits',
		],
		[
			'getEntityByPan.invalidPan',
			'pan-lookup',
			'Invalid PAN in item 0 (got "AAACA1234")',
			'5 letters, 4 digits, 1 letter',
		],
		[
			'searchByName.shortName',
			'company-autocomplete',
			'Invalid Company Name in item 0 (got "ab")',
			'at least 3 characters',
		],
	])('%s', async (name, path, message, expected) => {
		const result = await expectNothingSent(
			sandbox,
			path,
			async () => await sandbox.run(fixture(name)),
		);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toContain(expected);
	});

	/**
	 * n8n checks a field's `validation` patterns before the run under a 250 ms budget per pattern (n8n-workflow's
	 * safeRegex, a vm timeout, the same in the n8n app): on a machine whose cores are busy, a simple pattern can miss
	 * it and the run fails with "Regular expression execution timed out" before the node starts. The node declares
	 * no such pattern; its own check in `read` names the field and the expected format. Here every pattern n8n
	 * times does time out, as on such a machine: the run still gets the node's own error, and nothing is sent.
	 */
	describe("a value typed into a picker: the node's own check, none of n8n's timed patterns", () => {
		const timedPatterns: string[] = [];
		beforeAll(() =>
			setSafeRegexEngine({
				exec: timedOut,
				test: timedOut,
				replace: timedOut,
				matchAll: timedOut,
				split: timedOut,
			}),
		);
		afterAll(() => resetSafeRegexEngine());
		function timedOut(pattern: string): never {
			timedPatterns.push(pattern);
			throw new Error('Regular expression execution timed out');
		}

		test.each([
			[
				'a CIN one character short',
				fixture('getByCin.invalidCinTyped'),
				'cin-lookup',
				'Invalid Company (CIN or LLPIN) in item 0 (got "L17110MH1973PLC01978")',
				'21 letters and digits',
			],
			[
				'an LLPIN without its hyphen',
				withParameters(fixture('getLlpByLlpin.invalidLlpin'), NODE, {
					llp: { __rl: true, mode: 'llpin', value: 'AAB1234' },
				}),
				'llpin-lookup',
				'Invalid LLP (LLPIN) in item 0 (got "AAB1234")',
				'three letters, a hyphen and four digits',
			],
		])('%s', async (_name, wf, path, message, expected) => {
			const result = await expectNothingSent(sandbox, path, async () => await sandbox.run(wf));
			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toContain(expected);
			expect(timedPatterns).toEqual([]);
		});

		test('a valid CIN typed in runs', async () => {
			const result = await sandbox.run(
				withParameters(fixture('getByCin.invalidCinTyped'), NODE, {
					company: { __rl: true, mode: 'cin', value: ` ${CIN.toLowerCase()} ` },
				}),
			);
			expect(result.error).toBeUndefined();
			expect(result.json(NODE)).toEqual([expect.objectContaining({ cin: CIN })]);
			expect(timedPatterns).toEqual([]);
		});
	});
});
