/**
 * n8n in queue mode for the e2e queue suite: PostgreSQL and Redis (scripts/queue-stack.js: installed when missing,
 * run as an unprivileged account), an n8n main, N workers and one webhook processor on free loopback ports, all
 * sharing one throw-away user folder (one installed copy of the package) and one database; the sandbox in-process.
 * The same pieces `npm run start:queue` uses.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startTestSandbox } from '../../harness/sandbox.cjs';
import {
	ensureBuilt,
	freePorts,
	log,
	manualRunBody,
	OWNER,
	restRequest,
	RunData,
	waitFor,
	type Workflow,
} from './stack.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const lib = require('../../../scripts/n8n-env.js');
const q = require('../../../scripts/queue-stack.js');
const { ensureRuntime } = require('../../../scripts/runtime.js');
/* eslint-enable @typescript-eslint/no-require-imports */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Child = { pid?: number; exitCode: number | null };

/**
 * An n8n PostgreSQL credential for the queue stack's own database (what the claim patterns of docs/scaling.md use):
 * `id` and `name` as the test's workflows reference it.
 */
export function queuePostgresCredential(id: string, pgPort: number) {
	return {
		id,
		name: 'Queue PostgreSQL',
		type: 'postgres',
		data: {
			host: '127.0.0.1',
			port: pgPort,
			database: 'n8n',
			user: 'n8n',
			password: 'finverify-local-postgres',
			ssl: 'disable',
			allowUnauthorizedCerts: false,
			maxConnections: 20,
		},
	};
}

export interface QueueProcess {
	child: Child;
	name: string;
	role: 'main' | 'worker' | 'webhook';
	port: number;
	brokerPort: number;
	url: string;
	logFile: string;
}

interface PgClient {
	query(sql: string, params?: unknown[]): Promise<{ rows: Json[]; rowCount: number }>;
	end(): Promise<void>;
}

export class QueueStack {
	cookie = '';
	processes: QueueProcess[] = [];
	/** Processes ended by killProcess/stopProcess, by name: restartWorker starts one again on its ports. */
	private ended = new Map<string, QueueProcess>();
	services: { pg?: Json; redis?: Json } = {};
	db?: PgClient;
	/** Seconds spent installing postgresql/redis-server (0 when they were there). */
	installSeconds = 0;
	private stopped = false;

	private constructor(
		readonly runtime: Json,
		readonly base: string,
		readonly userFolder: string,
		readonly env: Record<string, string>,
		readonly ports: { main: number; webhook: number; pg: number; redis: number; spare: number[] },
		readonly sandbox: Awaited<ReturnType<typeof startTestSandbox>>,
		readonly examples: { file: string; workflow: Workflow }[],
	) {}

	/** Packages, services, user folder, credential + examples + `extra` imported, `publish` published. */
	static async create({
		name,
		stepMs = 1000,
		extra = [],
		publish = [],
		extraCredentials = [],
		workerLock,
		extraEnv = {},
		sandbox: sandboxOptions = {},
	}: {
		name: string;
		stepMs?: number;
		/** More options of the in-process sandbox (its webhook sender's retry schedule). */
		sandbox?: Omit<Parameters<typeof startTestSandbox>[0], 'stepMs' | 'clock'>;
		extra?: ((s: { sandboxUrl: string; webhookUrl: string; pgPort: number }) => Workflow)[];
		/** workflow ids, or example file names (examples/<file>) */
		publish?: string[];
		extraEnv?: Record<string, string>;
		extraCredentials?: ((s: { pgPort: number }) => Json)[];
		workerLock?: { lockDuration?: number; lockRenewTime?: number; stalledInterval?: number };
	}): Promise<QueueStack> {
		const t0 = Date.now();
		const runtime = await ensureRuntime({ log });
		const packages = await q.ensureServerPackages({ log });
		ensureBuilt();
		const base = fs.mkdtempSync(path.join(os.tmpdir(), `finverify-e2e-${name}-`));
		fs.chmodSync(base, 0o755); // the services' account must reach its data folder below
		const userFolder = path.join(base, 'home');
		fs.mkdirSync(path.join(userFolder, 'logs'), { recursive: true });
		const [main, mainBroker, webhook, pg, redis, ...spare] = await freePorts(13);
		const sandbox = await startTestSandbox({ ...sandboxOptions, stepMs, clock: 'real' });
		lib.installPackage(userFolder);
		const webhookUrl = `http://127.0.0.1:${webhook}`;
		const env = q.queueEnv(
			lib.n8nEnv({
				userFolder,
				port: main,
				brokerPort: mainBroker,
				owner: lib.ownerWithHash(runtime, OWNER),
				runtime,
			}),
			{ pgPort: pg, redisPort: redis, webhookPort: webhook, workerLock },
		);
		Object.assign(env, extraEnv);
		const examples = lib.readExampleWorkflows().map((e: { file: string; workflow: Workflow }) => ({
			file: e.file,
			workflow: lib.localizeWorkflow(e.workflow, { n8nUrl: webhookUrl, sandboxUrl: sandbox.url }),
		}));
		const stack = new QueueStack(
			runtime,
			base,
			userFolder,
			env,
			{ main, webhook, pg, redis, spare: [mainBroker, ...spare] },
			sandbox,
			examples,
		);
		stack.installSeconds = packages.seconds;
		process.once('exit', () => stack.killNow());

		const user = q.serviceUser({ log });
		const dataDir = q.serviceDataDir(path.join(base, 'services'), user, { log });
		[stack.services.pg, stack.services.redis] = await Promise.all([
			q.startPostgres({
				runtime,
				pgBin: packages.pgBin,
				dataDir: path.join(dataDir, 'postgres'),
				port: pg,
				user,
				logFile: stack.logFile('postgres'),
				fast: true,
				log,
			}),
			q.startRedis({
				redisServer: packages.redisServer,
				dataDir: path.join(dataDir, 'redis'),
				port: redis,
				user,
				logFile: stack.logFile('redis'),
				persist: false,
			}),
		]);
		stack.db = (await q.pgClient(runtime, pg)) as PgClient;
		log(
			`${name}: PostgreSQL :${pg}, Redis :${redis} as ${user ? user.name : 'this user'} (${Date.now() - t0} ms)`,
		);

		await lib.importCredential(runtime, env, {
			...lib.SANDBOX_CREDENTIAL,
			data: lib.sandboxCredentialData(sandbox.url),
		});
		for (const c of extraCredentials) await lib.importCredential(runtime, env, c({ pgPort: pg }));
		const extraWorkflows = extra.map((f) => f({ sandboxUrl: sandbox.url, webhookUrl, pgPort: pg }));
		await lib.importWorkflows(runtime, env, [
			...examples.map((e: { workflow: Workflow }) => e.workflow),
			...extraWorkflows,
		]);
		for (const p of publish) {
			const id = p.endsWith('.json') ? stack.example(p).id : p;
			await lib.publishWorkflow(runtime, env, id);
		}
		log(
			`${name}: database ready, ${examples.length + extraWorkflows.length} workflows imported (${Date.now() - t0} ms)`,
		);
		return stack;
	}

	get url(): string {
		return `http://127.0.0.1:${this.ports.main}`;
	}

	get webhookUrl(): string {
		return `http://127.0.0.1:${this.ports.webhook}`;
	}

	logFile(name: string): string {
		return path.join(this.userFolder, 'logs', `${name}.log`);
	}

	example(file: string): Workflow {
		const e = this.examples.find((x) => x.file === file);
		if (!e) throw new Error(`examples/${file} not found`);
		return e.workflow;
	}

	get workers(): QueueProcess[] {
		return this.processes.filter((p) => p.role === 'worker');
	}

	/** main, then the webhook processor and `workers` workers together; logs in as the owner. */
	async start(workers = 2): Promise<void> {
		const t0 = Date.now();
		await this.startProcess('main', 'main', this.ports.main);
		await Promise.all([
			this.startProcess('webhook', 'webhook', this.ports.webhook),
			...Array.from({ length: workers }, (_, i) => this.startWorker(`worker-${i + 1}`)),
		]);
		this.cookie = (await lib.ensureOwner(this.url, OWNER)).cookie;
		log(`main + webhook processor + ${workers} workers ready (${Date.now() - t0} ms)`);
	}

	async startWorker(name: string): Promise<QueueProcess> {
		return this.startProcess(name, 'worker', this.ports.spare.pop() as number);
	}

	/** Starts a worker ended by killProcess or stopProcess again, under its name and on its ports. */
	async restartWorker(name: string): Promise<QueueProcess> {
		const old = this.ended.get(name);
		if (!old || old.role !== 'worker') throw new Error(`no ended worker ${name}`);
		this.ended.delete(name);
		return this.startProcess(name, 'worker', old.port, old.brokerPort);
	}

	private async startProcess(
		name: string,
		role: QueueProcess['role'],
		port: number,
		brokerPort = this.ports.spare.pop() as number,
	) {
		const p = (await q.startQueueProcess(this.runtime, this.env, {
			name,
			role,
			port,
			brokerPort,
			logFile: this.logFile(name),
		})) as QueueProcess;
		this.processes.push(p);
		return p;
	}

	/** Stop one n8n process gracefully (SIGTERM: a worker finishes its running executions first). */
	async stopProcess(name: string): Promise<void> {
		const p = this.processes.find((x) => x.name === name);
		if (!p) throw new Error(`no process ${name}`);
		await lib.stopGroup(p.child, { graceMs: 40000 });
		this.processes = this.processes.filter((x) => x !== p);
		this.ended.set(name, p);
	}

	/** SIGKILL a process group at once (a worker dying mid-run). */
	killProcess(name: string): void {
		const p = this.processes.find((x) => x.name === name);
		if (!p) throw new Error(`no process ${name}`);
		lib.killGroupNow(p.child);
		this.processes = this.processes.filter((x) => x !== p);
		this.ended.set(name, p);
	}

	/** Which worker started each execution (from the workers' logs): execution id → worker name. */
	workerOf(names = ['worker-1', 'worker-2']): Map<string, string[]> {
		const map = new Map<string, string[]>();
		for (const name of names)
			for (const id of q.executionsStartedBy(this.logFile(name)) as string[])
				map.set(id, [...(map.get(id) ?? []), name]);
		return map;
	}

	rest<T = Json>(method: string, p: string, body?: unknown): Promise<T> {
		return restRequest<T>(this.url, this.cookie, method, p, body);
	}

	/** The editor's "Execute workflow": in queue mode (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS) a worker runs it. */
	async runManually(workflow: Workflow): Promise<string> {
		const r = await this.rest<{ data: { executionId: string } }>(
			'POST',
			`/rest/workflows/${workflow.id}/run`,
			manualRunBody(workflow, this.runtime.n8nVersion),
		);
		return String(r.data.executionId);
	}

	/** Executions straight from PostgreSQL: id, status, workflowId (optionally of one workflow). */
	async executions(
		workflowId?: string,
	): Promise<{ id: string; status: string; workflowId: string }[]> {
		const r = await this.db!.query(
			`SELECT id::text AS id, status, "workflowId" FROM execution_entity ${workflowId ? 'WHERE "workflowId" = $1' : ''} ORDER BY id`,
			workflowId ? [workflowId] : [],
		);
		return r.rows as { id: string; status: string; workflowId: string }[];
	}

	/** One execution's status and run data, from PostgreSQL. */
	async execution(id: string): Promise<{ id: string; status: string; run: RunData }> {
		const r = await this.db!.query(
			'SELECT e.status, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e.id = $1',
			[Number(id)],
		);
		if (!r.rowCount) throw new Error(`execution ${id} not found`);
		return {
			id,
			status: r.rows[0].status,
			run: new RunData(this.unflatten(r.rows[0].data), r.rows[0].status),
		};
	}

	/** Run data of every execution of a workflow (one query). */
	async runsOf(workflowId: string): Promise<{ id: string; status: string; run: RunData }[]> {
		const r = await this.db!.query(
			'SELECT e.id::text AS id, e.status, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = $1 ORDER BY e.id',
			[workflowId],
		);
		return r.rows.map((row) => ({
			id: row.id,
			status: row.status,
			run: new RunData(this.unflatten(row.data), row.status),
		}));
	}

	async waitForExecution(
		id: string,
		{ timeoutMs = 60000, until = ['success', 'error', 'crashed', 'canceled'] } = {},
	) {
		let last = '';
		return waitFor(
			async () => {
				const e = await this.execution(id);
				last = e.status;
				return until.includes(e.status) ? e : undefined;
			},
			{ timeoutMs, what: () => `execution ${id} to reach ${until.join('/')} (last: ${last})` },
		);
	}

	/** Bull jobs kept in Redis (N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED): execution id and when it was added. */
	async bullJobs(): Promise<{ executionId: string; timestamp: number }[]> {
		const paths = [this.runtime.n8nModules, path.join(this.runtime.n8nModules, 'n8n')];
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- ioredis of the n8n install
		const Redis = require(require.resolve('ioredis', { paths }));
		const redis = new Redis({ host: '127.0.0.1', port: this.ports.redis, lazyConnect: true });
		await redis.connect();
		try {
			const keys = ((await redis.keys('bull:jobs:*')) as string[]).filter((k) =>
				/^bull:jobs:\d+$/.test(k),
			);
			const pipeline = redis.pipeline();
			for (const k of keys) pipeline.hmget(k, 'data', 'timestamp');
			const rows = (
				(await pipeline.exec()) as [Error | null, [string | null, string | null]][]
			).map(([, v]) => v);
			return rows
				.filter(([data, ts]) => data && ts)
				.map(([data, ts]) => ({
					executionId: String(JSON.parse(data as string).executionId),
					timestamp: Number(ts),
				}));
		} finally {
			redis.disconnect();
		}
	}

	private unflatten(raw: string): Json {
		const flatted = require(require.resolve('flatted', { paths: [this.runtime.n8nModules] })); // eslint-disable-line @typescript-eslint/no-require-imports
		return flatted.parse(raw);
	}

	tail(name: string, lines = 40): string {
		return q.tail(this.logFile(name), lines);
	}

	async stop(): Promise<void> {
		if (this.stopped) return;
		this.stopped = true;
		await Promise.all(this.processes.map((p) => lib.stopGroup(p.child, { graceMs: 15000 })));
		await this.db?.end().catch(() => undefined);
		await q.stopServices(this.services);
		await this.sandbox.close();
		if (process.env.FINVERIFY_E2E_KEEP === '1') log(`kept ${this.base} (FINVERIFY_E2E_KEEP=1)`);
		else fs.rmSync(this.base, { recursive: true, force: true });
	}

	private killNow(): void {
		if (this.stopped) return;
		for (const p of this.processes) lib.killGroupNow(p.child);
		for (const s of [this.services.pg, this.services.redis]) if (s) lib.killGroupNow(s.child);
	}
}
