import type { IDataObject, IExecuteFunctions, NodeTypeAndVersion } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FinVerifyCredentials } from '../transport';
import { CREDENTIAL_TYPE } from '../transport';
import type { CompletionKind } from './waiting';

/**
 * Who calls this execution back. The service calls only the URL a journey or session was started
 * with; a waiting node is resumed only by a signed call to this execution's resume URL. Two checks
 * follow, both before anything is sent:
 *
 * - a Start Journey / Create Session whose callback is the resume URL (the two-step form) is
 *   refused when the credential cannot verify that callback (no Webhook Signing Secret): otherwise
 *   the journey is created, the customer gets the link, and the Wait node fails afterwards;
 * - a Wait for Journey / Wait for Session after start nodes none of which sends the resume URL is
 *   refused: the service would never call it, and it would wait until its time limit (24 hours by
 *   default) after the customer was done.
 */

/** The start operation of each kind of waiting, as the Wait operations name it. */
export const START_OPERATION: Record<
	CompletionKind,
	{ resource: string; operation: string; name: string; field: string; waitName: string }
> = {
	journey: {
		resource: 'bankStatementJourney',
		operation: 'start',
		name: 'Start Journey',
		field: 'Webhook URL',
		waitName: 'Wait for Journey',
	},
	session: {
		resource: 'collectionSession',
		operation: 'create',
		name: 'Create Session',
		field: 'Callback URL',
		waitName: 'Wait for Session',
	},
};

/** The resume URL per node run (one expression evaluated, not one per item). */
const resumeUrls = new WeakMap<IExecuteFunctions, string>();

/** The execution's resume URL with n8n's token: what the service calls back. */
export function resumeUrl(this: IExecuteFunctions): string {
	let url = resumeUrls.get(this);
	if (url === undefined) {
		url = String(this.evaluateExpression('{{ $execution.resumeUrl }}', 0));
		resumeUrls.set(this, url);
	}
	return url;
}

/**
 * Whether `url` is this execution's resume URL, with or without n8n's token query (n8n refuses a
 * call without the right token, but it is still this execution the service would call).
 */
export function isResumeUrl(this: IExecuteFunctions, url: unknown): boolean {
	if (typeof url !== 'string' || url.trim() === '') return false;
	const pathOf = (value: string) => value.trim().split(/[?#]/, 1)[0].replace(/\/+$/, '');
	return pathOf(url) === pathOf(resumeUrl.call(this));
}

/** Whether the node's credential holds a Webhook Signing Secret. */
export async function hasSigningSecret(
	this: IExecuteFunctions,
	itemIndex?: number,
): Promise<boolean> {
	const credentials = (await this.getCredentials(
		CREDENTIAL_TYPE,
		itemIndex,
	)) as FinVerifyCredentials;
	return typeof credentials.webhookSecret === 'string' && credentials.webhookSecret !== '';
}

/** Where a user enters the secret, and what the simulator's is called (its banner prints it). */
export const SIGNING_SECRET_HELP =
	'Enter the Webhook Signing Secret in the FinVerify API credential (the Local Simulator prints ' +
	'its own when it starts): the service signs its callbacks with it, and a callback without a ' +
	'valid signature is refused.';

/**
 * Start Journey / Create Session with this execution's resume URL as the item's callback: checks,
 * before the journey or session is created, that the credential can verify the callback a later
 * Wait for Journey / Wait for Session waits for.
 */
export async function assertCanVerifyResumeCallback(
	this: IExecuteFunctions,
	kind: CompletionKind,
	itemIndex: number,
): Promise<void> {
	if (await hasSigningSecret.call(this, itemIndex)) return;
	const start = START_OPERATION[kind];
	throw new NodeOperationError(
		this.getNode(),
		`${start.name} sends this execution's resume URL as its ${start.field}, so a later ` +
			`${start.waitName} must verify the service's callback: enter the Webhook Signing Secret in ` +
			'the FinVerify API credential',
		{
			itemIndex,
			description: `${SIGNING_SECRET_HELP} Nothing was created.`,
		},
	);
}

/** What an earlier start node sends the service as its callback. */
export type CallbackTarget =
	/** this execution's resume URL: `{{ $execution.resumeUrl }}`, or Wait for Completion on callbacks */
	| 'resumeUrl'
	/** nothing: the service calls nobody back */
	| 'none'
	/** a fixed address, never this execution's resume URL */
	| 'elsewhere'
	/** an expression the node cannot judge without running it */
	| 'unknown';

const RESUME_URL_EXPRESSION = /\$execution\s*(?:\.\s*resumeUrl|\[\s*['"`]resumeUrl['"`]\s*\])/;

/** What a callback URL parameter, as saved in the workflow, makes the service call. */
export function callbackTargetOf(value: unknown): CallbackTarget {
	if (value === undefined || value === null) return 'none';
	if (typeof value !== 'string') return 'unknown';
	const isExpression = value.startsWith('=');
	const text = (isExpression ? value.slice(1) : value).trim();
	if (text === '') return 'none';
	if (!isExpression || !text.includes('{{')) return 'elsewhere';
	return RESUME_URL_EXPRESSION.test(text) ? 'resumeUrl' : 'unknown';
}

/** What a start node (its saved parameters, defaults included) makes the service call back. */
export function startNodeCallbackTarget(
	kind: CompletionKind,
	parameters: IDataObject | undefined,
): CallbackTarget {
	if (!parameters) return 'unknown';
	if (kind === 'journey') {
		const fields = (parameters.additionalFields ?? {}) as IDataObject;
		const own = callbackTargetOf(fields.webhookUrl);
		// Wait for Completion on callbacks sends the resume URL unless the item has its own URL
		if (own === 'none' && parameters.waitForCompletion === 'callback') return 'resumeUrl';
		return own;
	}
	if (parameters.waitForCompletion === 'callback') return 'resumeUrl';
	return callbackTargetOf(parameters.callbackUrl);
}

/** A node of the workflow as n8n's graph helpers give it. */
type GraphNode = NodeTypeAndVersion;

/** Whether `node` is this package's `resource` → `operation`, not disabled. */
function isOperation(
	self: IExecuteFunctions,
	node: GraphNode,
	resource: string,
	operation: string,
): boolean {
	return (
		!node.disabled &&
		node.type === self.getNode().type &&
		node.parameters?.resource === resource &&
		node.parameters?.operation === operation
	);
}

/** n8n's graph helper, or [] where this n8n has none (older 1.x) or it fails. */
function graph(
	self: IExecuteFunctions,
	direction: 'getParentNodes' | 'getChildNodes',
	nodeName: string,
): GraphNode[] {
	if (typeof self[direction] !== 'function') return [];
	try {
		return self[direction](nodeName, { includeNodeParameters: true });
	} catch {
		return [];
	}
}

/**
 * The Start Journey / Create Session nodes before the wait node `waitNodeName`, when none of them
 * can call this execution back (each sends no callback URL or a fixed one); [] when one can, when one
 * is an expression the node cannot judge, or when there is none (the id came from elsewhere).
 */
export function startNodesThatNeverCallBack(
	this: IExecuteFunctions,
	kind: CompletionKind,
	waitNodeName: string,
): Array<{ name: string; target: CallbackTarget }> {
	const start = START_OPERATION[kind];
	const starts = graph(this, 'getParentNodes', waitNodeName)
		.filter((parent) => isOperation(this, parent, start.resource, start.operation))
		.map((parent) => ({
			name: parent.name,
			target: startNodeCallbackTarget(kind, parent.parameters as IDataObject | undefined),
		}));
	const never = starts.every(({ target }) => target === 'none' || target === 'elsewhere');
	return never ? starts : [];
}

/** Why the start nodes never call back, in words. */
function neverCallsBackReason(
	kind: CompletionKind,
	starts: Array<{ target: CallbackTarget }>,
): string {
	const { field } = START_OPERATION[kind];
	return starts.every(({ target }) => target === 'none')
		? `sends no ${field}`
		: `sends another ${field} than this execution's resume URL`;
}

/** What to set, for messages. */
function whatToSet(kind: CompletionKind, names: string): string {
	const { field } = START_OPERATION[kind];
	const where = kind === 'journey' ? `Additional Fields → ${field}` : field;
	return `In ${names}, set ${where} to the expression {{ $execution.resumeUrl }}`;
}

const WHO: Record<CompletionKind, string> = { journey: 'customer', session: 'recipient' };

/**
 * Wait for Journey / Wait for Session: refuses to wait when every Start Journey / Create Session
 * before it sends the service another callback URL or none, since no callback would ever resume the
 * execution (it would wait until its time limit however soon the customer was done). Without such a
 * start node before it (the id came from elsewhere) it waits as asked.
 */
export function assertCanBeCalledBack(this: IExecuteFunctions, kind: CompletionKind): void {
	const starts = startNodesThatNeverCallBack.call(this, kind, this.getNode().name);
	if (starts.length === 0) return;
	const start = START_OPERATION[kind];
	const names = starts.map(({ name }) => `"${name}"`).join(', ');
	throw new NodeOperationError(
		this.getNode(),
		`${start.waitName} would never be called back: ${start.name} (${names}) ${neverCallsBackReason(kind, starts)}`,
		{
			description:
				`The service calls back only the ${start.field} a ${kind} was started with, so this node ` +
				`would wait until its time limit, however soon the ${WHO[kind]} is done. ` +
				`${whatToSet(kind, names)}. Nothing was looked up or waited for.`,
		},
	);
}

/** Per node run: the wait nodes after this start node that it leaves without a callback. */
const uncalledWaits = new WeakMap<IExecuteFunctions, string[]>();

/**
 * Start Journey / Create Session (read, before anything is created): refuses the item when a Wait
 * for Journey / Wait for Session after this node would never be called back, because this node (and
 * every other start node before that wait) sends the service no callback URL or another one. The
 * same rule as `assertCanBeCalledBack`, applied before the journey or session exists, so the
 * customer never gets a link nothing waits for.
 */
export function assertWaitAfterCanBeCalledBack(
	this: IExecuteFunctions,
	kind: CompletionKind,
	itemIndex: number,
): void {
	let waits = uncalledWaits.get(this);
	if (waits === undefined) {
		const start = START_OPERATION[kind];
		const self = this.getNode().name;
		const resource = start.resource;
		waits = graph(this, 'getChildNodes', self)
			.filter((child) => isOperation(this, child, resource, 'wait'))
			.filter((child) =>
				startNodesThatNeverCallBack.call(this, kind, child.name).some(({ name }) => name === self),
			)
			.map((child) => child.name);
		uncalledWaits.set(this, waits);
	}
	if (waits.length === 0) return;
	const start = START_OPERATION[kind];
	const target = startNodeCallbackTarget(kind, this.getNode().parameters as IDataObject);
	const names = waits.map((name) => `"${name}"`).join(', ');
	throw new NodeOperationError(
		this.getNode(),
		`${start.name} ${neverCallsBackReason(kind, [{ target }])}, so ${start.waitName} (${names}) ` +
			'after it would never be called back',
		{
			itemIndex,
			description:
				`The service calls back only the ${start.field} a ${kind} was started with, and ` +
				`${start.waitName} waits for a callback to this execution's resume URL. ` +
				`${whatToSet(kind, `"${this.getNode().name}"`)}. Nothing was created.`,
		},
	);
}
