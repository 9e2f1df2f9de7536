/**
 * The EPFO and ITR readers' grammar through n8n-core's real engine, version 3: Get EPFO Record, Get EPFO
 * Record with Credit Report and Get ITR Data against a stub answering with exact bodies (the sandbox's
 * own, changed where the grammar matters). A current job whose exit date is a not-exited marker ("NA",
 * "-", " ") is current and the answer stays on the first output; an employer or a return listed twice
 * counts once; a tenure of -67 months or an unreadable newest return is unknown: the answer goes to the
 * Incomplete output (output 1) naming it, and no output puts back a value the reader declared unknown.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import type { RunResult, WorkflowJson } from '../harness/index.cjs';
import { epfoCrifReference, epfoRecord } from '../../sandbox/data/epfo.cjs';
import { itrReference, itrSample } from '../../sandbox/data/itr.cjs';
import { NODE, versionThreeOutputs, versionThreeWorkflow, withStubService } from './support.cjs';

const SERVICES = '/api/v1/services';
const EPFO_PATH = `${SERVICES}/epfo-combined/fetch`;
const EPFO_CREDIT_PATH = `${SERVICES}/epfo-crif-combined/fetch`;
const ITR_PATH = `${SERVICES}/itr-analyzer/data`;
const MOBILE = '9876543210';
const JOB_ID = 'itr_0123456789abcdef01234567';

const service = withStubService();

/** A single FinVerify node at version 3 with `parameters`. */
const v3 = (parameters: IDataObject): WorkflowJson =>
	versionThreeWorkflow({ requestOptions: { maxRetries: 0 }, ...parameters });

const epfoRun = (extra: IDataObject = {}) =>
	v3({ resource: 'employment', operation: 'getEpfoRecord', mobileNumber: MOBILE, ...extra });
const epfoCreditRun = (extra: IDataObject = {}) =>
	v3({
		resource: 'employment',
		operation: 'getEpfoRecordWithCredit',
		mobileNumber: MOBILE,
		consent: true,
		...extra,
	});
const itrRun = (extra: IDataObject = {}) =>
	v3({ resource: 'incomeTaxReturn', operation: 'getData', jobId: JOB_ID, ...extra });

/** Runs `workflow` with the stub answering `path` with `body`; both outputs checked against the schemas. */
async function run(workflow: WorkflowJson, path: string, body: unknown): Promise<RunResult> {
	service.stub.respond(path, { body });
	const result = await service.run(workflow);
	expect(result.error).toBeUndefined();
	const node = workflow.nodes.find((n) => n.name === NODE) as INode;
	for (const output of [0, 1]) checkNodeOutput(node, result.json(NODE, output));
	return result;
}

/** The one item of a run, and which output it came on (0: complete, 1: Incomplete). */
function only(result: RunResult): { output: number; json: IDataObject } {
	const { complete, incomplete } = versionThreeOutputs(result);
	const outputs = [complete, incomplete];
	expect(outputs.flat()).toHaveLength(1);
	const output = outputs[0].length === 1 ? 0 : 1;
	return { output, json: outputs[output][0] };
}

type Body = { data: IDataObject } & IDataObject;
const copy = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

// ------------------------------------------------------------------------------------- EPFO

/** The sandbox's EPFO record, its current job (the newest) first. */
function record(): Body {
	const body = copy(epfoRecord(MOBILE)) as Body;
	const jobs = body.data.employment_history as IDataObject[];
	expect(jobs[0]).toMatchObject({ date_of_exit: null, is_current: true });
	return body;
}

describe('Get EPFO Record (version 3)', () => {
	let complete: IDataObject;
	beforeAll(async () => {
		complete = only(await run(epfoRun(), EPFO_PATH, record())).json;
	});

	test('the complete answer is ready on the first output, currently employed', () => {
		expect(complete).toMatchObject({
			decisionReady: true,
			incomplete: [],
			currentlyEmployed: true,
		});
		expect(complete.currentEmployer).toEqual(expect.any(String));
		expect(complete.totalTenureMonths).toEqual(expect.any(Number));
	});

	test.each(['NA', '-', ' ', 'N/A', '00/00/0000'])(
		'a current job whose date_of_exit is %p (and no is_current) is current: ready, first output',
		async (marker) => {
			const body = record();
			const [current] = body.data.employment_history as IDataObject[];
			delete current.is_current;
			current.date_of_exit = marker;
			const { output, json } = only(await run(epfoRun(), EPFO_PATH, body));
			expect(output).toBe(0);
			expect(json).toMatchObject({
				decisionReady: true,
				currentlyEmployed: true,
				currentEmployer: complete.currentEmployer,
				totalTenureMonths: complete.totalTenureMonths,
				employerCount: complete.employerCount,
			});
		},
	);

	test('an exit date that is not a date is unknown: Incomplete output, current employment unknown', async () => {
		const body = record();
		const [current] = body.data.employment_history as IDataObject[];
		delete current.is_current;
		current.date_of_exit = 'Mar 2025';
		const { output, json } = only(await run(epfoRun(), EPFO_PATH, body));
		expect(output).toBe(1);
		expect(json).toMatchObject({ decisionReady: false, currentlyEmployed: null });
		expect(json.incomplete).toContain('current employment unknown');
	});

	test('the same employer listed twice counts once: the same count and tenure, ready', async () => {
		const body = record();
		const jobs = body.data.employment_history as IDataObject[];
		body.data.employment_history = [...jobs, copy(jobs[0])];
		const { output, json } = only(await run(epfoRun(), EPFO_PATH, body));
		expect(output).toBe(0);
		expect(json).toMatchObject({
			decisionReady: true,
			employerCount: complete.employerCount,
			totalTenureMonths: complete.totalTenureMonths,
			currentEmployer: complete.currentEmployer,
		});
	});

	test('two copies of one employer that disagree: Incomplete, the history unknown', async () => {
		const body = record();
		const jobs = body.data.employment_history as IDataObject[];
		body.data.employment_history = [...jobs, { ...copy(jobs[0]), tenure_months: 1 }];
		const { output, json } = only(await run(epfoRun(), EPFO_PATH, body));
		expect(output).toBe(1);
		expect(json).toMatchObject({
			decisionReady: false,
			employerCount: null,
			totalTenureMonths: null,
		});
		expect(json.incomplete).toContain('employment history unknown');
	});

	test.each([-67, 99_999])(
		'a tenure of %p months is unknown: Incomplete output, total tenure unknown',
		async (months) => {
			const body = record();
			(body.data.employment_history as IDataObject[])[0].tenure_months = months;
			const { output, json } = only(await run(epfoRun(), EPFO_PATH, body));
			expect(output).toBe(1);
			expect(json).toMatchObject({ decisionReady: false, totalTenureMonths: null });
			expect(json.incomplete).toEqual(['total tenure unknown']);
		},
	);

	test('Normalized output: the employer entries say the same (a marker is no exit date)', async () => {
		const body = record();
		const [current] = body.data.employment_history as IDataObject[];
		delete current.is_current;
		current.date_of_exit = '-';
		const { json } = only(await run(epfoRun({ outputMode: 'normalized' }), EPFO_PATH, body));
		expect((json.employers as IDataObject[])[0]).toMatchObject({ current: true, dateOfExit: null });
		expect(json.decisionReady).toBe(true);
	});
});

describe('Get EPFO Record with Credit Report (version 3)', () => {
	/** The sandbox's reference answer; its newest job is the current one (date_of_exit null). */
	function combined(): Body {
		const body = copy(epfoCrifReference(MOBILE)) as Body;
		const jobs = (body.data.epfo as IDataObject).employment_history as IDataObject[];
		expect(jobs[0].date_of_exit).toBeNull();
		return body;
	}

	test.each(['NA', '-', ' '])(
		'a current job whose date_of_exit is %p is current: ready, first output, as the complete answer',
		async (marker) => {
			const complete = only(await run(epfoCreditRun(), EPFO_CREDIT_PATH, combined()));
			expect(complete).toMatchObject({ output: 0, json: { decisionReady: true } });
			const body = combined();
			((body.data.epfo as IDataObject).employment_history as IDataObject[])[0].date_of_exit =
				marker;
			const { output, json } = only(await run(epfoCreditRun(), EPFO_CREDIT_PATH, body));
			expect(output).toBe(0);
			// the same answer but for the consent record (its time and execution)
			const { consentRecord: _, ...facts } = json;
			const { consentRecord: __, ...completeFacts } = complete.json;
			expect(facts).toEqual(completeFacts);
			expect(json).toMatchObject({ currentlyEmployed: true });
		},
	);

	test('a declared employer count that disagrees with the list: Incomplete', async () => {
		const body = combined();
		const epfo = body.data.epfo as IDataObject;
		epfo.total_employers = (epfo.employment_history as unknown[]).length + 1;
		const { output, json } = only(await run(epfoCreditRun(), EPFO_CREDIT_PATH, body));
		expect(output).toBe(1);
		expect(json.incomplete).toContain('EPFO: employment history unknown');
		expect(json.currentlyEmployed).toBeNull();
	});
});

// -------------------------------------------------------------------------------------- ITR

describe('Get ITR Data (version 3)', () => {
	const reference = () => copy(itrReference({ jobId: JOB_ID })) as Body;
	const records = (body: Body) => body.data.itr_records as IDataObject[];

	test('the complete answer is ready; the same return listed twice counts once', async () => {
		const complete = only(await run(itrRun(), ITR_PATH, reference()));
		expect(complete).toMatchObject({ output: 0, json: { decisionReady: true, filingCount: 3 } });
		const body = reference();
		body.data.itr_records = [...records(body), copy(records(body)[1])];
		const repeated = only(await run(itrRun(), ITR_PATH, body));
		expect(repeated.output).toBe(0);
		expect(repeated.json).toEqual(complete.json);
	});

	test('two copies of one return that disagree: Incomplete, the count unknown', async () => {
		const body = reference();
		body.data.itr_records = [
			...records(body),
			{ ...copy(records(body)[1]), gross_total_income: 1 },
		];
		const { output, json } = only(await run(itrRun(), ITR_PATH, body));
		expect(output).toBe(1);
		expect(json).toMatchObject({ decisionReady: false, filingCount: null });
	});

	test("an unreadable newest return: Incomplete, and no output shows last year's return as latest", async () => {
		const body = reference();
		const [newest, lastYear] = records(body);
		newest.assessment_year = 'AY 2025-27';
		const simplified = only(await run(itrRun(), ITR_PATH, body));
		expect(simplified.output).toBe(1);
		expect(simplified.json).toMatchObject({
			decisionReady: false,
			incomplete: ['latest return unknown'],
			latestAssessmentYear: null,
			latestGrossTotalIncome: null,
			latestTaxableIncome: null,
			filingCount: 3,
		});
		expect(simplified.json.latestAssessmentYear).not.toBe(lastYear.assessment_year);

		const normalized = only(await run(itrRun({ outputMode: 'normalized' }), ITR_PATH, body));
		expect(normalized).toMatchObject({ output: 1, json: { latestFiling: null } });

		// split: every filing on the Incomplete output with the whole answer's verdict
		service.stub.respond(ITR_PATH, { body });
		const split = await service.run(
			itrRun({ outputMode: 'normalized', options: { splitFilings: true } }),
		);
		expect(split.json(NODE, 0)).toHaveLength(0);
		const items = split.json(NODE, 1);
		expect(items).toHaveLength(3);
		expect(items.map((j) => j.decisionReady)).toEqual([false, false, false]);
		expect(items.map((j) => j.assessmentYear)).toEqual([
			lastYear.assessment_year,
			records(body)[2].assessment_year,
			null,
		]);
	});

	test('a gross total income of 1e21 is unknown: Incomplete, null (never a huge figure)', async () => {
		const body = reference();
		records(body)[0].gross_total_income = 1e21;
		const { output, json } = only(await run(itrRun(), ITR_PATH, body));
		expect(output).toBe(1);
		expect(json).toMatchObject({ decisionReady: false, latestGrossTotalIncome: null });
		expect(json.incomplete).toEqual(['latest return: gross total income unknown']);
	});

	test('the sample shape: a return listed twice counts once, ready', async () => {
		const sample = copy(
			itrSample({ jobId: JOB_ID }, (ack) => `${service.stub.url}/files/${ack}`),
		) as Body;
		const complete = only(await run(itrRun(), ITR_PATH, sample));
		expect(complete.output).toBe(0);
		const filings = sample.data.filings as IDataObject[];
		sample.data.filings = [...filings, copy(filings[0])];
		const repeated = only(await run(itrRun(), ITR_PATH, sample));
		expect(repeated).toEqual(complete);
	});
});
