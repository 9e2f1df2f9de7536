/**
 * The webhook signing secret of a published trigger, kept in memory between deliveries.
 *
 * Reading the credential costs n8n a database read, a decryption and an expression-engine round trip on
 * every call: more than the rest of a delivery. So a secret read for a trigger is reused for at most
 * SECRET_REUSE_MS; a delivery whose signature does not match the remembered secret reads the credential
 * again before it is refused, so a changed secret is picked up at once. The one consequence: for at most
 * SECRET_REUSE_MS after the secret is changed in n8n, deliveries signed with the old one are still accepted
 * (docs/trigger.md says so).
 */

/** How long a secret read from the credential is reused, in milliseconds. */
export const SECRET_REUSE_MS = 60_000;

/** Most triggers remembered per n8n process (oldest forgotten first). */
const MAX_REMEMBERED = 1_000;

const remembered = new Map<string, { secret: string; readAtMs: number }>();

/** The secret read for `scope` (workflow, node and credential) less than `maxAgeMs` ago, if any. */
export function rememberedSecret(
	scope: string,
	nowMs: number,
	maxAgeMs = SECRET_REUSE_MS,
): string | undefined {
	const entry = remembered.get(scope);
	if (!entry) return undefined;
	if (nowMs - entry.readAtMs >= maxAgeMs || nowMs < entry.readAtMs) {
		remembered.delete(scope);
		return undefined;
	}
	return entry.secret;
}

/** Remembers the secret just read for `scope`. */
export function rememberSecret(scope: string, secret: string, nowMs: number): void {
	remembered.delete(scope);
	remembered.set(scope, { secret, readAtMs: nowMs });
	while (remembered.size > MAX_REMEMBERED) {
		const oldest = remembered.keys().next().value as string;
		remembered.delete(oldest);
	}
}

/** Forgets the secrets of every scope starting with `prefix` (the trigger was unpublished). */
export function forgetSecrets(prefix: string): void {
	for (const scope of [...remembered.keys()])
		if (scope.startsWith(prefix)) remembered.delete(scope);
}
