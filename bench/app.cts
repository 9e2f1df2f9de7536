/**
 * Scenarios in the real n8n app (the cached n8n 2.41.1 runtime, `n8n start` on free ports, this package and the
 * floor package installed as community packages, the credential pointing at the stub service):
 *  - throughput: FinVerify node vs the floor node vs n8n's HTTP Request node (Predefined Credential Type), each
 *    after a Code node that makes the items; the node's own executionTime from the stored execution, and wall time;
 *  - the big statement: peak RSS of the n8n process (VmHWM, reset before each run) and time, each mode beside an
 *    empty workflow's run in the same fresh instance.
 */
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
		const env = lib.n8nEnv({ userFolder, port, brokerPort, owner, runtime });
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

	async start(): Promise<void> {
		this.n8n = lib.spawnGroup(this.runtime.node, [this.runtime.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: this.env,
			logFile: path.join(this.userFolder, 'logs', 'n8n.log'),
		});
		await lib.waitForN8nReady(this.url, { timeoutMs: 300000, proc: this.n8n });
		this.cookie = (await lib.ensureOwner(this.url, lib.DEFAULT_OWNER)).cookie;
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

function throughputWorkflows(stub: StubProcess, n: number) {
	const url = `${stub.url}${CIN_PATH}`;
	const httpRequest = (batching: Json | undefined) => ({
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

async function startApp(stub: StubProcess, workflows: Json[], name: string): Promise<App> {
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
		},
	});
	await lib.importWorkflows(stack.runtime, stack.env, workflows);
	// regular mode's default, said explicitly: binary data on disk, only a reference in the execution data
	stack.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	await stack.start();
	return stack;
}

/** Runs a workflow as the editor's button does, waits for it (polling the list, not the data); its times. */
async function runOnce(stack: App, wf: Json, { withData = true, timeoutMs = 900_000 } = {}) {
	const pid = stack.n8n!.pid!;
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
