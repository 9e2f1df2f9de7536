import { ApiError } from './errors.cjs';
import type { Operation } from './openapi.cjs';

export interface ApiKey {
	key: string;
	secret: string;
	permissions: string[];
	/** Expired credentials are known but rejected with 401 (to exercise that case). */
	expired?: boolean;
}

export const ALL_PERMISSIONS = [
	'MULTI_BUREAU',
	'COMMERCIAL_REPORT',
	'CORPORATE_CIN',
	'CORPORATE_LLPIN',
	'CORPORATE_PAN',
	'COMPANY_AUTOCOMPLETE',
	'EPFO_COMBINED',
	'EPFO_CRIF_COMBINED',
	'ITR_ANALYZER',
	'AA_BSA_JOURNEY',
	'COLLECTION_SESSION',
];

export const DEFAULT_CREDENTIALS = {
	key: 'sandbox-key',
	secret: 'sandbox-secret',
	refreshToken: 'sandbox-refresh-token',
	webhookSecret: 'sandbox-webhook-secret',
};

export const BUILT_IN_KEYS: ApiKey[] = [
	{
		key: DEFAULT_CREDENTIALS.key,
		secret: DEFAULT_CREDENTIALS.secret,
		permissions: ALL_PERMISSIONS,
	},
	{
		key: 'corporate-only-key',
		secret: 'corporate-only-secret',
		permissions: ['CORPORATE_CIN', 'CORPORATE_LLPIN', 'CORPORATE_PAN', 'COMPANY_AUTOCOMPLETE'],
	},
	{ key: 'expired-key', secret: 'expired-secret', permissions: ALL_PERMISSIONS, expired: true },
];

/** Refresh token the sandbox treats as expired (collection session create answers 401). */
export const EXPIRED_REFRESH_TOKEN = 'expired-refresh-token';

/** Parses `SANDBOX_KEYS` / `POST /__sandbox/keys` input; throws a readable error for bad entries. */
export function parseKeys(input: unknown): ApiKey[] {
	const list = Array.isArray(input) ? input : [input];
	return list.map((entry, i) => {
		const k = entry as Partial<ApiKey>;
		if (
			!k ||
			typeof k.key !== 'string' ||
			typeof k.secret !== 'string' ||
			!Array.isArray(k.permissions) ||
			!k.permissions.every((p) => typeof p === 'string')
		) {
			throw new Error(
				`key #${i + 1} must be {"key": string, "secret": string, "permissions": string[]}`,
			);
		}
		return {
			key: k.key,
			secret: k.secret,
			permissions: k.permissions,
			expired: k.expired === true,
		};
	});
}

export class KeyStore {
	private keys = new Map<string, ApiKey>();

	constructor(
		private readonly initial: ApiKey[],
		readonly refreshToken: string,
	) {
		this.reset();
	}

	add(keys: ApiKey[]): void {
		for (const k of keys) this.keys.set(k.key, k);
	}

	/** Back to the built-in keys and those given at start-up (`SANDBOX_KEYS`, options). */
	reset(): void {
		this.keys = new Map();
		this.add(BUILT_IN_KEYS);
		this.add(this.initial);
	}

	list(): Array<Omit<ApiKey, 'secret'>> {
		return [...this.keys.values()].map(({ secret: _secret, ...rest }) => rest);
	}

	/**
	 * Checks the credentials of a request for an operation; throws 401 (missing, wrong or expired
	 * credentials or refresh token) or 403 (permission missing).
	 */
	authorize(
		op: Operation,
		headers: Record<string, string | string[] | undefined>,
		cookies: Record<string, string | undefined>,
	): ApiKey {
		const key = single(headers['x-api-key']);
		const secret = single(headers['x-api-secret']);
		if (!key || !secret)
			throw new ApiError(
				401,
				'UNAUTHORIZED',
				'Missing API credentials: send the X-API-KEY and X-API-SECRET headers',
			);
		const known = this.keys.get(key);
		if (!known || known.secret !== secret)
			throw new ApiError(401, 'UNAUTHORIZED', 'Invalid API key or secret');
		if (known.expired) throw new ApiError(401, 'UNAUTHORIZED', 'API credentials have expired');
		if (op.needsRefreshToken) {
			const token = cookies.refresh_token;
			if (!token)
				throw new ApiError(
					401,
					'UNAUTHORIZED',
					'Missing refresh token: send the refresh_token cookie',
				);
			if (token === EXPIRED_REFRESH_TOKEN)
				throw new ApiError(401, 'UNAUTHORIZED', 'Refresh token has expired');
			if (token !== this.refreshToken)
				throw new ApiError(401, 'UNAUTHORIZED', 'Invalid refresh token');
		}
		if (!known.permissions.includes(op.permission)) {
			throw new ApiError(
				403,
				'PERMISSION_DENIED',
				`This API key does not have the ${op.permission} permission`,
			);
		}
		return known;
	}
}

const single = (value: string | string[] | undefined): string | undefined =>
	(Array.isArray(value) ? value[0] : value)?.trim() || undefined;
