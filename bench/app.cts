/**
 * Scenarios in the real n8n app (the cached n8n 2.41.1 runtime, `n8n start` on free ports, this package and the
 * floor package installed as community packages, the credential pointing at the stub service):
 *  - throughput: FinVerify node vs the floor node vs n8n's HTTP Request node (Predefined Credential Type), each
 *    after a Code node that makes the items; the node's own executionTime from the stored execution, and wall time;
 *  - the big statement: peak RSS of the n8n process (VmHWM, reset before each run) and time, each mode beside an
 *    empty workflow's run in the same fresh instance.
 */
import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';

import * as os from 'node:os';
import path from 'node:path';

import { FLOOR_NODE, writeFloorPackage } from './floor.cjs';
import type { StubProcess } from './lib.cjs';
import {
	currentRss,
	log,
	MB,
	peakRss,
	portFor,
	resetPeakRss,
	rotated,
	settings,
	sleep,
	startStub,
} from './lib.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const lib = require('../scripts/n8n-env.js');
const { ensureRuntime } = require('../scripts/runtime.js');
const flatted = (modules: string) => require(require.resolve('flatted', { paths: [modules] }));
/* eslint-enable @typescript-eslint/no-require-imports */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Runs per mode of the big statement in the real app (each can take minutes; only the first run's peak counts). */
const APP_STATEMENT_RUNS = Number(process.env.BENCH_APP_STATEMENT_RUNS ?? 1);

const CIN_PATH = '/api/v1/services/corporate/cin-lookup';
const TARGET = 'Target';
const CREDENTIAL = lib.SANDBOX_CREDENTIAL as { id: string; name: string; type: string };
/** The signing secret of the bench credential (the FinVerify Trigger checks deliveries with it). */
const WEBHOOK_SECRET = 'bench-webhook-secret';
const credentialRef = { finVerifyApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };

/** One n8n instance as the e2e tests run it (scripts/n8n-env.js), on free ports, in a throw-away user folder. */
class App {
	n8n?: ReturnType<typeof lib.spawnGroup>;
	cookie = '';
	constructor(
		readonly runtime: Json,
		readonly userFolder: string,
		readonly url: string,
		readonly env: Record<string, string>,
	) {}

	static async create(name: string): Promise<App> {
		const runtime = await ensureRuntime({ log });
		const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `finverify-bench-${name}-`));
		fs.mkdirSync(path.join(userFolder, 'logs'), { recursive: true });
		const port = await portFor(`n8n_${name.replace(/\W/g, '_')}`);
		let brokerPort = await portFor('broker');
		while (brokerPort === port) brokerPort = await portFor('broker');
		lib.installPackage(userFolder);
		const owner = lib.ownerWithHash(runtime, lib.DEFAULT_OWNER);
		// n8n's own defaults, which the figures compare against (not `npm start`'s settings for bursts)
		const env = lib.n8nEnv({ userFolder, port, brokerPort, owner, runtime, burstSettings: false });
		return new App(runtime, userFolder, `http://127.0.0.1:${port}`, env);
	}

	logTail(lines = 30): string {
		try {
			const text = fs.readFileSync(path.join(this.userFolder, 'logs', 'n8n.log'), 'utf8');
			return text.split('\n').slice(-lines).join('\n');
		} catch {
			return '(no log)';
		}
	}

	/**
	 * `n8n start` the way `npm start` runs it (scripts/n8n-run.js: n8n plus its JavaScript task runner, which the
	 * Code node needs in external runner mode).
	 */
	async start(): Promise<void> {
		this.n8n = lib.spawnGroup(this.runtime.node, lib.n8nArgs(this.runtime, 'start'), {
			cwd: this.userFolder,
			env: this.env,
			logFile: path.join(this.userFolder, 'logs', 'n8n.log'),
		});
		await lib.waitForN8nReady(this.url, { timeoutMs: 300000, proc: this.n8n });
		this.cookie = (await lib.ensureOwner(this.url, lib.DEFAULT_OWNER)).cookie;
	}

	/** The pid of the n8n process itself (the child of scripts/n8n-run.js that runs n8n's bin, not the runner). */
	get pid(): number {
		const wrapper = this.n8n!.pid!;
		const children = fs
			.readFileSync(`/proc/${wrapper}/task/${wrapper}/children`, 'utf8')
			.trim()
			.split(/\s+/)
			.filter(Boolean);
		for (const child of children) {
			const cmdline = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8');
			if (cmdline.includes(this.runtime.n8nBin)) return Number(child);
		}
		throw new Error(`no n8n process under pid ${wrapper}`);
	}

	async rest<T = Json>(method: string, p: string, body?: unknown): Promise<T> {
		let res: Response | undefined;
		// n8n under load sometimes drops a connection: a call is retried, never the workflow run it started
		for (let attempt = 0; !res; attempt++) {
			try {
				if (attempt > 0) await sleep(2000);
				res = await fetch(`${this.url}${p}`, {
					method,
					headers: {
						cookie: this.cookie,
						...(body === undefined ? {} : { 'content-type': 'application/json' }),
					},
					body: body === undefined ? undefined : JSON.stringify(body),
				});
				// SQLite under load: n8n answers 503 "Database is not ready!" for a moment
				if (res.status === 503 && method === 'GET' && attempt < 4) res = undefined;
			} catch (error) {
				if (attempt >= 4 || method !== 'GET') throw error;
			}
		}
		const text = await res!.text();
		if (!res!.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 500)}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}

	async runManually(wf: Json): Promise<string> {
		const r = await this.rest<{ data: { executionId: string } }>(
			'POST',
			`/rest/workflows/${wf.id}/run`,
			{ triggerToStartFrom: { name: 'Trigger' } },
		);
		return r.data.executionId;
	}

	/** Executions of a workflow that finished successfully (the REST API's count, not limited to a page). */
	async executionCount(workflowId: string): Promise<number> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['success'] }));
		const r = await this.rest<{ data: { count: number } }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=1`,
		);
		return Number(r.data.count);
	}

	async executions(workflowId: string): Promise<Json[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const r = await this.rest<{ data: { results: Json[] } }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=20`,
		);
		return r.data.results;
	}

	/** runData of a stored execution (n8n stores it "flatted"). */
	async runData(id: string): Promise<Json> {
		const r = await this.rest<{ data: Json }>('GET', `/rest/executions/${id}`);
		return flatted(this.runtime.n8nModules).parse(r.data.data).resultData?.runData ?? {};
	}

	async stop(): Promise<void> {
		if (this.n8n) await lib.stopGroup(this.n8n, { graceMs: 10000 });
		fs.rmSync(this.userFolder, { recursive: true, force: true });
	}
}

function workflow(name: string, nodes: Json[]): Json {
	const all: Json[] = [
		{
			id: 'trigger',
			name: 'Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		...nodes.map((n, i) => ({ position: [220 * (i + 1), 0], ...n })),
	];
	const connections: Json = {};
	for (let i = 0; i + 1 < all.length; i++)
		connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return {
		id: lib.stableId(`bench:${name}`),
		name: `bench ${name}`,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

const makeItems = (n: number) => ({
	id: 'items',
	name: 'Items',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: {
		jsCode: `return Array.from({ length: ${n} }, (_, i) => ({ json: { cin: 'U' + String(72200 + (i % 1000)).padStart(5, '0') + 'KA20' + String(10 + (i % 10)) + 'PTC' + String(100000 + i) } }));`,
	},
});

/** n8n's HTTP Request node posting each item's CIN to `url` with the FinVerify credential. */
const httpRequestNode = (url: string, batching: Json | undefined) => ({
	id: 'target',
	name: TARGET,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	credentials: credentialRef,
	parameters: {
		method: 'POST',
		url,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'finVerifyApi',
		sendBody: true,
		bodyParameters: { parameters: [{ name: 'cin', value: '={{ $json.cin }}' }] },
		options: batching ? { batching } : {},
	},
});

function throughputWorkflows(stub: StubProcess, n: number) {
	const url = `${stub.url}${CIN_PATH}`;
	const httpRequest = (batching: Json | undefined) => httpRequestNode(url, batching);
	return {
		node: workflow('node', [
			makeItems(n),
			{
				id: 'target',
				name: TARGET,
				type: 'n8n-nodes-finverify.finVerify',
				typeVersion: 1,
				credentials: credentialRef,
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
					requestOptions: { concurrency: settings.concurrency, maxRetries: 0 },
				},
			},
		]),
		floor: workflow('floor', [
			makeItems(n),
			{
				id: 'target',
				name: TARGET,
				type: FLOOR_NODE,
				typeVersion: 1,
				credentials: credentialRef,
				parameters: { url, cin: '={{ $json.cin }}', concurrency: settings.concurrency },
			},
		]),
		// 10 requests, then a pause of the stub's latency: about 10 in flight
		httpRequestBatched: workflow('httpRequestBatched', [
			makeItems(n),
			httpRequest({
				batch: { batchSize: settings.concurrency, batchInterval: settings.latencyMs },
			}),
		]),
		// n8n's default: no batching, every request at once
		httpRequestUnbatched: workflow('httpRequestUnbatched', [makeItems(n), httpRequest(undefined)]),
	};
}

function statementWorkflows() {
	const statement = (name: string, options: Json) =>
		workflow(name, [
			{
				id: 'target',
				name: TARGET,
				type: 'n8n-nodes-finverify.finVerify',
				typeVersion: 1,
				credentials: credentialRef,
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'getStatementResult',
					clientId: 'aa_0123456789abcdef01234567',
					simplify: true,
					options,
					requestOptions: { maxRetries: 0, timeout: 300000 },
				},
			},
		]);
	return {
		empty: workflow('empty', []),
		split: statement('split', { splitInto: 'transactions' }),
		single: statement('single', { splitInto: 'none' }),
		csvFile: statement('csvFile', { transactionsAs: 'csvFile' }),
	};
}

/** Bytes of the files under a folder (n8n's binary data on disk), 0 when there is none. */
function folderBytes(dir: string): number {
	if (!fs.existsSync(dir)) return 0;
	let total = 0;
	for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
	}
	return total;
}

async function startApp(
	stub: StubProcess,
	workflows: Json[],
	name: string,
	published: Json[] = [],
	n8nEnv: Record<string, string> = {},
): Promise<App> {
	const stack = await App.create(name);
	const floor = writeFloorPackage();
	lib.installPackage(stack.userFolder, { packageRoot: floor });
	fs.rmSync(floor, { recursive: true, force: true });
	await lib.importCredential(stack.runtime, stack.env, {
		...CREDENTIAL,
		data: {
			environment: 'custom',
			baseUrl: stub.url,
			apiKey: 'bench-key',
			apiSecret: 'bench-secret',
			webhookSecret: WEBHOOK_SECRET,
		},
	});
	await lib.importWorkflows(stack.runtime, stack.env, workflows);
	for (const wf of published) await lib.publishWorkflow(stack.runtime, stack.env, wf.id);
	Object.assign(stack.env, n8nEnv);
	// a diagnosis: more of n8n's environment for this run, e.g. BENCH_N8N_ENV='{"N8N_EXPRESSION_ENGINE":"legacy"}'
	if (process.env.BENCH_N8N_ENV)
		Object.assign(stack.env, JSON.parse(process.env.BENCH_N8N_ENV) as Record<string, string>);
	if (process.env.BENCH_CPU_PROF) {
		fs.mkdirSync(process.env.BENCH_CPU_PROF, { recursive: true });
		stack.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${process.env.BENCH_CPU_PROF}`;
	}
	// regular mode's default, said explicitly: binary data on disk, only a reference in the execution data
	stack.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	await stack.start();
	return stack;
}

/** Runs a workflow as the editor's button does, waits for it (polling the list, not the data); its times. */
async function runOnce(stack: App, wf: Json, { withData = true, timeoutMs = 900_000 } = {}) {
	const pid = stack.pid;
	const restingRss = currentRss(pid);
	const resetOk = resetPeakRss(pid);
	const id = await stack.runManually(wf);
	const started = Date.now();
	let summary: Json | undefined;
	while (Date.now() - started < timeoutMs) {
		summary = (await stack.executions(wf.id)).find((e) => String(e.id) === String(id));
		if (summary && ['success', 'error', 'crashed', 'canceled'].includes(summary.status)) break;
		await sleep(250);
	}
	if (!summary || summary.status !== 'success')
		throw new Error(
			`${wf.name}: execution ${id} ${summary?.status ?? 'did not finish'}\n${stack.logTail()}`,
		);
	const peak = peakRss(pid);
	const wallMs = new Date(summary.stoppedAt).getTime() - new Date(summary.startedAt).getTime();
	let nodeMs = Number.NaN;
	if (withData) {
		const runData = await stack.runData(String(id));
		nodeMs = runData[TARGET]?.[0]?.executionTime ?? Number.NaN;
	}
	return {
		wallMs,
		nodeMs,
		peakRssMB: peak / MB,
		restingRssMB: restingRss / MB,
		resetOk: resetOk ? 1 : 0,
	};
}

export async function appThroughput(stub: StubProcess) {
	const n = settings.items;
	const wfs = throughputWorkflows(stub, n);
	const stack = await startApp(stub, Object.values(wfs), 'throughput');
	try {
		log(`real app throughput: ${n} items`);
		const results = await rotated(
			Object.entries(wfs).map(([name, wf]) => ({
				name,
				run: async () => {
					const r = await runOnce(stack, wf);
					return { ms: r.nodeMs, wallMs: r.wallMs };
				},
			})),
		);
		return { items: n, idealMs: (n / settings.concurrency) * settings.latencyMs, results };
	} finally {
		await stack.stop();
	}
}

/**
 * Per mode, a fresh n8n: the empty workflow first (the baseline), then the mode; peak RSS of the n8n process during
 * each run. Then the mode's time over the repetitions.
 */
export async function appStatement(stub: StubProcess) {
	const wfs = statementWorkflows();
	const out: Json = {};
	for (const mode of ['split', 'single', 'csvFile'] as const) {
		const stack = await startApp(stub, [wfs.empty, wfs[mode]], `statement-${mode}`);
		try {
			await sleep(5000); // let start-up settle
			const empty = await runOnce(stack, wfs.empty, { withData: false });
			const runs = [];
			for (let r = 0; r < APP_STATEMENT_RUNS; r++)
				runs.push(await runOnce(stack, wfs[mode], { withData: false }));
			log(
				`real app statement ${mode}: empty ${JSON.stringify(empty)} runs ${JSON.stringify(runs)}`,
			);
			out[mode] = {
				empty,
				runs,
				binaryDataOnDiskBytes: folderBytes(`${stack.userFolder}/.n8n/storage`),
			};
		} finally {
			await stack.stop();
		}
	}
	return { transactions: settings.statementTransactions, modes: out };
}

/** Deliveries per run of the trigger scenario, and how many are in flight (the issue's measurement: 20). */
const TRIGGER_DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? (settings.quick ? 200 : 600));
const TRIGGER_IN_FLIGHT = 20;

/** Two published workflows of one shape, trigger → No Op: the FinVerify Trigger, and n8n's Webhook node. */
function triggerWorkflows() {
	const shape = (name: string, trigger: Json): Json => ({
		id: lib.stableId(`bench:${name}`),
		name: `bench ${name}`,
		nodes: [
			{ ...trigger, id: 'trigger', name: 'Trigger', position: [0, 0] },
			{
				id: 'noop',
				name: 'No Op',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { Trigger: { main: [[{ node: 'No Op', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		active: false,
	});
	return {
		finVerifyTrigger: shape('finVerifyTrigger', {
			type: 'n8n-nodes-finverify.finVerifyTrigger',
			typeVersion: 1.2,
			webhookId: '6d1f7a52-0b8e-4c1e-9f3a-b3e4c0ffee01',
			credentials: credentialRef,
			parameters: {
				events: ['journey', 'session'],
				statusFilter: 'all',
				verification: 'hmacSignature',
			},
		}),
		webhookNode: shape('webhookNode', {
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: '6d1f7a52-0b8e-4c1e-9f3a-b3e4c0ffee02',
			parameters: {
				httpMethod: 'POST',
				path: 'bench-webhook',
				responseMode: 'onReceived',
				options: {},
			},
		}),
	};
}

/** CPU time (user + system) a process has used, in milliseconds (/proc/<pid>/stat, 100 ticks a second). */
export function cpuMs(pid: number): number {
	const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// after the command name: state is field 3, utime field 14, stime field 15
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A signed journey status delivery, as the service sends it (a new event id each time). */
function signedDelivery(n: number) {
	const id = `wh_bench_${process.pid}_${Date.now()}_${n}`;
	const clientId = `aa_${String(n).padStart(24, '0')}`;
	const raw = JSON.stringify({
		id,
		event: 'aa_bsa_journey.status_changed',
		client_id: clientId,
		status: 'consent_granted',
		previous_status: 'consent_pending',
		updated_at: new Date().toISOString(),
		data: { client_id: clientId, status: 'consent_granted' },
	});
	const timestamp = String(Math.floor(Date.now() / 1000));
	const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${raw}`).digest('hex')}`;
	return {
		raw,
		headers: {
			'content-type': 'application/json',
			'x-webhook-event': 'aa_bsa_journey.status_changed',
			'x-webhook-id': id,
			'x-webhook-timestamp': timestamp,
			'x-webhook-signature': signature,
		},
	};
}

/**
 * Sends `count` new deliveries to `url`, `inFlight` at a time, and waits until n8n stored an execution for each;
 * the n8n process's CPU time over all of it, per delivery, and the deliveries answered per second.
 */
async function deliver(stack: App, wf: Json, url: string, count: number, inFlight: number) {
	const pid = stack.pid;
	const before = await stack.executionCount(wf.id);
	const cpuBefore = cpuMs(pid);
	const started = Date.now();
	let next = 0;
	const failures: string[] = [];
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			for (let n = next++; n < count; n = next++) {
				const d = signedDelivery(n);
				const res = await fetch(url, { method: 'POST', headers: d.headers, body: d.raw });
				const text = await res.text();
				if (res.status !== 200) failures.push(`${res.status} ${text.slice(0, 120)}`);
			}
		}),
	);
	const sendMs = Date.now() - started;
	if (failures.length > 0)
		throw new Error(`${wf.name}: ${failures.length} of ${count} not answered 200: ${failures[0]}`);
	for (let waited = 0; ; waited += 250) {
		if ((await stack.executionCount(wf.id)) >= before + count) break;
		if (waited > 600_000)
			throw new Error(`${wf.name}: executions not all stored\n${stack.logTail()}`);
		await sleep(250);
	}
	const cpu = cpuMs(pid) - cpuBefore;
	return {
		cpuMsPerDelivery: cpu / count,
		deliveriesPerSecond: (count * 1000) / sendMs,
		sendMs,
		allStoredMs: Date.now() - started,
	};
}

/**
 * The FinVerify Trigger beside n8n's Webhook node, each in a published workflow trigger → No Op, in one n8n:
 * new signed deliveries, 20 in flight; the n8n process's CPU per delivery (until every execution is stored) and
 * deliveries answered per second. BENCH_CPU_PROF=<folder> also writes a V8 CPU profile of n8n there.
 */
export async function appTrigger(stub: StubProcess, n8nEnv: Record<string, string> = {}) {
	const wfs = triggerWorkflows();
	const stack = await startApp(stub, Object.values(wfs), 'trigger', Object.values(wfs), n8nEnv);
	try {
		const triggerUrl = `${stack.url}/webhook/${wfs.finVerifyTrigger.nodes[0].webhookId}/finverify`;
		const webhookUrl = `${stack.url}/webhook/bench-webhook`;
		// published workflows become active some seconds after n8n answers
		for (const url of [triggerUrl, webhookUrl]) {
			for (let waited = 0; ; waited += 500) {
				const res = await fetch(url, {
					method: 'POST',
					body: '{}',
					headers: { 'content-type': 'application/json' },
				});
				await res.text();
				if (res.status !== 404) break;
				if (waited > 120_000) throw new Error(`${url} never became active\n${stack.logTail()}`);
				await sleep(500);
			}
		}
		log(`real app trigger: ${TRIGGER_DELIVERIES} deliveries, ${TRIGGER_IN_FLIGHT} in flight`);
		const results = await rotated([
			{
				name: 'finVerifyTrigger',
				run: () =>
					deliver(stack, wfs.finVerifyTrigger, triggerUrl, TRIGGER_DELIVERIES, TRIGGER_IN_FLIGHT),
			},
			{
				name: 'webhookNode',
				run: () =>
					deliver(stack, wfs.webhookNode, webhookUrl, TRIGGER_DELIVERIES, TRIGGER_IN_FLIGHT),
			},
		]);
		return {
			deliveries: TRIGGER_DELIVERIES,
			inFlight: TRIGGER_IN_FLIGHT,
			triggerVersion: wfs.finVerifyTrigger.nodes[0].typeVersion,
			n8nEnv,
			results,
		};
	} finally {
		await stack.stop();
	}
}

/** The seconds-long service scenario: BENCH_SLOW_ITEMS items, each answered after 2,000 ms, 50 in flight. */
const SLOW_LATENCY_MS = 2000;
const SLOW_IN_FLIGHT = 50;
const SLOW_ITEMS = Number(process.env.BENCH_SLOW_ITEMS ?? (settings.quick ? 100 : 500));

/**
 * A service that takes 2 s per answer (bureaus take seconds): the FinVerify node with Items in Parallel 50, and
 * n8n's HTTP Request node with 50 a batch and a batch every 2 s (about 50 in flight), against a stub answering
 * after 2,000 ms; the ideal is items ÷ 50 × 2 s. Needs Items in Parallel to allow 50 (issue #23 item 4).
 */
export async function appLatency() {
	const stub = await startStub({ STUB_LATENCY_MS: String(SLOW_LATENCY_MS) });
	try {
		const url = `${stub.url}${CIN_PATH}`;
		const wfs = {
			node: workflow('slowNode', [
				makeItems(SLOW_ITEMS),
				{
					id: 'target',
					name: TARGET,
					type: 'n8n-nodes-finverify.finVerify',
					typeVersion: 1,
					credentials: credentialRef,
					parameters: {
						resource: 'company',
						operation: 'getByCin',
						company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
						requestOptions: { concurrency: SLOW_IN_FLIGHT, maxRetries: 0, timeout: 60_000 },
					},
				},
			]),
			httpRequest: workflow('slowHttpRequest', [
				makeItems(SLOW_ITEMS),
				httpRequestNode(url, {
					batch: { batchSize: SLOW_IN_FLIGHT, batchInterval: SLOW_LATENCY_MS },
				}),
			]),
		};
		const stack = await startApp(stub, Object.values(wfs), 'latency');
		try {
			log(
				`real app at ${SLOW_LATENCY_MS} ms a request: ${SLOW_ITEMS} items, ${SLOW_IN_FLIGHT} in flight`,
			);
			const results = await rotated(
				Object.entries(wfs).map(([name, wf]) => ({
					name,
					run: async () => {
						const r = await runOnce(stack, wf);
						return { ms: r.nodeMs, wallMs: r.wallMs };
					},
				})),
			);
			return {
				items: SLOW_ITEMS,
				inFlight: SLOW_IN_FLIGHT,
				latencyMs: SLOW_LATENCY_MS,
				idealMs: (SLOW_ITEMS / SLOW_IN_FLIGHT) * SLOW_LATENCY_MS,
				results,
			};
		} finally {
			await stack.stop();
		}
	} finally {
		await stub.close();
	}
}
