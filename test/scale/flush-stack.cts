/**
 * The few operations test/scale/flush.cts needs from an n8n, on either stack: one n8n on SQLite (N8nStack,
 * test/e2e/helpers/stack.cts) or queue mode with PostgreSQL (QueueStack, test/e2e/helpers/queue.cts: main, one webhook
 * processor, two workers, as `npm run start:queue` runs it). Each starts with the fixture waiting-scale.workflow.json
 * imported and published, and the sandbox in-process; flushSuite's body is the same for both.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { SandboxControl } from '../harness/sandbox.cjs';
import { QueueStack } from '../e2e/helpers/queue.cjs';
import { N8nStack, type RunData, type StackOptions, type Workflow } from '../e2e/helpers/stack.cjs';
import { treePids } from './measure.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const lib = require('../../scripts/n8n-env.js');
/* eslint-enable @typescript-eslint/no-require-imports */

const FIXTURE = 'waiting-scale.workflow.json';
/** The settings `npm start` tunes for bursts (scripts/lib/n8n-process.js burstEnv): removed for n8n's defaults. */
const BURST_SETTINGS = [
	'N8N_CONCURRENCY_PRODUCTION_LIMIT',
	'DB_SQLITE_POOL_SIZE',
	'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE',
];

/** The statuses an execution can have (flush.cts counts each, also when 0). */
export const STATUSES = [
	'success',
	'error',
	'crashed',
	'canceled',
	'unknown',
	'waiting',
	'running',
	'new',
];

/** A callback the sandbox sent (its webhook log), with every attempt's answer. */
export type Delivery = {
	subject: string;
	status: string;
	outcome?: string;
	payload: { status: string };
	attempts: { status: number | null; error?: string; message?: string }[];
};
/** A journey as the sandbox lists it. */
export type Journey = { client_id: string; status: string; webhook_url: string | null };

export interface FlushStack {
	/** The in-process sandbox: its URL (journeys) and its control (advance a journey, the callbacks sent). */
	sandbox: { url: string; control: SandboxControl };
	/** Where the start webhook is (n8n itself, or queue mode's webhook processor). */
	webhookUrl: string;
	/** The workflow's executions by status (statuses with none may be missing). */
	statusCounts(): Promise<Record<string, number>>;
	/** How many of the workflow's executions wait (one request). */
	waitingCount(): Promise<number>;
	/** The ids of at most 100 of the workflow's waiting executions. */
	waitingIds(): Promise<string[]>;
	/** One execution's status and run data. */
	execution(id: string): Promise<{ status: string; run: RunData }>;
	/** The n8n processes whose memory is sampled (and, when there is one to ask, n8n's /metrics). */
	pids(): number[];
	metricsUrl?: string;
	/** The n8n log files (LockAcquireTimeoutError is counted in them). */
	logFiles(): string[];
	stop(): Promise<void>;
}

export interface FlushStackOptions {
	name: string;
	/** n8n's own defaults rather than `npm start`'s settings for bursts. */
	defaults: boolean;
	queue: boolean;
	sandbox: StackOptions['sandbox'];
}

/** One n8n on SQLite: REST API counts (one request per status), n8n's log, the n8n process (not its runner). */
async function sqliteStack(o: FlushStackOptions): Promise<FlushStack> {
	const stack = await N8nStack.create({ name: o.name, stepMs: 3_600_000, sandbox: o.sandbox });
	const wf = stack.fixture(FIXTURE);
	const adapter: FlushStack = {
		sandbox: stack.sandbox,
		webhookUrl: stack.url,
		metricsUrl: `${stack.url}/metrics`,
		async statusCounts() {
			const now: Record<string, number> = {};
			for (const status of STATUSES) now[status] = await stack.executionCount(wf.id, [status]);
			return now;
		},
		waitingCount: () => stack.executionCount(wf.id, ['waiting']),
		async waitingIds() {
			const filter = encodeURIComponent(JSON.stringify({ workflowId: wf.id, status: ['waiting'] }));
			const page = await stack.rest<{ data: { results: { id: string }[] } }>(
				'GET',
				`/rest/executions?filter=${filter}&limit=100`,
			);
			return page.data.results.map((e) => String(e.id));
		},
		execution: (id) => stack.execution(id),
		pids: () => [stack.n8nPid()],
		logFiles: () => [stack.logFile()],
		stop: () => stack.stop(),
	};
	try {
		await stack.importAll([wf]);
		await stack.publish(wf.id);
		if (o.defaults) for (const name of BURST_SETTINGS) delete stack.env[name];
		await stack.start();
	} catch (e) {
		await stack.stop();
		throw e;
	}
	return adapter;
}

/** The waiting-scale fixture as read from disk (its own id: the same workflow on SQLite and on queue mode). */
const scaleFixture = () =>
	JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'e2e', 'fixtures', FIXTURE), 'utf8'));
export const SCALE_WORKFLOW_ID = String(scaleFixture().id);

/**
 * The waiting-scale fixture for QueueStack's `extra`: its start webhook and resume URLs on the webhook processor, its
 * FinVerify nodes on the sandbox.
 */
export const queueScaleWorkflow = ({
	sandboxUrl,
	webhookUrl,
}: {
	sandboxUrl: string;
	webhookUrl: string;
}): Workflow =>
	lib.localizeWorkflow(lib.prepareWorkflow(scaleFixture()), { n8nUrl: webhookUrl, sandboxUrl });

/** Queue mode: counts and waiting ids from PostgreSQL (one query each), every n8n process and its task runner. */
async function queueStack(o: FlushStackOptions): Promise<FlushStack> {
	const workflowId = SCALE_WORKFLOW_ID;
	const stack = await QueueStack.create({
		name: o.name,
		stepMs: 3_600_000,
		sandbox: o.sandbox,
		extra: [queueScaleWorkflow],
		publish: [workflowId],
	});
	try {
		if (o.defaults) for (const name of BURST_SETTINGS) delete stack.env[name];
		await stack.start(2);
	} catch (e) {
		await stack.stop();
		throw e;
	}
	/** One query at a time on the stack's one PostgreSQL client (pg deprecates queries sent while one runs). */
	let chain: Promise<unknown> = Promise.resolve();
	const serial = <T,>(query: () => Promise<T>): Promise<T> => {
		const p = chain.then(query);
		chain = p.catch(() => undefined);
		return p;
	};
	return {
		sandbox: stack.sandbox,
		webhookUrl: stack.webhookUrl,
		async statusCounts() {
			const now: Record<string, number> = {};
			for (const { status } of await serial(() => stack.executions(workflowId)))
				now[status] = (now[status] ?? 0) + 1;
			return now;
		},
		async waitingCount() {
			const r = await serial(() =>
				stack.db!.query(
					`SELECT count(*)::int AS n FROM execution_entity WHERE "workflowId" = $1 AND status = 'waiting'`,
					[workflowId],
				),
			);
			return Number(r.rows[0].n);
		},
		async waitingIds() {
			const r = await serial(() =>
				stack.db!.query(
					`SELECT id::text AS id FROM execution_entity WHERE "workflowId" = $1 AND status = 'waiting' ORDER BY id LIMIT 100`,
					[workflowId],
				),
			);
			return r.rows.map((row) => String(row.id));
		},
		execution: (id) => serial(() => stack.execution(id)),
		pids: () => stack.processes.flatMap((p) => treePids(p.child.pid!)),
		logFiles: () => stack.processes.map((p) => p.logFile),
		stop: () => stack.stop(),
	};
}

/** The stack flushSuite runs on, started (n8n answering), the fixture published. */
export function startFlushStack(o: FlushStackOptions): Promise<FlushStack> {
	return o.queue ? queueStack(o) : sqliteStack(o);
}
