/**
 * A delivery answered 200 is processed to the end exactly once across a SIGKILL of a worker in n8n's queue mode
 * (issue 43), in the real app (n8n 2.x, PostgreSQL + Redis, an n8n main, two workers, one webhook processor:
 * test/e2e/helpers/queue.cts). The trigger is at version 1.3 (the sender answered when the workflow has finished).
 * Two workflows, the same steps behind two processing-once patterns:
 * - sigkillOnce's: FinVerify Trigger → Trigger Delivery · Process Once (*When Marked Processed*) → Step (an HTTP
 *   call to a counter of this test) → a 2 s wait → Trigger Delivery · Mark Processed → Done (an HTTP call);
 * - the PostgreSQL claim until finished: FinVerify Trigger → Claim (finverify_claim below: insert the key's row, or
 *   take it over when not done and claimed more than LEASE_S ago; done: end; claimed and fresh: fail, so the
 *   sender is answered 500 and sends it again) → Step → 2 s → Mark Done (UPDATE … done_at) → Done.
 *
 * In queue mode the webhook processor runs the trigger, queues the execution and, for version 1.3's `lastNode`
 * answer, waits for its Bull job. A SIGKILLed worker's jobs stall; n8n (maxStalledCount 0) fails them and the
 * webhook processor answers their senders 500 "Error in workflow", which frees the trigger's key of each.
 *
 * Each round: fresh signed deliveries streamed IN_FLIGHT at a time to the webhook processor; worker-1's process
 * group SIGKILLed a few seconds into the stream (worker-2 carries on; worker-1 is started again meanwhile); the
 * sender then sends again what it was not answered 200, in passes 1 s apart, until every delivery is answered 200.
 * No operator Retry. Counted per delivery: the answers, Step calls, Done calls and the done mark (n8n's
 * processed_data row, or finverify_claims.done_at). Asserted in every round of the PostgreSQL claim: the kill cut
 * executions off, every delivery answered 200 is marked done (0 lost), none reached Done twice, and one answered
 * 200 that never reached Done was marked done by an execution killed between the mark and Done (Done comes after
 * the mark: at most once).
 * Process Once is measured and printed only: it loses done marks across workers (its test below).
 * Printed: answers by status (and what the killed worker's deliveries were answered, how long after the kill),
 * executions by status with their errors, Step repeats, done marks missing (Process Once's row written back by two
 * workers).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import {
	postDelivery,
	signedJourneyDelivery,
	type SignedDelivery as Delivery,
} from './helpers/deliveries.cjs';
import { QueueStack, queuePostgresCredential } from './helpers/queue.cjs';
import { doneMarkHash, startDeliveryCounter } from './helpers/counter.cjs';
import { log, sleep, waitFor, waitForWebhook, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(1_800_000);

const PER_ROUND = Number(process.env.QUEUE_SIGKILL_DELIVERIES ?? 40);
const IN_FLIGHT = 15;
// npm test's rounds (about a minute and a half a round on 2 loaded cores)
const ROUNDS = Number(process.env.QUEUE_SIGKILL_ROUNDS ?? 2);
// Process Once, measured and printed (it does not hold in queue mode: see its test)
const PROCESS_ONCE_ROUNDS = Number(process.env.QUEUE_SIGKILL_PROCESS_ONCE_ROUNDS ?? 1);
const VICTIM = 'worker-1';

let stack: QueueStack;
/** The workflow the round runs on. */
let wf: Workflow;
/** Process Once (When Marked Processed) … Mark Processed */
let processOnce: Workflow;
/** the PostgreSQL claim until finished */
let pgClaim: Workflow;
const PG_CREDENTIAL = { id: 'queuePostgres0003', name: 'Queue PostgreSQL', type: 'postgres' };
/** How long a claim not marked done holds off a copy (longer than the workflow runs: about 3 s here). */
const LEASE_S = 20;
let counter: http.Server;
/** delivery id → calls, per counter path */
const calls = { step: new Map<string, number>(), done: new Map<string, number>() };
/** delivery id → deliveryKey (from the Step calls) */
const keyOf = new Map<string, string>();

async function startCounter(): Promise<number> {
	counter = await startDeliveryCounter(calls, keyOf);
	return (counter.address() as AddressInfo).port;
}

const url = () =>
	`${stack.webhookUrl}/webhook/${wf.nodes.find((x) => x.name === 'FinVerify Trigger')?.webhookId}/finverify`;

interface Answer {
	id: string;
	status: number;
	/** when the answer came (ms since the epoch) */
	at: number;
	sentAt: number;
	text: string;
}

/** One attempt; a refused or cut connection is status 0. */
async function attempt(d: Delivery, answers: Answer[]): Promise<number> {
	const sentAt = Date.now();
	let status = 0;
	let text = '';
	try {
		({ status, text } = await postDelivery(url(), d));
	} catch (e) {
		text = (e as Error).message;
	}
	answers.push({ id: d.id, status, at: Date.now(), sentAt, text: text.slice(0, 200) });
	return status;
}

/** Sends every delivery once, IN_FLIGHT at a time; resolves the ids answered 200. */
async function stream(deliveries: Delivery[], answers: Answer[]): Promise<Set<string>> {
	const answered = new Set<string>();
	let next = 0;
	const sender = async () => {
		while (next < deliveries.length) {
			const d = deliveries[next++];
			if ((await attempt(d, answers)) === 200) answered.add(d.id);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
	return answered;
}

/** The keys marked done: in finverify_claims (the claim), else in n8n's processed_data row of the workflow. */
async function doneKeys(): Promise<Set<string>> {
	if (wf === pgClaim) {
		const r = await stack.db!.query(
			'SELECT delivery_key FROM finverify_claims WHERE done_at IS NOT NULL',
		);
		return new Set(r.rows.map((row) => String(row.delivery_key)));
	}
	const marks = await doneMarks();
	return new Set([...keyOf.values()].filter((key) => marks.has(doneMarkHash(key))));
}

/** The done marks in n8n's processed_data row of the workflow (scope workflow: context ''), as hashes. */
async function doneMarks(): Promise<Set<string>> {
	const r = await stack.db!.query(
		`SELECT value FROM processed_data WHERE "workflowId" = $1 AND context = ''`,
		[wf.id],
	);
	if (!r.rowCount) return new Set();
	const raw = r.rows[0].value as unknown;
	const value = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { data?: string[] };
	return new Set(value.data ?? []);
}

/** Until no execution of the workflow is new or running. */
const settled = async () =>
	await waitFor(
		async () =>
			(await stack.executions(wf.id)).every((e) => !['new', 'running'].includes(e.status))
				? true
				: undefined,
		{ timeoutMs: 600_000, intervalMs: 1000, what: 'no execution new or running' },
	);

const countBy = <T,>(list: T[], key: (t: T) => string | number) =>
	list.reduce<Record<string, number>>((m, t) => {
		const k = String(key(t));
		m[k] = (m[k] ?? 0) + 1;
		return m;
	}, {});

interface Round {
	pattern: string;
	round: number;
	killAfterMs: number;
	/** every answer of the round (first pass and re-sends), by status */
	answers: Record<string, number>;
	/** the first pass's answers other than 200, by status */
	firstPassNot200: Record<string, number>;
	/** the answers that came after the kill to requests sent before it, other than 200: the killed worker's */
	killedAnswers: Record<string, number>;
	/** seconds from the kill to the last of those */
	killedAnsweredAfterS: number;
	/** what n8n answered them (one body) */
	killedBody: string;
	resendPasses: number;
	answered: number;
	/** executions of the round by status */
	executions: Record<string, number>;
	/** executions worker-1 started in the round */
	onVictim: number;
	/** the executions ended in error: worker, last node run, message → count */
	errors: Record<string, number>;
	/** answered 200 and not marked done: what the pattern promises never happens */
	lost: number;
	/** answered 200 and never reached Done (a lost one, or marked done and killed before Done) */
	doneMissing: number;
	doneTwice: number;
	stepRepeats: number;
	/** reached Done, and no done mark (Process Once: a mark lost to two workers' writes of the processed_data row) */
	doneNotMarked: number;
	/** marked done, Done never reached (an execution killed between Mark Processed and Done) */
	markedNotDone: number;
	restartS: number;
	seconds: number;
}
const rounds: Round[] = [];

async function round(n: number): Promise<Round> {
	const t0 = Date.now();
	const deliveries = Array.from({ length: PER_ROUND }, () => signedJourneyDelivery());
	const before = await stack.executions(wf.id);
	const lastId = Math.max(0, ...before.map((e) => Number(e.id)));
	const startedBefore = new Set(stack.workerOf([VICTIM]).keys());
	const answers: Answer[] = [];
	const killAfterMs = 2500 + Math.floor(Math.random() * 2500);
	let killedAt = 0;
	let restart: Promise<number> | undefined;
	const killer = (async () => {
		await sleep(killAfterMs);
		stack.killProcess(VICTIM);
		killedAt = Date.now();
		log(`queue-sigkill round ${n}: ${VICTIM} SIGKILLed ${killAfterMs} ms into the stream`);
		// started again while worker-2 carries on: what a supervisor does
		restart = (async () => {
			const r0 = Date.now();
			await sleep(1000);
			await stack.restartWorker(VICTIM);
			return (Date.now() - r0) / 1000;
		})();
	})();
	const answeredFirst = await stream(deliveries, answers);
	await killer;
	const firstPass = [...answers];
	const answered = new Set(answeredFirst);
	let passes = 0;
	const deadline = Date.now() + 600_000;
	while (answered.size < deliveries.length && Date.now() < deadline) {
		passes++;
		await sleep(1000);
		const ok = await stream(
			deliveries.filter((d) => !answered.has(d.id)),
			answers,
		);
		ok.forEach((id) => answered.add(id));
	}
	const restartS = await restart!;
	await settled();
	await sleep(1000);

	const killed = answers.filter((a) => a.sentAt < killedAt && a.at >= killedAt && a.status !== 200);
	const executions = (await stack.executions(wf.id)).filter((e) => Number(e.id) > lastId);
	const mine = new Set(executions.map((e) => e.id));
	const onVictim = [...stack.workerOf([VICTIM]).keys()].filter(
		(id) => mine.has(id) && !startedBefore.has(id),
	).length;
	const who = stack.workerOf();
	const errors = countBy(
		(await stack.runsOf(wf.id)).filter((e) => Number(e.id) > lastId && e.status !== 'success'),
		(e) =>
			`${(who.get(e.id) ?? ['?']).join('+')}, ${e.run.nodesRun.at(-1) ?? '-'}: ${String(
				(e.run.error as { message?: string } | undefined)?.message ?? '',
			)
				.replace(/delivery \S+ is being processed.*/, 'delivery … is being processed')
				.slice(0, 100)}`,
	);
	const done = await doneKeys();
	const marked = (d: Delivery) => {
		const key = keyOf.get(d.id);
		return key !== undefined && done.has(key);
	};
	const r: Round = {
		pattern: wf === pgClaim ? 'postgres claim' : 'process once',
		round: n,
		killAfterMs,
		answers: countBy(answers, (a) => a.status),
		firstPassNot200: countBy(
			firstPass.filter((a) => a.status !== 200),
			(a) => a.status,
		),
		killedAnswers: countBy(killed, (a) => a.status),
		killedAnsweredAfterS: killed.length
			? Math.round((Math.max(...killed.map((a) => a.at)) - killedAt) / 100) / 10
			: 0,
		killedBody: killed[0]?.text ?? '',
		resendPasses: passes,
		answered: answered.size,
		executions: countBy(executions, (e) => e.status),
		onVictim,
		errors,
		lost: deliveries.filter((d) => answered.has(d.id) && !marked(d)).length,
		doneMissing: deliveries.filter((d) => answered.has(d.id) && !calls.done.get(d.id)).length,
		doneTwice: deliveries.filter((d) => (calls.done.get(d.id) ?? 0) > 1).length,
		stepRepeats: deliveries.reduce(
			(sum, d) => sum + Math.max(0, (calls.step.get(d.id) ?? 0) - 1),
			0,
		),
		doneNotMarked: deliveries.filter((d) => calls.done.get(d.id) && !marked(d)).length,
		markedNotDone: deliveries.filter((d) => marked(d) && !calls.done.get(d.id)).length,
		restartS,
		seconds: Math.round((Date.now() - t0) / 1000),
	};
	log(`queue-sigkill round: ${JSON.stringify(r)}`);
	rounds.push(r);
	return r;
}

/** The claim: the key's row inserted, or taken over when not done and claimed more than `lease` ago. */
const CLAIM_FUNCTION = `
CREATE TABLE finverify_claims (
	delivery_key text PRIMARY KEY,
	claimed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
	done_at timestamptz,
	claims int NOT NULL DEFAULT 1
);
-- one row back: claimed, process it; no row: done already, end; an error: claimed by an execution that may still
-- run, so the workflow fails and its sender (answered 500) sends it again later
CREATE FUNCTION finverify_claim(k text, lease interval) RETURNS TABLE (claimed text) LANGUAGE plpgsql AS $$
DECLARE r finverify_claims;
BEGIN
	INSERT INTO finverify_claims AS f (delivery_key) VALUES (k)
	ON CONFLICT (delivery_key) DO UPDATE SET claimed_at = clock_timestamp(), claims = f.claims + 1
		WHERE f.done_at IS NULL AND f.claimed_at < clock_timestamp() - lease
	RETURNING f.delivery_key INTO claimed;
	IF FOUND THEN RETURN NEXT; RETURN; END IF;
	SELECT * INTO r FROM finverify_claims f WHERE f.delivery_key = k;
	IF r.done_at IS NOT NULL THEN RETURN; END IF;
	RAISE EXCEPTION 'delivery % is being processed (claimed at %): send it again later', k, r.claimed_at;
END $$;`;

/**
 * The same steps behind the PostgreSQL claim until finished: Claim (finverify_claim) → a Filter letting through
 * a claimed row only → Step → 2 s → Mark Done (UPDATE … SET done_at) → Done.
 */
function claimWorkflow(base: Workflow): Workflow {
	const w = JSON.parse(
		JSON.stringify(base)
			.replace(/\$\('Process Once'\)/g, "$('FinVerify Trigger')")
			.replace(/e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c07/, 'e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c2a')
			.replace(/e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c17/, 'e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c2b'),
	) as Workflow;
	w.id = 'queueSigkill0002';
	w.name = 'queue e2e: SIGKILL of a worker → PostgreSQL claim → step → 2 s → mark done → Done';
	const pg = { postgres: { id: PG_CREDENTIAL.id, name: PG_CREDENTIAL.name } };
	const key = "={{ $('FinVerify Trigger').item.json.deliveryKey }}";
	w.nodes = w.nodes.filter((x) => x.name !== 'Process Once' && x.name !== 'Mark Processed');
	w.nodes.push(
		{
			id: 'f0e1d2c3-b4a5-4968-8776-e2e0000c0712',
			name: 'Claim',
			type: 'n8n-nodes-base.postgres',
			typeVersion: 2.6,
			position: [160, 0],
			parameters: {
				operation: 'executeQuery',
				query: `SELECT claimed AS delivery_key FROM finverify_claim($1, interval '${LEASE_S} seconds')`,
				options: { queryReplacement: key },
			},
			credentials: pg,
		},
		{
			id: 'f0e1d2c3-b4a5-4968-8776-e2e0000c0713',
			name: 'Claimed?',
			type: 'n8n-nodes-base.filter',
			typeVersion: 2.2,
			position: [320, 0],
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
					conditions: [
						{
							id: 'f0e1d2c3-b4a5-4968-8776-e2e0000c0714',
							leftValue: '={{ $json.delivery_key }}',
							rightValue: '',
							operator: { type: 'string', operation: 'notEmpty', singleValue: true },
						},
					],
					combinator: 'and',
				},
				options: {},
			},
		},
		{
			id: 'f0e1d2c3-b4a5-4968-8776-e2e0000c0715',
			name: 'Mark Done',
			type: 'n8n-nodes-base.postgres',
			typeVersion: 2.6,
			position: [960, 0],
			parameters: {
				operation: 'executeQuery',
				query:
					'UPDATE finverify_claims SET done_at = clock_timestamp() WHERE delivery_key = $1 RETURNING delivery_key',
				options: { queryReplacement: key },
			},
			credentials: pg,
		},
	);
	const next = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	w.connections = {
		'FinVerify Trigger': next('Claim'),
		Claim: next('Claimed?'),
		'Claimed?': next('Step'),
		Step: next('Two Seconds'),
		'Two Seconds': next('Mark Done'),
		'Mark Done': next('Done'),
	};
	return w;
}

beforeAll(async () => {
	const port = await startCounter();
	// sigkillOnce's workflow, the trigger at version 1.3
	processOnce = JSON.parse(
		fs
			.readFileSync(path.join(__dirname, 'fixtures', 'sigkill-once.workflow.json'), 'utf8')
			.replace(/__COUNTER__/g, String(port)),
	) as Workflow;
	processOnce.id = 'queueSigkill0001';
	processOnce.name =
		'queue e2e: SIGKILL of a worker → Process Once → step → 2 s → Mark Processed → Done';
	for (const node of processOnce.nodes)
		if (node.type === 'n8n-nodes-finverify.finVerifyTrigger') node.typeVersion = 1.3;
	pgClaim = claimWorkflow(processOnce);
	stack = await QueueStack.create({
		name: 'queue-sigkill',
		extra: [() => processOnce, () => pgClaim],
		extraCredentials: [({ pgPort }) => queuePostgresCredential(PG_CREDENTIAL.id, pgPort)],
		publish: [processOnce.id, pgClaim.id],
		// a killed worker's jobs are found stalled within ~15 s instead of n8n's default ~90 s (as queue.test.cts)
		workerLock: { lockDuration: 10000, lockRenewTime: 2000, stalledInterval: 5000 },
	});
	await stack.db!.query(CLAIM_FUNCTION);
	await stack.start(2);
	for (wf of [processOnce, pgClaim])
		await waitForWebhook(
			url(),
			() => `the trigger of ${wf.id} on the webhook processor\n${stack.tail('webhook')}`,
		);
	// one delivery alone first: its execution creates the workflow's processed_data row (two workers racing to
	// create it fail with a duplicate key: n8n's race, not the one measured here)
	wf = processOnce;
	const first = signedJourneyDelivery();
	expect(await attempt(first, [])).toBe(200);
	expect(calls.done.get(first.id)).toBe(1);
}, 900_000);

afterAll(async () => {
	log(`queue-sigkill figures: ${JSON.stringify(rounds)}`);
	await stack?.stop();
	await new Promise((resolve) => counter?.close(resolve));
});

const killedCount = (r: Round) => Object.values(r.killedAnswers).reduce((a, b) => a + b, 0);

/**
 * Trigger Delivery · Process Once (When Marked Processed) and Mark Processed: measured, not asserted. Its claims are
 * in each worker's memory and n8n's processed_data row is read and written back by each worker without a
 * transaction, so a done mark can be lost to the other worker's write (seen: 1 of 40 deliveries in 2 of 3 rounds,
 * printed as doneNotMarked): a copy of that delivery sent later would be processed again. What keeps a finished
 * delivery from a second run in these rounds is the trigger 1.3 answer (a delivery answered 200 is not sent again).
 */
test(`Process Once (measured), ${PROCESS_ONCE_ROUNDS} round(s) of ${PER_ROUND} deliveries ${IN_FLIGHT} in flight, ${VICTIM} SIGKILLed mid-stream, the sender re-sending what it was not answered 200`, async () => {
	wf = processOnce;
	for (let n = 1; n <= PROCESS_ONCE_ROUNDS; n++) {
		const r = await round(n);
		expect(r.answered).toBe(PER_ROUND);
		expect(killedCount(r)).toBeGreaterThan(0);
	}
});

/**
 * The PostgreSQL claim until finished (finverify_claim above, lease LEASE_S s): exact whatever worker runs what; a
 * copy finding a fresh claim not done fails its workflow, so its sender is answered 500 and sends it again.
 */
test(`PostgreSQL claim until finished, ${ROUNDS} rounds of ${PER_ROUND} deliveries ${IN_FLIGHT} in flight to the webhook processor, ${VICTIM} SIGKILLed mid-stream, the sender re-sending what it was not answered 200: every delivery answered 200 marked done and reached Done, none twice`, async () => {
	wf = pgClaim;
	for (let n = 1; n <= ROUNDS; n++) {
		const r = await round(n);
		expect(r.answered).toBe(PER_ROUND);
		// the kill cut executions off
		expect(killedCount(r)).toBeGreaterThan(0);
		expect(r.lost).toBe(0);
		expect(r.doneTwice).toBe(0);
		// Done comes after the mark (at most once): only an execution killed between the mark and Done leaves it out
		expect(r.doneMissing).toBeLessThanOrEqual(r.markedNotDone);
		expect(r.markedNotDone).toBeLessThanOrEqual(killedCount(r));
	}
});
