/**
 * The flush of test/scale/reconcile-flush.test.cts in queue mode with PostgreSQL (test/scale/flush.cts, its stack
 * test/scale/flush-stack.cts: main, one webhook processor receiving the start webhooks and the resume URLs, two
 * workers, as `npm run start:queue` runs it): 2,000 executions waiting, every journey made final as fast as the
 * sandbox takes it, then the reconciler. The environment changes it as for reconcile-flush (flushFromEnv). Heavy, and
 * in no step of `npm test`: its own jest project, run by hand with `npx jest --selectProjects queue-flush`.
 */
import { flushFromEnv, flushSuite } from './flush.cjs';

flushSuite(flushFromEnv('queue-flush', true));
