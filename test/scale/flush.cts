/**
 * A burst of final callbacks, then the reconciler (issue 44), in the real n8n app (SQLite, one main, or queue mode
 * with PostgreSQL: test/scale/flush-stack.cts; `npm start`'s settings for bursts, or n8n's own defaults): `count`
 * executions wait on Start Journey (node version 3); then every
 * journey is made final, as fast as the sandbox takes it or evenly over `spreadMs`, and the sandbox sends each final
 * callback as `sender` says (each attempt times out after 10 s). Whatever that leaves waiting, the reconciler's request
 * (`X-FinVerify-Reconcile: true` on each waiting execution's resume URL, 5 in flight, rounds at least 5 s apart, as
 * examples/reconcile-waiting-executions.json sends it) resumes. Asserted: none left waiting, none stuck `running`,
 * none resumed twice (Done at most once), every execution succeeded once with its own journey's final item. The
 * figures (before and after the reconciler, callbacks by answer, peak memory, load) are logged at the end as
 * `<name>: {…}`, also when the run fails.
 *
 * Used by test/scale/reconcile-flush.test.cts (2,000 within seconds, `npm start`'s settings) and
 * test/scale/defaults/*.test.cts (1,000 over 50 s on n8n's defaults, one file per sender, run at the same time), and
 * in queue mode by test/scale/queue-flush.test.cts (run by hand: its own jest project, queue-flush).
 */

import { log, waitFor } from '../e2e/helpers/stack.cjs';
import {
	type Delivery,
	type FlushStack,
	type Journey,
	startFlushStack,
	STATUSES,
} from './flush-stack.cjs';
import {
	loadAverage as load,
	lockTimeouts,
	resetPeaks,
	rssMb,
	sampleMemory,
	startWaitingExecutions,
} from './measure.cjs';

/**
 * How the sender retries: `never` (one attempt), `retry3` (3 retries 5 s apart), `backoff` (a real service's schedule
 * compressed: 2 s doubling up to 1 min, 12 attempts); each attempt times out after 10 s.
 */
const SENDERS = {
	never: { webhookMaxAttempts: 1 },
	retry3: { webhookMaxAttempts: 4, webhookBackoffMs: 5000, webhookMaxBackoffMs: 5000 },
	backoff: { webhookMaxAttempts: 12, webhookBackoffMs: 2000, webhookMaxBackoffMs: 60_000 },
} as const;
export type Sender = keyof typeof SENDERS;
export const SENDER_NAMES = Object.keys(SENDERS) as Sender[];

export interface FlushOptions {
	/** The stack's name (its user folder) and the figures line's label. */
	name: string;
	/** Executions waiting before the burst. */
	count: number;
	/** n8n's own defaults (no production concurrency limit, SQLite's default pool, no lazy isolates). */
	defaults: boolean;
	/**
	 * Queue mode with PostgreSQL (main, one webhook processor receiving the start webhooks and the resume URLs, two
	 * workers: test/scale/flush-stack.cts) instead of one n8n on SQLite.
	 */
	queue?: boolean;
	/** The final statuses are triggered evenly over this time (0: as fast as the sandbox takes them). */
	spreadMs: number;
	sender: Sender;
}

const IN_FLIGHT = 20;
/** Statuses unchanged this long, nothing in flight: report what is (generous: it only decides when to look). */
const QUIET_MS = 60_000;
const NODE = 'Start journey and wait';
const RECONCILE_IN_FLIGHT = 5;
const RECONCILE_ROUND_MS = 5_000;
const FINALS = ['analysis_complete', 'consent_denied', 'expired', 'failed'];

/**
 * A flush for a run by hand, as the environment says: FINVERIFY_FLUSH_LOAD executions (2,000),
 * FINVERIFY_FLUSH_SPREAD_MS (0: as fast as the sandbox takes them), FINVERIFY_SENDER (never), and n8n's own defaults
 * with FINVERIFY_N8N_SETTINGS=defaults (`npm start`'s settings otherwise).
 */
export const flushFromEnv = (name: string, queue = false): FlushOptions => ({
	name,
	count: Number(process.env.FINVERIFY_FLUSH_LOAD) || 2000,
	defaults: process.env.FINVERIFY_N8N_SETTINGS === 'defaults',
	spreadMs: Number(process.env.FINVERIFY_FLUSH_SPREAD_MS) || 0,
	sender: (process.env.FINVERIFY_SENDER ?? 'never') as Sender,
	queue,
});

/**
 * Issue 44's burst on n8n's own defaults for one sender: 1,000 executions waiting (FINVERIFY_FLUSH_LOAD for a quick
 * run), their final callbacks evenly over 50 s (test/scale/defaults/).
 */
export const defaultsBurst = (sender: Sender): FlushOptions => ({
	name: `burst-defaults-${sender}`,
	count: Number(process.env.FINVERIFY_FLUSH_LOAD) || 1000,
	defaults: true,
	spreadMs: 50_000,
	sender,
});

/** Registers the suite's beforeAll, afterAll and its one test. */
export function flushSuite(o: FlushOptions): void {
	if (!SENDER_NAMES.includes(o.sender))
		throw new Error(`the sender must be one of ${SENDER_NAMES.join(', ')} (got ${o.sender})`);
	const { count: COUNT, defaults: DEFAULTS, spreadMs: SPREAD_MS, sender: SENDER } = o;
	/** Enough rounds of 100 for every execution, twice over. */
	const MAX_ROUNDS = Math.ceil(COUNT / 100) * 2 + 2;
	jest.setTimeout(3_600_000);

	let stack: FlushStack;
	/** n8n's memory sampler, stopped in afterAll too when the test failed before it was (it would keep jest alive). */
	let memory: ReturnType<typeof sampleMemory> | undefined;
	const figures: Record<string, number | string> = {
		executions: COUNT,
		n8nSettings: DEFAULTS ? "n8n's defaults" : "npm start's",
		sender: SENDER,
		spreadMs: SPREAD_MS,
		...(o.queue ? { mode: 'queue (PostgreSQL, main, webhook processor, 2 workers)' } : {}),
	};

	const journeys = async (): Promise<Journey[]> =>
		(
			(await (await fetch(`${stack.sandbox.url}/__sandbox/journeys`)).json()) as {
				journeys: Journey[];
			}
		).journeys;

	const finalDeliveries = async () =>
		((await stack.sandbox.control.webhooks()) as unknown as Delivery[]).filter((d) =>
			FINALS.includes(d.payload.status),
		);

	/** One count per status; undefined when they do not add up to COUNT (an execution moved between two counts). */
	async function statusCounts(): Promise<Record<string, number> | undefined> {
		const counted = await stack.statusCounts();
		const now = Object.fromEntries(STATUSES.map((s) => [s, counted[s] ?? 0]));
		return Object.values(now).reduce((a, b) => a + b, 0) === COUNT ? now : undefined;
	}

	/** Waits until nothing waits, runs or is in flight, or the counts stayed the same for QUIET_MS. */
	async function settled(what: string): Promise<Record<string, number>> {
		let counts: Record<string, number> = {};
		let lastChange = Date.now();
		await waitFor(
			async () => {
				const now = await statusCounts();
				if (!now) return undefined;
				if (JSON.stringify(now) !== JSON.stringify(counts)) lastChange = Date.now();
				counts = now;
				const inFlight = (await finalDeliveries()).some((d) => d.status === 'pending');
				if (inFlight) return undefined;
				if (now.waiting + now.running + now.new === 0) return true;
				return Date.now() - lastChange > QUIET_MS ? true : undefined;
			},
			{
				timeoutMs: 1_800_000,
				intervalMs: 2000,
				what: () => `${what} (last: ${JSON.stringify(counts)})`,
			},
		);
		return counts;
	}

	beforeAll(
		async () => {
			stack = await startFlushStack({
				name: o.name,
				defaults: DEFAULTS,
				queue: o.queue ?? false,
				sandbox: { ...SENDERS[SENDER], webhookTimeoutMs: 10_000 },
			});
			await waitFor(
				async () => {
					const r = await fetch(`${stack.webhookUrl}/webhook/e2e-waiting-scale`);
					return (await r.text()).includes('POST') ? true : undefined;
				},
				{ timeoutMs: 180_000, what: 'the start webhook to be active' },
			);
		},
		o.queue ? 1_200_000 : 900_000,
	);

	afterAll(async () => {
		await memory?.stop();
		log(`${o.name}: ${JSON.stringify(figures)}`);
		await stack?.stop();
	});

	test(`${COUNT} final callbacks (sender: ${SENDER}, over ${SPREAD_MS / 1000} s): none left waiting once the reconciler has run, none resumed twice`, async () => {
		// 1. COUNT executions waiting
		const startFailures = await startWaitingExecutions(
			`${stack.webhookUrl}/webhook/e2e-waiting-scale`,
			COUNT,
			IN_FLIGHT,
		);
		expect(startFailures).toEqual([]);
		await waitFor(async () => ((await stack.waitingCount()) === COUNT ? true : undefined), {
			timeoutMs: 1_800_000,
			intervalMs: 2000,
			what: `${COUNT} executions waiting`,
		});
		const waiting = (await journeys()).filter((j) => j.webhook_url?.includes('/webhook-waiting/'));
		expect(waiting).toHaveLength(COUNT);
		const executionOf = (j: Journey) => /\/webhook-waiting\/(\d+)/.exec(j.webhook_url ?? '')?.[1];
		const resumeUrlOf = new Map(waiting.map((j) => [executionOf(j)!, j.webhook_url!]));
		expect(resumeUrlOf.size).toBe(COUNT);

		// 2. the flush: every journey final, as fast as the sandbox takes it
		const pids = stack.pids();
		if (!resetPeaks(pids)) figures.peakMemoryNote = 'peak since n8n started (could not reset)';
		figures.n8nMemoryBeforeFlushMB = rssMb(pids);
		if (o.queue) figures.n8nProcesses = pids.length;
		memory = sampleMemory(pids, stack.metricsUrl);
		figures.loadAverageAtFlush = load();
		const t1 = Date.now();
		let next = 0;
		await Promise.all(
			Array.from({ length: SPREAD_MS > 0 ? 1 : IN_FLIGHT }, async () => {
				for (let i = next++; i < waiting.length; i = next++) {
					const due = t1 + (i * SPREAD_MS) / COUNT;
					if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
					await stack.sandbox.control.advanceJourney(
						waiting[i].client_id,
						FINALS[i % FINALS.length],
					);
				}
			}),
		);
		figures.secondsToTriggerAllCallbacks = Math.round((Date.now() - t1) / 1000);

		// 3. what the flush alone did
		const before = await settled('the flush to settle');
		figures.secondsFlushSettled = Math.round((Date.now() - t1) / 1000);
		figures.beforeReconciler = JSON.stringify(before);
		const deliveries = await finalDeliveries();
		expect(deliveries).toHaveLength(COUNT);
		const attempts = deliveries.flatMap((d) => d.attempts);
		const answers = new Map<string, number>();
		for (const a of attempts) {
			const key =
				a.status === null
					? 'no answer'
					: `${a.status} ${(a.message ?? '').replace(/\d+/g, 'N').slice(0, 60)}`;
			answers.set(key, (answers.get(key) ?? 0) + 1);
		}
		figures.callbackAnswers = JSON.stringify(
			Object.fromEntries([...answers].sort((a, b) => b[1] - a[1])),
		);
		figures.callbacksFailed = deliveries.filter((d) => d.status === 'failed').length;

		// 4. the reconciler: a request on each waiting execution's resume URL, rounds at least 5 s apart
		const t2 = Date.now();
		const reconcileAnswers = new Map<string, number>();
		let rounds = 0;
		for (;;) {
			const ids = await stack.waitingIds();
			if (ids.length === 0 || rounds >= MAX_ROUNDS) break;
			rounds++;
			const roundStart = Date.now();
			let k = 0;
			await Promise.all(
				Array.from({ length: RECONCILE_IN_FLIGHT }, async () => {
					for (let i = k++; i < ids.length; i = k++) {
						const url = resumeUrlOf.get(ids[i]);
						if (!url) continue;
						const res = await fetch(url, {
							method: 'POST',
							headers: { 'x-finverify-reconcile': 'true' },
						});
						const text = await res.text();
						const key = `${res.status} ${(/"(?:reason|error)":"([a-z_]+)"/.exec(text)?.[1] ?? '').slice(0, 40)}`;
						reconcileAnswers.set(key, (reconcileAnswers.get(key) ?? 0) + 1);
					}
				}),
			);
			const wait = roundStart + RECONCILE_ROUND_MS - Date.now();
			if (wait > 0) await new Promise((r) => setTimeout(r, wait));
		}
		figures.reconcilerRounds = rounds;
		figures.reconcilerAnswers = JSON.stringify(Object.fromEntries(reconcileAnswers));
		const after = await settled('the reconciled executions to settle');
		figures.secondsReconcilerToSettled = Math.round((Date.now() - t2) / 1000);
		figures.afterReconciler = JSON.stringify(after);
		figures.loadAverageAtEnd = load();
		const peak = await memory.stop();
		figures.n8nPeakMemoryMB = peak.sumOfPeaksMb;
		if (o.queue) figures.n8nPeakMemoryAllProcessesMB = peak.sumRssMb;
		figures.lockTimeoutsInLog = lockTimeouts(stack.logFiles());

		// 5. none waiting; none resumed twice; each resumed execution has its own journey's final item
		expect(after.waiting + after.new).toBe(0);
		const twice: string[] = [];
		const notOnce: string[] = [];
		let n = 0;
		await Promise.all(
			Array.from({ length: 4 }, async () => {
				for (let i = n++; i < waiting.length; i = n++) {
					const id = executionOf(waiting[i])!;
					const { run, status } = await stack.execution(id);
					const done = run.runData.Done?.length ?? 0;
					if (done > 1) twice.push(id);
					const [item] = run.runData[NODE] ? run.json(NODE) : [];
					const once =
						status === 'success' &&
						done === 1 &&
						item?.isFinal === true &&
						item?.clientId === waiting[i].client_id;
					if (!once) notOnce.push(`${id}: ${status}`);
				}
			}),
		);
		figures.resumedExactlyOnce = COUNT - notOnce.length;
		expect(twice).toEqual([]);
		// every execution resumed exactly once, also on n8n's defaults (issue 44: the node's resume gate; before it, a
		// burst there left executions in error and stuck `running`, which no reconciler recovers)
		expect(after.running).toBe(0);
		expect(notOnce).toEqual([]);
	});
}
