import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { BaseUrlCheck } from '../../shared/baseUrl';
import {
	BASE_URL_EXPECTED,
	baseUrlFieldOf,
	baseUrlOfCredential,
	checkBaseUrl,
} from '../../shared/baseUrl';
import { CREDENTIAL_CHECK, CREDENTIAL_TYPE, SANDBOX_BASE_URL } from '../../shared/constants';
import { isPlaceholderWord, visibleLength } from '../../shared/values';
import { credentialCheckVerdict, isErrorEnvelope, parseApiError } from './errors';
import { redactDeep, redactSecrets } from './redact';
import type { CredentialCheck, GateStop, RequestGate } from './gate';
import { gateOutcome } from './gate';
import {
	isServiceUnreachable,
	retryDelayMs,
	shouldRetryNetworkError,
	shouldRetryStatus,
} from './retry';

export { CREDENTIAL_TYPE };
export const API_PREFIX = '/api/v1/services/';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;
/** Upper bound of retries, whatever an expression in the node's Retries option gives. */
export const MAX_RETRIES = 5;

export type FinVerifyContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

export interface FinVerifyCredentials {
	environment?: 'production' | 'sandbox' | 'custom';
	baseUrl?: string;
	/** Custom environment only: accept an invalid certificate (a staging host's self-signed one). */
	ignoreSslIssues?: boolean;
	sandboxUrl?: string;
	apiKey?: string;
	apiSecret?: string;
	refreshToken?: string;
	webhookSecret?: string;
}

export interface RequestPolicy {
	/** Milliseconds before one attempt is abandoned. */
	timeoutMs?: number;
	/** Retries after the first attempt on 429, 5xx and network failures (0 = none). */
	maxRetries?: number;
	/**
	 * The node execution's shared gate (see gate.ts): a rejected credential, an outage or a 429 storm
	 * seen by one item holds back every other item.
	 */
	gate?: RequestGate;
}

export interface ApiRequestOptions extends RequestPolicy {
	method: IHttpRequestMethods;
	/** Path below /api/v1/services/, e.g. "corporate/cin-lookup". */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
	/**
	 * False for creates (journey init, ITR analysis start, session create, password reset) and billed
	 * bureau pulls (multi-bureau, commercial, EPFO with credit): they are
	 * only re-sent when the server proved it did not act (429, 503, connection refused).
	 */
	idempotent?: boolean;
	/**
	 * Adds the credential's refresh token as the `refresh_token` cookie (collection sessions only).
	 */
	sendRefreshToken?: boolean;
	/** Extra request headers (never auth headers: the credential adds those). */
	headers?: IDataObject;
	/**
	 * Dotted path of the field a successful answer must carry (e.g. `data.client_id`); alternatives
	 * separated by `|`. A 2xx without it (`{"success":true,"data":{}}`) is an error naming the field,
	 * not a success with nulls; so is one where it is blank, empty or status-like (see `isFact`). Or a
	 * check naming what the answer lacks, for what a path cannot say (a journey status that is a
	 * word, not an HTTP code; a list with at least one entry); or a list of them, all required.
	 */
	requiredField?: RequiredField;
}

/**
 * What a successful answer must carry: dotted paths separated by `|`, a check naming what it lacks,
 * or a list of them (every one must hold; the first that fails is named).
 */
export type RequiredField = string | ((body: unknown) => string | undefined) | RequiredField[];

function valueAt(body: unknown, path: string): unknown {
	let current: unknown = body;
	for (const key of path.split('.')) {
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as IDataObject)[key];
	}
	return current;
}

/** An HTTP status code, as a number or as text: what an envelope says about itself (200, "404"). */
const isHttpCode = (value: string | number): boolean =>
	/^[1-5][0-9]{2}$/.test(String(value).trim());

/** Words an envelope says about itself (besides placeholders such as "null"): never a fact. */
const ENVELOPE_WORDS = new Set(['ok', 'success', 'successful', 'n/a']);

/** Keys that say when and under which request id the service answered: nothing about the subject. */
const METADATA_KEYS = new Set(['requestid', 'timestamp']);
/** Keys whose number is a code: an HTTP code there (`status: 200`) is the envelope speaking. */
const CODE_KEYS = new Set(['status', 'statuscode', 'code', 'httpcode', 'errorcode']);
const compactKey = (key: string) => key.toLowerCase().replace(/[^a-z]/g, '');

/** Deeper than this a non-empty value counts as it is (no answer nests identifying facts deeper). */
const FACT_DEPTH = 8;

/**
 * Whether a value states a fact about the subject. Text counts when it shows something and is not an
 * HTTP code, an envelope word ("OK", "success") or a placeholder ("null", "NaN"); a number counts,
 * except an HTTP code as the value asked for itself or under a status or code key; a list counts when
 * one of its entries does, a record when one of its values does (its request id and timestamp
 * aside). Blank text (spaces, zero-width characters), an empty list, `{}`, booleans and null state
 * nothing.
 */
export function isFact(value: unknown, atPath = true, depth = 0): boolean {
	if (typeof value === 'string') {
		const text = value.trim();
		return (
			visibleLength(text) > 0 &&
			!isHttpCode(text) &&
			!ENVELOPE_WORDS.has(text.toLowerCase()) &&
			!isPlaceholderWord(text)
		);
	}
	if (typeof value === 'number') return Number.isFinite(value) && !(atPath && isHttpCode(value));
	if (typeof value !== 'object' || value === null) return false;
	if (depth >= FACT_DEPTH) return Object.keys(value).length > 0;
	if (Array.isArray(value)) return value.some((entry) => isFact(entry, false, depth + 1));
	return Object.entries(value).some(([key, entry]) => {
		const name = compactKey(key);
		return !METADATA_KEYS.has(name) && isFact(entry, CODE_KEYS.has(name), depth + 1);
	});
}

/**
 * Whether the value at a path counts as present. A status (a key ending in "status") counts only as
 * a word: text with a letter, not an envelope word or a placeholder (`200`, `"200"`, `"OK"` are no
 * status of a job, a reset or a session).
 */
function presentAt(body: unknown, path: string): boolean {
	const value = valueAt(body, path);
	const key = path.slice(path.lastIndexOf('.') + 1);
	if (/status$/i.test(key))
		return typeof value === 'string' && /\p{L}/u.test(value) && isFact(value);
	return isFact(value);
}

/** The missing field of an answer (undefined when present and not blank, empty or status-like). */
export function missingField(
	body: unknown,
	requiredField: RequiredField | undefined,
): string | undefined {
	if (!requiredField) return undefined;
	if (Array.isArray(requiredField)) {
		for (const required of requiredField) {
			const missing = missingField(body, required);
			if (missing !== undefined) return missing;
		}
		return undefined;
	}
	if (typeof requiredField === 'function') return requiredField(body);
	const alternatives = requiredField.split('|');
	return alternatives.some((path) => presentAt(body, path)) ? undefined : alternatives.join(' or ');
}

const secretsOf = (c: FinVerifyCredentials) => [
	c.apiKey,
	c.apiSecret,
	c.refreshToken,
	c.webhookSecret,
];

/**
 * The base address of the credential's environment, without a trailing slash or API prefix;
 * undefined when the Base URL cannot be used (see checkBaseUrl for why).
 */
export function resolveBaseUrl(credentials: FinVerifyCredentials): string | undefined {
	const checked = checkBaseUrl(baseUrlOfCredential(credentials));
	return checked.ok ? checked.url : undefined;
}

interface LoadedCredentials {
	credentials: FinVerifyCredentials;
	baseUrl: BaseUrlCheck;
	/**
	 * What httpRequestWithAuthentication takes instead of reading (and decrypting) the credential
	 * again.
	 */
	decrypted: ICredentialsDecrypted;
}

/**
 * The credential of one node execution, keyed by its execution context. n8n creates a context per
 * node run, so an entry lives exactly as long as that run (a WeakMap keeps nothing alive): the
 * credential is read and decrypted once per execution instead of twice per request. A failed read
 * is not kept, so every item reports it.
 */
const credentialsOfExecution = new WeakMap<object, Promise<LoadedCredentials>>();

async function readCredentials(this: FinVerifyContext): Promise<LoadedCredentials> {
	// without an item index, as n8n's own httpRequestWithAuthentication reads it
	const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as FinVerifyCredentials;
	const reference = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		credentials,
		baseUrl: checkBaseUrl(baseUrlOfCredential(credentials), baseUrlFieldOf(credentials)),
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_TYPE,
			data: credentials as ICredentialDataDecryptedObject,
		},
	};
}

async function loadCredentials(this: FinVerifyContext, itemIndex?: number) {
	let pending = credentialsOfExecution.get(this);
	if (!pending) {
		pending = readCredentials.call(this);
		credentialsOfExecution.set(this, pending);
		pending.catch(() => credentialsOfExecution.delete(this));
	}
	const loaded = await pending;
	if (!loaded.baseUrl.ok) {
		// nothing is sent: the key and secret would go wherever a bad value points
		const field = baseUrlFieldOf(loaded.credentials);
		const expected =
			field === 'Simulator URL'
				? `Open the credential and enter the address the simulator prints when it starts, e.g. ${SANDBOX_BASE_URL}.`
				: `${BASE_URL_EXPECTED}.`;
		throw new NodeOperationError(this.getNode(), `The FinVerify credential has no valid ${field}`, {
			itemIndex,
			description: `${loaded.baseUrl.problem} ${expected} Nothing was sent.`,
		});
	}
	return { ...loaded, baseUrl: loaded.baseUrl.url };
}

function errorCodeOf(error: unknown): string | undefined {
	const e = error as { code?: unknown; cause?: { code?: unknown } };
	const code = e?.code ?? e?.cause?.code;
	return typeof code === 'string' ? code : undefined;
}

function describeNetworkError(code: string | undefined, timeoutMs: number): string {
	switch (code) {
		case 'ECONNABORTED':
		case 'ETIMEDOUT':
			return `The service did not answer within ${timeoutMs} ms`;
		case 'ECONNREFUSED':
			return 'The service refused the connection (is the Base URL right and the service up?)';
		case 'ECONNRESET':
			return 'The service closed the connection before answering';
		case 'ERR_TOO_MANY_REDIRECTS':
			return `The service redirected more than ${MAX_REDIRECTS} times`;
		case 'ERR_INVALID_REDIRECT':
			return 'The service redirected to an address that is not http(s)';
		case 'ERR_CROSS_ORIGIN_REDIRECT':
			return (
				'The service redirected to another host; the request was not sent there ' +
				'(the credential never leaves the service host)'
			);
		case 'ERR_CANCELED':
			return 'The execution was cancelled';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'The host of the Base URL could not be resolved';
		default:
			return 'The request to the service failed before an answer arrived';
	}
}

function parseBody(body: unknown): { parsed: unknown; malformed: boolean } {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return { parsed: body, malformed: false };
	if (body.trim() === '') return { parsed: {}, malformed: false };
	try {
		return { parsed: JSON.parse(body), malformed: false };
	} catch {
		return { parsed: body, malformed: true };
	}
}

/** The start of an HTML page (after a byte-order mark and white space). */
const HTML_START = /^\uFEFF?\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/**
 * Whether an answer is an HTML page (a proxy's or gateway's error page, a login page): by its
 * content type or, whatever the type says, by how its first bytes read.
 */
export function isHtmlPage(body: unknown, contentType?: string): boolean {
	const type = contentType?.split(';')[0].trim().toLowerCase();
	if (type === 'text/html' || type === 'application/xhtml+xml') return true;
	const start = Buffer.isBuffer(body)
		? body.subarray(0, 512).toString('utf8')
		: body instanceof ArrayBuffer
			? Buffer.from(body.slice(0, 512)).toString('utf8')
			: typeof body === 'string'
				? body.slice(0, 512)
				: '';
	return HTML_START.test(start);
}

/** The title of an HTML page, for the error (at most 80 characters), if it has one. */
function htmlTitle(body: unknown): string | undefined {
	const text = Buffer.isBuffer(body)
		? body.subarray(0, 4096).toString('utf8')
		: typeof body === 'string'
			? body.slice(0, 4096)
			: '';
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1].replace(/\s+/g, ' ').trim();
	return title ? title.slice(0, 80) : undefined;
}

/** Bodies are JSON objects; a bare array or scalar is wrapped so callers always get an object. */
function asResponseObject(parsed: unknown): IDataObject {
	if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
		return parsed as IDataObject;
	return { data: parsed as IDataObject[] };
}

/** Most redirects one attempt follows (same origin only for API calls). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/** Thrown inside an attempt when its hard deadline passed (mapped to a timeout). */
const DEADLINE_CODE = 'ETIMEDOUT';

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

function headerValue(headers: IDataObject | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	const first = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' ? first : undefined;
}

/**
 * Gives one attempt a hard deadline. n8n's httpRequest helpers honour `abortSignal`, but
 * `httpRequestWithAuthentication` replaces it with the execution's cancel signal; an accessor keeps
 * both: whatever signal n8n sets is combined with the deadline, so cancelling the execution still
 * aborts, and a server trickling bytes cannot hold an attempt past `timeoutMs` (`timeout` alone is
 * an idle timeout).
 */
function withDeadline(request: IHttpRequestOptions, deadline: AbortSignal) {
	let outer: AbortSignal | undefined;
	let combined: AbortSignal = deadline;
	Object.defineProperty(request, 'abortSignal', {
		configurable: true,
		enumerable: true,
		get: () => combined,
		set: (signal: AbortSignal | undefined) => {
			outer = signal;
			combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
		},
	});
	return { cancelled: () => outer?.aborted === true };
}

interface AttemptTarget {
	request: IHttpRequestOptions;
	/** Origin whose hops carry the credential; other origins never see it. */
	credentialOrigin: string;
	/**
	 * API calls stop at a redirect to another origin; document downloads follow it without
	 * credentials.
	 */
	followCrossOrigin: boolean;
	timeoutMs: number;
	/** The execution's credential, handed to n8n's helper so it does not read and decrypt it again. */
	credentialsDecrypted: ICredentialsDecrypted;
}

/**
 * What one attempt gave: an answer, or the failure code (and whether the execution was cancelled).
 */
type AttemptResult =
	| { response: IN8nHttpFullResponse }
	| { response?: undefined; code: string | undefined; cancelled?: boolean };

/**
 * One attempt: the request and any redirects (followed here, never by the HTTP client, so the
 * credential's headers only go to the credential's origin), all within one hard deadline.
 */
async function sendAttempt(this: FinVerifyContext, target: AttemptTarget): Promise<AttemptResult> {
	const deadline = AbortSignal.timeout(Math.max(1, target.timeoutMs));
	let request: IHttpRequestOptions = {
		...target.request,
		headers: { ...(target.request.headers ?? {}) },
		disableFollowRedirect: true,
	};
	for (let hop = 0; ; hop++) {
		const withCredential = originOf(request.url) === target.credentialOrigin;
		const state = withDeadline(request, deadline);
		let response: IN8nHttpFullResponse;
		try {
			response = (await (withCredential
				? this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request, {
						credentialsDecrypted: target.credentialsDecrypted,
					})
				: this.helpers.httpRequest(request))) as IN8nHttpFullResponse;
		} catch (error) {
			if (state.cancelled()) return { code: 'ERR_CANCELED', cancelled: true };
			if (deadline.aborted) return { code: DEADLINE_CODE };
			return { code: errorCodeOf(error) };
		}
		if (deadline.aborted) return { code: DEADLINE_CODE };
		const location = headerValue(response.headers as IDataObject, 'location');
		if (!REDIRECT_STATUS.has(response.statusCode) || !location) return { response };
		if (hop >= MAX_REDIRECTS) return { code: 'ERR_TOO_MANY_REDIRECTS' };
		let next: URL;
		try {
			next = new URL(location, request.url);
		} catch {
			return { code: 'ERR_INVALID_REDIRECT' };
		}
		if (next.protocol !== 'http:' && next.protocol !== 'https:') {
			return { code: 'ERR_INVALID_REDIRECT' };
		}
		if (next.origin !== target.credentialOrigin && !target.followCrossOrigin) {
			return { code: 'ERR_CROSS_ORIGIN_REDIRECT' };
		}
		const method = (request.method ?? 'GET').toUpperCase();
		const toGet =
			response.statusCode === 303 ||
			((response.statusCode === 301 || response.statusCode === 302) && method === 'POST');
		const headers = { ...(request.headers ?? {}) };
		if (next.origin !== target.credentialOrigin) {
			for (const name of Object.keys(headers)) {
				if (/^(cookie|authorization|x-api-key|x-api-secret)$/i.test(name)) delete headers[name];
			}
		}
		request = {
			...request,
			url: next.href,
			qs: undefined,
			headers,
			...(toGet ? { method: 'GET' as const, body: undefined } : {}),
		};
		delete (request as { abortSignal?: unknown }).abortSignal;
	}
}

/**
 * Errors that stop the node for every item whatever its error setting: the credential was
 * rejected, or the request gate stopped (outage, 429 storm). No retry and no other item can do
 * better.
 */
const nodeStops = new WeakSet<object>();

export function isNodeStop(error: unknown): boolean {
	return typeof error === 'object' && error !== null && nodeStops.has(error);
}

const STOP_TEXT: Record<
	GateStop['reason'],
	(stop: GateStop, credential: string) => { message: string; description: string; code: string }
> = {
	credentialRejected: (stop, credential) => ({
		message: `The FinVerify API credential${credential} was rejected by the service (${stop.cause})`,
		description:
			(stop.confirmedBy
				? `The credential check (the credential Test's free request) was refused too ` +
					`(${stop.confirmedBy}). `
				: '') +
			'Nothing more was sent, for this or any other item: no retry fixes this. Check the ' +
			"credential's API Key and API Secret, and that they are for this environment.",
		code: stop.code ?? 'UNAUTHORIZED',
	}),
	serviceUnavailable: (stop) => ({
		message: `The FinVerify service is unavailable: ${stop.rounds} attempts in a row failed (${stop.cause})`,
		description:
			`After ${stop.rounds} failed rounds${stop.items ? ` of ${stop.items} different items` : ''} ` +
			'with no good answer between them the node stopped sending: the items not yet done were ' +
			'not sent. Run the execution again when the service is back.',
		code: 'SERVICE_UNAVAILABLE',
	}),
	rateLimited: (stop) => ({
		message: `The FinVerify service kept rate limiting this execution: ${stop.rounds} rounds of ${stop.cause} in a row`,
		description:
			`Every item waited out the Retry-After together, for ${stop.rounds} rounds` +
			`${stop.items ? ` that hit ${stop.items} different items` : ''}; the items not yet done ` +
			'were not sent. Lower Items in Parallel, or run the execution again later.',
		code: stop.code ?? 'RATE_LIMITED',
	}),
};

/** The error every item gets once the gate stopped (marked as a node stop). */
function stopError(
	this: FinVerifyContext,
	stop: GateStop,
	secrets: Array<string | undefined>,
	itemIndex?: number,
): NodeApiError {
	const name = this.getNode().credentials?.[CREDENTIAL_TYPE]?.name;
	const text = STOP_TEXT[stop.reason](stop, name ? ` "${name}"` : '');
	const message = redactSecrets(text.message, secrets);
	const answer = [
		stop.code ? `Code: ${stop.code}` : undefined,
		stop.httpCode !== undefined ? `HTTP ${stop.httpCode}` : undefined,
	].filter(Boolean);
	const error = new NodeApiError(
		this.getNode(),
		{ message, code: text.code },
		{
			message,
			description: redactSecrets(
				answer.length > 0 ? `${answer.join(' · ')}. ${text.description}` : text.description,
				secrets,
			),
			httpCode: stop.httpCode !== undefined ? String(stop.httpCode) : undefined,
			itemIndex,
		},
	);
	error.message = message;
	nodeStops.add(error);
	return error;
}

/**
 * The credential check: the credential Test's request (the status of a journey that cannot exist,
 * free), one attempt within the request's deadline, outside the gate. Its verdict decides whether a
 * refused answer stops every item (transport/errors.ts credentialCheckVerdict).
 */
async function checkCredential(
	this: FinVerifyContext,
	target: AttemptTarget & { secrets: Array<string | undefined> },
): Promise<CredentialCheck> {
	const result = await sendAttempt.call(this, target);
	if (!result.response) {
		return {
			verdict: credentialCheckVerdict(undefined, undefined),
			cause: result.code ?? 'no answer',
		};
	}
	const status = result.response.statusCode;
	const { parsed } = parseBody(result.response.body);
	const answer =
		typeof parsed === 'object' && parsed !== null ? parseApiError(parsed, status) : undefined;
	return {
		verdict: credentialCheckVerdict(status, parsed),
		cause: redactSecrets(`HTTP ${status}${answer?.code ? ` ${answer.code}` : ''}`, target.secrets),
		message: answer ? redactSecrets(answer.message, target.secrets) : undefined,
		code: answer?.code,
		httpCode: status,
	};
}

/** What a refused answer that did not stop the node says about the credential (its description). */
function refusedRecordNote(
	this: FinVerifyContext,
	checked: CredentialCheck,
	sentRefreshToken: boolean | undefined,
): string {
	const name = this.getNode().credentials?.[CREDENTIAL_TYPE]?.name;
	const credential = `The credential${name ? ` "${name}"` : ''}`;
	if (checked.verdict === 'accepted')
		return (
			`${credential} was checked with the credential Test's free request and is accepted ` +
			`(${checked.cause}): the service refused this request alone (its record, or an operation or ` +
			`path the key may not use${sentRefreshToken ? ", or the credential's Refresh Token" : ''}); ` +
			'the other items were sent'
		);
	return (
		`${credential} could not be checked (${checked.cause}), so the node did not stop the other ` +
		'items for this answer'
	);
}

/**
 * The one way node code talks to the service. Owns base URL joining, JSON bodies, timeouts, retries
 * (429/5xx/network, exponential backoff with jitter, Retry-After honoured), error normalization
 * into NodeApiError, and keeping every secret out of errors. Behind the node execution's gate (the
 * policy's `gate`), a rejected credential, an open circuit or a 429 storm ends the request with the
 * gate's stop error.
 */
export async function apiRequest(
	this: FinVerifyContext,
	options: ApiRequestOptions,
): Promise<IDataObject> {
	// this request, as the gate knows it (the probe while the service is not proven)
	const ticket = {};
	try {
		return await sendWithRetries.call(this, { ...options, ticket });
	} finally {
		options.gate?.release(ticket);
	}
}

async function sendWithRetries(
	this: FinVerifyContext,
	options: ApiRequestOptions & { ticket: object },
): Promise<IDataObject> {
	const { itemIndex } = options;
	const { credentials, baseUrl, decrypted } = await loadCredentials.call(this, itemIndex);
	const secrets = secretsOf(credentials);
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const maxRetries = Math.max(0, Math.min(options.maxRetries ?? DEFAULT_MAX_RETRIES, MAX_RETRIES));
	const idempotent = options.idempotent ?? true;

	const headers: IDataObject = { Accept: 'application/json', ...(options.headers ?? {}) };
	if (options.sendRefreshToken) {
		if (!credentials.refreshToken) {
			throw new NodeOperationError(
				this.getNode(),
				'The FinVerify credential has no Refresh Token',
				{
					itemIndex,
					description:
						'Collection Session operations need the refresh token of your account. Add it to the ' +
						'credential.',
				},
			);
		}
		headers.Cookie = `refresh_token=${credentials.refreshToken}`;
	}

	const request: IHttpRequestOptions = {
		method: options.method,
		url: `${baseUrl}${API_PREFIX}${options.path.replace(/^\/+/, '')}`,
		// only a Custom environment may relax certificate checks, and only for the service's own address
		skipSslCertificateValidation:
			credentials.environment === 'custom' && credentials.ignoreSslIssues === true,
		headers,
		qs: options.qs,
		timeout: timeoutMs,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (options.body !== undefined) request.body = options.body;

	const fail = (body: JsonObject, message: string, description: string, httpCode?: string) => {
		const error = new NodeApiError(this.getNode(), redactDeep(body, secrets), {
			message: redactSecrets(message, secrets),
			description: redactSecrets(description, secrets),
			httpCode,
			itemIndex,
		});
		// NodeApiError replaces the message of well-known network codes with a generic text; ours is
		// exact
		error.message = redactSecrets(message, secrets);
		return error;
	};

	const { gate, ticket } = options;
	const credentialOrigin = originOf(baseUrl) ?? baseUrl;
	// a refused answer is confirmed with the credential Test's free request before every item stops
	gate?.useCredentialCheck(
		async () =>
			await checkCredential.call(this, {
				request: {
					method: 'GET',
					url: `${baseUrl}${API_PREFIX}${CREDENTIAL_CHECK.path}`,
					qs: { client_id: CREDENTIAL_CHECK.clientId },
					skipSslCertificateValidation: request.skipSslCertificateValidation,
					headers: { Accept: 'application/json' },
					timeout: timeoutMs,
					json: true,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				},
				credentialOrigin,
				followCrossOrigin: false,
				timeoutMs,
				credentialsDecrypted: decrypted,
				secrets,
			}),
	);
	for (let attempt = 0; ; attempt++) {
		let round = 0;
		if (gate) {
			try {
				// the item, so that the gate tells one item's retries from failures of different items
				round = await gate.admit(ticket, itemIndex ?? ticket);
			} catch {
				// the gate stopped (admit throws nothing else): every item gets the same stop error
				throw stopError.call(this, gate.stop!, secrets, itemIndex);
			}
		}
		const result = await sendAttempt.call(this, {
			request,
			credentialOrigin,
			followCrossOrigin: false,
			timeoutMs,
			credentialsDecrypted: decrypted,
		});
		if (!result.response) {
			const { code, cancelled } = result;
			if (gate && !cancelled && isServiceUnreachable(code)) {
				gate.record(ticket, round, { kind: 'unavailable', cause: code ?? 'no answer' });
			}
			if (!cancelled && attempt < maxRetries && shouldRetryNetworkError(code, idempotent)) {
				await sleep(retryDelayMs(attempt));
				continue;
			}
			// Never pass the underlying error on: it holds the request configuration, auth headers included.
			const message = describeNetworkError(code, timeoutMs);
			throw fail(
				{ message, code: code ?? 'NETWORK_ERROR' },
				message,
				`${options.method} ${API_PREFIX}${options.path} failed after ${attempt + 1} attempt(s)${code ? ` (${code})` : ''}`,
			);
		}

		const { response } = result;
		const status = response.statusCode;
		const { parsed, malformed } = parseBody(response.body);
		const ok = status >= 200 && status < 300;
		const retryWaitMs = retryDelayMs(attempt, response.headers?.['retry-after']);
		const outcome = gate ? gateOutcome(status, parsed, retryWaitMs) : undefined;
		/** A refused answer: what the credential check said (undefined without a gate). */
		let checked: CredentialCheck | undefined;
		if (gate && outcome?.kind === 'rejected') {
			checked = await gate.confirmRejection(ticket, round, outcome);
			// a rejected credential stops this item too at once (an open circuit or a storm stops its
			// next attempt: admit); otherwise the refusal is this record's own error (never retried)
			if (gate.stop?.reason === 'credentialRejected')
				throw stopError.call(this, gate.stop, secrets, itemIndex);
		} else if (gate && outcome && outcome.kind !== 'rejected') {
			gate.record(ticket, round, outcome);
		}
		if (ok && !malformed && !isErrorEnvelope(parsed)) {
			const missing = missingField(parsed, options.requiredField);
			// a credential secret the service echoes never reaches an output (Simplify off, API Request)
			if (missing === undefined) return redactDeep(asResponseObject(parsed), secrets);
			throw fail(
				{ message: `The answer has no ${missing}`, code: 'INCOMPLETE_RESPONSE' },
				`The service answered success without ${missing}`,
				`${options.method} ${API_PREFIX}${options.path} returned HTTP ${status} but no ${missing} ` +
					'(blank or empty values and status words such as "200" or "OK" do not count); nothing in ' +
					'the answer can be used',
				String(status),
			);
		}

		// a truncated or garbled body of a read is transient like a 502; a create's is ambiguous: not
		// re-sent
		if (ok && malformed && idempotent && attempt < maxRetries) {
			await sleep(retryDelayMs(attempt));
			continue;
		}
		if (!ok && attempt < maxRetries && shouldRetryStatus(status, idempotent)) {
			// a 429 behind a gate: the gate holds every item for the wait (admit), not each alone
			if (!(gate && status === 429)) await sleep(retryWaitMs);
			continue;
		}

		if (ok && malformed) {
			const contentType = headerValue(response.headers as IDataObject, 'content-type');
			if (isHtmlPage(response.body, contentType)) {
				const title = htmlTitle(response.body);
				throw fail(
					{ message: 'HTML page instead of JSON', code: 'MALFORMED_RESPONSE' },
					'The service answered with an HTML page instead of JSON',
					`${options.method} ${API_PREFIX}${options.path} returned HTTP ${status} with an HTML page` +
						`${title ? ` ("${title}")` : ''}, such as a proxy's or gateway's error page: not the ` +
						"service's answer, and nothing in it can be used",
					String(status),
				);
			}
			throw fail(
				{ message: 'Malformed response', code: 'MALFORMED_RESPONSE' },
				'The service answered with a body that is not valid JSON',
				`${options.method} ${API_PREFIX}${options.path} returned HTTP ${status} with an unreadable body`,
				String(status),
			);
		}
		const parsedError = parseApiError(parsed, status);
		const details = [
			parsedError.code ? `Code: ${parsedError.code}` : undefined,
			`HTTP ${status}`,
			parsedError.requestId ? `Request ID: ${parsedError.requestId}` : undefined,
			attempt > 0 ? `after ${attempt + 1} attempts` : undefined,
		].filter(Boolean);
		const errorBody: JsonObject =
			typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
				? (parsed as JsonObject)
				: { message: parsedError.message };
		throw fail(
			{ ...errorBody, code: parsedError.code ?? null },
			parsedError.message,
			checked
				? `${details.join(' · ')}. ${refusedRecordNote.call(this, checked, options.sendRefreshToken)}.`
				: details.join(' · '),
			String(status),
		);
	}
}

/**
 * Downloads a document link from a response (report PDF, statement PDF), retried like a read (429,
 * 5xx, network failures and timeouts; Retry-After honoured), each attempt within one hard deadline.
 * The credential's headers are only sent to the credential's own origin: a pre-signed link
 * elsewhere, or a redirect from the service to another host, gets none.
 */
export async function downloadDocument(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
	policy: RequestPolicy = {},
): Promise<{ data: Buffer; contentType?: string }> {
	const { credentials, baseUrl, decrypted } = await loadCredentials.call(this, itemIndex);
	if (!/^https?:\/\//i.test(url) || originOf(url) === undefined) {
		throw new NodeOperationError(
			this.getNode(),
			'The document link in the response is not an http(s) URL',
			{
				itemIndex,
			},
		);
	}
	const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	const maxRetries = Math.max(0, Math.min(policy.maxRetries ?? DEFAULT_MAX_RETRIES, MAX_RETRIES));
	const request: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'arraybuffer',
		timeout: timeoutMs,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const secrets = secretsOf(credentials);
	for (let attempt = 0; ; attempt++) {
		const result = await sendAttempt.call(this, {
			request,
			credentialOrigin: originOf(baseUrl) ?? baseUrl,
			followCrossOrigin: true,
			timeoutMs,
			credentialsDecrypted: decrypted,
		});
		if (!result.response) {
			const { code, cancelled } = result;
			if (!cancelled && attempt < maxRetries && shouldRetryNetworkError(code, true)) {
				await sleep(retryDelayMs(attempt));
				continue;
			}
			const message = describeNetworkError(code, timeoutMs);
			throw new NodeApiError(
				this.getNode(),
				{ message, code: code ?? 'NETWORK_ERROR' },
				{
					message: `Document download failed: ${message}`,
					description: `after ${attempt + 1} attempt(s)`,
					itemIndex,
				},
			);
		}
		const { response } = result;
		const status = response.statusCode;
		if (status >= 200 && status < 300) {
			const contentType = headerValue(response.headers as IDataObject, 'content-type');
			const data = Buffer.from(response.body as ArrayBuffer);
			const type = contentType?.split(';')[0].trim().toLowerCase();
			// an HTML page is never the document (every link is to a report or statement file): a proxy's
			// or gateway's page answered with 200 is retried like any transient failure, and never saved
			// as the file
			if (isHtmlPage(data, contentType)) {
				if (attempt < maxRetries) {
					await sleep(retryDelayMs(attempt));
					continue;
				}
				const title = htmlTitle(data);
				throw new NodeApiError(
					this.getNode(),
					{ message: 'Not a document', code: 'NOT_A_DOCUMENT' },
					{
						message: 'Document download failed: the link answered an HTML page instead of a file',
						description:
							`HTTP ${status}${title ? `, page "${redactSecrets(title, secrets)}"` : ''}, after ` +
							`${attempt + 1} attempt(s); nothing was saved as the file`,
						httpCode: String(status),
						itemIndex,
					},
				);
			}
			// JSON is never a document: an error envelope is an error; anything else (a garbled answer) is
			// retried like any transient failure, and never saved as the report file
			if (type === 'application/json') {
				const { parsed, malformed } = parseBody(data);
				if (!malformed && isErrorEnvelope(parsed)) {
					const parsedError = parseApiError(parsed, status);
					throw new NodeApiError(
						this.getNode(),
						{
							message: redactSecrets(parsedError.message, secrets),
							code: parsedError.code ?? null,
						},
						{
							message: `Document download failed: ${redactSecrets(parsedError.message, secrets)}`,
							httpCode: String(status),
							itemIndex,
						},
					);
				}
				if (attempt < maxRetries) {
					await sleep(retryDelayMs(attempt));
					continue;
				}
				throw new NodeApiError(
					this.getNode(),
					{ message: 'Not a document', code: 'NOT_A_DOCUMENT' },
					{
						message: 'Document download failed: the link answered JSON instead of a file',
						description: `after ${attempt + 1} attempt(s)`,
						httpCode: String(status),
						itemIndex,
					},
				);
			}
			return { data, contentType: type };
		}
		if (attempt < maxRetries && shouldRetryStatus(status, true)) {
			await sleep(retryDelayMs(attempt, (response.headers as IDataObject)?.['retry-after']));
			continue;
		}
		throw new NodeApiError(
			this.getNode(),
			{ message: `HTTP ${status}`, code: `HTTP_${status}` },
			{
				message: redactSecrets(`Document download failed with HTTP ${status}`, secrets),
				description: `after ${attempt + 1} attempt(s)`,
				httpCode: String(status),
				itemIndex,
			},
		);
	}
}
