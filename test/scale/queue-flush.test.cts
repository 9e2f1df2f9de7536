/**
 * The flush of test/scale/reconcile-flush.test.cts in queue mode with PostgreSQL (test/scale/flush.cts, its stack
 * test/scale/flush-stack.cts: main, one webhook processor receiving the start webhooks and the resume URLs, two
 * workers, as `npm run start:queue` runs it): 2,000 executions waiting, every journey made final as fast as the
 * sandbox takes it, then the reconciler. The environment changes it: FINVERIFY_FLUSH_LOAD (executions),
 * FINVERIFY_FLUSH_SPREAD_MS (spread the callbacks), FINVERIFY_SENDER (never, retry3, backoff),
 * FINVERIFY_N8N_SETTINGS=defaults (n8n's own defaults). Heavy, and in no step of `npm test`: its own jest project,
 * run by hand with `npx jest --selectProjects queue-flush`.
 */
import { flushSuite, type Sender } from './flush.cjs';

flushSuite({
	name: 'queue-flush',
	count: Number(process.env.FINVERIFY_FLUSH_LOAD) || 2000,
	defaults: process.env.FINVERIFY_N8N_SETTINGS === 'defaults',
	spreadMs: Number(process.env.FINVERIFY_FLUSH_SPREAD_MS) || 0,
	sender: (process.env.FINVERIFY_SENDER ?? 'never') as Sender,
	queue: true,
});
