import { createHash } from 'node:crypto';
import * as http from 'node:http';

import { DONE_PREFIX } from '../../../nodes/FinVerify/actions/triggerDelivery/completion';

/** What a counted delivery's steps call: per delivery id, how many times each step ran. */
export interface StepCalls {
	step: Map<string, number>;
	done: Map<string, number>;
}

/**
 * The test's counter on 127.0.0.1 (a free port): the workflow's Step and Done nodes POST `{ id, key }` to `/step` and
 * `/done`; each call is counted per delivery id in `calls`, and `keyOf` learns each delivery's deliveryKey.
 */
export async function startDeliveryCounter(
	calls: StepCalls,
	keyOf: Map<string, string>,
): Promise<http.Server> {
	const counter = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			const { id, key } = JSON.parse(body || '{}') as { id?: string; key?: string };
			const which = req.url === '/step' ? calls.step : calls.done;
			if (id) which.set(id, (which.get(id) ?? 0) + 1);
			if (id && key) keyOf.set(id, key);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"ok":true}');
		});
	});
	await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
	return counter;
}

/** How n8n's processed_data row stores Mark Processed's done mark of a delivery key (an MD5, base64). */
export const doneMarkHash = (key: string) =>
	createHash('md5').update(`${DONE_PREFIX}${key}`).digest('base64');
