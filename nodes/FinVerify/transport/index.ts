import type {
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

import { SANDBOX_BASE_URL } from '../../../credentials/FinVerifyApi.credentials';
import { isErrorEnvelope, parseApiError, redactDeep, redactSecrets } from './errors';
import { retryDelayMs, shouldRetryNetworkError, shouldRetryStatus } from './retry';

export const CREDENTIAL_TYPE = 'finVerifyApi';
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
}

export interface ApiRequestOptions extends RequestPolicy {
	method: IHttpRequestMethods;
	/** Path below /api/v1/services/, e.g. "corporate/cin-lookup". */
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
	/**
	 * False for creates (journey init, ITR analysis start, session create, password reset): they are
	 * only re-sent when the server proved it did not act (429, 503, connection refused).
	 */
	idempotent?: boolean;
	/** Adds the credential's refresh token as the `refresh_token` cookie (collection sessions only). */
	sendRefreshToken?: boolean;
	/** Extra request headers (never auth headers: the credential adds those). */
	headers?: IDataObject;
}

const secretsOf = (c: FinVerifyCredentials) => [
	c.apiKey,
	c.apiSecret,
	c.refreshToken,
	c.webhookSecret,
];

/** The base address of the credential's environment, without a trailing slash or API prefix. */
export function resolveBaseUrl(credentials: FinVerifyCredentials): string | undefined {
	const raw =
		credentials.environment === 'sandbox'
			? credentials.sandboxUrl || SANDBOX_BASE_URL
			: (credentials.baseUrl ?? '');
	const trimmed = raw
		.trim()
		.replace(/\/+$/, '')
		.replace(/\/api\/v1\/services$/, '');
	try {
		const url = new URL(trimmed);
		if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
	} catch {
		return undefined;
	}
	return trimmed;
}

async function loadCredentials(this: FinVerifyContext, itemIndex?: number) {
	const credentials = (await this.getCredentials(
		CREDENTIAL_TYPE,
		itemIndex,
	)) as FinVerifyCredentials;
	const baseUrl = resolveBaseUrl(credentials);
	if (!baseUrl) {
		throw new NodeOperationError(this.getNode(), 'The FinVerify credential has no valid Base URL', {
			itemIndex,
			description:
				'Open the credential and enter the http(s) address of the service, e.g. https://api.example.com',
		});
	}
	return { credentials, baseUrl };
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

/** Bodies are JSON objects; a bare array or scalar is wrapped so callers always get an object. */
function asResponseObject(parsed: unknown): IDataObject {
	if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
		return parsed as IDataObject;
	return { data: parsed as IDataObject[] };
}

/**
 * The one way node code talks to the service. Owns base URL joining, JSON bodies, timeouts, retries
 * (429/5xx/network, exponential backoff with jitter, Retry-After honoured), error normalisation into
 * NodeApiError, and keeping every secret out of errors.
 */
export async function apiRequest(
	this: FinVerifyContext,
	options: ApiRequestOptions,
): Promise<IDataObject> {
	const { itemIndex } = options;
	const { credentials, baseUrl } = await loadCredentials.call(this, itemIndex);
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
						'Collection Session operations need the refresh token of your account. Add it to the credential.',
				},
			);
		}
		headers.Cookie = `refresh_token=${credentials.refreshToken}`;
	}

	const request: IHttpRequestOptions = {
		method: options.method,
		url: `${baseUrl}${API_PREFIX}${options.path.replace(/^\/+/, '')}`,
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
		// NodeApiError replaces the message of well-known network codes with a generic text; ours is exact
		error.message = redactSecrets(message, secrets);
		return error;
	};

	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const code = errorCodeOf(error);
			if (attempt < maxRetries && shouldRetryNetworkError(code, idempotent)) {
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

		const status = response.statusCode;
		const { parsed, malformed } = parseBody(response.body);
		const ok = status >= 200 && status < 300;
		if (ok && !malformed && !isErrorEnvelope(parsed)) return asResponseObject(parsed);

		if (!ok && attempt < maxRetries && shouldRetryStatus(status, idempotent)) {
			await sleep(retryDelayMs(attempt, response.headers?.['retry-after']));
			continue;
		}

		if (ok && malformed) {
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
			details.join(' · '),
			String(status),
		);
	}
}

/**
 * Downloads a document link from a response (report PDF, statement PDF). The credential's headers are
 * only sent when the link points at the credential's own host; pre-signed links elsewhere get none.
 */
export async function downloadDocument(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
	policy: RequestPolicy = {},
): Promise<{ data: Buffer; contentType?: string }> {
	const { credentials, baseUrl } = await loadCredentials.call(this, itemIndex);
	const sameHost = (() => {
		try {
			return new URL(url).origin === new URL(baseUrl).origin;
		} catch {
			return false;
		}
	})();
	if (!/^https?:\/\//i.test(url)) {
		throw new NodeOperationError(
			this.getNode(),
			'The document link in the response is not an http(s) URL',
			{
				itemIndex,
			},
		);
	}
	const request: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'arraybuffer',
		timeout: policy.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	const secrets = secretsOf(credentials);
	let response: IN8nHttpFullResponse;
	try {
		response = (await (sameHost
			? this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request)
			: // a pre-signed link on another host must not see the credential's headers
				this.helpers.httpRequest(request))) as IN8nHttpFullResponse;
	} catch (error) {
		const message = describeNetworkError(
			errorCodeOf(error),
			policy.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		);
		throw new NodeApiError(
			this.getNode(),
			{ message },
			{ message: `Document download failed: ${message}`, itemIndex },
		);
	}
	if (response.statusCode < 200 || response.statusCode >= 300) {
		throw new NodeApiError(
			this.getNode(),
			{ message: `HTTP ${response.statusCode}` },
			{
				message: redactSecrets(
					`Document download failed with HTTP ${response.statusCode}`,
					secrets,
				),
				httpCode: String(response.statusCode),
				itemIndex,
			},
		);
	}
	const contentType = response.headers?.['content-type'];
	return {
		data: Buffer.from(response.body as ArrayBuffer),
		contentType: typeof contentType === 'string' ? contentType.split(';')[0] : undefined,
	};
}
