import type { IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import type { VerificationResult } from './signature';

/**
 * The webhook signing secret of the credential, kept in memory between calls of a webhook (the FinVerify
 * Trigger's deliveries, and the status callbacks of a waiting FinVerify node).
 *
 * Reading the credential costs n8n a database read, a decryption and a fresh expression-engine isolate on
 * every call: more than the rest of a delivery. So a secret read for a node is reused for at most
 * SECRET_REUSE_MS; a call whose signature does not match the remembered secret reads the credential again
 * before it is refused, so a changed secret is picked up at once. The one consequence: for at most
 * SECRET_REUSE_MS after the secret is changed in n8n, calls signed with the old one are still accepted
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

/** Where the secret of this node's credential is kept: workflow, node and credential. */
export function secretScope(this: IWebhookFunctions): string {
	const credentialId = this.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? '';
	return `${this.getWorkflow().id}:${this.getNode().id}:${credentialId}`;
}

/**
 * The Webhook Signing Secret of the node's credential: the one read less than SECRET_REUSE_MS ago, or read
 * now (`fresh`, or none remembered). Empty when the credential has none; `remembered` says whether it came
 * from memory (then a mismatch is worth a fresh read).
 */
export async function signingSecret(
	this: IWebhookFunctions,
	nowMs: number,
	fresh = false,
): Promise<{ secret: string; remembered: boolean }> {
	const scope = secretScope.call(this);
	const known = fresh ? undefined : rememberedSecret(scope, nowMs);
	if (known) return { secret: known, remembered: true };
	const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as { webhookSecret?: unknown };
	const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	if (secret) rememberSecret(scope, secret, nowMs);
	return { secret, remembered: false };
}

/** signingSecret(), refusing a credential without a secret. */
export async function requiredSigningSecret(
	this: IWebhookFunctions,
	nowMs: number,
	fresh = false,
): Promise<{ secret: string; remembered: boolean }> {
	const result = await signingSecret.call(this, nowMs, fresh);
	if (!result.secret) {
		throw new NodeOperationError(
			this.getNode(),
			'The FinVerify credential has no Webhook Signing Secret',
		);
	}
	return result;
}

/**
 * A signed call checked with the credential's signing secret (`read`: signingSecret or
 * requiredSigningSecret): the remembered secret first; a signature that does not match it is checked
 * again with the secret read afresh (it may have been changed in n8n) before it is refused.
 */
export async function verifyWithSigningSecret(
	this: IWebhookFunctions,
	nowMs: number,
	check: (secret: string) => VerificationResult,
	read: typeof signingSecret = signingSecret,
): Promise<VerificationResult> {
	const known = await read.call(this, nowMs);
	const result = check(known.secret);
	if (result.valid || result.reason !== 'signature_mismatch' || !known.remembered) return result;
	return check((await read.call(this, nowMs, true)).secret);
}
