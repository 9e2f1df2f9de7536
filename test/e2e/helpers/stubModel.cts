/**
 * A scripted stand-in for an OpenAI-compatible chat model, for the AI Agent e2e: n8n's OpenAI Chat Model node
 * (credential "OpenAI" with its Base URL pointed here) calls `POST <base>/chat/completions` (the Responses API
 * switched off), and this server plays a model that uses the FinVerify tool:
 *
 * 1. no tool result in the conversation yet → it calls the FinVerify tool (the tool whose name or description
 *    mentions a CIN, else one that mentions FinVerify, else the only tool) with the CIN found in the user's message, or with `NOT-A-CIN` when the
 *    message asks for that case (so the tool's error reaches the model), filling the argument whose schema
 *    mentions a CIN;
 * 2. a tool result is there → it answers in text, quoting the company name from the result (`name`), or the
 *    error text when the tool reported one.
 *
 * Every request body is recorded (`requests`), so a test can read the tool schema n8n sent. Both answer forms
 * are supported: a JSON completion, and server-sent events when the request asks for `stream: true`.
 * GET <base>/models answers a one-model list (the credential test and the editor's model picker ask for it).
 * Listens on 127.0.0.1 only, on a free port.
 *
 * To try examples/ai-agent-verify-company.json with `npm start` and no model account:
 *   node --require tsx/cjs test/e2e/helpers/stubModel.cts [port]
 * prints the Base URL to put in an OpenAI credential (any API key), and logs each call. Ctrl-C stops it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const STUB_MODEL = 'stub-gpt';
/** A user message containing this makes the model send it instead of a CIN (the bad-input case). */
export const BAD_CIN = 'NOT-A-CIN';
const CIN = /\b[LU][0-9]{5}[A-Z]{2}[0-9]{4}[A-Z]{3}[0-9]{6}\b/;

export interface ChatMessage {
	role: string;
	content?: string | Array<{ type: string; text?: string }> | null;
	tool_calls?: Array<{
		id: string;
		type: 'function';
		function: { name: string; arguments: string };
	}>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: 'function';
	function: { name: string; description?: string; parameters?: Json };
}

export interface ChatRequest {
	path: string;
	body: {
		model: string;
		messages: ChatMessage[];
		tools?: ChatTool[];
		stream?: boolean;
		[k: string]: unknown;
	};
}

export interface StubModel {
	/** The base URL to put in the OpenAI credential (`…/v1`). */
	url: string;
	/** Every chat-completions request, in order. */
	requests: ChatRequest[];
	/** Paths of every request received (also the ones that are not chat completions). */
	paths: string[];
	close(): Promise<void>;
}

export const text = (content: ChatMessage['content']): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((c) => c.text ?? '').join('')
			: '';

/** The model's next message for a conversation (what the scenario above says). */
export function nextMessage(body: ChatRequest['body'], callId: string): ChatMessage {
	const toolResults = body.messages.filter((m) => m.role === 'tool');
	if (toolResults.length > 0) {
		const result = text(toolResults[toolResults.length - 1].content);
		let name: string | undefined;
		try {
			const parsed = JSON.parse(result) as unknown;
			const first = (Array.isArray(parsed) ? parsed[0] : parsed) as Json | undefined;
			if (first && typeof first.name === 'string') name = first.name;
		} catch {
			// not JSON: an error text
		}
		return {
			role: 'assistant',
			content: name
				? `Verified: the CIN belongs to ${name}.`
				: `The FinVerify tool could not verify it. It said: ${result}`,
		};
	}
	const tools = body.tools ?? [];
	const tool =
		tools.find((t) => /CIN/.test(`${t.function.name} ${t.function.description ?? ''}`)) ??
		tools.find((t) => /finverify/i.test(`${t.function.name} ${t.function.description ?? ''}`)) ??
		(tools.length === 1 ? tools[0] : undefined);
	if (!tool)
		return {
			role: 'assistant',
			content: `No FinVerify tool was offered (tools: ${tools.map((t) => t.function.name).join(', ') || 'none'}).`,
		};
	const user = body.messages
		.filter((m) => m.role === 'user')
		.map((m) => text(m.content))
		.join('\n');
	const cin = user.includes(BAD_CIN) ? BAD_CIN : (CIN.exec(user)?.[0] ?? BAD_CIN);
	const properties = (tool.function.parameters?.properties ?? {}) as Record<string, Json>;
	const key =
		Object.keys(properties).find(
			(k) => /cin/i.test(k) || /\bCIN\b/.test(String(properties[k].description ?? '')),
		) ?? Object.keys(properties)[0];
	return {
		role: 'assistant',
		content: null,
		tool_calls: [
			{
				id: callId,
				type: 'function',
				function: { name: tool.function.name, arguments: JSON.stringify({ [key]: cin }) },
			},
		],
	};
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

const usage = { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 };

function answerJson(res: ServerResponse, id: string, message: ChatMessage): void {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(
		JSON.stringify({
			id,
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: STUB_MODEL,
			choices: [
				{
					index: 0,
					message,
					finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
				},
			],
			usage,
		}),
	);
}

/** The same message as chat.completion.chunk server-sent events. */
function answerStream(res: ServerResponse, id: string, message: ChatMessage): void {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const chunk = (delta: Json, finish: string | null, extra: Json = {}) =>
		res.write(
			`data: ${JSON.stringify({
				id,
				object: 'chat.completion.chunk',
				created: Math.floor(Date.now() / 1000),
				model: STUB_MODEL,
				choices: [{ index: 0, delta, finish_reason: finish }],
				...extra,
			})}\n\n`,
		);
	chunk({ role: 'assistant', content: '' }, null);
	if (message.tool_calls) {
		message.tool_calls.forEach((call, index) =>
			chunk(
				{
					tool_calls: [
						{
							index,
							id: call.id,
							type: 'function',
							function: { name: call.function.name, arguments: call.function.arguments },
						},
					],
				},
				null,
			),
		);
		chunk({}, 'tool_calls');
	} else {
		// a few pieces, as a model streams words
		const words = text(message.content).split(/(?<= )/);
		for (const w of words) chunk({ content: w }, null);
		chunk({}, 'stop');
	}
	res.write(
		`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [], usage })}\n\n`,
	);
	res.end('data: [DONE]\n\n');
}

/** Starts the stub on 127.0.0.1 (`port` 0: a free one). */
export async function startStubModel(port = 0): Promise<StubModel> {
	const requests: ChatRequest[] = [];
	const paths: string[] = [];
	let n = 0;
	const server: Server = createServer((req, res) => {
		const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
		paths.push(`${req.method} ${path}`);
		readBody(req)
			.then((raw) => {
				if (req.method === 'GET' && path.endsWith('/models')) {
					res.writeHead(200, { 'content-type': 'application/json' });
					res.end(
						JSON.stringify({
							object: 'list',
							data: [{ id: STUB_MODEL, object: 'model', created: 0, owned_by: 'test' }],
						}),
					);
					return;
				}
				if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
					res.writeHead(404, { 'content-type': 'application/json' });
					res.end(
						JSON.stringify({
							error: { message: `the stub model answers /chat/completions only, not ${path}` },
						}),
					);
					return;
				}
				const body = JSON.parse(raw) as ChatRequest['body'];
				requests.push({ path, body });
				n += 1;
				const message = nextMessage(body, `call_${n}`);
				const id = `chatcmpl-stub-${n}`;
				if (body.stream) answerStream(res, id, message);
				else answerJson(res, id, message);
			})
			.catch((e: Error) => {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: e.message } }));
			});
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const bound = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${bound}/v1`,
		requests,
		paths,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

if (require.main === module) {
	startStubModel(Number(process.argv[2] ?? 0)).then(
		(model) => {
			process.stdout.write(
				`stub model: Base URL ${model.url} (model ${STUB_MODEL}, any API key)\n`,
			);
			let seen = 0;
			setInterval(() => {
				for (; seen < model.requests.length; seen++) {
					const { body } = model.requests[seen];
					const last = body.messages[body.messages.length - 1];
					process.stdout.write(
						`  call ${seen + 1}: ${body.messages.length} messages, last from ${last?.role}, ${body.tools?.length ?? 0} tools\n`,
					);
				}
			}, 250);
			process.on('SIGINT', () => void model.close().then(() => process.exit(0)));
		},
		(e: Error) => {
			process.stderr.write(`stub model: ${e.message}\n`);
			process.exit(1);
		},
	);
}
