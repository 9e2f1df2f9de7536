/**
 * Serves many answer bodies to one decision operation in n8n-core's real engine, batched: one run of the
 * FinVerify node with N input items, each item asking for a different subject (a PAN, a mobile number, a
 * CIN, a job or client ID that encodes its index), and the loopback stub answering each request with the
 * body of the item it names, whatever order the node's parallel requests arrive in. What comes back is each
 * item's real output: its json and the output it left on (version 3: Complete, Incomplete or Failed;
 * version 2: the main output or n8n's error output).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { CREDENTIAL_REF, Engine, FINVERIFY_NODE, startStubServer } from '../../harness/index.cjs';
import type { StubRequest, StubServer, WorkflowJson } from '../../harness/index.cjs';

export type OutputMode = 'simplified' | 'normalized';
export type Version = 2 | 3;
export const VERSIONS: Version[] = [2, 3];
export const MODES: OutputMode[] = ['simplified', 'normalized'];

/** Where an item's answer left the node. */
export type Route = 'complete' | 'incomplete' | 'failed' | 'missing';

export interface ItemResult {
	route: Route;
	json: IDataObject;
}

export interface OperationSetup {
	/** `<resource>.<operation>`. */
	operation: string;
	/** The service path the operation asks (after the credential's base URL). */
	path: string;
	/** The node's parameters; each item's subject comes from its input json (`$json.key`). */
	parameters: IDataObject;
	/** The input json of item `index`: a valid subject encoding the index. */
	input: (index: number) => IDataObject;
	/** The item index a request names. */
	indexOf: (request: StubRequest) => number;
	/** Today, by design, never decision-ready (reported apart, not failed). */
	neverReady?: boolean;
	/**
	 * A response layout that does not carry every decision fact (its answers are never ready by design):
	 * the seed labels it matches, and why; reported apart from the refer rate, not failed.
	 */
	layoutLacks?: { labels: RegExp; why: string };
}

const SERVICE = '/api/v1/services/';
/** The node's credential check (sent once if the first answer is slow): a key that works. */
const CHECK = `${SERVICE}aa-bsa-journey/status`;

const digits = (index: number, width: number) => String(index).padStart(width, '0');
const hex = (index: number) => index.toString(16).padStart(24, '0');
const fromDigits = (text: unknown, from: number) => Number(String(text ?? '').slice(from));
const body = (request: StubRequest) => (request.body ?? {}) as IDataObject;

/** A mobile number per index (10 digits from 6). */
const mobile = (index: number) => String(6_000_000_000 + index);
const mobileIndex = (request: StubRequest) => Number(body(request).mobile_number) - 6_000_000_000;

const OUTPUT = { outputMode: '={{ $json.mode }}', personalData: 'full' };

export const SETUPS: Record<string, OperationSetup> = {
	'creditReport.getMultiBureauReport': {
		operation: 'creditReport.getMultiBureauReport',
		path: 'multi-bureau/fetch',
		parameters: {
			resource: 'creditReport',
			operation: 'getMultiBureauReport',
			pan: 'ABCPS1234K',
			name: 'Priya Sharma',
			mobileNumber: '={{ $json.mobile }}',
			gender: 'female',
			bureaus: ['cibil', 'crif', 'equifax', 'experian'],
			consent: true,
		},
		input: (index) => ({ mobile: mobile(index) }),
		indexOf: mobileIndex,
	},
	'company.getByCin': {
		operation: 'company.getByCin',
		path: 'corporate/cin-lookup',
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
		},
		input: (index) => ({ cin: `U72200KA2015PTC${digits(index, 6)}` }),
		indexOf: (request) => fromDigits(body(request).cin, 15),
		neverReady: true,
	},
	'company.getLlpByLlpin': {
		operation: 'company.getLlpByLlpin',
		path: 'corporate/llpin-lookup',
		parameters: {
			resource: 'company',
			operation: 'getLlpByLlpin',
			llp: { __rl: true, mode: 'llpin', value: '={{ $json.llpin }}' },
		},
		input: (index) => ({ llpin: `AAB-${digits(index, 4)}` }),
		indexOf: (request) => fromDigits(body(request).llpin, 4),
		neverReady: true,
	},
	'company.getEntityByPan': {
		operation: 'company.getEntityByPan',
		path: 'corporate/pan-lookup',
		parameters: { resource: 'company', operation: 'getEntityByPan', pan: '={{ $json.pan }}' },
		input: (index) => ({ pan: `AABCA${digits(index, 4)}F` }),
		layoutLacks: { labels: /reference/i, why: 'the reference layout states no risk flags' },
		indexOf: (request) => Number(String(body(request).pan ?? '').slice(5, 9)),
	},
	'employment.getEpfoRecord': {
		operation: 'employment.getEpfoRecord',
		path: 'epfo-combined/fetch',
		parameters: {
			resource: 'employment',
			operation: 'getEpfoRecord',
			mobileNumber: '={{ $json.mobile }}',
			options: { includePassbook: true },
		},
		input: (index) => ({ mobile: mobile(index) }),
		indexOf: mobileIndex,
	},
	'employment.getEpfoRecordWithCredit': {
		operation: 'employment.getEpfoRecordWithCredit',
		path: 'epfo-crif-combined/fetch',
		parameters: {
			resource: 'employment',
			operation: 'getEpfoRecordWithCredit',
			mobileNumber: '={{ $json.mobile }}',
			consent: true,
		},
		input: (index) => ({ mobile: mobile(index) }),
		indexOf: mobileIndex,
	},
	'incomeTaxReturn.getData': {
		operation: 'incomeTaxReturn.getData',
		path: 'itr-analyzer/data',
		parameters: { resource: 'incomeTaxReturn', operation: 'getData', jobId: '={{ $json.job }}' },
		input: (index) => ({ job: `itr_${hex(index)}` }),
		indexOf: (request) => parseInt(String(body(request).job_id ?? '').slice(4), 16),
	},
	'bankStatementJourney.getAnalysis': {
		operation: 'bankStatementJourney.getAnalysis',
		path: 'aa-bsa-journey/analysis-json',
		parameters: {
			resource: 'bankStatementJourney',
			operation: 'getAnalysis',
			clientId: '={{ $json.client }}',
		},
		input: (index) => ({ client: `aa_${hex(index)}` }),
		indexOf: (request) => parseInt(String(request.query.client_id ?? '').slice(3), 16),
	},
};

export const DECISION_OPERATIONS = Object.keys(SETUPS);

/** One answer to serve and how the item asking for it shapes its output. */
export interface Job {
	body: unknown;
	mode: OutputMode;
}

/** Items per engine run: large enough to keep the engine's per-run cost small, small enough for memory. */
const BATCH = 300;
/** Items in Parallel (the node's Request Options; at most 100). */
const CONCURRENCY = 50;

/** The workflow: Start with the pinned items → the FinVerify node of `version`. */
function workflow(setup: OperationSetup, version: Version, inputs: IDataObject[]): WorkflowJson {
	const parameters: IDataObject = {
		...setup.parameters,
		...OUTPUT,
		// every failure is an item of its own, never a stopped node
		requestOptions: { maxRetries: 0, concurrency: CONCURRENCY, failNodeWhen: 'never' },
		...(version >= 3 ? { incompleteAnswers: 'separateOutput', failedItems: 'failedOutput' } : {}),
	};
	const node: INode = {
		id: 'finverify-node',
		name: 'FinVerify',
		type: FINVERIFY_NODE,
		typeVersion: version,
		position: [200, 0],
		parameters: parameters as INode['parameters'],
		credentials: CREDENTIAL_REF,
		// version 2 has no Failed output: n8n's error output takes the failed items
		...(version < 3 ? { onError: 'continueErrorOutput' as const } : {}),
	};
	return {
		name: 'operation drift',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			node,
		],
		connections: { Start: { main: [[{ node: 'FinVerify', type: 'main', index: 0 }]] } },
		pinData: { Start: inputs.map((json) => ({ json })) },
	};
}

/** The engine and the stub one test file shares. */
export interface DriftRig {
	engine: Engine;
	stub: StubServer;
	close(): Promise<void>;
}

export async function startRig(): Promise<DriftRig> {
	const engine = await Engine.create();
	const stub = await startStubServer();
	engine.setCredentials({
		finVerifyApi: {
			environment: 'custom',
			baseUrl: stub.url,
			apiKey: 'drift-key',
			apiSecret: 'drift-secret',
		},
	});
	stub.respond(CHECK, {
		status: 404,
		body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
	});
	return { engine, stub, close: async () => await stub.close() };
}

/** Routes of version 3's outputs (Complete, Incomplete, Failed) and version 2's (main, error). */
const ROUTES: Record<Version, Route[]> = {
	3: ['complete', 'incomplete', 'failed'],
	2: ['complete', 'failed'],
};

/**
 * Every job's item result, in job order: the bodies served through the operation in batches of
 * BATCH items per engine run.
 */
export async function runJobs(
	rig: DriftRig,
	setup: OperationSetup,
	version: Version,
	jobs: Job[],
): Promise<ItemResult[]> {
	const results: ItemResult[] = [];
	for (let start = 0; start < jobs.length; start += BATCH) {
		const batch = jobs.slice(start, start + BATCH);
		rig.stub.requests.splice(0);
		rig.stub.answer(`${SERVICE}${setup.path}`, (request) => {
			const index = setup.indexOf(request);
			const job = batch[index];
			if (!job) return { status: 404, body: { success: false, message: `no job ${index}` } };
			return { status: 200, body: job.body };
		});
		const inputs = batch.map((job, index) => ({ ...setup.input(index), mode: job.mode }));
		const result = await rig.engine.run(workflow(setup, version, inputs));
		if (result.error) throw new Error(`${setup.operation} v${version}: ${result.error.message}`);
		const out: ItemResult[] = batch.map(() => ({ route: 'missing', json: {} }));
		ROUTES[version].forEach((route, outputIndex) => {
			for (const item of result.output('FinVerify', outputIndex)) {
				const paired = item.pairedItem;
				const index = Array.isArray(paired)
					? paired[0]?.item
					: typeof paired === 'number'
						? paired
						: paired?.item;
				if (typeof index === 'number' && out[index]) out[index] = { route, json: item.json };
			}
		});
		results.push(...out);
	}
	return results;
}
