import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../../shared/values';

/**
 * Secret redaction: nothing the node outputs, throws or logs repeats the API key, secret, refresh
 * token, webhook secret or a portal password. Used by the transport (errors and their response
 * bodies) and by the operations that send a password.
 */

/** Secrets shorter than this are redacted where they stand alone, not inside longer words. */
const SHORT_SECRET = 4;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces every occurrence of the given secrets in a text (empty ones are skipped). A secret of 4
 * characters or more is replaced wherever it occurs; a shorter one wherever it stands alone, with no
 * letter or digit right before or after it (`key ab rejected`, `"ab"`, `key=ab;`), so that a 2-letter
 * secret does not cut every word that contains those letters.
 */
export function redactSecrets(value: string, secrets: Array<string | undefined>): string {
	let out = value;
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret === '') continue;
		out =
			secret.length >= SHORT_SECRET
				? out.split(secret).join('[redacted]')
				: out.replace(
						new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`, 'g'),
						'[redacted]',
					);
	}
	return out;
}

/** Deep copy of a JSON value with every secret redacted from its strings. */
export function redactDeep<T>(value: T, secrets: Array<string | undefined>): T {
	if (typeof value === 'string') return redactSecrets(value, secrets) as T;
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets)) as T;
	if (isObject(value)) {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secrets);
		return out as T;
	}
	return value;
}

const PASSWORD_FIELD = /pass(word)?|pwd/i;

/**
 * Deep copy of an answer to a request that carried a password, with that password removed by field,
 * not by value: every value under a password-like key becomes "[redacted]" (whatever its length),
 * and a password of 6+ characters embedded in a longer text is cut out. A field whose whole value
 * merely equals the password (a status "processing" when the password is "processing") is left
 * alone.
 */
export function redactPassword<T>(value: T, password: string, key?: string): T {
	if (key !== undefined && PASSWORD_FIELD.test(key) && value !== null && value !== undefined)
		return '[redacted]' as T;
	if (typeof value === 'string') {
		if (password.length >= 6 && value !== password && value.includes(password))
			return value.split(password).join('[redacted]') as T;
		return value;
	}
	if (Array.isArray(value)) return value.map((v) => redactPassword(v, password)) as T;
	if (isObject(value)) {
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value)) out[k] = redactPassword(v, password, k);
		return out as T;
	}
	return value;
}
