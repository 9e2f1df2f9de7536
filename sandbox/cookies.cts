/**
 * Parses a `Cookie` request header. (A few lines instead of @fastify/cookie, whose ESM-only dependency
 * cannot be loaded when the sandbox runs inside Jest.)
 */
export function parseCookies(header: string | string[] | undefined): Record<string, string> {
	const cookies: Record<string, string> = {};
	for (const part of (Array.isArray(header) ? header.join(';') : (header ?? '')).split(';')) {
		const eq = part.indexOf('=');
		if (eq <= 0) continue;
		const name = part.slice(0, eq).trim();
		let value = part.slice(eq + 1).trim();
		if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
		try {
			value = decodeURIComponent(value);
		} catch {
			// keep the raw value
		}
		if (!(name in cookies)) cookies[name] = value;
	}
	return cookies;
}
