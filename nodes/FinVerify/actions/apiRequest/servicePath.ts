import { API_PREFIX } from '../../transport';

/**
 * Checks a path typed for the API Request operation and returns it relative to /api/v1/services/.
 * Accepted: `corporate/cin-lookup`, `/corporate/cin-lookup`,
 * `/api/v1/services/corporate/cin-lookup`. Rejected: absolute URLs or any scheme, protocol-relative
 * `//host`, `.`/`..` segments (also percent-encoded), empty segments, query strings or fragments,
 * backslashes, spaces and other characters outside letters, digits and `- _ . ~`. Pure; returns the
 * reason on failure.
 */
export function normalizeServicePath(input: unknown): { path: string } | { error: string } {
	const raw = typeof input === 'string' ? input.trim() : '';
	if (raw === '') return { error: 'a path such as corporate/cin-lookup' };
	if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) {
		return {
			error: 'a path relative to /api/v1/services/, not a full URL (the credential sets the host)',
		};
	}
	if (/[?#]/.test(raw))
		return { error: 'a path without ? or #; put query parameters in "Query Parameters"' };
	if (/[\\\s]/.test(raw)) return { error: 'a path without spaces or backslashes' };
	let path = raw.replace(/^\/+/, '');
	const prefix = API_PREFIX.replace(/^\/+/, '');
	if (path.startsWith(prefix)) path = path.slice(prefix.length);
	if (path === '') return { error: 'a path below /api/v1/services/, such as corporate/cin-lookup' };
	const segments = path.replace(/\/$/, '').split('/');
	for (const segment of segments) {
		if (segment === '') return { error: 'a path without empty segments (//)' };
		let decoded: string;
		try {
			decoded = decodeURIComponent(segment);
		} catch {
			return { error: 'a path with valid percent-encoding' };
		}
		if (decoded === '.' || decoded === '..' || decoded.includes('/') || decoded.includes('\\')) {
			return { error: 'a path without . or .. segments (it must stay below /api/v1/services/)' };
		}
		if (!/^[A-Za-z0-9._~-]+$/.test(segment)) {
			return { error: 'a path made of letters, digits and - _ . ~ separated by /' };
		}
	}
	return { path: segments.join('/') };
}
