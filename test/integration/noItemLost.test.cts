/**
 * Issue 42, no applicant is silently lost, through n8n-core's real engine with n8n's own Set nodes after
 * FinVerify (version 3, Get by CIN, a decision operation), as a builder wires them: Complete → "Approve",
 * Incomplete → "Refer queue", Failed → "Failed queue". A loopback service answers a batch of 3 by CIN: one
 * complete answer, one refused (HTTP 422), one incomplete (no status).
 *
 * - every applicant ends on exactly one of the three branches, under every Incomplete Answers × Output
 *   choice, and a wire never carries another kind of item when an option changes (fixed positions);
 * - an output with items and nothing connected stops the workflow (red), naming the output and the items
 *   1-based by their CIN; wired, it never does; the lone node run by hand gets a warning instead;
 * - the batch's failed and incomplete applicants are in the execution's custom data;
 * - the service down (connection refused, timeouts, 5xx) is a red stop with the threshold at Never.
 */
import { createServer } from 'node:net';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import {
	CREDENTIAL_REF,
	FINVERIFY_NODE,
	type RunResult,
	type WorkflowJson,
} from '../harness/index.cjs';
import { NameRegistry, companySample } from '../../sandbox/data/corporate.cjs';
import { DECISION_OPERATIONS } from '../../nodes/FinVerify/actions/declarations';
import { configuredOutputs } from '../../nodes/FinVerify/FinVerify.node';
import { customCredentials, withStubService } from './support.cjs';

const GOOD = 'U72200KA2015PTC081201';
const REFUSED = 'U72200KA2015PTC081202';
const INCOMPLETE = 'U72200KA2015PTC081203';
const BATCH = [GOOD, REFUSED, INCOMPLETE];
const CIN_PATH = '/api/v1/services/corporate/cin-lookup';
const registry = new NameRegistry();

type Wire = 'complete' | 'incomplete' | 'failed';
const BRANCH: Record<Wire, string> = {
	complete: 'Approve',
	incomplete: 'Refer queue',
	failed: 'Failed queue',
};
const POSITION: Record<Wire, number> = { complete: 0, incomplete: 1, failed: 2 };

const setNode = (name: string, decision: string, y: number): INode => ({
	id: name,
	name,
	type: 'n8n-nodes-base.set',
	typeVersion: 3.4,
	position: [400, y],
	parameters: {
		assignments: {
			assignments: [
				{ id: 'a1', name: 'decision', value: decision, type: 'string' },
				{ id: 'a2', name: 'cin', value: "={{ $('Start').item.json.cin }}", type: 'string' },
			],
		},
		includeOtherFields: true,
		options: {},
	},
});

function flow(
	options: {
		wired?: Wire[];
		parameters?: IDataObject;
		onError?: INode['onError'];
		cins?: string[];
	} = {},
): WorkflowJson {
	const wired = options.wired ?? ['complete', 'incomplete', 'failed'];
	const finVerify: INode = {
		id: 'f',
		name: 'FinVerify',
		type: FINVERIFY_NODE,
		typeVersion: 3,
		position: [200, 0],
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
			requestOptions: { maxRetries: 0 },
			...options.parameters,
		} as INodeParameters,
		credentials: CREDENTIAL_REF,
	};
	if (options.onError) finVerify.onError = options.onError;
	const main: Array<Array<{ node: string; type: 'main'; index: number }>> = [[], [], []];
	for (const wire of wired) main[POSITION[wire]] = [{ node: BRANCH[wire], type: 'main', index: 0 }];
	return {
		name: 'no item lost',
		nodes: [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			finVerify,
			setNode('Approve', 'approve', -200),
			setNode('Refer queue', 'refer', 0),
			setNode('Failed queue', 'failed', 200),
		],
		connections: {
			Start: { main: [[{ node: 'FinVerify', type: 'main', index: 0 }]] },
			...(wired.length > 0 ? { FinVerify: { main } } : {}),
		},
		pinData: { Start: (options.cins ?? BATCH).map((cin) => ({ json: { cin } })) },
	};
}

const ran = (result: RunResult, node: string) =>
	result.run.data.resultData.runData[node] !== undefined ? result.json(node) : [];

/** Each applicant's branches: every CIN of the batch must be on exactly one. */
function outcomes(result: RunResult): Record<string, string[]> {
	const seen: Record<string, string[]> = {};
	for (const branch of Object.values(BRANCH))
		for (const json of ran(result, branch)) (seen[String(json.cin)] ??= []).push(branch);
	return seen;
}

const service = withStubService({ baseNodes: true });

/** Sets every risk flag the answer leaves unknown (null) to false: a complete answer. */
function knowAllFlags(value: unknown): void {
	if (Array.isArray(value)) value.forEach(knowAllFlags);
	else if (typeof value === 'object' && value !== null)
		for (const [key, v] of Object.entries(value as IDataObject)) {
			if (v === null && /(_delay|_defaults|pending_cases)/.test(key))
				(value as IDataObject)[key] = false;
			else knowAllFlags(v);
		}
}

function answerByCin() {
	service.stub.answer(CIN_PATH, (request) => {
		const cin = String((request.body as IDataObject).cin);
		if (cin === REFUSED)
			return {
				status: 422,
				body: {
					success: false,
					error: { code: 'INVALID_CIN', message: 'The CIN is not in the registry format' },
				},
			};
		const body = companySample(cin, registry, 'http://127.0.0.1:1/company.pdf') as IDataObject;
		const company = ((body.data as IDataObject).result as IDataObject).company as IDataObject;
		if (cin === GOOD) {
			company.status = 'Active';
			// every risk flag known (the simulator leaves some companies' EPF delay unknown)
			knowAllFlags(body);
		} else delete company.status;
		return { body };
	});
}

beforeEach(() => answerByCin());

describe('fixed output positions (version 3)', () => {
	const combos = ['separateOutput', 'fail', 'keep', undefined].flatMap((incompleteAnswers) =>
		['failedOutput', 'onError'].map((failedItems) => ({ incompleteAnswers, failedItems })),
	);

	test.each(DECISION_OPERATIONS)(
		'%s: Complete 0, Incomplete 1, Failed 2 whatever the options',
		(key) => {
			const [resource, operation] = key.split('.');
			for (const combo of combos) {
				const outputs = configuredOutputs({ resource, operation, ...combo });
				expect(outputs.map((o) => (o as { displayName?: string }).displayName)).toEqual([
					combo.incompleteAnswers === 'separateOutput' || combo.incompleteAnswers === 'fail'
						? 'Complete'
						: 'Success',
					'Incomplete',
					'Failed',
				]);
			}
		},
	);

	test('the list in configuredOutputs is the decision operations', () => {
		const listed = DECISION_OPERATIONS.filter(
			(key) =>
				configuredOutputs({
					resource: key.split('.')[0],
					operation: key.split('.')[1],
					failedItems: 'onError',
				}).length === 3,
		);
		expect(listed).toEqual(DECISION_OPERATIONS);
		// another operation: Success and Failed, or one output
		expect(
			configuredOutputs({
				resource: 'company',
				operation: 'searchByName',
				failedItems: 'failedOutput',
			}).map((o) => (o as { displayName?: string }).displayName),
		).toEqual(['Success', 'Failed']);
		expect(configuredOutputs({ resource: 'company', operation: 'getByCin' })).toHaveLength(1);
	});

	const choices = ['separateOutput', 'fail', 'keep'].flatMap((incompleteAnswers) =>
		['simplified', 'normalized', 'raw'].map((outputMode) => [incompleteAnswers, outputMode]),
	);
	test.each(choices)(
		'Incomplete Answers %s, Output %s: the same wires, each carrying its own kind; no applicant lost',
		async (incompleteAnswers, outputMode) => {
			const result = await service.run(flow({ parameters: { incompleteAnswers, outputMode } }));
			expect(result.error).toBeUndefined();
			// every applicant on exactly one branch
			expect(outcomes(result)).toEqual({
				[GOOD]: ['Approve'],
				[REFUSED]: ['Failed queue'],
				[INCOMPLETE]: [
					outputMode === 'raw' || incompleteAnswers === 'keep'
						? 'Approve'
						: incompleteAnswers === 'fail'
							? 'Failed queue'
							: 'Refer queue',
				],
			});
			// the Failed wire only ever carries failed items, the others never one
			for (const json of ran(result, 'Failed queue')) expect(json.error).toBeDefined();
			for (const branch of ['Approve', 'Refer queue'])
				for (const json of ran(result, branch)) expect(json.error).toBeUndefined();
			// the Incomplete wire only carries answers that say so
			for (const json of ran(result, 'Refer queue')) expect(json.decisionReady).toBe(false);
		},
	);
});

describe('an output with nothing connected', () => {
	test('all wired: every applicant reaches a branch, the run succeeds, the custom data names the failed and incomplete', async () => {
		const result = await service.run(flow());
		expect(result.error).toBeUndefined();
		expect(outcomes(result)).toEqual({
			[GOOD]: ['Approve'],
			[REFUSED]: ['Failed queue'],
			[INCOMPLETE]: ['Refer queue'],
		});
		const metadata = result.run.data.resultData.metadata ?? {};
		expect(metadata.finverify_failed).toBe(
			`FinVerify: 1 of 3 failed (INVALID_CIN): item 2 (CIN ${REFUSED})`,
		);
		expect(metadata.finverify_incomplete).toBe(
			`FinVerify: 1 of 3 incomplete: item 3 (CIN ${INCOMPLETE})`,
		);
	});

	test.each<[Wire, string, string]>([
		['failed', 'Failed', `item 2 (CIN ${REFUSED})`],
		['incomplete', 'Incomplete', `item 3 (CIN ${INCOMPLETE})`],
		['complete', 'Complete', `item 1 (CIN ${GOOD})`],
	])(
		'%s unwired: the workflow stops, red, naming the output and the item',
		async (unwired, name, item) => {
			const wired = (['complete', 'incomplete', 'failed'] as Wire[]).filter((w) => w !== unwired);
			const result = await service.run(flow({ wired }));
			expect(result.error?.message).toBe(
				`1 item went to the ${name} output, which has nothing connected: ${item}`,
			);
			expect(String(result.error?.description)).toContain(`Connect ${name}`);
			// the answered applicants are named, so nobody pulls them again blindly
			expect(String(result.error?.description)).toContain('Done before the node stopped');
			// nothing went on
			for (const branch of Object.values(BRANCH))
				expect(result.run.data.resultData.runData[branch]).toBeUndefined();
		},
	);

	test('unwired but empty: no stop (only items sent there count)', async () => {
		const result = await service.run(flow({ wired: ['complete', 'incomplete'], cins: [GOOD] }));
		expect(result.error).toBeUndefined();
		expect(outcomes(result)).toEqual({ [GOOD]: ['Approve'] });
	});

	test('the lone node run by hand: a warning in the output panel, no stop', async () => {
		const result = await service.run(flow({ wired: [] }));
		expect(result.error).toBeUndefined();
		const hints = result.run.data.resultData.runData.FinVerify[0].hints ?? [];
		expect(hints.map((h) => h.message).join(' ')).toContain(
			'went to the Failed output, which has nothing connected',
		);
	});

	test('the lone node in a production run: its Failed and Incomplete items stop it, its Complete are the result', async () => {
		const result = await service.run(flow({ wired: [] }), { mode: 'trigger' });
		expect(result.error?.message).toBe(
			`1 item went to the Incomplete output, which has nothing connected: item 3 (CIN ${INCOMPLETE}); ` +
				`1 item went to the Failed output, which has nothing connected: item 2 (CIN ${REFUSED})`,
		);
	});

	test("Follow On Error with Continue (using error output): n8n's error output unwired cannot end red; a hint names it", async () => {
		const result = await service.run(
			flow({
				wired: ['complete', 'incomplete'],
				onError: 'continueErrorOutput',
				parameters: { failedItems: 'onError' },
			}),
		);
		// n8n's rule: under a Continue setting the execution ends green
		expect(result.error).toBeUndefined();
		const hints = result.run.data.resultData.runData.FinVerify[0].hints ?? [];
		expect(hints.map((h) => h.message).join(' ')).toContain(
			`went to n8n's error output, which has nothing connected: item 2 (CIN ${REFUSED})`,
		);
	});
});

async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

describe('an outage is a stop, Fail the Node When Items Fail at Never', () => {
	const never = { requestOptions: { maxRetries: 1, failNodeWhen: 'never', timeout: 1000 } };

	afterEach(() => service.engine.setCredentials(customCredentials(service.stub.url)));

	test.each([1, 2, 3, 5])('connection refused, %i applicants: red', async (count) => {
		const port = await closedPort();
		service.engine.setCredentials(customCredentials(`http://127.0.0.1:${port}`));
		const cins = BATCH.concat(BATCH).slice(0, count);
		const result = await service.run(flow({ parameters: never, cins }));
		expect(result.error?.message).toMatch(/^The FinVerify service is unavailable/);
		for (const branch of Object.values(BRANCH))
			expect(result.run.data.resultData.runData[branch]).toBeUndefined();
	});

	test.each([1, 3])('every answer 503, %i applicants: red', async (count) => {
		service.stub.answer(CIN_PATH, () => ({
			status: 503,
			body: { success: false, message: 'down' },
		}));
		const result = await service.run(flow({ parameters: never, cins: BATCH.slice(0, count) }));
		expect(result.error?.message).toMatch(/^The FinVerify service is unavailable/);
	});

	test.each([1, 3])('no answer within the Timeout, %i applicants: red', async (count) => {
		// answered only after the harness's patience (50 s): every attempt meets the 1 s Timeout first
		service.stub.answer(CIN_PATH, () => ({ holdUntil: Number.MAX_SAFE_INTEGER, body: {} }));
		const result = await service.run(flow({ parameters: never, cins: BATCH.slice(0, count) }));
		expect(result.error?.message).toMatch(/^The FinVerify service is unavailable/);
	});

	test('one record answering 503 while the others are answered: its own failure, the run goes on', async () => {
		service.stub.answer(CIN_PATH, (request) => {
			const cin = String((request.body as IDataObject).cin);
			if (cin === REFUSED) return { status: 503, body: { success: false, message: 'down' } };
			const body = companySample(cin, registry, 'http://127.0.0.1:1/company.pdf') as IDataObject;
			(((body.data as IDataObject).result as IDataObject).company as IDataObject).status = 'Active';
			return { body };
		});
		const result = await service.run(flow({ parameters: never }));
		expect(result.error).toBeUndefined();
		expect(outcomes(result)[REFUSED]).toEqual(['Failed queue']);
	});
});
