import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

import express from 'express';
import { ExecutionLifecycleHooks, WebhookContext } from 'n8n-core';
import type {
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowBase,
} from 'n8n-workflow';

import type { Engine, RunResult, WorkflowJson } from './engine.cjs';
import { closeLoopbackServer, listenOnLoopback } from './loopback.cjs';
import { PATIENCE_MS } from './patience.cjs';

export type WaitingStatus = 'waiting' | 'running' | 'success' | 'error';

interface Execution {
	id: string;
	wf: WorkflowJson;
	status: WaitingStatus;
	/** What n8n keeps in its database while the execution waits (a JSON copy, as stored). */
	stored: IRunExecutionData;
	/** One result per leg: the first run, then each resumption. */
	legs: RunResult[];
	running?: Promise<RunResult>;
	/** The first leg whose outputs `onLeg` refused. */
	checkFailed?: Error;
}

/** A check of one leg's outputs (it throws to fail the test that awaits the leg). */
export type LegCheck = (wf: WorkflowJson, result: RunResult) => void;

export interface WaitingCall {
	executionId: string;
	status: number;
	resumed: boolean;
}

const copy = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * n8n's waiting executions, for the engine tests: runs a workflow with `$execution.resumeUrl` pointing at
 * a real HTTP server on 127.0.0.1 that does what the n8n app's `WaitingWebhooks` does (2.41.1,
 * dist/webhooks/waiting-webhooks.js and webhook-helpers.js):
 * - `/webhook-waiting/<executionId>?signature=<resumeToken>`: an unknown execution is 404, a missing or
 *   wrong token 401 `{"error":"Invalid token"}` before the node sees anything, a running or finished
 *   execution 409;
 * - the waiting node's restart webhook runs `webhook()` in n8n-core's WebhookContext with the stored
 *   run data; no `workflowData` → the caller gets the node's answer (or `{"message":"Webhook call
 *   received"}`) and the execution stays waiting, unchanged;
 * - `workflowData` → the waiting node is disabled, its waiting run dropped, its input replaced by
 *   `workflowData`, and the execution continues through WorkflowExecute;
 * - `timeOut()` is what n8n's WaitTracker does at `waitTill`: continue the stored execution as is
 *   (n8n-core disables the waiting node, which passes its stored items on).
 */
export class WaitingExecutions {
	private readonly executions = new Map<string, Execution>();
	readonly calls: WaitingCall[] = [];
	private counter = 0;

	private constructor(
		private readonly engine: Engine,
		private readonly server: Server,
		readonly baseUrl: string,
		private readonly onLeg?: LegCheck,
	) {}

	/** `onLeg` sees every leg once it has run (the first run, each resumption, a time-out), before anyone awaits it. */
	static async start(engine: Engine, onLeg?: LegCheck): Promise<WaitingExecutions> {
		const app = express();
		const keepRaw = (req: express.Request, _res: unknown, buf: Buffer) => {
			(req as unknown as { rawBody: Buffer }).rawBody = buf;
		};
		app.use(express.raw({ type: () => true, verify: keepRaw, limit: '16mb' }));
		const holder: { self?: WaitingExecutions } = {};
		app.post('/webhook-waiting/:id', (req, res) => {
			void holder.self!.handle(req, res).catch((error: Error) => {
				if (!res.headersSent) res.status(500).json({ message: error.message });
			});
		});
		const server = createServer(app);
		const { url: baseUrl } = await listenOnLoopback(server);
		holder.self = new WaitingExecutions(engine, server, baseUrl, onLeg);
		return holder.self;
	}

	private additional() {
		return { webhookWaitingBaseUrl: `${this.baseUrl}/webhook-waiting` };
	}

	private resumeGate?: Promise<void>;

	/**
	 * Holds every resume a callback starts from now on where n8n's concurrency queue holds it (before the
	 * execution is marked running, its caller not yet answered) until the returned function is called.
	 */
	holdResumes(): () => void {
		let release!: () => void;
		this.resumeGate = new Promise<void>((r) => (release = r));
		return () => {
			this.resumeGate = undefined;
			release();
		};
	}

	/** Runs the workflow like Engine.run; returns the first leg (waiting or finished). */
	async run(wf: WorkflowJson): Promise<RunResult & { executionId: string }> {
		const id = `wait-${++this.counter}-${process.pid}`;
		const result = await this.engine.run(wf, {
			mode: 'webhook',
			executionId: id,
			additionalData: this.additional(),
		});
		this.onLeg?.(wf, result);
		const execution: Execution = {
			id,
			wf,
			status: 'running',
			stored: copy(result.run.data),
			legs: [result],
		};
		this.settle(execution, result);
		this.executions.set(id, execution);
		return { ...result, executionId: id };
	}

	private settle(execution: Execution, result: RunResult) {
		execution.stored = copy(result.run.data);
		execution.status = result.run.waitTill
			? 'waiting'
			: result.run.status === 'success'
				? 'success'
				: 'error';
	}

	status(executionId: string): WaitingStatus {
		return this.get(executionId).status;
	}

	/** The resume URL of a waiting execution, exactly as `$execution.resumeUrl` gives it. */
	resumeUrl(executionId: string): string {
		const { stored } = this.get(executionId);
		return `${this.baseUrl}/webhook-waiting/${executionId}?signature=${stored.resumeToken}`;
	}

	waitTill(executionId: string): Date | undefined {
		const waitTill = this.get(executionId).stored.waitTill;
		return waitTill ? new Date(waitTill) : undefined;
	}

	legs(executionId: string): RunResult[] {
		return this.get(executionId).legs;
	}

	/** Resolves with the last leg once the execution no longer runs or waits (or rejects after `ms`). */
	async finished(executionId: string, ms = PATIENCE_MS): Promise<RunResult> {
		const deadline = Date.now() + ms;
		for (;;) {
			const execution = this.get(executionId);
			if (execution.running) await execution.running;
			if (execution.checkFailed) throw execution.checkFailed;
			if (execution.status === 'success' || execution.status === 'error')
				return execution.legs[execution.legs.length - 1];
			if (Date.now() > deadline)
				throw new Error(`execution ${executionId} is still ${execution.status} after ${ms} ms`);
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
	}

	/** What n8n's WaitTracker does at waitTill: continue the stored execution. */
	async timeOut(executionId: string): Promise<RunResult> {
		const execution = this.get(executionId);
		if (execution.status !== 'waiting') throw new Error(`execution ${executionId} is not waiting`);
		return await this.continue(execution, copy(execution.stored));
	}

	async close(): Promise<void> {
		await Promise.all([...this.executions.values()].map(async (e) => await e.running));
		await closeLoopbackServer(this.server);
	}

	private get(executionId: string): Execution {
		const execution = this.executions.get(executionId);
		if (!execution) throw new Error(`no execution ${executionId}`);
		return execution;
	}

	private async continue(execution: Execution, data: IRunExecutionData): Promise<RunResult> {
		execution.status = 'running';
		execution.running = this.engine.execute(execution.wf, data, {
			mode: 'webhook',
			executionId: execution.id,
			additionalData: this.additional(),
		});
		try {
			const result = await execution.running;
			execution.legs.push(result);
			this.settle(execution, result);
			try {
				this.onLeg?.(execution.wf, result);
			} catch (error) {
				// a resume started by a callback has no awaiting test: finished() reports it
				execution.checkFailed ??= error as Error;
				throw error;
			}
			return result;
		} finally {
			execution.running = undefined;
		}
	}

	private async handle(req: express.Request, res: express.Response): Promise<void> {
		const executionId = String(req.params.id);
		const record = (status: number, resumed = false) =>
			this.calls.push({ executionId, status, resumed });
		const execution = this.executions.get(executionId);
		if (!execution) {
			record(404);
			res.status(404).json({ message: `The execution "${executionId}" does not exist.` });
			return;
		}
		const token = typeof req.query.signature === 'string' ? req.query.signature : '';
		const expected = execution.stored.resumeToken ?? '';
		if (
			!token ||
			!expected ||
			token.length !== expected.length ||
			!timingSafeEqual(Buffer.from(token), Buffer.from(expected))
		) {
			record(401);
			res.status(401).json({ error: 'Invalid token' });
			return;
		}
		if (execution.status !== 'waiting') {
			// n8n's own messages (waiting-webhooks.js; its missing quote in "has finished already" included)
			const message =
				execution.status === 'running'
					? `The execution "${executionId}" is running already.`
					: execution.status === 'error'
						? `The execution "${executionId}" has finished with error.`
						: `The execution "${executionId} has finished already.`;
			record(409);
			res.status(409).json({ code: 409, message });
			return;
		}

		const data = copy(execution.stored);
		const nodeName = data.resultData.lastNodeExecuted!;
		const stackEntry = data.executionData!.nodeExecutionStack[0];
		stackEntry.node.disabled = true;
		data.waitTill = undefined;
		const workflow = this.engine.buildWorkflow(execution.wf);
		const node = workflow.getNode(nodeName)!;
		const nodeType = this.engine.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const description = (nodeType.description.webhooks ?? []).find(
			(w) => w.restartWebhook === true && String(w.httpMethod) === req.method && !w.path,
		);
		if (!description || !nodeType.webhook) {
			record(404);
			res.status(404).json({ message: 'no waiting webhook with a matching path/method' });
			return;
		}
		const hooks = new ExecutionLifecycleHooks('webhook', executionId, {} as IWorkflowBase);
		const additionalData = this.engine.additionalData(hooks, executionId, {
			...this.additional(),
			httpRequest: req,
			httpResponse: res,
		} as never);
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: nodeName,
			path: '',
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			'webhook',
			webhookData,
			[],
			data,
		);
		const response: IWebhookResponseData = await nodeType.webhook.call(context);
		if (response.workflowData === undefined) {
			if (!res.headersSent)
				res.status(200).json(response.webhookResponse ?? { message: 'Webhook call received' });
			record(res.statusCode);
			return;
		}
		// n8n's concurrency queue (N8N_CONCURRENCY_PRODUCTION_LIMIT): the resume waits for its slot before the
		// execution is marked running, its caller unanswered, the execution still `waiting`
		if (this.resumeGate) await this.resumeGate;
		// resume: the waiting run is dropped and the node passes workflowData on
		data.resultData.runData[nodeName].pop();
		stackEntry.data.main = response.workflowData;
		stackEntry.metadata = { ...stackEntry.metadata, forwardAllOutputs: true };
		const leg = this.continue(execution, data);
		// n8n answers once the resumed execution is registered (responseData "noData": empty body)
		if (!res.headersSent) res.status(200).end();
		record(200, true);
		await leg;
	}
}
