import type {
	IDataObject,
	INodeExecutionData,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	NodeParameterValueType,
} from 'n8n-workflow';

import { normalizeEvent, parseJsonBody } from '../../shared/events';
import type { NormalizedEvent } from '../../shared/events';
import { fetchJourneyResults } from '../helpers/journeyResults';
import {
	DEFAULT_SIGNATURE_HEADERS,
	FAILURE_MESSAGES,
	headerValue,
	verifySignature,
} from '../../shared/signature';
import { verifyWithSigningSecret } from '../../shared/signingSecret';
import { isObject } from '../../shared/values';
import { resumesAreCapped } from '../../shared/versions';
import { journeyStatusRequest, normalizeJourneyStatus } from '../helpers/normalize/journey';
import { apiRequest } from '../transport';
import { withPersonalDataMasked } from '../helpers/outputChoice';
import {
	markResumed,
	recordResume,
	RESUME_RETRY_AFTER_S,
	resumesAtCapacity,
	resumeUnderWay,
	waitKey,
	wasResumed,
} from './resumesUnderWay';
import { MAX_WAITING, resumeGate } from './resumeGate';
import type { Slot } from './resumeGate';
import {
	claimReconcileLookup,
	isReconcileRequest,
	NO_SESSION_LOOKUP,
	NOT_WAITING,
	notFinalYet,
	RECONCILE_HEADER,
	RECONCILE_SPACING_MS,
} from './reconcile';
import type { CompletionKind, StoredItem } from './waiting';
import {
	classifyCallback,
	ID_KEY,
	journeyFinalFromLookup,
	readStoredItem,
	startedFacts,
	waitedSeconds,
} from './waiting';

/**
 * The node's one webhook: the resume URL of a waiting execution (`$execution.resumeUrl`). A restart
 * webhook is never registered anywhere (n8n skips it when a workflow is published), so it has no
 * checkExists/create/delete lifecycle; n8n routes calls on the resume URL to webhook() while the
 * execution waits, after checking the URL's token. n8n answers 200 with no body once it resumed.
 */
export const resumeWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		responseData: 'noData',
		path: '',
		restartWebhook: true,
	},
];

const SUCCESS_STATUS: Record<CompletionKind, string> = {
	journey: 'analysis_complete',
	session: 'completed',
};

const LOOKUP_POLICY = { timeoutMs: 15_000, maxRetries: 2 };

/**
 * Answers the caller directly; n8n sends nothing more (`noWebhookResponse`) and the execution keeps
 * waiting.
 */
function answer(this: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	const res = this.getResponseObject();
	if (!res.headersSent) res.status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * The items n8n kept for this waiting node (its input while it waits), as n8n stored them. n8n's
 * WebhookContext holds them, read from the waiting execution, as `connectionInputData`
 * (`runExecutionData.executionData.nodeExecutionStack[0].data.main[0]`, the array `$input.all()`
 * reads): n8n-core 2.41.1 and 1.122.48 (the core of n8n 1.123.81) build it the same way. Reading it
 * costs nothing; evaluating `{{ $input.all() }}` would take an expression isolate on every callback in
 * n8n 2.x, even with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE, and, with the workflow setting Binary Mode:
 * combined, returns each item's json without its pairedItem. The expression stays the fallback for a
 * context that holds no such array.
 */
function storedInput(this: IWebhookFunctions): unknown[] {
	const held: unknown = Reflect.get(this, 'connectionInputData');
	if (Array.isArray(held)) return held;
	let items: unknown;
	try {
		items = this.evaluateExpression('{{ $input.all() }}', 0);
	} catch {
		items = [];
	}
	return Array.isArray(items) ? items : [];
}

/** The stored items, each read as a waiting item (or not) with its pairedItem. */
function readStoredItems(this: IWebhookFunctions, kind: CompletionKind) {
	return storedInput.call(this).map((item: unknown) => {
		const source = isObject(item) ? item : {};
		// a full item ({ json, pairedItem }); the fallback under Binary Mode: combined gives the json alone
		const json = isObject(source.json) ? source.json : source;
		return {
			stored: readStoredItem(kind, json),
			pairedItem: source.pairedItem as INodeExecutionData['pairedItem'],
		};
	});
}

function finalFromEvent(
	kind: CompletionKind,
	facts: IDataObject,
	event: NormalizedEvent,
	nowMs: number,
): IDataObject {
	return {
		...startedFacts(facts),
		[ID_KEY[kind]]: event.id,
		status: event.status,
		previousStatus: event.previousStatus,
		isFinal: true,
		isSuccessful: event.status === SUCCESS_STATUS[kind],
		statusChangedAt: event.occurredAt,
		timedOut: false,
		waitedSeconds: waitedSeconds(facts, nowMs),
		callback: event.raw,
	};
}

/**
 * The final status of the other journeys of this execution, looked up once each (only when one
 * journey finished and others were started by the same node). Null for a journey that is not final.
 */
async function lookUpJourney(
	this: IWebhookFunctions,
	facts: IDataObject,
	id: string,
	nowMs: number,
): Promise<IDataObject | null> {
	return (await lookUpJourneyStatus.call(this, facts, id, nowMs)).final;
}

/** A journey's status at the service, and its final result when final (null otherwise). */
async function lookUpJourneyStatus(
	this: IWebhookFunctions,
	facts: IDataObject,
	id: string,
	nowMs: number,
): Promise<{ status: string | null; final: IDataObject | null }> {
	const raw = await apiRequest.call(this, {
		...journeyStatusRequest(id),
		...LOOKUP_POLICY,
	});
	const summary = normalizeJourneyStatus(raw);
	if (!summary.isFinal) return { status: summary.status, final: null };
	return {
		status: summary.status,
		final: journeyFinalFromLookup(facts, id, summary, waitedSeconds(facts, nowMs)),
	};
}

/** This wait's identity for the resumed mark (resumesUnderWay.ts): the execution, the node, each waiting id with its start. */
function waitOf(this: IWebhookFunctions, executionId: string, stored: StoredItem[]): string {
	return waitKey(
		executionId,
		this.getNode().name,
		stored.flatMap((item) =>
			item.waiting ? [`${item.id} ${String(item.facts.waitingSince)}`] : [],
		),
	);
}

/**
 * `webhook()` of the FinVerify node while an execution waits for status callbacks. Each callback is
 * verified like the FinVerify Trigger does (HMAC-SHA256 over "<timestamp>.<raw body>" with the
 * credential's Webhook Signing Secret, X-Webhook-Signature / X-Webhook-Timestamp, 5-minute window);
 * n8n has already checked the resume token of the URL. Intermediate statuses are answered 200 and
 * the execution keeps waiting (no workflowData); a final status resumes it with the result.
 */
export async function completionWebhook(
	this: IWebhookFunctions,
	kindOf: CompletionKindOf,
): Promise<IWebhookResponseData> {
	try {
		return await decideOnCallback.call(this, kindOf);
	} catch {
		// An error thrown here would make n8n resume the execution as failed. A callback that cannot be
		// handled now (the credential or a status lookup failed) is refused with 503 instead: the
		// execution keeps waiting and the service delivers the callback again.
		return answer.call(this, 503, {
			error: 'unavailable',
			message:
				'The callback could not be handled now; the execution keeps waiting. Send it again later.',
		});
	}
}

/**
 * What the node's operation waits for (its `completion` declaration), given by the node: the
 * operations are a floor above (actions/completionKind.ts).
 */
export type CompletionKindOf = (resource: string, operation: string) => CompletionKind | undefined;

async function decideOnCallback(
	this: IWebhookFunctions,
	kindOf: CompletionKindOf,
): Promise<IWebhookResponseData> {
	const resource = String(this.getNodeParameter('resource', ''));
	const operation = String(this.getNodeParameter('operation', ''));
	const kind = kindOf(resource, operation);
	if (!kind) {
		return answer.call(this, 404, {
			error: 'not_found',
			message: 'This node is not waiting for status callbacks',
		});
	}
	const nowMs = Date.now();
	const headers = this.getHeaderData() as IDataObject;
	const header = (name: string) => headerValue(headers[name.toLowerCase()]);
	// a reconcile request claims nothing: the statuses come from the service (reconcile.ts)
	if (isReconcileRequest(header(RECONCILE_HEADER))) return await reconcile.call(this, kind, nowMs);
	const rawBody = this.getRequestObject().rawBody as Buffer | undefined;

	// 1. Authenticity, before anything is read from the body (the secret is read once a minute at most;
	// a mismatch reads it again before refusing)
	const check = (secret: string) =>
		verifySignature({
			rawBody,
			signature: header(DEFAULT_SIGNATURE_HEADERS.signature),
			timestamp: header(DEFAULT_SIGNATURE_HEADERS.timestamp),
			secret,
			nowMs,
		});
	const verified = await verifyWithSigningSecret.call(this, nowMs, check);
	if (!verified.valid) {
		return answer.call(this, 401, {
			error: 'unauthorized',
			reason: verified.reason,
			message: FAILURE_MESSAGES[verified.reason],
		});
	}
	const executionId = String(this.getExecutionId());
	if (resumeUnderWay(executionId, nowMs)) return resumeUnderWayAnswer.call(this);

	// 2. A journey or session event?
	const parsed = parseJsonBody(rawBody, this.getBodyData());
	if (!parsed.ok) {
		return answer.call(this, 400, {
			error: 'bad_request',
			reason: parsed.reason,
			message: parsed.message,
		});
	}
	const normalized = normalizeEvent(parsed.body, {
		eventHeader: header(DEFAULT_SIGNATURE_HEADERS.event),
		deliveryId: header(DEFAULT_SIGNATURE_HEADERS.id),
		timestamp: header(DEFAULT_SIGNATURE_HEADERS.timestamp),
		nowMs,
	});
	if (!normalized.ok) {
		return answer.call(this, 400, {
			error: 'bad_request',
			reason: normalized.reason,
			message: normalized.message,
		});
	}
	const event = normalized.event;

	// 3. For which of the waiting items, and final?
	const items = readStoredItems.call(this, kind);
	const stored: StoredItem[] = items.map((item) => item.stored);
	// this wait was resumed already by this process (n8n 1.x answers a resume at once and lets a copy of the
	// callback through while the execution is still `waiting` in its database): a duplicate, nothing resumes
	const wait = waitOf.call(this, executionId, stored);
	if (wasResumed(wait, nowMs)) return resumedAlready.call(this);
	const meaning = classifyCallback(event, stored);
	if (meaning.type === 'unrelated') {
		return answer.call(this, 200, { received: true, ignored: true, reason: meaning.reason });
	}
	if (meaning.type === 'intermediate') {
		return answer.call(this, 200, { received: true, status: event.status, waiting: true });
	}

	// 4. Final: resume once every started journey is final (the others are looked up once each)
	const output: INodeExecutionData[] = [];
	const pending: string[] = [];
	for (const [index, { stored: item, pairedItem }] of items.entries()) {
		if (!item.waiting) {
			output.push({ json: item.json, pairedItem });
			continue;
		}
		const json =
			index === meaning.index
				? finalFromEvent(kind, item.facts, event, nowMs)
				: kind === 'journey'
					? await lookUpJourney.call(this, item.facts, item.id, nowMs)
					: null;
		if (json === null) pending.push(item.id);
		else output.push({ json, pairedItem });
	}
	if (pending.length > 0) {
		return answer.call(this, 200, {
			received: true,
			status: event.status,
			waiting: true,
			pending: pending.length,
		});
	}

	return await resumeWith.call(this, kind, executionId, wait, output);
}

/**
 * Resumes the execution with `output` (every waiting item final): the journeys' results fetched when asked,
 * personal data masked, at most one resume under way per execution.
 */
async function resumeWith(
	this: IWebhookFunctions,
	kind: CompletionKind,
	executionId: string,
	wait: string,
	output: INodeExecutionData[],
): Promise<IWebhookResponseData> {
	const fetchResults =
		kind === 'journey' &&
		(this.getNodeParameter('waitOptions', {}) as IDataObject).fetchResults === true;
	if (fetchResults) {
		for (const item of output) {
			const json = item.json;
			if (json.isFinal === true && json.status === 'analysis_complete' && json.clientId) {
				Object.assign(json, await fetchJourneyResults.call(this, String(json.clientId)));
			}
		}
	}
	// personal data masked as the router masks an operation's output (every mode but Raw)
	const parameters = {
		typeVersion: this.getNode().typeVersion,
		read: (name: string, fallback: unknown) =>
			this.getNodeParameter(name, fallback as NodeParameterValueType),
	};
	for (const item of output) item.json = withPersonalDataMasked(item.json, parameters);
	// another callback of this execution may have become its resume while this one looked things up
	if (resumeUnderWay(executionId, Date.now())) return resumeUnderWayAnswer.call(this);
	if (wasResumed(wait, Date.now())) return resumedAlready.call(this);
	// a node at version 1 makes n8n hold about 9 MB per queued resume: as many resumes under way as this process
	// takes for such nodes, the execution keeps waiting for the next attempt (or the reconciler). Versions 2 and 3
	// cost n8n nothing measurable per queued resume: never refused for capacity.
	if (resumesAreCapped(this.getNode().typeVersion) && resumesAtCapacity(Date.now()))
		return retryLater.call(this, 'busy', BUSY_MESSAGE);
	// at most RESUMES_AT_ONCE resumes handed to n8n at once by this process, MAX_WAITING more waiting their turn;
	// beyond them the callback is answered 503 and the execution keeps waiting (resumeGate.ts)
	const entered = resumeGate.tryEnter(MAX_WAITING);
	if (!entered) return retryLater.call(this, 'busy', BUSY_MESSAGE);
	// n8n answers the caller (200, empty body) once the execution has resumed; until then its other callbacks
	// are answered 503 (resumesUnderWay.ts)
	const end = recordResume(executionId, Date.now());
	const res = this.getResponseObject();
	const gate: { slot?: Slot; callerGone: boolean } = { callerGone: false };
	res.once('finish', () => {
		// a 2xx: n8n took the resume (2.x: the execution ran; 1.x: answered before it runs). Any other answer:
		// the resume failed and the execution may still wait, so the next callback must get through
		if (res.statusCode >= 200 && res.statusCode < 300) markResumed(wait, Date.now());
		end();
		gate.slot?.answered();
	});
	res.once('close', () => {
		// the caller went away before n8n answered (its timeout): n8n goes on with the resume all the same
		if (res.writableFinished) return;
		gate.callerGone = true;
		gate.slot?.callerGone();
	});
	// this one waits its turn, and resumes its execution even if its caller has gone meanwhile
	gate.slot = await entered;
	if (gate.callerGone) gate.slot.callerGone();
	return { workflowData: [output] };
}

/** A callback of a wait this process resumed already: 200, a duplicate, so the service stops sending it. */
function resumedAlready(this: IWebhookFunctions): IWebhookResponseData {
	return answer.call(this, 200, {
		received: true,
		duplicate: true,
		message: 'This execution was resumed already by an earlier copy of this callback; ignored.',
	});
}

/**
 * A reconcile request (reconcile.ts): every waiting journey looked up at the service once; resumed with their
 * statuses when all are final, otherwise answered 200 with what is still pending and the execution keeps waiting.
 */
async function reconcile(
	this: IWebhookFunctions,
	kind: CompletionKind,
	nowMs: number,
): Promise<IWebhookResponseData> {
	if (kind === 'session') return answer.call(this, 200, { ...NO_SESSION_LOOKUP });
	const executionId = String(this.getExecutionId());
	if (resumeUnderWay(executionId, nowMs)) return resumeUnderWayAnswer.call(this);
	const items = readStoredItems.call(this, kind);
	if (!items.some(({ stored }) => stored.waiting))
		return answer.call(this, 200, { ...NOT_WAITING });
	// resumed already by this process (n8n 1.x lets a request through while the execution still shows waiting)
	const wait = waitOf.call(
		this,
		executionId,
		items.map(({ stored }) => stored),
	);
	if (wasResumed(wait, nowMs)) return resumedAlready.call(this);
	const claim = claimReconcileLookup(executionId, nowMs);
	if (!claim.allowed) {
		const res = this.getResponseObject();
		if (!res.headersSent) res.setHeader('Retry-After', String(claim.retryAfterS));
		return answer.call(this, 429, {
			error: 'too_soon',
			message: `This execution's journeys were looked up less than ${RECONCILE_SPACING_MS / 1000} seconds ago; send the reconcile request again later.`,
		});
	}
	const output: INodeExecutionData[] = [];
	const pending: Array<{ clientId: string; status: string | null }> = [];
	for (const { stored: item, pairedItem } of items) {
		if (!item.waiting) {
			output.push({ json: item.json, pairedItem });
			continue;
		}
		const found = await lookUpJourneyStatus.call(this, item.facts, item.id, nowMs);
		if (found.final === null) pending.push({ clientId: item.id, status: found.status });
		else output.push({ json: found.final, pairedItem });
	}
	if (pending.length > 0) return answer.call(this, 200, { ...notFinalYet(pending) });
	return await resumeWith.call(this, kind, executionId, wait, output);
}

const BUSY_MESSAGE =
	'n8n is resuming many executions now; this one keeps waiting. Send the callback again later.';

/**
 * A callback of an execution whose resume this process accepted and has not answered yet: 503 with
 * Retry-After, so the service tries again later (by then n8n answers 409 "has finished already") instead of
 * queueing one more resume of the same execution.
 */
function resumeUnderWayAnswer(this: IWebhookFunctions): IWebhookResponseData {
	return retryLater.call(
		this,
		'resume_under_way',
		'Another callback is resuming this execution now; send this one again later (it will be answered as finished).',
	);
}

function retryLater(this: IWebhookFunctions, error: string, message: string): IWebhookResponseData {
	const res = this.getResponseObject();
	if (!res.headersSent) res.setHeader('Retry-After', String(RESUME_RETRY_AFTER_S));
	return answer.call(this, 503, { error, message });
}
