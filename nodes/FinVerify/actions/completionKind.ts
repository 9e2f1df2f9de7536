import type { CompletionKind } from '../completion/waiting';
import type { Operation } from './operation';
import { registry } from './router';

/**
 * What a waiting FinVerify node waits for (a journey's or a session's callbacks), read from its
 * operation's own `completion` declaration; undefined for an operation that never waits for
 * callbacks. The resume URL's `webhook()` (completion/webhook.ts, a floor below the operations) is
 * handed this lookup by the node.
 */
export function completionKindOf(resource: string, operation: string): CompletionKind | undefined {
	const operations = registry[resource as keyof typeof registry] as
		| Record<string, Operation>
		| undefined;
	return operations?.[operation]?.completion?.kind;
}
