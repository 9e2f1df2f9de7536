/**
 * Processing each delivery once in n8n's queue mode (issue 43): PostgreSQL + Redis, an n8n main, two workers and a
 * webhook processor (scripts/queue-stack.js). The FinVerify Trigger's own in-memory record is switched off, so
 * every copy of a delivery starts an execution, as copies reaching two webhook processors or a replay after a
 * restart do; the executions are spread over both workers, copies of one delivery running at the same moment on
 * different workers. Two patterns after the trigger, side by side in one workflow:
 * - the PostgreSQL claim of docs/scaling.md (`INSERT … ON CONFLICT DO NOTHING RETURNING`): asserted exact, each
 *   delivery processed once;
 * - Trigger Delivery · Process Once: its lock is per process, so its figures are printed, not asserted (n8n's
 *   deduplication record is read and written back by each worker with no transaction).
 */
import { createHmac } from 'node:crypto';

import { QueueStack, queuePostgresCredential } from './helpers/queue.cjs';
import {
	CREDENTIAL,
	log,
	NODE_TYPES,
	waitFor,
	waitForWebhook,
	type Workflow,
} from './helpers/stack.cjs';

jest.setTimeout(900_000);

const WEBHOOK_SECRET = 'sandbox-webhook-secret';
const DELIVERIES = Number(process.env.FINVERIFY_QUEUE_ONCE_DELIVERIES || 60);
const COPIES = 3;
const IN_FLIGHT = 12;
const PG_CREDENTIAL = { id: 'queuePostgres0002', name: 'Queue PostgreSQL', type: 'postgres' };
const WORKFLOW_ID = 'queueOnceTrigger1';
const WEBHOOK_ID = '9a0f4b1e-6c2d-4e8f-a1b3-c5d7e9f10043';

const workflow = (): Workflow => ({
	id: WORKFLOW_ID,
	name: 'queue e2e: each delivery once, two workers',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: '0b8e4c6a-0043-4d2f-9a11-3c5e7f900001',
			name: 'FinVerify Trigger',
			type: NODE_TYPES.trigger,
			typeVersion: 1.2,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters: {
				events: ['journey', 'session'],
				statusFilter: 'all',
				verification: 'hmacSignature',
				// off: every copy starts an execution (as at two webhook processors, or after a restart)
				options: { dedupeWindowMinutes: 0 },
			},
			credentials: { finVerifyApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		},
		{
			id: '0b8e4c6a-0043-4d2f-9a11-3c5e7f900002',
			name: 'Claim delivery',
			type: 'n8n-nodes-base.postgres',
			typeVersion: 2.6,
			position: [240, -120],
			parameters: {
				operation: 'executeQuery',
				query:
					'INSERT INTO finverify_once (delivery_key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING delivery_key',
				options: { queryReplacement: '={{ $json.deliveryKey }}' },
			},
			credentials: { postgres: { id: PG_CREDENTIAL.id, name: PG_CREDENTIAL.name } },
		},
		{
			id: '0b8e4c6a-0043-4d2f-9a11-3c5e7f900003',
			name: 'Process Once',
			type: NODE_TYPES.action,
			typeVersion: 3,
			position: [240, 120],
			parameters: { resource: 'triggerDelivery', operation: 'processOnce' },
			credentials: { finVerifyApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } },
		},
	],
	connections: {
		'FinVerify Trigger': {
			main: [
				[
					{ node: 'Claim delivery', type: 'main', index: 0 },
					{ node: 'Process Once', type: 'main', index: 0 },
				],
			],
		},
	},
});

let stack: QueueStack;

beforeAll(async () => {
	stack = await QueueStack.create({
		name: 'queue-once',
		stepMs: 500,
		extra: [workflow],
		extraCredentials: [({ pgPort }) => queuePostgresCredential(PG_CREDENTIAL.id, pgPort)],
		publish: [WORKFLOW_ID],
	});
	await stack.db!.query(
		'CREATE TABLE IF NOT EXISTS finverify_once (delivery_key text PRIMARY KEY, claimed_at timestamptz DEFAULT now())',
	);
	await stack.start(2);
	await waitForWebhook(
		`${stack.webhookUrl}/webhook/${WEBHOOK_ID}/finverify`,
		() => `the webhook to be active on the webhook processor\n${stack.tail('webhook')}`,
	);
}, 900_000);

afterAll(async () => {
	await stack?.stop();
});

test(`${DELIVERIES} deliveries, each sent ${COPIES} times at the same moment (${IN_FLIGHT} requests in flight), spread over two workers: the PostgreSQL claim processes each once`, async () => {
	const url = `${stack.webhookUrl}/webhook/${WEBHOOK_ID}/finverify`;
	const run = Date.now().toString(36);
	const id = (i: number) => `qo-${run}-${String(i).padStart(4, '0')}`;
	const send = async (i: number) => {
		const body = JSON.stringify({
			id: id(i),
			event: 'aa_bsa_journey.status_changed',
			client_id: `aa_${(0xabd00000 + i).toString(16).padStart(24, '0')}`,
			status: 'analysis_complete',
			previous_status: 'data_fetched',
		});
		const ts = String(Math.floor(Date.now() / 1000));
		const signature = createHmac('sha256', WEBHOOK_SECRET).update(`${ts}.${body}`).digest('hex');
		const res = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-webhook-timestamp': ts,
				'x-webhook-signature': `sha256=${signature}`,
			},
			body,
		});
		await res.text();
		return res.status;
	};
	// the first delivery alone: n8n's deduplication record (Process Once's) is created by its first execution
	expect(await send(0)).toBe(200);
	await waitFor(
		async () =>
			(await stack.executions(WORKFLOW_ID)).some((e) => e.status === 'success') || undefined,
		{ timeoutMs: 300_000, intervalMs: 1000, what: 'the first delivery to be processed' },
	);
	const statuses: number[] = [];
	for (let i = 1; i < DELIVERIES; i += IN_FLIGHT / COPIES) {
		const batch = Array.from(
			{ length: Math.min(IN_FLIGHT / COPIES, DELIVERIES - i) },
			(_, k) => i + k,
		);
		const answers = await Promise.all(
			batch.flatMap((n) => Array.from({ length: COPIES }, async () => await send(n))),
		);
		statuses.push(...answers);
	}
	expect(statuses.every((s) => s === 200)).toBe(true);
	const expected = 1 + (DELIVERIES - 1) * COPIES;
	await waitFor(
		async () => {
			const list = await stack.executions(WORKFLOW_ID);
			return list.length >= expected &&
				list.every((e) => ['success', 'error', 'crashed'].includes(e.status))
				? list
				: undefined;
		},
		{ timeoutMs: 600_000, intervalMs: 2000, what: `${expected} executions to finish` },
	);
	const runs = await stack.runsOf(WORKFLOW_ID);
	expect(runs.length).toBe(expected);
	const failed = runs.filter((r) => r.status !== 'success');
	const byClaim = new Map<string, number>();
	const byProcessOnce = new Map<string, number>();
	for (const r of runs) {
		for (const j of r.run.json('Claim delivery'))
			if (j.delivery_key) byClaim.set(j.delivery_key, (byClaim.get(j.delivery_key) ?? 0) + 1);
		if (r.run.nodesRun.includes('Process Once'))
			for (const j of r.run.json('Process Once')) {
				const key = String(j.deliveryKey);
				byProcessOnce.set(key, (byProcessOnce.get(key) ?? 0) + 1);
			}
	}
	const who = stack.workerOf();
	const perWorker: Record<string, number> = { 'worker-1': 0, 'worker-2': 0 };
	for (const r of runs) for (const w of who.get(r.id) ?? []) perWorker[w]++;
	const twice = (m: Map<string, number>) => [...m.values()].filter((n) => n > 1).length;
	log(
		`FIGURE queue once: ${runs.length} executions (${failed.length} not success), worker-1 ${perWorker['worker-1']}, worker-2 ${perWorker['worker-2']}; ` +
			`claim: ${byClaim.size} of ${DELIVERIES} processed, ${twice(byClaim)} more than once; ` +
			`Process Once: ${byProcessOnce.size} of ${DELIVERIES} processed, ${twice(byProcessOnce)} more than once`,
	);
	// both workers took part
	expect(perWorker['worker-1']).toBeGreaterThan(0);
	expect(perWorker['worker-2']).toBeGreaterThan(0);
	// the claim: every delivery processed, none twice
	expect(byClaim.size).toBe(DELIVERIES);
	expect(twice(byClaim)).toBe(0);
	const rows = await stack.db!.query(
		`SELECT count(*)::int AS n FROM finverify_once WHERE delivery_key LIKE 'event:%'`,
	);
	expect(rows.rows[0].n).toBe(DELIVERIES);
});
