import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * An answer that succeeded but carries none of the facts that say whom it is about (`{}`,
 * `data: null`, an unrelated body) is an error naming what is missing, never an all-unknown
 * result. `lacks` comes from the operation's pure check (for example creditAnswerLacks): empty
 * when the answer identifies its subject.
 */
export function assertAnswerIdentifies(
	node: INode,
	itemIndex: number,
	lacks: string[],
	subject: string,
): void {
	if (lacks.length === 0) return;
	const list = lacks.join(', ');
	throw new NodeApiError(
		node,
		{ message: `Answer without ${list}`, code: 'INCOMPLETE_ANSWER', missing: lacks },
		{
			message: `The service answered without any of: ${list}`,
			description:
				`Code: INCOMPLETE_ANSWER. The request succeeded, but the answer does not say which ${subject} ` +
				'it is about, so no result was output. Run it again; if it persists, look at the answer with ' +
				'Output: Raw in a test workflow and contact FinVerify support.',
			itemIndex,
		},
	);
}
