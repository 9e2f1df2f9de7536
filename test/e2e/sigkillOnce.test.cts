/**
 * A delivery answered 200 is processed to the end exactly once across a SIGKILL of n8n (issue 43, item 1), in the
 * real app (n8n 2.41.1, SQLite, one n8n in regular mode). The workflow: FinVerify Trigger → Trigger Delivery ·
 * Process Once (*Mark as Processed: When Marked Processed*) → Step (an HTTP call to a counter of this test) →
 * a 2 s wait → Trigger Delivery · Mark Processed → Done (an HTTP call to the counter).
 *
 * Each round: fresh signed deliveries sent IN_FLIGHT at a time; n8n SIGKILLed at a random moment of the stream
 * (about IN_FLIGHT executions inside the 2 s step); n8n started again; the sender sends again what it was not
 * answered 200 (variant "unanswered") or every delivery of the round (variant "everything"); then the documented
 * recovery: n8n's Retry of every `crashed` execution. Counted per delivery: Step calls (the steps before the mark:
 * at least once), Done calls (after the mark: at most once) and the durable done mark in n8n's `processed_data`
 * row. Asserted in every round: every delivery answered 200 is marked done (0 lost), none reached Done twice,
 * every retry of a crashed execution ran; a delivery marked done but missing from Done (an execution killed
 * between Mark Processed and Done: after the mark is at most once) is counted and printed, with the repeats of
 * Step (before the mark: at least once).
 */
import { execFileSync } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

import {
	postDelivery,
	signedJourneyDelivery,
	type SignedDelivery as Delivery,
} from './helpers/deliveries.cjs';
import { doneMarkHash, startDeliveryCounter } from './helpers/counter.cjs';
import { log, N8nStack, sleep, waitFor, waitForWebhook, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(3_600_000);

const PER_ROUND = Number(process.env.SIGKILL_ONCE_DELIVERIES ?? 40);
const IN_FLIGHT = 15;
// npm test's rounds (about 2 minutes a round); the figures in docs/trigger.md came with 4 and 2
const ROUNDS = Number(process.env.SIGKILL_ONCE_ROUNDS ?? 2);
const CONTROL_ROUNDS = Number(process.env.SIGKILL_ONCE_CONTROL_ROUNDS ?? 1);

let stack: N8nStack;
/** The workflow the round runs on: the claim-until-finished one, or the On Arrival control. */
let wf: Workflow;
let claimUntilFinished: Workflow;
let onArrival: Workflow;
/** The claim-until-finished workflow with the trigger at version 1.3: the sender answered when the workflow finished. */
let answerWhenFinished: Workflow;
let counter: http.Server;
/** delivery id → calls, per counter path */
const calls = { step: new Map<string, number>(), done: new Map<string, number>() };
/** delivery id → deliveryKey (from the Step calls) */
const keyOf = new Map<string, string>();
const retried = new Set<string>();

const url = () => stack.triggerUrl(wf);

async function startCounter(): Promise<number> {
	counter = await startDeliveryCounter(calls, keyOf);
	return (counter.address() as AddressInfo).port;
}

/** One attempt; a refused or cut connection is "not answered". */
/** delivery id → the answers it got (status and the start of the body; 0: no answer), printed for one never answered 200 */
const answers = new Map<string, string[]>();
const attempt = async (d: Delivery) => {
	let status = 0;
	let seen = 'no answer';
	try {
		const answer = await postDelivery(url(), d);
		status = answer.status;
		seen = `${status} ${answer.text.slice(0, 100)}`;
	} catch (e) {
		seen = `no answer: ${(e as Error).message}`;
	}
	answers.set(d.id, [...(answers.get(d.id) ?? []), seen]);
	return status;
};

/** Sends every delivery IN_FLIGHT at a time, until `stop()`; resolves the ids answered 200. */
async function stream(deliveries: Delivery[], stop: () => boolean): Promise<Set<string>> {
	const answered = new Set<string>();
	let next = 0;
	const worker = async () => {
		while (next < deliveries.length && !stop()) {
			const d = deliveries[next++];
			if ((await attempt(d)) === 200) answered.add(d.id);
		}
	};
	await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
	return answered;
}

/** The sender's re-send: each delivery until it is answered 200. */
/**
 * The sender's re-send: each delivery until it is answered 200, passes 1 s apart, then 10 s apart after 20 passes, for
 * at most SENDER_PATIENCE_MS (a real sender retries over minutes; past the trigger's 10 minutes a copy of a delivery
 * whose first copy was never answered is a duplicate, which the "lost" count then shows).
 */
const SENDER_PATIENCE_MS = 12 * 60_000;
async function resend(deliveries: Delivery[]): Promise<Set<string>> {
	const answered = new Set<string>();
	const giveUpAt = Date.now() + SENDER_PATIENCE_MS;
	for (let pass = 0; answered.size < deliveries.length && Date.now() < giveUpAt; pass++) {
		await stream(
			deliveries.filter((d) => !answered.has(d.id)),
			() => false,
		).then((ok) => ok.forEach((id) => answered.add(id)));
		if (answered.size < deliveries.length) await sleep(pass < 20 ? 1000 : 10_000);
	}
	return answered;
}

/** Every execution of the workflow with one of `status` (newest first, in pages of 100). */
async function listExecutions(status: string[]): Promise<Array<Record<string, unknown>>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: wf.id, status }));
	const all: Array<Record<string, unknown>> = [];
	for (let lastId = ''; ; ) {
		const r = await stack.rest<{ data: { results: Array<Record<string, unknown>> } }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=100${lastId ? `&lastId=${lastId}` : ''}`,
		);
		all.push(...r.data.results);
		if (r.data.results.length < 100) return all;
		lastId = String(r.data.results[r.data.results.length - 1].id);
	}
}

/** Until no execution of the workflow is new or running. */
const settled = async () =>
	await waitFor(
		async () => ((await stack.executionCount(wf.id, ['new', 'running'])) === 0 ? true : undefined),
		{ timeoutMs: 600_000, intervalMs: 1000, what: 'no execution new or running' },
	);

/** n8n's Retry (the executions list's "Retry with original workflow") of every crashed execution not retried yet. */
async function retryCrashed(): Promise<{
	crashed: number;
	retried: number;
	failedRetries: string[];
}> {
	const crashed = (await listExecutions(['crashed'])).filter((e) => !retried.has(String(e.id)));
	const failedRetries: string[] = [];
	let next = 0;
	const worker = async () => {
		while (next < crashed.length) {
			const id = String(crashed[next++].id);
			retried.add(id);
			try {
				await stack.rest('POST', `/rest/executions/${id}/retry`, { loadWorkflow: false });
			} catch (e) {
				failedRetries.push(`${id}: ${(e as Error).message.slice(0, 200)}`);
			}
		}
	};
	await Promise.all(Array.from({ length: 5 }, worker));
	return { crashed: crashed.length, retried: crashed.length, failedRetries };
}

/** The done marks in n8n's processed_data row of the workflow (scope workflow: context ''), as hashes. */
function doneMarks(): Set<string> {
	const db = path.join(stack.userFolder, '.n8n', 'database.sqlite');
	const out = execFileSync(
		'python3',
		[
			'-c',
			'import sqlite3,sys;c=sqlite3.connect("file:"+sys.argv[1]+"?mode=ro",uri=True);' +
				'r=c.execute("select value from processed_data where workflowId=? and context=?",(sys.argv[2],"")).fetchone();' +
				'print(r[0] if r else "{}")',
			db,
			wf.id,
		],
		{ encoding: 'utf8' },
	);
	const value = JSON.parse(out) as { data?: string[] };
	return new Set(value.data ?? []);
}

interface Round {
	variant: string;
	round: number;
	killAfterMs: number;
	answered: number;
	unansweredAtKill: number;
	/** answered 200 before the kill, not marked done at it: what only the Retry of crashed executions recovers when not re-sent */
	answeredCutOff: number;
	resent: number;
	crashed: number;
	failedRetries: number;
	/** answered 200 and not marked done once the re-sends settled, before any Retry of crashed executions */
	lostBeforeRecovery: number;
	lost: number;
	doneTwice: number;
	stepRepeats: number;
	markedNotDone: number;
}
const rounds: Round[] = [];

async function round(
	variant: 'unanswered' | 'everything' | 'control' | 'finished',
	n: number,
): Promise<Round> {
	const deliveries = Array.from({ length: PER_ROUND }, signedJourneyDelivery);
	const killAfterMs = 2500 + Math.floor(Math.random() * 3500);
	let killed = false;
	const killer = (async () => {
		await sleep(killAfterMs);
		process.kill(stack.n8nPid(), 'SIGKILL');
		killed = true;
	})();
	const answeredFirst = await stream(deliveries, () => killed);
	await killer;
	// answered 200 before the kill and not marked done at it: cut off mid-workflow (n8n answers on start)
	const marksAtKill = doneMarks();
	const cutOff = deliveries.filter((d) => {
		const key = keyOf.get(d.id);
		return answeredFirst.has(d.id) && !(key !== undefined && marksAtKill.has(doneMarkHash(key)));
	}).length;
	const unanswered = deliveries.filter((d) => !answeredFirst.has(d.id));
	await stack.restartN8n();
	await waitForWebhook(stack.triggerUrl(claimUntilFinished), 'the trigger after the SIGKILL');
	await waitForWebhook(stack.triggerUrl(onArrival), 'the control trigger after the SIGKILL');
	await waitForWebhook(
		stack.triggerUrl(answerWhenFinished),
		'the version 1.3 trigger after the SIGKILL',
	);

	const toResend = variant === 'everything' || variant === 'control' ? deliveries : unanswered;
	const answeredAgain = await resend(toResend);
	await settled();
	const marksBeforeRecovery = doneMarks();
	const lostBeforeRecovery = deliveries.filter((d) => {
		const key = keyOf.get(d.id);
		const ok = answeredFirst.has(d.id) || answeredAgain.has(d.id);
		return ok && !(key !== undefined && marksBeforeRecovery.has(doneMarkHash(key)));
	}).length;
	const recovery = await retryCrashed();
	await settled();
	await sleep(1000);

	const answered = deliveries.filter((d) => answeredFirst.has(d.id) || answeredAgain.has(d.id));
	const marks = doneMarks();
	const marked = (d: Delivery) => {
		const key = keyOf.get(d.id);
		return key !== undefined && marks.has(doneMarkHash(key));
	};
	const r: Round = {
		variant,
		round: n,
		killAfterMs,
		answered: answered.length,
		unansweredAtKill: unanswered.length,
		answeredCutOff: cutOff,
		resent: toResend.length,
		crashed: recovery.crashed,
		failedRetries: recovery.failedRetries.length,
		lostBeforeRecovery,
		lost: answered.filter((d) => !marked(d)).length,
		doneTwice: deliveries.filter((d) => (calls.done.get(d.id) ?? 0) > 1).length,
		stepRepeats: deliveries.reduce(
			(sum, d) => sum + Math.max(0, (calls.step.get(d.id) ?? 0) - 1),
			0,
		),
		markedNotDone: deliveries.filter((d) => marked(d) && !calls.done.get(d.id)).length,
	};
	const neverAnswered = deliveries.filter((d) => !answered.includes(d));
	if (neverAnswered.length)
		log(
			`sigkill-once never answered 200: ${JSON.stringify(neverAnswered.map((d) => ({ id: d.id, answers: answers.get(d.id) })))}`,
		);
	log(
		`sigkill-once round: ${JSON.stringify(r)}${recovery.failedRetries.length ? ` failed retries: ${JSON.stringify(recovery.failedRetries)}` : ''}`,
	);
	rounds.push(r);
	return r;
}

beforeAll(async () => {
	const port = await startCounter();
	// npm start's settings; FINVERIFY_N8N_SETTINGS=defaults: n8n's own (no production concurrency limit)
	stack = await N8nStack.create({
		name: 'sigkill-once',
		n8nDefaults: process.env.FINVERIFY_N8N_SETTINGS === 'defaults',
	});
	claimUntilFinished = JSON.parse(
		JSON.stringify(stack.fixture('sigkill-once.workflow.json')).replace(
			/__COUNTER__/g,
			String(port),
		),
	) as Workflow;
	// the control: the same workflow with Process Once's default (the key recorded on arrival)
	onArrival = JSON.parse(
		JSON.stringify(claimUntilFinished)
			.replace(/"whenMarked"/, '"onArrival"')
			.replace(/e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c07/, 'e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c08')
			.replace(/e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c17/, 'e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c18'),
	) as Workflow;
	onArrival.id = `${claimUntilFinished.id}A`;
	onArrival.name = `${claimUntilFinished.name} (control: On Arrival)`;
	// the same with the trigger at version 1.3 (answers when the workflow has finished)
	answerWhenFinished = JSON.parse(
		JSON.stringify(claimUntilFinished)
			.replace(/e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c07/, 'e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c09')
			.replace(/e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c17/, 'e2e0a11c-5a7a-4e5e-9d0b-4e57a47d0c19'),
	) as Workflow;
	answerWhenFinished.id = `${claimUntilFinished.id}F`;
	answerWhenFinished.name = `${claimUntilFinished.name} (trigger 1.3: answered when finished)`;
	for (const node of answerWhenFinished.nodes)
		if (node.type === 'n8n-nodes-finverify.finVerifyTrigger') node.typeVersion = 1.3;
	wf = claimUntilFinished;
	await stack.importAll([claimUntilFinished, onArrival, answerWhenFinished]);
	await stack.publish(claimUntilFinished.id);
	await stack.publish(onArrival.id);
	await stack.publish(answerWhenFinished.id);
	await stack.start();
	await waitForWebhook(url(), 'the trigger to be active');
	await waitForWebhook(stack.triggerUrl(onArrival), 'the control trigger to be active');
	await waitForWebhook(stack.triggerUrl(answerWhenFinished), 'the 1.3 trigger to be active');
}, 900_000);

afterAll(async () => {
	log(`sigkill-once figures: ${JSON.stringify(rounds)}`);
	await stack?.stop();
	await new Promise((resolve) => counter?.close(resolve));
});

/**
 * On n8n 1.x the trigger at 1.2 with a sender re-sending only what it was not answered is not promised (n8n 1.x
 * answers deliveries it has not stored an execution for; docs/trigger.md): that variant runs on 2.x only, and
 * `npm run test:n8n1` runs the others.
 */
const VARIANTS =
	process.env.FINVERIFY_N8N_LINE === '1'
		? (['everything'] as const)
		: (['unanswered', 'everything'] as const);
for (const variant of VARIANTS)
	test(`${ROUNDS} rounds of ${PER_ROUND} deliveries ${IN_FLIGHT} in flight, n8n SIGKILLed mid-stream, the sender re-sending ${variant === 'unanswered' ? 'what it was not answered' : 'every delivery'}, crashed executions retried: every delivery answered 200 marked done, none processed to the end twice`, async () => {
		for (let n = 1; n <= ROUNDS; n++) {
			const r = await round(variant, n);
			expect(r.answered).toBe(PER_ROUND);
			expect(r.failedRetries).toBe(0);
			expect(r.lost).toBe(0);
			expect(r.doneTwice).toBe(0);
			// after the mark (at most once): only an execution killed between Mark Processed and Done leaves Done out
			expect(r.markedNotDone).toBeLessThanOrEqual(r.crashed);
		}
	});

/**
 * Trigger 1.3: the sender is answered when the workflow has finished, and re-sends only what it was not answered
 * 200. Nothing answered is lost before anyone retries a crashed execution (the Retry afterwards finds every
 * delivery done and completes none twice). This is what holds on n8n 1.x, which answers version 1.2's deliveries
 * before it stored their executions.
 */
test(`trigger 1.3, ${ROUNDS} rounds: answered when the workflow finished, the sender re-sending what it was not answered: 0 lost without any recovery, none twice`, async () => {
	wf = answerWhenFinished;
	try {
		for (let n = 1; n <= ROUNDS; n++) {
			const r = await round('finished', n);
			expect(r.answered).toBe(PER_ROUND);
			expect(r.lostBeforeRecovery).toBe(0);
			expect(r.lost).toBe(0);
			expect(r.failedRetries).toBe(0);
			expect(r.doneTwice).toBe(0);
			// answered only once finished: an answered delivery was never cut off by the kill
			expect(r.answeredCutOff).toBe(0);
		}
	} finally {
		wf = claimUntilFinished;
	}
});

/**
 * The control (what the issue measured): the same schedule, the sender re-sending everything, on the same workflow
 * with Process Once *On Arrival*. Mark Processed still records what reached the end, so "lost" is counted the same
 * way; that the count finds the deliveries On Arrival loses shows the assertions above can fail.
 */
test(`control, ${CONTROL_ROUNDS} rounds: the same with Process Once On Arrival loses answered deliveries`, async () => {
	wf = onArrival;
	try {
		let lost = 0;
		for (let n = 1; n <= CONTROL_ROUNDS; n++) {
			const r = await round('control', n);
			expect(r.answered).toBe(PER_ROUND);
			lost += r.lost;
		}
		expect(lost).toBeGreaterThan(0);
	} finally {
		wf = claimUntilFinished;
	}
});
