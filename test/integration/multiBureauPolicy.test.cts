/**
 * Get Multi-Bureau Report's policy (version 3: Bureaus That Must Answer, Payment History Required) through
 * n8n-core's real engine against a loopback service answering with the simulator's reference bodies, complete
 * or with a bureau lost (issue 45). What must hold for each choice:
 *
 * - decisionReady over exactly the chosen facts, never fewer: the default (every requested bureau, payment
 *   history required) keeps its verdict; a named bureau that failed, or no bureau answering in full, keeps the
 *   answer incomplete (Incomplete output);
 * - decidedOn names the facts on every answer (and every split item);
 * - on a ready answer the figures are set and cover the bureaus that count and every other known figure
 *   (a known delinquency elsewhere is never hidden): lowestScore is the lowest known score;
 * - a named bureau that Bureaus does not request is a configuration error, nothing is sent.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	Engine,
	nodeWorkflow,
	startStubServer,
	type StubRequest,
	type StubServer,
	type WorkflowJson,
} from '../harness/index.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import { multiBureauReference, scoreOf } from '../../sandbox/data/bureau.cjs';

const NODE = 'FinVerify';
const BUREAUS = ['cibil', 'experian', 'crif'] as const;
const PAN = {
	complete: 'ABCPM1001K',
	experianFailed: 'ABCPM1002K',
	cibilNoHistory: 'ABCPM1003K',
	allFailed: 'ABCPM1004K',
};

type Body = IDataObject;
const failed = (bureau: string) => ({
	score: null,
	report: null,
	message: `No record found at ${bureau} for this PAN`,
});

/** The answer for a PAN: the simulator's reference body, with the case's loss. */
function body(pan: string): Body {
	const answer = multiBureauReference(
		{
			pan,
			name: 'Priya Sharma',
			mobile_number: '9876543210',
			gender: 'female',
			bureaus: [...BUREAUS],
		},
		`req_${pan}`,
	) as Body;
	const data = answer.data as IDataObject;
	if (pan === PAN.experianFailed) data.experian = failed('experian');
	if (pan === PAN.cibilNoHistory)
		delete (data.cibil as IDataObject & { report: IDataObject }).report.payment_history;
	if (pan === PAN.allFailed) for (const b of BUREAUS) data[b] = failed(b);
	return answer;
}

let engine: Engine;
let stub: StubServer;
const sent: string[] = [];

beforeAll(async () => {
	engine = await Engine.create();
	stub = await startStubServer();
	engine.setCredentials({
		finVerifyApi: { environment: 'custom', baseUrl: stub.url, apiKey: 'k', apiSecret: 's' },
	});
	stub.answer('/api/v1/services/multi-bureau/fetch', (request: StubRequest) => {
		const pan = String((request.body as IDataObject).pan);
		sent.push(pan);
		return { body: body(pan) };
	});
});
afterAll(async () => await stub?.close());

function flow(pans: string[], policy: IDataObject, options: IDataObject = {}): WorkflowJson {
	const wf = nodeWorkflow({
		parameters: {
			resource: 'creditReport',
			operation: 'getMultiBureauReport',
			pan: '={{ $json.pan }}',
			name: 'Priya Sharma',
			mobileNumber: '9876543210',
			gender: 'female',
			bureaus: [...BUREAUS],
			consent: true,
			options,
			...policy,
		},
		items: pans.map((pan) => ({ pan })),
	});
	wf.nodes = wf.nodes.map((n): INode => (n.name === NODE ? { ...n, typeVersion: 3 } : n));
	return wf;
}

/** Each PAN's item, from the Complete (0) and Incomplete (1) outputs, with where it left. */
async function run(pans: string[], policy: IDataObject, options: IDataObject = {}) {
	const wf = flow(pans, policy, options);
	const result = await engine.run(wf);
	expect(result.error).toBeUndefined();
	const node = wf.nodes.find((n) => n.name === NODE)!;
	const outputs = [result.json(NODE, 0), result.json(NODE, 1)];
	for (const items of outputs) checkNodeOutput(node, items);
	// each item traced to its input by n8n's pairing (the PAN is masked, or null in an answer of no report)
	const task = result.run.data.resultData.runData[NODE][0];
	const byPan = new Map<string, IDataObject & { output: number }>();
	[0, 1].forEach((output) => {
		for (const item of task.data?.main?.[output] ?? []) {
			const paired = item.pairedItem as { item: number };
			byPan.set(pans[paired.item], { ...item.json, output });
		}
	});
	return byPan;
}

const ALL = ['CIBIL', 'Experian', 'CRIF'].flatMap((b) => [`${b}: score`, `${b}: payment history`]);
const scores = (pan: string, bureaus: readonly string[]) => bureaus.map((b) => scoreOf(pan, b));

test('default (all requested, payment history required): only the complete answer is ready, decidedOn names every bureau', async () => {
	const items = await run(Object.values(PAN), {});
	const complete = items.get(PAN.complete)!;
	expect(complete).toMatchObject({
		output: 0,
		decisionReady: true,
		incomplete: [],
		decidedOn: ALL,
	});
	expect(complete.lowestScore).toBe(Math.min(...scores(PAN.complete, BUREAUS)));
	expect(typeof complete.maxDaysPastDue).toBe('number');
	for (const [pan, words] of [
		[PAN.experianFailed, 'Experian: no report'],
		[PAN.cibilNoHistory, 'CIBIL: payment history unknown'],
		[PAN.allFailed, 'CIBIL: no report'],
	])
		expect(items.get(pan)).toMatchObject({
			output: 1,
			decisionReady: false,
			incomplete: expect.arrayContaining([words]),
			maxDaysPastDue: null,
			decidedOn: ALL,
		});
	// explicitly chosen, the default is the same verdict
	const chosen = await run(Object.values(PAN), {
		bureausMustAnswer: 'all',
		paymentHistoryRequired: true,
	});
	const verdict = (json: IDataObject | undefined) => {
		const { consentRecord: _consent, ...rest } = json ?? {};
		return rest;
	};
	for (const pan of Object.values(PAN))
		expect(verdict(chosen.get(pan))).toEqual(verdict(items.get(pan)));
});

test('at least one: ready when one bureau answered in full (its scores and every known figure count); never when none did', async () => {
	const full = await run(Object.values(PAN), {});
	const items = await run(Object.values(PAN), { bureausMustAnswer: 'atLeastOne' });
	const decidedOn = ['at least one of CIBIL, Experian, CRIF: score and payment history'];
	const experianFailed = items.get(PAN.experianFailed)!;
	expect(experianFailed).toMatchObject({
		output: 0,
		decisionReady: true,
		incomplete: [],
		decidedOn,
	});
	// the lowest over the bureaus that answered (the record's own is null: Experian's is unknown)
	expect(experianFailed.lowestScore).toBe(
		Math.min(...scores(PAN.experianFailed, ['cibil', 'crif'])),
	);
	expect(typeof experianFailed.maxDaysPastDue).toBe('number');
	// CIBIL without payment history: ready on the others; its known score still counts in lowestScore
	const noHistory = items.get(PAN.cibilNoHistory)!;
	expect(noHistory).toMatchObject({ output: 0, decisionReady: true });
	expect(noHistory.lowestScore).toBe(Math.min(...scores(PAN.cibilNoHistory, BUREAUS)));
	expect(items.get(PAN.allFailed)).toMatchObject({
		output: 1,
		decisionReady: false,
		incomplete: expect.arrayContaining(['no bureau answered in full', 'CRIF: no report']),
		lowestScore: null,
		maxDaysPastDue: null,
	});
	// the complete answer: the same figures as under the default
	const complete = items.get(PAN.complete)!;
	for (const key of ['lowestScore', 'highestScore', 'maxDaysPastDue', 'delinquentMonths'])
		expect({ key, value: complete[key] }).toEqual({ key, value: full.get(PAN.complete)![key] });
});

test('named bureaus: ready exactly when each named bureau answered in full; a known figure of another bureau still counts', async () => {
	const full = await run([PAN.complete], {});
	const cibil = await run(Object.values(PAN), {
		bureausMustAnswer: 'named',
		mustAnswerBureaus: ['cibil'],
	});
	const decidedOn = ['CIBIL: score', 'CIBIL: payment history'];
	expect(cibil.get(PAN.experianFailed)).toMatchObject({
		output: 0,
		decisionReady: true,
		decidedOn,
	});
	expect(cibil.get(PAN.cibilNoHistory)).toMatchObject({
		output: 1,
		incomplete: ['CIBIL: payment history unknown'],
		decidedOn,
	});
	expect(cibil.get(PAN.allFailed)).toMatchObject({ output: 1, incomplete: ['CIBIL: no report'] });
	// Experian's and CRIF's known days past due are not hidden by deciding on CIBIL alone
	expect(cibil.get(PAN.complete)!.maxDaysPastDue).toBe(full.get(PAN.complete)!.maxDaysPastDue);
	expect(cibil.get(PAN.complete)!.lowestScore).toBe(full.get(PAN.complete)!.lowestScore);

	const experian = await run([PAN.experianFailed, PAN.cibilNoHistory], {
		bureausMustAnswer: 'named',
		mustAnswerBureaus: ['experian', 'crif'],
	});
	expect(experian.get(PAN.experianFailed)).toMatchObject({
		output: 1,
		incomplete: ['Experian: no report'],
		decidedOn: [
			'Experian: score',
			'Experian: payment history',
			'CRIF: score',
			'CRIF: payment history',
		],
	});
	expect(experian.get(PAN.cibilNoHistory)).toMatchObject({ output: 0, decisionReady: true });
});

test('payment history not required: a known score is enough; a failed bureau still is not', async () => {
	const items = await run(Object.values(PAN), { paymentHistoryRequired: false });
	const decidedOn = ['CIBIL: score', 'Experian: score', 'CRIF: score'];
	expect(items.get(PAN.cibilNoHistory)).toMatchObject({
		output: 0,
		decisionReady: true,
		incomplete: [],
		decidedOn,
		lowestScore: Math.min(...scores(PAN.cibilNoHistory, BUREAUS)),
	});
	expect(items.get(PAN.experianFailed)).toMatchObject({
		output: 1,
		incomplete: ['Experian: no report'],
	});
	expect(items.get(PAN.complete)).toMatchObject({ output: 0, decisionReady: true, decidedOn });
});

test('split into one item per bureau: every item carries the verdict and decidedOn of the whole answer', async () => {
	const wf = flow(
		[PAN.experianFailed],
		{ bureausMustAnswer: 'atLeastOne' },
		{ splitIntoItems: true },
	);
	const result = await engine.run(wf);
	expect(result.error).toBeUndefined();
	const items = result.json(NODE, 0);
	expect(items).toHaveLength(3);
	checkNodeOutput(wf.nodes.find((n) => n.name === NODE)!, items);
	for (const json of items)
		expect(json).toMatchObject({
			decisionReady: true,
			decidedOn: ['at least one of CIBIL, Experian, CRIF: score and payment history'],
		});
	expect(result.json(NODE, 1)).toEqual([]);
});

test('a named bureau that Bureaus does not request: a configuration error on the Failed output, nothing sent', async () => {
	sent.length = 0;
	const wf = flow([PAN.complete], {
		bureausMustAnswer: 'named',
		mustAnswerBureaus: ['equifax'],
		requestOptions: { failNodeWhen: 'never' },
	});
	const result = await engine.run(wf);
	expect(result.error).toBeUndefined();
	const failed = result.json(NODE, 2);
	expect(failed).toHaveLength(1);
	expect(JSON.stringify(failed[0])).toContain(
		'Bureaus That Must Answer names Equifax, which Bureaus does not request',
	);
	expect(result.json(NODE, 0)).toEqual([]);
	expect(sent).toEqual([]);
});
