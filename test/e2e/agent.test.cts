/**
 * The FinVerify node as an AI Agent tool in the real n8n app (`n8n start`): the example
 * examples/ai-agent-verify-company.json (Manual Trigger → AI Agent with the OpenAI Chat Model and two FinVerify
 * tools) runs with the chat model pointed at a scripted OpenAI-compatible stub on 127.0.0.1
 * (helpers/stubModel.cts). Shown here: the tool schema n8n sends to the model (names, descriptions, the
 * `$fromAI` parameters), the model's tool call reaching the sandbox as a Get by CIN request, the answer quoting
 * the company's registered name, and a bad CIN from the model coming back to it as a readable error while the
 * execution succeeds, and the agent streaming its answer behind a Webhook in Streaming mode (the model is asked
 * for server-sent events). The last test runs the example from the editor in Chromium and takes a screenshot.
 */
import * as path from 'node:path';

import {
	assertChromium,
	launchBrowser,
	screenshot,
	step,
	type Browser,
} from './helpers/browser.cjs';
import {
	N8nStack,
	OWNER,
	sandboxApi,
	waitFor,
	type StoredExecution,
	type Workflow,
} from './helpers/stack.cjs';
import {
	BAD_CIN,
	startStubModel,
	text,
	type ChatRequest,
	type StubModel,
} from './helpers/stubModel.cjs';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const lib = require('../../scripts/n8n-env.js');

jest.setTimeout(120_000);

const EXAMPLE = 'ai-agent-verify-company.json';
const AGENT = 'Company verification agent';
const CIN_TOOL = 'Get company by CIN';
const SEARCH_TOOL = 'Search companies by name';
const CIN = 'L17110MH1973PLC019786';
/** The tool name n8n gives the model: the node's name with anything but letters, digits, _ and - as _. */
const toolName = (node: string) => node.replace(/[^a-zA-Z0-9_-]+/g, '_');
/** The credential the example refers to; here its Base URL is the stub model. */
const OPENAI_CREDENTIAL = { id: 'openAiAccount0001', name: 'OpenAI account', type: 'openAiApi' };

let stack: N8nStack;
let model: StubModel;
let example: Workflow;
let badCin: Workflow;
let streaming: Workflow;
const STREAM_PATH = 'finverify-agent-stream';

/**
 * The example behind a Webhook that streams its answer (Response Mode "Streaming"): the way a chat front end
 * uses an agent. The agent then streams too, and asks the model for server-sent events.
 */
function behindStreamingWebhook(wf: Workflow, id: string): Workflow {
	const webhook = {
		parameters: { httpMethod: 'POST', path: STREAM_PATH, responseMode: 'streaming', options: {} },
		id: 'b7e2c1a0-3d4f-4a5b-8c6d-7e8f9a0b1c99',
		name: 'Question from a chat',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [0, 300],
		webhookId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
	};
	const kept = wf.nodes.filter(
		(n) => n.type !== 'n8n-nodes-base.manualTrigger' && n.name !== 'Question',
	);
	const agent = kept.find((n) => n.name === AGENT)!;
	agent.parameters = { ...agent.parameters, text: '={{ $json.body.question }}' };
	const connections = { ...wf.connections };
	delete connections['When clicking ‘Execute workflow’'];
	delete connections.Question;
	return {
		...wf,
		id,
		name: `${wf.name} (streaming webhook)`,
		nodes: [webhook, ...kept],
		connections: {
			...connections,
			[webhook.name]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
		},
	};
}

/** The example with another question in its Question node (a second workflow, its own id). */
function withQuestion(wf: Workflow, id: string, question: string): Workflow {
	return {
		...wf,
		id,
		name: `${wf.name} (${question.slice(0, 20)}…)`,
		nodes: wf.nodes.map((n) =>
			n.name === 'Question'
				? {
						...n,
						parameters: {
							...n.parameters,
							assignments: {
								assignments: [{ ...n.parameters.assignments.assignments[0], value: question }],
							},
						},
					}
				: n,
		),
	};
}

/** The chat requests the model received while `fn` ran. */
async function modelCallsDuring(fn: () => Promise<void>): Promise<ChatRequest[]> {
	const before = model.requests.length;
	await fn();
	return model.requests.slice(before);
}

async function runToEnd(wf: Workflow): Promise<StoredExecution> {
	return await stack.waitForExecution(await stack.runManually(wf), { timeoutMs: 60_000 });
}

const toolMessages = (calls: ChatRequest[]) =>
	calls.flatMap((c) =>
		c.body.messages.filter((m) => m.role === 'tool').map((m) => text(m.content)),
	);

beforeAll(async () => {
	model = await startStubModel();
	stack = await N8nStack.create({ name: 'agent' });
	example = stack.example(EXAMPLE);
	badCin = withQuestion(
		example,
		lib.stableId('e2e:agent-bad-cin'),
		`Verify the company with CIN ${BAD_CIN}.`,
	);
	await lib.importCredential(stack.runtime, stack.env, {
		...OPENAI_CREDENTIAL,
		data: { apiKey: 'stub-model-key', url: model.url },
	});
	streaming = behindStreamingWebhook(
		JSON.parse(JSON.stringify(example)) as Workflow,
		lib.stableId('e2e:agent-streaming'),
	);
	await stack.importAll([badCin, streaming]);
	await stack.publish(streaming.id);
	await stack.start();
}, 900_000);

afterAll(async () => {
	await stack?.stop();
	await model?.close();
});

let firstRun: { execution: StoredExecution; calls: ChatRequest[] };

test('the agent calls the FinVerify tool with the CIN from the question and answers with the registered name', async () => {
	const started = Date.now();
	let execution: StoredExecution | undefined;
	const calls = await modelCallsDuring(async () => {
		execution = await runToEnd(example);
	});
	firstRun = { execution: execution!, calls };
	process.stdout.write(
		`[e2e] agent run: ${Date.now() - started} ms, ${calls.length} model calls\n`,
	);
	expect(execution!.status).toBe('success');

	// two model calls: the tool call, then the answer once the tool result is in
	expect(calls).toHaveLength(2);
	expect(calls[0].path).toBe('/v1/chat/completions');
	const [toolCall] = calls[1].body.messages.flatMap((m) => m.tool_calls ?? []);
	expect(toolCall.function.name).toBe(toolName(CIN_TOOL));
	// (n8n's agent adds the call's id to the arguments it records)
	expect(JSON.parse(toolCall.function.arguments)).toMatchObject({ cin: CIN });

	// the tool ran Company → Get by CIN against the sandbox, with the model's CIN
	const lookups = await stack.control.requests('corporate/cin-lookup');
	expect(lookups.filter((r) => (r.body as { cin?: string }).cin === CIN)).toEqual(
		expect.arrayContaining([expect.objectContaining({ method: 'POST', status: 200 })]),
	);

	// the tool result the model got is the node's simplified company record, with the registry's name
	const [result] = toolMessages(calls);
	const records = JSON.parse(result) as Array<Record<string, unknown>>;
	expect(records).toHaveLength(1);
	expect(records[0]).toMatchObject({ cin: CIN, name: expect.any(String) });
	const registeredName = records[0].name as string;
	const direct = await sandboxApi(stack.sandbox.url, 'corporate/cin-lookup', { cin: CIN });
	expect(direct.status).toBe(200);
	expect(JSON.stringify(direct.json)).toContain(`"${registeredName}"`);

	// the agent's answer quotes it
	const [answer] = execution!.run.json(AGENT);
	expect(answer.output).toContain(registeredName);
});

test('the tool schema n8n sends to the model: both tools, described, with the $fromAI parameters', () => {
	const { tools } = firstRun.calls[0].body;
	expect(tools?.map((t) => t.function.name).sort()).toEqual([
		toolName(CIN_TOOL),
		toolName(SEARCH_TOOL),
	]);
	const byName = Object.fromEntries((tools ?? []).map((t) => [t.function.name, t.function]));

	const cinTool = byName[toolName(CIN_TOOL)];
	// descriptionType "auto": the operation's action, "in FinVerify"
	expect(cinTool.description).toMatch(/CIN/);
	expect(cinTool.description).toMatch(/FinVerify$/);
	expect(cinTool.parameters).toMatchObject({
		type: 'object',
		required: ['cin'],
		properties: { cin: { type: 'string' } },
	});
	expect(Object.keys(cinTool.parameters?.properties ?? {})).toEqual(['cin']);
	const cinHelp = String(cinTool.parameters?.properties.cin.description);
	expect(cinHelp).toMatch(/21 letters and digits/);
	expect(cinHelp).toMatch(/LLPIN/);

	const searchTool = byName[toolName(SEARCH_TOOL)];
	expect(searchTool.description).toMatch(/name/i);
	expect(Object.keys(searchTool.parameters?.properties ?? {})).toEqual(['companyName']);
	expect(String(searchTool.parameters?.properties.companyName.description)).toMatch(
		/at least 3 characters/,
	);
	// nothing the workflow builder fixed (credential, operation, consent…) is offered to the model
	expect(JSON.stringify(tools)).not.toMatch(/finVerifyApi|operation|consent|sandbox-key/);
});

test('a bad CIN from the model: the tool answers with a readable error, nothing is sent, the run succeeds', async () => {
	const before = (await stack.control.requests('corporate/cin-lookup')).length;
	let execution: StoredExecution | undefined;
	const calls = await modelCallsDuring(async () => {
		execution = await runToEnd(badCin);
	});
	expect(execution!.status).toBe('success');
	expect(execution!.run.error).toBeUndefined();

	const [toolCall] = calls[calls.length - 1].body.messages.flatMap((m) => m.tool_calls ?? []);
	expect(JSON.parse(toolCall.function.arguments)).toMatchObject({ cin: BAD_CIN });
	// refused by the node before any request: the sandbox saw nothing
	expect((await stack.control.requests('corporate/cin-lookup')).length).toBe(before);

	// the model got the node's message: which field, what it got, what it expects
	const [result] = toolMessages(calls);
	expect(JSON.parse(result)).toEqual([{ error: expect.stringContaining(BAD_CIN) }]);
	expect(result).toMatch(/expected a CIN of 21 letters and digits/);
	expect(result).toMatch(/Nothing was sent to the service/);
	expect(result).not.toMatch(/sandbox-(key|secret)|stack|at .*\.js/);

	const [answer] = execution!.run.json(AGENT);
	expect(answer.output).toContain('could not verify');
	expect(answer.output).toContain(BAD_CIN);
});

test('behind a streaming webhook the agent streams: the model is asked for server-sent events, the caller gets the answer in chunks', async () => {
	const url = `${stack.url}/webhook/${STREAM_PATH}`;
	// published workflows are activated in the background after start
	await waitFor(
		async () => {
			const r = await fetch(url, { method: 'GET' });
			const body = await r.text();
			return r.status !== 404 || /POST/.test(body) ? true : undefined;
		},
		{ timeoutMs: 60_000, what: `the streaming webhook to be registered\n${stack.logTail()}` },
	);
	const calls = await modelCallsDuring(async () => {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ question: `Verify the company with CIN ${CIN}.` }),
		});
		expect(res.status).toBe(200);
		const chunks = (await res.text())
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l) as { type: string; content?: string });
		const answer = chunks
			.filter((c) => c.type === 'item')
			.map((c) => c.content ?? '')
			.join('');
		expect(chunks.filter((c) => c.type === 'item').length).toBeGreaterThan(1);
		expect(answer).toMatch(/^Verified: the CIN belongs to .+\.$/);
	});
	expect(calls).toHaveLength(2);
	expect(calls.map((c) => c.body.stream)).toEqual([true, true]);
	expect(toolMessages(calls)[0]).toContain(CIN);
});

test('the example run in the editor (Chromium): the agent, its model and tool calls', async () => {
	assertChromium();
	const browser: Browser = await launchBrowser(path.join(stack.userFolder, 'chromium-profile'));
	const page = browser.page;
	try {
		await step(browser, 'agent-sign-in', async () => {
			await page.goto(`${stack.url}/signin`);
			await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
			await page.locator('input[name="password"]').fill(OWNER.password);
			await page.getByTestId('form-submit-button').click();
			await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 60_000 });
		});
		await step(browser, 'agent-run-in-editor', async () => {
			await page.goto(`${stack.url}/workflow/${example.id}`);
			await page.getByTestId('canvas-node').first().waitFor({ timeout: 60_000 });
			const before = model.requests.length;
			await page.getByTestId('execute-workflow-button').click();
			const agent = page.locator(`[data-test-id="canvas-node"][data-node-name="${AGENT}"]`);
			await agent.getByTestId('canvas-node-status-success').waitFor({ timeout: 60_000 });
			await waitFor(async () => (model.requests.length >= before + 2 ? true : undefined), {
				what: 'two model calls from the editor run',
			});
			// the Logs panel: the agent's run with its model and tool calls, the agent's answer beside it
			const body = page.getByTestId('logs-overview-body');
			if (!(await body.isVisible())) await page.getByTestId('logs-overview-header').click();
			await body.waitFor();
			// the agent's entry, then its sub-runs: the model, the tool, the model again
			await body.getByText(CIN_TOOL).first().waitFor();
			const rows = (await body.innerText()).split('\n').map((l) => l.trim());
			const order = rows.filter((l) => [AGENT, 'OpenAI Chat Model', CIN_TOOL].includes(l));
			expect(order).toEqual([AGENT, 'OpenAI Chat Model', CIN_TOOL, 'OpenAI Chat Model']);
			// the "Workflow executed successfully" toast would cover the tools
			for (const close of await page.locator('.el-notification__closeBtn').all())
				await close.click().catch(() => undefined);
			await page.getByTestId('zoom-to-fit').click();
			await page.waitForTimeout(500); // the canvas animates the zoom
			await screenshot(page, 'ai-agent-run');
		});
		expect(browser.offHostRequests).toEqual([]);
	} finally {
		await browser.close().catch(() => undefined);
	}
});
