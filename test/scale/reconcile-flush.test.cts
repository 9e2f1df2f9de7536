/**
 * A flush of final callbacks from a sender that never retries, then the reconciler (issue 44; test/scale/flush.cts):
 * 2,000 executions waiting, every journey made final as fast as the sandbox takes it (the issue: within 5 s), one
 * attempt per callback, on `npm start`'s settings. The environment changes it, for a run by hand:
 * FINVERIFY_FLUSH_LOAD (executions), FINVERIFY_FLUSH_SPREAD_MS (spread the callbacks), FINVERIFY_SENDER (never,
 * retry3, backoff), FINVERIFY_N8N_SETTINGS=defaults (n8n's own defaults). Heavy: `npm run test:scale`.
 */
import { flushSuite, type Sender } from './flush.cjs';

flushSuite({
	name: 'reconcile-flush',
	count: Number(process.env.FINVERIFY_FLUSH_LOAD) || 2000,
	defaults: process.env.FINVERIFY_N8N_SETTINGS === 'defaults',
	spreadMs: Number(process.env.FINVERIFY_FLUSH_SPREAD_MS) || 0,
	sender: (process.env.FINVERIFY_SENDER ?? 'never') as Sender,
});
