/**
 * A flush of final callbacks from a sender that never retries, then the reconciler (issue 44; test/scale/flush.cts):
 * 2,000 executions waiting, every journey made final as fast as the sandbox takes it (the issue: within 5 s), one
 * attempt per callback, on `npm start`'s settings. The environment changes it for a run by hand (flushFromEnv).
 * Heavy: `npm test`'s burst step, alone `npx jest test/scale/reconcile-flush.test.cts --selectProjects burst`.
 */
import { flushFromEnv, flushSuite } from './flush.cjs';

flushSuite(flushFromEnv('reconcile-flush'));
