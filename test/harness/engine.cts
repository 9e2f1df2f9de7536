import './env.cjs';

import { createServer } from 'node:http';
import path from 'node:path';

import express from 'express';
import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	IPinData,
	IRun,
	IRunExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	NodeHelpers,
	resolveWebhookDescriptionField,
	Workflow,
} from 'n8n-workflow';

import { MapCredentialsHelper } from './credentials.cjs';
import { closeLoopbackServer, listenOnLoopback } from './loopback.cjs';
import { PATIENCE_MS } from './patience.cjs';
import { CredentialTypeRegistry, NodeRegistry } from './registry.cjs';

export const PACKAGE_DIR = path.resolve(__dirname, '../..');

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
}

export interface RunResult {
	run: IRun;
	/** Items of one output of the last run of a node. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	/** Just the json of those items. */
	json(nodeName: string, outputIndex?: number): IDataObject[];
	/** The error that stopped the workflow, if any. */
	error: IRun['data']['resultData']['error'];
	nodeExecutionOrder: string[];
}

export interface WebhookServer {
	baseUrl: string;
	/** Production URL of a webhook node, as n8n would show it. */
	urlFor(nodeName: string, method?: string): string;
	staticData: IDataObject;
	/** Executions started so far (each resolves when its run ends). */
	executions(): Promise<RunResult[]>;
	/** Resolves once `count` executions have started and finished, or rejects after `timeoutMs` (PATIENCE_MS). */
	waitForExecutions(count: number, timeoutMs?: number): Promise<RunResult[]>;
	/**
	 * Executions started so far. An accepted delivery is counted before its sender gets the answer (n8n creates the
	 * execution before it answers), so a count taken after the answers is final: there is nothing to wait for.
	 */
	startedCount(): number;
	close(): Promise<void>;
}

let executionCounter = 0;

/**
 * Runs workflow JSON through n8n-core's real WorkflowExecute with this package's node and credential types
 * loaded, and serves webhook triggers over real HTTP through n8n-core's real WebhookContext.
 * Nothing here stands in for IExecuteFunctions: node code runs inside n8n-core's own contexts and its
 * this.helpers.httpRequest* are n8n-core's axios-based helpers.
 */
export class Engine {
	readonly nodeTypes = new NodeRegistry();
	readonly credentialTypes = new CredentialTypeRegistry(this.nodeTypes);
	readonly credentialsHelper = new MapCredentialsHelper(this.credentialTypes);

	static async create(options: { packageDir?: string; fromSource?: boolean } = {}) {
		const engine = new Engine();
		await engine.nodeTypes.loadPackage(
			options.packageDir ?? process.env.HARNESS_PACKAGE_DIR ?? PACKAGE_DIR,
			{ fromSource: options.fromSource ?? true },
		);
		return engine;
	}

	setCredentials(data: Record<string, ICredentialDataDecryptedObject>) {
		this.credentialsHelper.data = data;
	}

	buildWorkflow(wf: WorkflowJson, id = 'test-workflow') {
		return new Workflow({
			id,
			name: wf.name ?? 'test',
			nodes: wf.nodes,
			connections: wf.connections,
			active: false,
			nodeTypes: this.nodeTypes,
			settings: { executionOrder: 'v1', ...(wf.settings ?? {}) },
			staticData: {},
		});
	}

	/** The object the CLI builds in WorkflowExecuteAdditionalData.getBase(), with inert defaults. */
	additionalData(
		hooks: ExecutionLifecycleHooks,
		executionId: string,
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): IWorkflowExecuteAdditionalData {
		const unavailable = (what: string) => async () => {
			throw new Error(`${what} is not available in the test engine`);
		};
		return {
			credentialsHelper: this.credentialsHelper,
			hooks,
			executionId,
			currentNodeExecutionIndex: 0,
			executeWorkflow: unavailable('executeWorkflow'),
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			restApiUrl: 'http://127.0.0.1:5678/rest',
			instanceBaseUrl: 'http://127.0.0.1:5678/',
			formBaseUrl: 'http://127.0.0.1:5678/form',
			formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
			formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
			mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
			mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
			variables: {},
			logAiEvent: () => {},
			startRunnerTask: unavailable('startRunnerTask'),
			...extra,
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	/** Executes a workflow (as exported from the editor) from its start node, like a manual run. */
	async run(
		wf: WorkflowJson,
		options: {
			mode?: WorkflowExecuteMode;
			startNodeName?: string;
			startItems?: INodeExecutionData[][];
			executionId?: string;
			/** The workflow's id (default 'test-workflow'). */
			workflowId?: string;
			/** Replaces parts of the additional data (e.g. webhookWaitingBaseUrl for resume URLs). */
			additionalData?: Partial<IWorkflowExecuteAdditionalData>;
		} = {},
	): Promise<RunResult> {
		const workflow = this.buildWorkflow(wf, options.workflowId);
		const startNode = options.startNodeName
			? workflow.getNode(options.startNodeName)
			: workflow.getStartNode();
		if (!startNode) throw new Error('The workflow has no start node');
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: startNode, data: { main: options.startItems ?? [[{ json: {} }]] }, source: null },
				],
			},
			resultData: { runData: {}, pinData: wf.pinData },
		});
		return await this.execute(wf, runExecutionData, {
			mode: options.mode ?? 'manual',
			executionId: options.executionId,
			workflowId: options.workflowId,
			additionalData: options.additionalData,
		});
	}

	/**
	 * Runs (or continues) an execution from the given run data through WorkflowExecute, as n8n does for a
	 * new run and for a waiting execution it resumes (test/harness/waiting.cts).
	 */
	async execute(
		wf: WorkflowJson,
		runExecutionData: IRunExecutionData,
		options: {
			mode?: WorkflowExecuteMode;
			executionId?: string;
			workflowId?: string;
			additionalData?: Partial<IWorkflowExecuteAdditionalData>;
		} = {},
	): Promise<RunResult> {
		const workflow = this.buildWorkflow(wf, options.workflowId);
		const executionId = options.executionId ?? String(++executionCounter);
		const mode = options.mode ?? 'manual';
		const hooks = new ExecutionLifecycleHooks(mode, executionId, {
			id: workflow.id,
			name: workflow.name ?? 'test',
			active: false,
			isArchived: false,
			nodes: wf.nodes,
			connections: wf.connections,
			createdAt: new Date(),
			updatedAt: new Date(),
			activeVersionId: null,
		} as unknown as IWorkflowBase);
		const nodeExecutionOrder: string[] = [];
		hooks.addHandler('nodeExecuteAfter', (nodeName) => {
			nodeExecutionOrder.push(nodeName);
		});
		const finished = new Promise<IRun>((resolve) =>
			hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)),
		);
		const execute = new WorkflowExecute(
			this.additionalData(hooks, executionId, options.additionalData),
			mode,
			runExecutionData,
		);
		await execute.processRunExecutionData(workflow);
		const run = await finished;
		return toResult(run, nodeExecutionOrder);
	}

	/**
	 * Serves every webhook of every webhook node of `wf` on a real HTTP server on 127.0.0.1 (random port)
	 * like n8n's production endpoint `/webhook/<path>`. Activation runs the node's checkExists/create in
	 * n8n-core's HookContext (close() runs delete). A request runs the node's webhook() in n8n-core's
	 * WebhookContext; when it returns workflowData, the rest of the workflow runs through WorkflowExecute.
	 */
	async serveWebhooks(
		wf: WorkflowJson,
		options: {
			staticData?: IDataObject;
			/**
			 * Runs where n8n creates the execution (before it answers an accepted delivery); a test makes
			 * it slow or throw to stand for a database under load.
			 */
			createExecution?: () => Promise<void>;
			/**
			 * As the n8n app (2.41.1) does: each webhook call gets its own copy of the workflow's static data,
			 * loaded before the call and saved when n8n answers without error, but only for a call that starts
			 * no execution: preparing the execution resets the "changed" flag n8n saves by (simultaneous calls
			 * overwrite each other's changes). Off: one shared object (a single in-memory workflow).
			 */
			perCallStaticData?: boolean;
		} = {},
	): Promise<WebhookServer> {
		const workflow = this.buildWorkflow(wf, WEBHOOK_WORKFLOW_ID);
		if (options.staticData) workflow.staticData = options.staticData;
		const routes = new Map<string, { node: INode; webhookData: IWebhookData }>();
		const runs: Array<Promise<RunResult>> = [];

		const app = express();
		// n8n keeps the raw body on req.rawBody (signature checks need it); unparsable JSON must still
		// reach the node, so parse errors leave req.body empty instead of answering 400 here.
		const keepRaw = (req: express.Request, _res: unknown, buf: Buffer) => {
			(req as unknown as { rawBody: Buffer }).rawBody = buf;
		};
		app.use(express.raw({ type: () => true, verify: keepRaw, limit: '16mb' }));
		app.use((req, _res, next) => {
			const raw = (req as unknown as { rawBody?: Buffer }).rawBody;
			const type = req.headers['content-type'] ?? '';
			req.body = {};
			if (raw && raw.length && type.includes('json')) {
				try {
					req.body = JSON.parse(raw.toString('utf8'));
				} catch {
					req.body = {};
				}
			}
			next();
		});

		const server = createServer(app);
		const { url: baseUrl } = await listenOnLoopback(server);
		const urls = {
			webhookBaseUrl: `${baseUrl}/webhook`,
			webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		};
		const activationData = this.additionalData(
			new ExecutionLifecycleHooks('trigger', 'activation', {} as IWorkflowBase),
			'activation',
			urls,
		);

		const field = (
			node: INode,
			d: IWebhookDescription,
			key: keyof IWebhookDescription,
			fallback?: unknown,
		) => {
			const native = resolveWebhookDescriptionField(node, d, key as never);
			if (native.resolved) return native.value;
			return workflow.expression.getSimpleParameterValue(
				node,
				d[key] as string,
				'internal',
				{},
				undefined,
				fallback as string,
			);
		};

		const all: IWebhookData[] = [];
		for (const node of Object.values(workflow.nodes)) {
			if (node.disabled) continue;
			const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			for (const description of nodeType.description.webhooks ?? []) {
				// resume URLs of waiting executions are served by test/harness/waiting.cts
				if (description.restartWebhook === true) continue;
				let webhookPath = String(field(node, description, 'path') ?? '')
					.trim()
					.replace(/^\//, '')
					.replace(/\/$/, '');
				const isFullPath = Boolean(field(node, description, 'isFullPath', false));
				webhookPath = NodeHelpers.getNodeWebhookPath(
					workflow.id,
					node,
					webhookPath,
					isFullPath,
					false,
				);
				const methods = String(field(node, description, 'httpMethod', 'GET'));
				for (const method of methods
					.split(',')
					.map((m) => m.trim().toUpperCase())
					.filter(Boolean)) {
					const webhookData: IWebhookData = {
						httpMethod: method as IWebhookData['httpMethod'],
						node: node.name,
						path: webhookPath,
						webhookDescription: description,
						workflowId: workflow.id!,
						workflowExecuteAdditionalData: activationData,
					};
					all.push(webhookData);
					routes.set(`${method} /webhook/${webhookPath}`, { node, webhookData });
				}
			}
		}

		const lifecycle = async (
			method: 'checkExists' | 'create' | 'delete',
			webhookData: IWebhookData,
		) => {
			const node = workflow.getNode(webhookData.node)!;
			const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
			const fn = nodeType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
			if (!fn) return undefined;
			return await fn.call(
				new HookContext(workflow, node, activationData, 'trigger', 'activate', webhookData),
			);
		};
		try {
			for (const webhookData of all) {
				if (!(await lifecycle('checkExists', webhookData))) await lifecycle('create', webhookData);
			}
		} catch (error) {
			// activation failed (as publishing would in n8n): do not leave the server listening
			await closeLoopbackServer(server);
			throw error;
		}

		app.use(async (req: express.Request, res: express.Response) => {
			const route = routes.get(`${req.method.toUpperCase()} ${req.path.replace(/\/$/, '')}`);
			if (!route) {
				res.status(404).json({ message: `webhook "${req.method} ${req.path}" is not registered` });
				return;
			}
			try {
				const hooks = new ExecutionLifecycleHooks('webhook', 'webhook', {} as IWorkflowBase);
				const additionalData = this.additionalData(hooks, 'webhook', {
					...urls,
					httpRequest: req,
					httpResponse: res,
				} as never);
				const callWorkflow = options.perCallStaticData
					? this.buildWorkflow(wf, WEBHOOK_WORKFLOW_ID)
					: workflow;
				if (options.perCallStaticData)
					callWorkflow.staticData = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
				const context = new WebhookContext(
					callWorkflow,
					route.node,
					additionalData,
					'webhook',
					route.webhookData,
					[],
					null,
				);
				const nodeType = this.nodeTypes.getByNameAndVersion(
					route.node.type,
					route.node.typeVersion,
				);
				const response = await nodeType.webhook!.call(context);
				const description = route.webhookData.webhookDescription;
				const responseMode = field(route.node, description, 'responseMode', 'onReceived');
				if (responseMode !== 'onReceived' && responseMode !== 'lastNode')
					throw new Error(`responseMode "${String(responseMode)}" is not supported here`);
				// as n8n 2.41 does: the execution is created first (WorkflowRunner.run), and only then does
				// n8n answer an onReceived webhook the node did not answer itself; if creating fails, 500
				if (response.workflowData) {
					await options.createExecution?.();
					const execution = this.run(wf, {
						// the same workflow as the webhook call's, as in n8n (Process Once and the trigger share keys by it)
						workflowId: WEBHOOK_WORKFLOW_ID,
						mode: 'webhook',
						startNodeName: route.node.name,
						startItems: response.workflowData,
					});
					runs.push(execution);
					// lastNode: n8n answers once the workflow has finished, 500 "Error in workflow" when it failed
					// (webhook-helpers.js); the trigger answers with no body (responseData noData)
					if (responseMode === 'lastNode' && !res.headersSent) {
						const run = await execution;
						if (run.error) res.status(500).json({ message: 'Error in workflow' });
						else res.status(Number(field(route.node, description, 'responseCode', 200))).end();
						return;
					}
				}
				// n8n saves the static data when it answers without error, unless the call started an execution
				if (options.perCallStaticData && !response.workflowData)
					workflow.staticData = callWorkflow.staticData;
				if (response.noWebhookResponse !== true && !res.headersSent) {
					// as n8n 2.41 does: responseData defaults to the string 'firstEntryJson' when not declared
					const declared = resolveWebhookDescriptionField(
						route.node,
						description,
						'responseData' as never,
					);
					const responseData = declared.resolved
						? declared.value
						: callWorkflow.expression.getComplexParameterValue(
								route.node,
								description.responseData as string,
								'webhook',
								{},
								undefined,
								'firstEntryJson',
							);
					const body =
						responseData === 'noData'
							? undefined
							: ((responseData || response.webhookResponse) ?? { message: 'Workflow was started' });
					const code = Number(field(route.node, description, 'responseCode', 200));
					if (body === undefined) res.status(code).end();
					else if (typeof body === 'string') res.status(code).send(body);
					else res.status(code).json(body);
				}
			} catch (error) {
				if (!res.headersSent) res.status(500).json({ message: (error as Error).message });
			}
		});

		return {
			baseUrl,
			urlFor: (nodeName, method = 'POST') => {
				const hook = all.find((w) => w.node === nodeName && w.httpMethod === method);
				if (!hook) throw new Error(`No ${method} webhook for node "${nodeName}"`);
				return `${urls.webhookBaseUrl}/${hook.path}`;
			},
			get staticData() {
				return workflow.staticData;
			},
			executions: async () => await Promise.all(runs),
			startedCount: () => runs.length,
			waitForExecutions: async (count, timeoutMs = PATIENCE_MS) => {
				const deadline = Date.now() + timeoutMs;
				while (runs.length < count) {
					if (Date.now() > deadline)
						throw new Error(`expected ${count} executions, ${runs.length} started`);
					await new Promise((r) => setTimeout(r, 25));
				}
				return await Promise.all(runs);
			},
			close: async () => {
				for (const webhookData of all) await lifecycle('delete', webhookData);
				await closeLoopbackServer(server);
			},
		};
	}
}

/** The id of a workflow served by serveWebhooks, its webhook calls and its executions alike. */
const WEBHOOK_WORKFLOW_ID = 'webhook-workflow';

function toResult(run: IRun, nodeExecutionOrder: string[]): RunResult {
	const output = (nodeName: string, outputIndex = 0) => {
		const taskData = run.data.resultData.runData[nodeName];
		if (!taskData) {
			const error = run.data.resultData.error;
			throw new Error(`node "${nodeName}" did not run${error ? `: ${error.message}` : ''}`);
		}
		return taskData[taskData.length - 1].data?.main?.[outputIndex] ?? [];
	};
	return {
		run,
		output,
		json: (nodeName, outputIndex) => output(nodeName, outputIndex).map((item) => item.json),
		error: run.data.resultData.error,
		nodeExecutionOrder,
	};
}
