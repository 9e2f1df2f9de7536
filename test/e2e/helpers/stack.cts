/**
 * The real n8n app for end-to-end tests: one throw-away user folder per suite, this package installed the way
 * n8n installs community packages, the sandbox in-process on a free port, the "FinVerify sandbox" credential
 * and the example workflows imported with the n8n CLI, and (optionally) `n8n start` on free ports.
 *
 * Everything listens on 127.0.0.1 only. The ports never clash with a running `npm start` (5678/5679/4010).
 * The shared pieces (environment, install, CLI calls, process groups) come from scripts/n8n-env.js (the modules
 * of scripts/lib/), so the tests
 * run n8n exactly the way `npm start` does.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { SandboxControl, startTestSandbox } from '../../harness/sandbox.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const lib = require('../../../scripts/n8n-env.js');
const { ensureRuntime } = require('../../../scripts/runtime.js');
const ports = require('../../../scripts/lib/ports.js');
/* eslint-enable @typescript-eslint/no-require-imports */

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const OWNER: { email: string; password: string; firstName: string; lastName: string } =
	lib.DEFAULT_OWNER;
export const CREDENTIAL: { id: string; name: string; type: string } = lib.SANDBOX_CREDENTIAL;
export const NODE_TYPES: { action: string; trigger: string } = lib.NODE_TYPES;
/** The credential's four secrets: none of them may end up in stored execution data, logs or files. */
export const SECRETS = [
	'sandbox-key',
	'sandbox-secret',
	'sandbox-refresh-token',
	'sandbox-webhook-secret',
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Runtime {
	node: string;
	n8nBin: string;
	n8nModules: string;
	n8nVersion: string;
}

export interface Workflow extends Json {
	id: string;
	name: string;
	nodes: Json[];
}

export interface Example {
	file: string;
	workflow: Workflow;
}

const log = (m: string) => process.stdout.write(`[e2e] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Free ports for the processes a suite starts: below the kernel's ephemeral range and reserved across the
 * runs on this machine (scripts/lib/ports.js), so a port is not taken between the pick and the bind.
 */
export const freePort: () => Promise<number> = ports.freePort;
export const freePorts: (n: number) => Promise<number[]> = ports.freePorts;

function newestMtime(dir: string, filter: (f: string) => boolean): number {
	let newest = 0;
	if (!fs.existsSync(dir)) return newest;
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) newest = Math.max(newest, newestMtime(p, filter));
		else if (filter(p)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
	}
	return newest;
}

/**
 * dist/ as `npm run build` makes it, rebuilt only when it is missing or older than the sources
 * (`npm test` builds right before the e2e step, so there it is always fresh).
 */
export function ensureBuilt(): void {
	const marker = path.join(REPO, 'dist', 'nodes', 'FinVerify', 'FinVerify.node.js');
	const sources = Math.max(
		newestMtime(path.join(REPO, 'nodes'), (f) => /\.(ts|json|svg|png)$/.test(f)),
		newestMtime(path.join(REPO, 'credentials'), (f) => /\.(ts|svg|png)$/.test(f)),
		newestMtime(path.join(REPO, 'icons'), () => true),
		fs.statSync(path.join(REPO, 'package.json')).mtimeMs,
	);
	if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= sources) return;
	log('dist/ is missing or older than the sources: npm run build …');
	const r = spawnSync('npm', ['run', '--silent', 'build'], {
		cwd: REPO,
		encoding: 'utf8',
		env: { ...process.env, NODE_ENV: 'production' },
	});
	if (r.status !== 0)
		throw new Error(`npm run build failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** The run data of one execution (from `n8n execute --rawOutput` or the REST API), with readers. */
export class RunData {
	constructor(
		/** IRunExecutionData */
		readonly data: Json,
		readonly status: string,
	) {}

	get runData(): Record<string, Json[]> {
		return this.data.resultData?.runData ?? {};
	}

	get error(): Json | undefined {
		return this.data.resultData?.error;
	}

	/** Names of the nodes that ran. */
	get nodesRun(): string[] {
		return Object.keys(this.runData);
	}

	/** Items (json + binary) of a node's output `output` in run `run`; [] when that output got nothing. */
	items(node: string, output = 0, run = 0): Json[] {
		const runs = this.runData[node];
		if (!runs)
			throw new Error(`node "${node}" did not run; nodes that ran: ${this.nodesRun.join(', ')}`);
		const r = runs[run];
		if (r?.error) throw new Error(`node "${node}" failed: ${r.error.message}`);
		return r?.data?.main?.[output] ?? [];
	}

	/** The json of each item of a node's output. */
	json(node: string, output = 0, run = 0): Json[] {
		return this.items(node, output, run).map((i) => i.json);
	}
}

/** A stored execution as the REST API gives it, its data parsed. */
export interface StoredExecution {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	raw: string;
	run: RunData;
}

export interface StackOptions {
	/** Suite name, used in the user folder's name. */
	name: string;
	/** Sandbox step time (journeys, ITR jobs). */
	stepMs?: number;
	/** Other options of the sandbox (e.g. its webhook sender's retry schedule). */
	sandbox?: Omit<Parameters<typeof startTestSandbox>[0], 'stepMs'>;
	/** Copy the built package into the nodes folder (default); false: the test installs it itself. */
	installPackage?: boolean;
	/**
	 * n8n's own defaults for what `npm start` tunes for bursts of callbacks (production concurrency, the SQLite
	 * pool, lazy expression isolates: scripts/lib/n8n-process.js burstEnv): what a user's n8n runs unless they
	 * read docs/scaling.md. Default false: `npm start`'s settings.
	 */
	n8nDefaults?: boolean;
}

/**
 * One n8n instance (user folder + ports + database) and one in-process sandbox.
 * create() → importAll() → [publish()] → [start()] → … → stop().
 */
/** A REST call to n8n with a login cookie; resolves the parsed body (throws on non-2xx). */
export async function restRequest<T = Json>(
	url: string,
	cookie: string,
	method: string,
	p: string,
	body?: unknown,
): Promise<T> {
	const res = await fetch(`${url}${p}`, {
		method,
		headers: {
			cookie,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 500)}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** The body of `POST /rest/workflows/<id>/run` that starts a workflow at its Manual Trigger. */
export function manualRunBody(workflow: Workflow, n8nVersion: string): Json {
	const trigger = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`${workflow.name} has no Manual Trigger`);
	return {
		triggerToStartFrom: { name: trigger.name },
		// n8n 1.x runs the workflow data it is sent (2.x loads it by id)
		...(n8nVersion.startsWith('1.') ? { workflowData: workflow } : {}),
	};
}

export class N8nStack {
	n8n?: ReturnType<typeof lib.spawnGroup>;
	cookie = '';
	private stopped = false;

	private constructor(
		readonly runtime: Runtime,
		readonly userFolder: string,
		readonly port: number,
		readonly brokerPort: number,
		readonly sandbox: Awaited<ReturnType<typeof startTestSandbox>>,
		readonly env: Record<string, string>,
		readonly examples: Example[],
	) {}

	static async create({
		name,
		stepMs = 1000,
		sandbox: sandboxOptions,
		installPackage = true,
		n8nDefaults = false,
	}: StackOptions): Promise<N8nStack> {
		const t0 = Date.now();
		const runtime: Runtime = await ensureRuntime({ log });
		ensureBuilt();
		const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `finverify-e2e-${name}-`));
		fs.mkdirSync(path.join(userFolder, 'logs'), { recursive: true });
		const [port, brokerPort] = await freePorts(2);
		const sandbox = await startTestSandbox({ clock: 'real', ...sandboxOptions, stepMs });
		if (installPackage) lib.installPackage(userFolder);
		const owner = lib.ownerWithHash(runtime, OWNER);
		// sandboxUrl: a new FinVerify API credential's Simulator URL follows this sandbox, as under npm start
		const env = lib.n8nEnv({
			userFolder,
			port,
			brokerPort,
			owner,
			runtime,
			sandboxUrl: sandbox.url,
			burstSettings: !n8nDefaults,
		});
		const n8nUrl = `http://127.0.0.1:${port}`;
		const examples: Example[] = lib.readExampleWorkflows().map((e: Example) => ({
			file: e.file,
			workflow: lib.localizeWorkflow(e.workflow, { n8nUrl, sandboxUrl: sandbox.url }),
		}));
		const stack = new N8nStack(runtime, userFolder, port, brokerPort, sandbox, env, examples);
		process.once('exit', () => stack.killNow());
		log(
			`${name}: user folder ${userFolder}, n8n port ${port} (broker ${brokerPort}), sandbox ${sandbox.url} (${Date.now() - t0} ms)`,
		);
		return stack;
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get control(): SandboxControl {
		return this.sandbox.control;
	}

	/** The production URL of `wf`'s FinVerify Trigger (the workflow published). */
	triggerUrl(wf: Workflow): string {
		const node = wf.nodes.find((n) => n.type === NODE_TYPES.trigger);
		return `${this.url}/webhook/${node?.webhookId}/finverify`;
	}

	/** The example from examples/<file>, as imported (ports filled in). */
	example(file: string): Workflow {
		const e = this.examples.find((x) => x.file === file);
		if (!e)
			throw new Error(
				`examples/${file} not found; have ${this.examples.map((x) => x.file).join(', ')}`,
			);
		return e.workflow;
	}

	/** A test fixture of test/e2e/fixtures, prepared like an example. */
	fixture(file: string): Workflow {
		const wf = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', file), 'utf8'));
		return lib.localizeWorkflow(lib.prepareWorkflow(wf, { id: lib.stableId(`e2e:${file}`) }), {
			n8nUrl: this.url,
			sandboxUrl: this.sandbox.url,
		});
	}

	/** `n8n import:credentials` (the sandbox credential) and `n8n import:workflow` (examples + extra workflows). */
	async importAll(extra: Workflow[] = []): Promise<void> {
		const t0 = Date.now();
		await lib.importCredential(this.runtime, this.env, {
			...CREDENTIAL,
			data: lib.sandboxCredentialData(this.sandbox.url),
		});
		await lib.importWorkflows(this.runtime, this.env, [
			...this.examples.map((e) => e.workflow),
			...extra,
		]);
		log(
			`imported the credential and ${this.examples.length + extra.length} workflows (${Date.now() - t0} ms)`,
		);
	}

	/** `n8n import:credentials` of one more credential (before `start`: a running n8n does not see it). */
	async importCredential(credential: {
		id: string;
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<void> {
		await lib.importCredential(this.runtime, this.env, credential);
	}

	/** One n8n CLI command. */
	cli(args: string[], timeoutMs = 180000): Promise<{ stdout: string; stderr: string }> {
		return lib.runN8n(this.runtime, this.env, args, { timeoutMs });
	}

	/** Activate a workflow (`n8n publish:workflow`, 1.x `update:workflow --active=true`) before `start`. */
	async publish(id: string): Promise<void> {
		await lib.publishWorkflow(this.runtime, this.env, id);
	}

	/** `n8n export:nodes` → node type names. */
	exportNodeTypes(): Promise<string[]> {
		return lib.exportNodeTypes(this.runtime, this.env);
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`: the run (the JSON starts at the first "{\n" of stdout).
	 *
	 * With n8n's `legacy` expression engine. The default `vm` engine runs expressions in isolated-vm isolates, and
	 * `n8n execute` ends the process (`process.exit` in the command's `finally`) without disposing of them (its
	 * `exitSuccessFully` does): when an isolate thread is still busy (the pool preparing its next isolate), the
	 * exit crashes in isolated-vm's thread-pool teardown. Seen on n8n 1.123.81 as a SIGSEGV after the run's JSON
	 * was printed (gdb: the isolate thread in V8's allocator, the main thread in `ivm::thread_pool_t` exit
	 * handlers; 2 of 4 runs of the HTTP Request example under gdb). n8n 2.41.1's `execute` exits the same way. The
	 * engine is n8n's, not this package's: the suites that run n8n start (server, waiting, browser, queue) keep
	 * the default `vm` engine.
	 */
	async execute(id: string): Promise<RunData> {
		let out: { stdout: string; stderr: string };
		try {
			out = await lib.runN8n(
				this.runtime,
				{ ...this.env, N8N_EXPRESSION_ENGINE: 'legacy' },
				['execute', `--id=${id}`, '--rawOutput'],
				{ timeoutMs: 180000 },
			);
		} catch (e) {
			throw new Error(`n8n execute --id=${id} failed: ${(e as Error).message.slice(0, 4000)}`);
		}
		const at = out.stdout.indexOf('{\n');
		if (at < 0)
			throw new Error(
				`n8n execute --id=${id}: no JSON in the output:\n${out.stdout.slice(0, 2000)}\n${out.stderr.slice(0, 2000)}`,
			);
		const parsed = JSON.parse(out.stdout.slice(at));
		return new RunData(parsed.data, parsed.status);
	}

	// -----------------------------------------------------------------------------------------------------------
	// n8n start

	logFile(name = 'n8n'): string {
		return path.join(this.userFolder, 'logs', `${name}.log`);
	}

	/** The last lines of the n8n log (for failure messages). */
	logTail(lines = 40): string {
		try {
			return fs.readFileSync(this.logFile(), 'utf8').split('\n').slice(-lines).join('\n');
		} catch {
			return '(no n8n log)';
		}
	}

	/** `n8n start`, wait until the REST API answers, log in as the owner (managed by env). */
	async start(): Promise<void> {
		const t0 = Date.now();
		this.n8n = lib.spawnGroup(this.runtime.node, lib.n8nArgs(this.runtime, 'start'), {
			cwd: this.userFolder,
			env: this.env,
			logFile: this.logFile(),
		});
		try {
			await lib.waitForN8nReady(this.url, { timeoutMs: 240000, proc: this.n8n });
		} catch (e) {
			throw new Error(`${(e as Error).message}\n--- n8n log ---\n${this.logTail()}`);
		}
		const auth = await lib.ensureOwner(this.url, OWNER);
		this.cookie = auth.cookie;
		log(`n8n started on ${this.url} and logged in (${Date.now() - t0} ms)`);
	}

	/** The pid of the n8n process itself (scripts/n8n-run.js runs it as a child, next to the task runner). */
	n8nPid(): number {
		const wrapper = this.n8n!.pid!;
		const children = fs
			.readFileSync(`/proc/${wrapper}/task/${wrapper}/children`, 'utf8')
			.trim()
			.split(/\s+/)
			.filter(Boolean);
		const pid = children.find((child) =>
			fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(this.runtime.n8nBin),
		);
		if (!pid) throw new Error(`no n8n process under pid ${wrapper}`);
		return Number(pid);
	}

	/** Stops n8n (not the sandbox, the user folder or the database) and starts it again. */
	async restartN8n(): Promise<void> {
		if (this.n8n) {
			const ok = await lib.stopGroup(this.n8n, { graceMs: 10000 });
			if (!ok) throw new Error(`n8n (pid ${this.n8n.pid}) still running after SIGKILL`);
			this.n8n = undefined;
		}
		await this.start();
	}

	/** A REST call with the owner's login cookie; resolves the parsed body (throws on non-2xx). */
	rest<T = Json>(method: string, p: string, body?: unknown): Promise<T> {
		return restRequest<T>(this.url, this.cookie, method, p, body);
	}

	/** Run a workflow the way the editor's "Execute workflow" button does; resolves the execution id. */
	async runManually(workflow: Workflow): Promise<string> {
		const r = await this.rest<{ data: { executionId: string } }>(
			'POST',
			`/rest/workflows/${workflow.id}/run`,
			manualRunBody(workflow, this.runtime.n8nVersion),
		);
		return String(r.data.executionId);
	}

	/** Executions (newest first), optionally of one workflow. */
	async executions(workflowId?: string): Promise<Json[]> {
		const filter = encodeURIComponent(JSON.stringify(workflowId ? { workflowId } : {}));
		const r = await this.rest<{ data: { results: Json[] } }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=100`,
		);
		return r.data.results;
	}

	/**
	 * How many executions are stored (of one workflow, with one of `status`): the REST API's count, not limited to
	 * a page.
	 */
	async executionCount(workflowId?: string, status?: string[]): Promise<number> {
		const filter = encodeURIComponent(
			JSON.stringify({ ...(workflowId ? { workflowId } : {}), ...(status ? { status } : {}) }),
		);
		const r = await this.rest<{ data: { count: number; results: Json[] } }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=1`,
		);
		return Number(r.data.count);
	}

	/** One stored execution with its data (n8n stores it in the "flatted" format). */
	async execution(id: string): Promise<StoredExecution> {
		const r = await this.rest<{ data: Json }>('GET', `/rest/executions/${id}`);
		const e = r.data;
		return {
			id: String(e.id),
			workflowId: e.workflowId,
			status: e.status,
			mode: e.mode,
			raw: e.data,
			run: new RunData(this.unflatten(e.data), e.status),
		};
	}

	/** Wait until an execution is no longer new/running/waiting. */
	async waitForExecution(
		id: string,
		{ timeoutMs = 60000, until = ['success', 'error', 'crashed', 'canceled'] } = {},
	): Promise<StoredExecution> {
		let last = '';
		return waitFor(
			async () => {
				const e = await this.execution(id);
				last = e.status;
				return until.includes(e.status) ? e : undefined;
			},
			{
				timeoutMs,
				what: () => `execution ${id} to reach ${until.join('/')} (last status: ${last})`,
			},
		);
	}

	private unflatten(raw: string): Json {
		const flatted = require(require.resolve('flatted', { paths: [this.runtime.n8nModules] })); // eslint-disable-line @typescript-eslint/no-require-imports
		return flatted.parse(raw);
	}

	// -----------------------------------------------------------------------------------------------------------

	/**
	 * Every file of the user folder (database + WAL, binary data, n8n's logs and event logs, config) that contains
	 * one of the credential's secrets in plain text or base64: [] when none does.
	 */
	filesWithSecrets(): { file: string; secret: string }[] {
		return this.scanFiles(SECRETS).hits;
	}

	/**
	 * Which files of the user folder (except the installed package) contain which of `needles`, in plain text or
	 * base64; `scanned` lists every file looked at.
	 */
	scanFiles(secrets: string[]): { scanned: string[]; hits: { file: string; secret: string }[] } {
		const hits: { file: string; secret: string }[] = [];
		const scanned: string[] = [];
		const needles = secrets.flatMap((s) => [
			{ secret: s, bytes: Buffer.from(s) },
			{
				secret: `${s} (base64)`,
				bytes: Buffer.from(Buffer.from(s).toString('base64').replace(/=+$/, '')),
			},
		]);
		const walk = (dir: string) => {
			for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
				const p = path.join(dir, e.name);
				if (e.isDirectory()) {
					if (p === path.join(this.userFolder, '.n8n', 'nodes')) continue; // the installed package itself
					walk(p);
				} else if (e.isFile()) {
					scanned.push(path.relative(this.userFolder, p));
					const buf = fs.readFileSync(p);
					for (const n of needles)
						if (buf.includes(n.bytes))
							hits.push({ file: path.relative(this.userFolder, p), secret: n.secret });
				}
			}
		};
		walk(this.userFolder);
		return { scanned, hits };
	}

	/** Stop n8n (whole process group) and the sandbox; remove the user folder unless FINVERIFY_E2E_KEEP=1. */
	async stop(): Promise<void> {
		if (this.stopped) return;
		this.stopped = true;
		if (this.n8n) {
			const ok = await lib.stopGroup(this.n8n, { graceMs: 10000 });
			if (!ok) log(`WARNING: n8n (pid ${this.n8n.pid}) still running after SIGKILL`);
		}
		await this.sandbox.close();
		if (process.env.FINVERIFY_E2E_KEEP === '1')
			log(`kept ${this.userFolder} (FINVERIFY_E2E_KEEP=1)`);
		else fs.rmSync(this.userFolder, { recursive: true, force: true });
	}

	private killNow(): void {
		if (this.n8n && !this.stopped) lib.killGroupNow(this.n8n);
	}
}

/** Poll `fn` until it returns something other than undefined. */
export async function waitFor<T>(
	fn: () => Promise<T | undefined>,
	{
		timeoutMs = 30000,
		intervalMs = 500,
		what,
	}: { timeoutMs?: number; intervalMs?: number; what: string | (() => string) },
): Promise<T> {
	const t0 = Date.now();
	let lastError: unknown;
	while (Date.now() - t0 < timeoutMs) {
		try {
			const v = await fn();
			if (v !== undefined) return v;
		} catch (e) {
			lastError = e;
		}
		await sleep(intervalMs);
	}
	const w = typeof what === 'function' ? what() : what;
	throw new Error(
		`timed out after ${timeoutMs / 1000} s waiting for ${w}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
	);
}

/**
 * Wait until a published trigger's webhook is registered: an unsigned POST is answered 401 (the trigger ran
 * and refused it) instead of 404 (published workflows are activated in the background after start).
 */
export async function waitForWebhook(url: string, what: string | (() => string)): Promise<void> {
	await waitFor(
		async () => {
			const r = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
			});
			return r.status === 401 ? true : undefined;
		},
		{ timeoutMs: 120_000, what },
	);
}

/** Call the sandbox API with the default sandbox key (what an API client outside n8n would do). */
export async function sandboxApi(
	sandboxUrl: string,
	p: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; json: Json }> {
	const res = await fetch(`${sandboxUrl}/api/v1/services/${p}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': 'sandbox-key',
			'x-api-secret': 'sandbox-secret',
			...headers,
		},
		body: JSON.stringify(body),
	});
	return { status: res.status, json: (await res.json()) as Json };
}

export { sleep, log };
