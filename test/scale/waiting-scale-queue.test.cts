/**
 * The same burst as waiting-scale.test.cts on n8n's queue mode with PostgreSQL, as `npm run start:queue` runs it
 * (test/e2e/helpers/queue.cts: main, one webhook processor receiving the start webhooks and the resume URLs, two
 * workers with concurrency 10, PostgreSQL 15, Redis). FINVERIFY_WAITING_LOAD (1,000) executions wait on Start
 * Journey (Wait for Completion: Until the Service Calls Back); then the sandbox sends each journey's final callback,
 * all of them triggered within 50 s, retrying like a real service (compressed: 2 s doubling up to 1 min, 12
 * attempts, 10 s timeout). Asserted, from PostgreSQL: every execution succeeded, each resumed once with its own
 * journey's final status (COUNT distinct journeys, Done ran once in each), none in error, stuck `running` or still
 * waiting; every callback delivered. The figures (time from the first callback until all resumed, the memory of all
 * n8n processes summed, attempts by answer, load average) are printed at the end, also when the run fails.
 */
import { QueueStack } from '../e2e/helpers/queue.cjs';
import { log, waitFor } from '../e2e/helpers/stack.cjs';
import {
	type Delivery,
	type Journey,
	queueScaleWorkflow,
	SCALE_WORKFLOW_ID,
} from './flush-stack.cjs';
import {
	loadAverage,
	resetPeaks,
	sampleMemory,
	startWaitingExecutions,
	treePids,
} from './measure.cjs';

const COUNT = Number(process.env.FINVERIFY_WAITING_LOAD) || 1000;
const SPREAD_MS = 50_000;
const IN_FLIGHT = 20;
/** As in waiting-scale.test.cts: only decides when to stop waiting and report. */
const QUIET_MS = 180_000;
const NODE = 'Start journey and wait';
const WORKFLOW_ID = SCALE_WORKFLOW_ID;
jest.setTimeout(3_600_000);

let stack: QueueStack;
const figures: Record<string, number | string> = { executions: COUNT };

beforeAll(async () => {
	stack = await QueueStack.create({
		name: 'waiting-scale-queue',
		stepMs: 3_600_000, // journeys move only when the test says so
		sandbox: { webhookBackoffMs: 2000, webhookMaxBackoffMs: 60_000, webhookMaxAttempts: 12 },
		extra: [queueScaleWorkflow],
		publish: [WORKFLOW_ID],
	});
	await stack.start(2);
	await waitFor(
		async () => {
			const r = await fetch(`${stack.webhookUrl}/webhook/e2e-waiting-scale`);
			return (await r.text()).includes('POST') ? true : undefined;
		},
		{ timeoutMs: 180_000, what: 'the start webhook to be active on the webhook processor' },
	);
}, 1_200_000);

afterAll(async () => {
	log(`waiting at scale, queue mode: ${JSON.stringify(figures)}`);
	await stack?.stop();
});

test(`queue mode with PostgreSQL: ${COUNT} waiting journeys, their final callbacks within a minute: every execution resumes exactly once`, async () => {
	const count = async () => {
		const rows = await stack.executions(WORKFLOW_ID);
		const by: Record<string, number> = {};
		for (const r of rows) by[r.status] = (by[r.status] ?? 0) + 1;
		return { total: rows.length, by };
	};
	// 1. COUNT executions put to wait, started through the webhook processor
	const startUrl = `${stack.webhookUrl}/webhook/e2e-waiting-scale`;
	const t0 = Date.now();
	const startFailures = await startWaitingExecutions(startUrl, COUNT, IN_FLIGHT);
	expect(startFailures).toEqual([]);
	await waitFor(async () => ((await count()).by.waiting === COUNT ? true : undefined), {
		timeoutMs: 1_800_000,
		intervalMs: 2000,
		what: `${COUNT} executions waiting`,
	});
	figures.secondsToAllWaiting = Math.round((Date.now() - t0) / 1000);
	const journeys = (
		(await (await fetch(`${stack.sandbox.url}/__sandbox/journeys`)).json()) as {
			journeys: Journey[];
		}
	).journeys.filter((j) => j.webhook_url?.includes('/webhook-waiting/'));
	expect(journeys).toHaveLength(COUNT);
	expect(journeys.every((j) => j.webhook_url!.startsWith(stack.webhookUrl))).toBe(true);

	// 2. the final statuses, triggered evenly over SPREAD_MS; memory of every n8n process (and its task runner)
	const pids = stack.processes.flatMap((p) => treePids(p.child.pid!));
	if (!resetPeaks(pids)) figures.peakMemoryNote = 'peaks since the processes started';
	const memory = sampleMemory(pids);
	const finals = ['analysis_complete', 'consent_denied', 'expired', 'failed'];
	figures.loadAverageAtFirstCallback = loadAverage();
	const t1 = Date.now();
	for (const [i, j] of journeys.entries()) {
		const due = t1 + (i * SPREAD_MS) / COUNT;
		if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
		await stack.sandbox.control.advanceJourney(j.client_id, finals[i % finals.length]);
	}
	figures.secondsToTriggerAllCallbacks = Math.round((Date.now() - t1) / 1000);

	// 3. until nothing waits or runs and no callback is pending, or statuses stay unchanged for QUIET_MS
	const finalDeliveries = async () =>
		((await stack.sandbox.control.webhooks()) as unknown as Delivery[]).filter((d) =>
			finals.includes(d.payload.status),
		);
	let last = '';
	let by: Record<string, number> = {};
	let lastChange = Date.now();
	await waitFor(
		async () => {
			const now = await count(); // one query: a consistent look
			by = now.by;
			if (JSON.stringify(now.by) !== last) lastChange = Date.now();
			last = JSON.stringify(now.by);
			const inFlight = (await finalDeliveries()).some((d) => d.status === 'pending');
			const open = (now.by.waiting ?? 0) + (now.by.running ?? 0) + (now.by.new ?? 0);
			if (open === 0 && !inFlight) return true;
			return !inFlight && Date.now() - lastChange > QUIET_MS ? true : undefined;
		},
		{
			timeoutMs: 1_800_000,
			intervalMs: 2000,
			what: () => `all ${COUNT} resumed (last: ${last})`,
		},
	);
	figures.secondsFromFirstCallbackToAllResumed = Math.round((lastChange - t1) / 1000);
	figures.loadAverageAtEnd = loadAverage();
	const peak = await memory.stop();
	figures.n8nPeakMemoryAllProcessesMB = peak.sumRssMb;
	figures.n8nSumOfProcessPeaksMB = peak.sumOfPeaksMb;
	figures.n8nProcesses = pids.length;
	figures.resumed = by.success ?? 0;
	figures.errors = (by.error ?? 0) + (by.crashed ?? 0) + (by.canceled ?? 0) + (by.unknown ?? 0);
	figures.stuckRunning = by.running ?? 0;
	figures.stillWaiting = (by.waiting ?? 0) + (by.new ?? 0);

	const deliveries = await finalDeliveries();
	const attempts = deliveries.flatMap((d) => d.attempts);
	figures.callbacksAccepted = deliveries.filter((d) => d.outcome === 'accepted').length;
	figures.callbacksFinishedAlready = deliveries.filter((d) => d.outcome === 'finished').length;
	figures.callbacksFailed = deliveries.filter((d) => d.status === 'failed').length;
	figures.callbacksAcceptedAtFirstAttempt = deliveries.filter(
		(d) => d.attempts.length === 1 && d.attempts[0].status === 200,
	).length;
	figures.callbackAttempts = attempts.length;
	figures.timeouts = attempts.filter((a) => a.status === null).length;
	const messages = new Map<string, number>();
	for (const a of attempts) {
		const key = `${a.status} ${(a.message ?? '').replace(/\d+/g, 'N').slice(0, 60)}`;
		messages.set(key, (messages.get(key) ?? 0) + 1);
	}
	figures.answersByMessage = JSON.stringify(Object.fromEntries(messages));

	expect(by).toEqual({ success: COUNT });
	expect(deliveries).toHaveLength(COUNT);
	expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);

	// exactly once, every execution: its own journey's final item, the waiting run replaced once, Done once
	const runs = await stack.runsOf(WORKFLOW_ID);
	expect(runs).toHaveLength(COUNT);
	const seen = new Set<string>();
	for (const { run } of runs) {
		const [item] = run.json(NODE);
		expect(item).toMatchObject({ isFinal: true, timedOut: false });
		seen.add(String(item.clientId));
		expect(run.runData[NODE]).toHaveLength(1);
		expect(run.json('Done')).toHaveLength(1);
	}
	expect(seen.size).toBe(COUNT);
	expect([...seen].every((id) => journeys.some((j) => j.client_id === id))).toBe(true);
});
