import { SANDBOX_BASE_URL } from './constants';

/**
 * The credential's Base URL, parsed and checked once before anything is sent: the API key, secret
 * and refresh token go to this address, so a value that could send them elsewhere (user:pass@, a
 * line break, a backslash) or to a wrong path (?query, #fragment, a path) is refused with the
 * reason, never "repaired".
 *
 * The documented form is the service's address alone: scheme, host and optional port (every path of
 * the contract, openapi/finverify.openapi.yaml, begins with /api/v1/services/ right after it), or
 * that address followed by exactly /api/v1/services, which is dropped. Any other path is refused: a
 * typo of the API prefix (/api, /api/v1.0/services, /api//v1/services, /v1/services, an encoded
 * slash) sends every call to a wrong path on the right host, and a prefix such as /finverify cannot
 * be told from the service by the credential's Test (a host answers any unknown path with "not
 * found", the very answer Test expects).
 *
 * The node's transport uses `checkBaseUrl`; the credential's Test uses `BASE_URL_TEST_EXPRESSION`,
 * built from the same patterns, and is checked against it input by input
 * (test/integration/credential.test.cts).
 */

/**
 * Anything but printable ASCII without the backslash: spaces, control characters (CR, LF, tab, NUL…),
 * DEL, backslashes and non-ASCII letters.
 */
const FORBIDDEN_CHARACTER = /[^!-[\]-~]/;
/** A scheme the user typed ("ftp://…", "https://…"). */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** scheme, authority, path, ?query, #fragment */
const PARTS = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;
/** A host name, IPv4 or [IPv6] address, and an optional port: no user name or password. */
const HOST_AND_PORT =
	/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:[0-9]{1,5})?$/i;
const PORT = /:([0-9]{1,5})$/;
/** The API prefix the transport adds: accepted (and dropped) as the whole path of the Base URL. */
const API_PREFIX_PATH = /^\/api\/v1\/services$/i;
const API_PREFIX_AT_END = /\/api\/v1\/services$/i;
/**
 * A path that looks like (a part of) the API prefix: a segment api, v1, v1.0 or service(s), an empty
 * segment (//) or a percent-encoded character (%2F).
 */
const API_PREFIX_TYPO = /(^|\/)(api|v[0-9]+([._][0-9]+)*|services?)(\/|$)|\/\/|%/i;
const TRAILING_SLASHES = /\/+$/;
/** The form the Base URL field expects, as the node's error names it after the problem. */
export const BASE_URL_EXPECTED =
	'Base URL: expected the service address alone, https:// (or http://), the host and an optional ' +
	'port, e.g. https://api.example.com';

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; problem: string };

/** The credential field that holds the address, named as the credential form shows it. */
export type BaseUrlField = 'Base URL' | 'Simulator URL';

/** Which field of the form holds the address: the Simulator URL for the Local Simulator environment. */
export function baseUrlFieldOf(credentials: { environment?: string }): BaseUrlField {
	return credentials.environment === 'sandbox' ? 'Simulator URL' : 'Base URL';
}

/** The address the credential points at: the simulator's for the Local Simulator environment. */
export function baseUrlOfCredential(credentials: {
	environment?: string;
	baseUrl?: string;
	sandboxUrl?: string;
}): string {
	return credentials.environment === 'sandbox'
		? credentials.sandboxUrl || SANDBOX_BASE_URL
		: (credentials.baseUrl ?? '');
}

/**
 * `https://api.example.com[:port]` (a trailing slash, or the API prefix /api/v1/services, dropped),
 * or the reason the value cannot be used, naming the field as the form does. Without a scheme,
 * https:// is assumed.
 */
export function checkBaseUrl(raw: unknown, field: BaseUrlField = 'Base URL'): BaseUrlCheck {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const refuse = (problem: string): BaseUrlCheck => ({ ok: false, problem });
	if (text === '') return refuse(`The ${field} is empty.`);
	if (FORBIDDEN_CHARACTER.test(text))
		return refuse(
			`The ${field} contains a space, line break, tab, other control character, backslash or ` +
				'non-ASCII character (write an international host name in its xn-- form).',
		);
	const parts = PARTS.exec(HAS_SCHEME.test(text) ? text : `https://${text}`);
	if (!parts) return refuse(`The ${field} is not an address like https://api.example.com.`);
	const [, scheme, authority, rawPath, query, fragment] = parts;
	if (!/^https?$/i.test(scheme))
		return refuse(`The ${field} must start with https:// or http:// (got ${scheme}://).`);
	if (authority.includes('@'))
		return refuse(
			`The ${field} must not contain a user name or password (user:pass@). The API key and secret ` +
				'go in their own fields.',
		);
	if (query !== undefined) return refuse(`The ${field} must not contain a query (?…).`);
	if (fragment !== undefined) return refuse(`The ${field} must not contain a fragment (#…).`);
	const port = PORT.exec(authority);
	if (!HOST_AND_PORT.test(authority) || (port && Number(port[1]) > 65535))
		return refuse(`The host of the ${field} is not valid (got ${authority || 'nothing'}).`);
	const path = rawPath.replace(TRAILING_SLASHES, '');
	if (path !== '' && !API_PREFIX_PATH.test(path)) {
		const before = path.replace(API_PREFIX_AT_END, '');
		const shown = path.length > 60 ? `${path.slice(0, 60)}…` : path;
		return refuse(
			// a path before a well-typed prefix (/gateway/api/v1/services) is a path, not a typo; a
			// slash (//api/v1/services) is a typo
			/^\/*$/.test(before) || API_PREFIX_TYPO.test(before)
				? `The ${field} has a mistyped API prefix (${shown}): the node adds /api/v1/services ` +
						'itself (pasted exactly, /api/v1/services is also accepted).'
				: `The ${field} has a path (${shown}): the service has none before /api/v1/services.`,
		);
	}
	return { ok: true, url: `${scheme.toLowerCase()}://${authority}` };
}

const source = (pattern: RegExp) => `/${pattern.source}/${pattern.flags}`;

/**
 * `checkBaseUrl` for the credential's Test request, as an n8n expression over `$credentials`: the
 * same patterns in the same order, giving the checked address or an empty one. With an empty base
 * address the Test sends nothing and n8n reports ERR_INVALID_URL.
 */
export const BASE_URL_TEST_EXPRESSION =
	'={{ (raw => { ' +
	'const t = String(raw || "").trim(); ' +
	`if (!t || ${source(FORBIDDEN_CHARACTER)}.test(t)) return ""; ` +
	`const p = ${source(PARTS)}.exec(${source(HAS_SCHEME)}.test(t) ? t : "https://" + t); ` +
	'if (!p || !/^https?$/i.test(p[1]) || p[4] !== undefined || p[5] !== undefined) return ""; ' +
	`const port = ${source(PORT)}.exec(p[2]); ` +
	`if (!${source(HOST_AND_PORT)}.test(p[2]) || (port && Number(port[1]) > 65535)) return ""; ` +
	`const path = p[3].replace(${source(TRAILING_SLASHES)}, ""); ` +
	`if (path !== "" && !${source(API_PREFIX_PATH)}.test(path)) return ""; ` +
	'return p[1].toLowerCase() + "://" + p[2]; ' +
	'})($credentials.environment === "sandbox" ? ($credentials.sandboxUrl || "' +
	SANDBOX_BASE_URL +
	'") : $credentials.baseUrl) }}';
