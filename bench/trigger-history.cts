/**
 * Per-delivery cost of the FinVerify Trigger against the number of deliveries it has seen, in its own process
 * (so the CPU time is the trigger's and the engine's only): BENCH_HISTORY_DELIVERIES (default 20,000) unique
 * signed deliveries, one at a time, through the harness (n8n-core's WebhookContext over real HTTP, each accepted
 * delivery run through WorkflowExecute), deduplication on (60-minute window). Prints one JSON line: wall and CPU
 * milliseconds per delivery of each block of 1,000, and the size of the trigger's duplicate record at the end.
 */
import './lib.cjs';

import { createHmac } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Engine, loadWorkflow } from '../test/harness/index.cjs';
import { QUICK, REPO } from './lib.cjs';

const SECRET = 'bench-webhook-secret';
const TOTAL = Number(process.env.BENCH_HISTORY_DELIVERIES ?? (QUICK ? 3_000 : 20_000));
const BLOCK = 1_000;

async function main() {
	const engine = await Engine.create({ fromSource: false });
	engine.setCredentials({
		finVerifyApi: {
			environment: 'custom',
			baseUrl: 'http://127.0.0.1:9',
			apiKey: 'k',
			apiSecret: 's',
			webhookSecret: SECRET,
		},
	});
	const hooks = await engine.serveWebhooks(
		loadWorkflow('integration/workflows/trigger/trigger.hmac.workflow.json'),
		{ perCallStaticData: true },
	);
	const url = hooks.urlFor('FinVerify Trigger');
	const blocks: Array<{ from: number; wallMsPerDelivery: number; cpuMsPerDelivery: number }> = [];
	let wall = performance.now();
	let cpu = process.cpuUsage();
	for (let n = 0; n < TOTAL; n++) {
		const raw = JSON.stringify({
			id: `wh_history_${n}`,
			event: 'aa_bsa_journey.status_changed',
			client_id: `aa_${String(n).padStart(24, '0')}`,
			status: 'consent_granted',
			previous_status: 'consent_pending',
			updated_at: new Date().toISOString(),
		});
		const timestamp = String(Math.floor(Date.now() / 1000));
		const res = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-webhook-timestamp': timestamp,
				'x-webhook-signature': `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${raw}`).digest('hex')}`,
			},
			body: raw,
		});
		const text = await res.text();
		if (res.status !== 200 || text.includes('duplicate'))
			throw new Error(`delivery ${n}: ${res.status} ${text}`);
		if ((n + 1) % BLOCK === 0) {
			const used = process.cpuUsage(cpu);
			blocks.push({
				from: n + 1 - BLOCK,
				wallMsPerDelivery: (performance.now() - wall) / BLOCK,
				cpuMsPerDelivery: (used.user + used.system) / 1000 / BLOCK,
			});
			wall = performance.now();
			cpu = process.cpuUsage();
		}
	}
	await hooks.waitForExecutions(TOTAL, 600_000);
	// the record of the trigger as n8n would hold it: the module the engine loaded from dist/
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const dedupe = require(path.join(REPO, 'dist/nodes/FinVerifyTrigger/dedupe.js')) as {
		inProcessRecordSize(scope: string): { entries: number; bytes: number };
		MAX_RECORD_BYTES: number;
	};
	// the harness serves the workflow under the id "webhook-workflow"; the trigger node's id is in the fixture
	const wf = loadWorkflow('integration/workflows/trigger/trigger.hmac.workflow.json');
	const record = dedupe.inProcessRecordSize(`webhook-workflow:${String(wf.nodes[0].id)}:`);
	await hooks.close();
	process.stdout.write(
		`${JSON.stringify({ deliveries: TOTAL, blocks, record, maxRecordBytes: dedupe.MAX_RECORD_BYTES, storedStaticDataBytes: JSON.stringify(hooks.staticData).length })}\n`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
