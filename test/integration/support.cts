/**
 * What the resource suites of test/integration share: the node's name in the fixtures, the fixture loader,
 * one engine per test file, a sandbox per describe block (with runs pointed at it), and the assertions on
 * how a run failed.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { bankAccounts } from '../../sandbox/data/statements.cjs';
import { checkNodeOutput } from '../contract/outputSchemas.cjs';
import { loadBaseNodes } from '../harness/baseNodes.cjs';
import {
	Engine,
	loadWorkflow,
	nodeWorkflow,
	sandboxCredentials,
	startStubServer,
	startTestSandbox,
	WaitingExecutions,
} from '../harness/index.cjs';
import type {
	RunResult,
	SandboxControl,
	Shape,
	StubServer,
	WorkflowJson,
} from '../harness/index.cjs';

/** Name of the FinVerify node in every fixture. */
export const NODE = 'FinVerify';

/** The two documented response shapes the sandbox can answer in. */
export const SHAPES = ['sample', 'reference'] as const satisfies readonly Shape[];

/** What the node says in the description of an input error: the request never left. */
export const NOTHING_SENT = 'Nothing was sent to the service';

/** Loader of one resource's fixtures: `fixtures('company')('getByCin.notFound')`. */
export const fixtures = (resource: string) => (name: string) =>
	loadWorkflow(`integration/workflows/${resource}/${name}.workflow.json`);

/**
 * Every Simplified or Normalized output of a FinVerify node in these suites is checked against the schema
 * the package ships for its operation and mode (no unknown properties): test/contract/outputSchemas.cts.
 */
function checkOutputs(workflow: WorkflowJson, result: RunResult) {
	for (const node of workflow.nodes) {
		const taskData = result.run.data.resultData.runData[node.name];
		if (!taskData) continue;
		for (const task of taskData) {
			const items = (task.data?.main?.[0] ?? []).map((item) => item.json);
			checkNodeOutput(node, items);
		}
	}
}

let sharedEngine: Promise<Engine> | undefined;

/** The test file's one engine (jest loads this module once per test file). */
const fileEngine = async () => await (sharedEngine ??= Engine.create());

export interface TestSandbox {
	/** Base URL of the sandbox (once the enclosing block's beforeAll has run, like everything below). */
	readonly url: string;
	/** The sandbox's control API (request log, outbox, journeys, reset). */
	readonly control: SandboxControl;
	/** The test file's engine. */
	readonly engine: Engine;
	/** Runs a workflow with the FinVerify credential pointing at this sandbox, with `credentialOverrides`. */
	run(workflow: WorkflowJson, credentialOverrides?: IDataObject): Promise<RunResult>;
	/** How many requests the sandbox logged, to paths containing `pathPart` if given. */
	sent(pathPart?: string): Promise<number>;
}

/**
 * Registers the hooks of the enclosing describe block (or file): the file's engine and a sandbox started
 * before its tests and closed after them; with `resetBeforeEach`, the sandbox is reset before every test.
 * The returned handle is read inside tests.
 */
export function withSandbox(
	options: { shape?: Shape; stepMs?: number; resetBeforeEach?: boolean } = {},
): TestSandbox {
	const { resetBeforeEach = false, ...sandboxOptions } = options;
	let engine: Engine | undefined;
	let sandbox: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
	const started = () => {
		if (!engine || !sandbox)
			throw new Error('the sandbox is only there inside tests (after beforeAll)');
		return { engine, sandbox };
	};

	beforeAll(async () => {
		engine = await fileEngine();
		sandbox = await startTestSandbox(sandboxOptions);
	});
	afterAll(async () => await sandbox?.close());
	if (resetBeforeEach) beforeEach(async () => await started().sandbox.control.reset());

	return {
		get url() {
			return started().sandbox.url;
		},
		get control() {
			return started().sandbox.control;
		},
		get engine() {
			return started().engine;
		},
		run: async (workflow, credentialOverrides = {}) => {
			const { engine: current, sandbox: target } = started();
			current.setCredentials(sandboxCredentials(target.url, credentialOverrides));
			const result = await current.run(workflow);
			checkOutputs(workflow, result);
			return result;
		},
		sent: async (pathPart) => (await started().sandbox.control.requests(pathPart)).length,
	};
}

/** The FinVerify credential of a custom base URL (a loopback stub service, or a closed port). */
export const customCredentials = (baseUrl: string) => ({
	finVerifyApi: { environment: 'custom', baseUrl, apiKey: 'k', apiSecret: 's' },
});

export interface StubService {
	/** The block's engine, its credential pointing at the stub (once the block's beforeAll has run). */
	readonly engine: Engine;
	/** The loopback stub service answering the node's requests with exact bodies. */
	readonly stub: StubServer;
	/** Runs a workflow on the engine. */
	run(workflow: WorkflowJson, options?: Parameters<Engine['run']>[1]): Promise<RunResult>;
}

/**
 * Registers the hooks of the enclosing describe block (or file): an engine (with n8n's base nodes, when
 * `baseNodes`) and a loopback stub service started before its tests, the FinVerify credential pointing at
 * the stub, the stub closed after them. The returned handle is read inside tests.
 */
export function withStubService(options: { baseNodes?: boolean } = {}): StubService {
	let engine: Engine | undefined;
	let stub: StubServer | undefined;
	const started = () => {
		if (!engine || !stub) throw new Error('the stub is only there inside tests (after beforeAll)');
		return { engine, stub };
	};

	beforeAll(async () => {
		engine = await Engine.create();
		if (options.baseNodes) loadBaseNodes(engine.nodeTypes);
		stub = await startStubServer();
		engine.setCredentials(customCredentials(stub.url));
	});
	afterAll(async () => await stub?.close());

	return {
		get engine() {
			return started().engine;
		},
		get stub() {
			return started().stub;
		},
		run: async (workflow, runOptions) => await started().engine.run(workflow, runOptions),
	};
}

/** Start (with input `items`) → one FinVerify node at version 3 with `parameters`. */
export function versionThreeWorkflow(parameters: IDataObject, items?: IDataObject[]): WorkflowJson {
	const wf = nodeWorkflow({ parameters, items });
	return { ...wf, nodes: wf.nodes.map((n) => (n.name === NODE ? { ...n, typeVersion: 3 } : n)) };
}

/** The items of a version 3 FinVerify node's Complete (0), Incomplete (1) and Failed (2) outputs. */
export function versionThreeOutputs(result: RunResult) {
	return {
		complete: result.json(NODE, 0),
		incomplete: result.json(NODE, 1),
		failed: result.json(NODE, 2),
	};
}

/** What a test file with waiting executions works with (see withWaitingExecutions). */
export interface WaitingStack {
	engine: Engine;
	sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
	waiting: WaitingExecutions;
}

/**
 * For one test file: n8n-core's engine, the sandbox (journeys step every 50 ms) and waiting executions served
 * as the n8n app serves them (test/harness/waiting.cts), every leg's outputs (the first run, each resumption, a
 * time-out) checked against the shipped schemas like `run`'s. Before each test the sandbox is reset and the
 * credential points at it. `use` receives them once started.
 */
export function withWaitingExecutions(use: (stack: WaitingStack) => void): void {
	let stack: WaitingStack | undefined;
	beforeAll(async () => {
		const engine = await Engine.create();
		const sandbox = await startTestSandbox({ stepMs: 50 });
		stack = { engine, sandbox, waiting: await WaitingExecutions.start(engine, checkOutputs) };
		use(stack);
	});
	afterAll(async () => {
		await stack?.waiting.close();
		await stack?.sandbox.close();
	});
	beforeEach(async () => {
		await stack!.sandbox.control.reset();
		stack!.engine.setCredentials(sandboxCredentials(stack!.sandbox.url));
	});
}

/** Runs `action` and checks that meanwhile the sandbox logged no request to paths containing `pathPart`. */
export async function expectNothingSent<T>(
	sandbox: TestSandbox,
	pathPart: string,
	action: () => Promise<T>,
): Promise<T> {
	const before = await sandbox.sent(pathPart);
	const outcome = await action();
	expect(await sandbox.sent(pathPart)).toBe(before);
	return outcome;
}

/**
 * The sandbox's clock is manual (test/harness/sandbox.cts): a journey or an ITR job moves only when the test lets
 * time pass. While `running` (a workflow run that polls a status) is under way, this waits for its first request to
 * a path containing `pathPart`, then advances the clock by `ms`: the node's next status request finds every step
 * due by then done, however slow the machine. Returns the run's outcome.
 */
export async function advanceClockAfterRequest<T>(
	control: SandboxControl,
	pathPart: string,
	ms: number,
	running: Promise<T>,
): Promise<T> {
	let settled = false;
	running.then(
		() => (settled = true),
		() => (settled = true),
	);
	const before = (await control.requests(pathPart)).length;
	while (!settled && (await control.requests(pathPart)).length === before)
		await new Promise((resolve) => setTimeout(resolve, 20));
	if (!settled) await control.advanceClock(ms);
	return await running;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The run stopped on bad input in item 0, naming `field`; its description contains `descriptionPart`. */
export function expectInvalidInput(
	result: RunResult,
	field: string,
	descriptionPart = NOTHING_SENT,
) {
	expect(result.error?.message).toMatch(new RegExp(`^Invalid ${escapeRegExp(field)} in item 0`));
	expect(result.error?.description).toContain(descriptionPart);
}

/** The run stopped on the service's error with this code (and HTTP status, when given). */
export function expectApiError(result: RunResult, code: string, httpCode?: string) {
	expect(result.error).toBeDefined();
	expect(result.error?.description).toContain(`Code: ${code}`);
	if (httpCode !== undefined)
		expect((result.error as unknown as { httpCode: string }).httpCode).toBe(httpCode);
}

/** The sandbox's accounts of a mobile number that links two (a journey of two accounts). */
export function sandboxTwoAccounts(): ReturnType<typeof bankAccounts> {
	for (let i = 0; i < 200; i++) {
		const accounts = bankAccounts(`98${String(10_000_000 + i * 7919).slice(0, 8)}`);
		if (accounts.length === 2) return accounts;
	}
	throw new Error('no sandbox journey with two accounts');
}

/**
 * A callback as the service signs it (HMAC-SHA256 of `<timestamp>.<raw body>` with the credential's webhook
 * secret), as fetch() options: the sandbox credential's secret and now, unless a test forges either.
 */
export function signedCallback(
	body: IDataObject,
	secret = 'sandbox-webhook-secret',
	timestamp = Math.floor(Date.now() / 1000),
) {
	const raw = JSON.stringify(body);
	const signature = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
	return {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-webhook-timestamp': String(timestamp),
			'x-webhook-signature': `sha256=${signature}`,
		},
		body: raw,
	};
}
