/**
 * Issue 44 on n8n's own defaults: 1,000 executions waiting, their final callbacks evenly over 50 s from a sender that
 * retries 3 times 5 s apart, then the reconciler (test/scale/flush.cts). The three senders' files run at the same
 * time (`npm test`'s burst step, `npm run test:burst-defaults`), each n8n loaded by the other two.
 */
import { defaultsBurst, flushSuite } from '../flush.cjs';

flushSuite(defaultsBurst('retry3'));
