/**
 * `npm run bench`: speed and memory targets, each reported as a ratio measured in this one run (never as
 * a timed assertion in the test suite). Everything runs on 127.0.0.1 against an in-process sandbox.
 *
 *  1. engine overhead   node (real WorkflowExecute, built dist/) vs raw HTTP, same sequential lookups
 *  2. concurrency       Items in Parallel = 6 vs 1 with 150 ms injected service latency (the service's real calls take seconds)
 *  3. normaliser memory heap retained by a simplified 20 000-transaction statement vs the raw JSON size
 *  4. normaliser speed  simplifying vs merely JSON.parse-ing that statement
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Engine, nodeWorkflow, SANDBOX_KEYS, sandboxCredentials } from '../test/harness/index.cjs';
import { normalizeStatementResult } from '../nodes/FinVerify/helpers/normalize/journey';

interface Result {
	name: string;
	ratio: number;
	target: string;
	ok: boolean;
	detail: string;
}

const CINS = (n: number) =>
	Array.from(
		{ length: n },
		(_, i) =>
			`U${String(72200 + (i % 1000)).padStart(5, '0')}KA20${String(10 + (i % 10))}PTC${String(100000 + i)}`,
	);

/** The sandbox in its own process, as the real service is: its CPU work does not share the engine's core. */
async function startSandboxProcess() {
	const port = await new Promise<number>((resolve) => {
		const probe = createServer().listen(0, '127.0.0.1', () => {
			const { port: free } = probe.address() as { port: number };
			probe.close(() => resolve(free));
		});
	});
	const child = spawn(
		process.execPath,
		['--require', 'tsx/cjs', path.join(__dirname, '../sandbox/main.cts')],
		{
			env: { ...process.env, SANDBOX_PORT: String(port), SANDBOX_QUIET: '1' },
			stdio: 'ignore',
		},
	);
	const url = `http://127.0.0.1:${port}`;
	for (let i = 0; ; i++) {
		try {
			if ((await fetch(`${url}/__sandbox/health`)).ok) break;
		} catch {
			if (i > 200) throw new Error('the sandbox did not start');
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	return { url, close: async () => void child.kill('SIGTERM') };
}

const gc = () => (global as unknown as { gc?: () => void }).gc?.();

async function main() {
	const sandbox = await startSandboxProcess();
	// the built package, as n8n loads it
	const engine = await Engine.create({ fromSource: false });
	engine.setCredentials(sandboxCredentials(sandbox.url));
	const results: Result[] = [];

	const lookupWorkflow = (cins: string[], concurrency: number) =>
		nodeWorkflow({
			items: cins.map((cin) => ({ cin })),
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				requestOptions: { concurrency, maxRetries: 0 },
			},
		});

	// warm-up: JIT, sockets, sandbox caches
	await engine.run(lookupWorkflow(CINS(20), 1));

	{
		const cins = CINS(300);
		let started = performance.now();
		for (const cin of cins) {
			const response = await fetch(`${sandbox.url}/api/v1/services/corporate/cin-lookup`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'x-api-key': SANDBOX_KEYS.apiKey,
					'x-api-secret': SANDBOX_KEYS.apiSecret,
				},
				body: JSON.stringify({ cin }),
			});
			JSON.parse(await response.text());
		}
		const rawMs = performance.now() - started;
		started = performance.now();
		const run = await engine.run(lookupWorkflow(cins, 1));
		const nodeMs = performance.now() - started;
		if (run.error || run.json('FinVerify').length !== cins.length)
			throw new Error(`engine run failed: ${run.error?.message}`);
		const ratio = nodeMs / rawMs;
		results.push({
			name: 'engine overhead (300 sequential CIN lookups, node ÷ raw HTTP)',
			ratio,
			target: '≤ 2.0',
			ok: ratio <= 2.0,
			detail: `raw ${rawMs.toFixed(0)} ms, node ${nodeMs.toFixed(0)} ms (${(nodeMs / cins.length).toFixed(2)} ms/item)`,
		});
	}

	{
		await fetch(`${sandbox.url}/__sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				path: '/api/v1/services/corporate/cin-lookup',
				latencyMs: 150,
				times: 1000,
			}),
		});
		const cins = CINS(60);
		let started = performance.now();
		await engine.run(lookupWorkflow(cins, 1));
		const serialMs = performance.now() - started;
		started = performance.now();
		const run = await engine.run(lookupWorkflow(cins, 6));
		const parallelMs = performance.now() - started;
		const order = run.json('FinVerify').map((j) => j.cin);
		if (JSON.stringify(order) !== JSON.stringify(cins))
			throw new Error('parallel run changed the item order');
		await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'DELETE' });
		const ratio = serialMs / parallelMs;
		results.push({
			name: 'concurrency speed-up (60 lookups, 150 ms service latency, 6 in parallel ÷ 1)',
			ratio,
			target: '≥ 4.0',
			ok: ratio >= 4,
			detail: `1 at a time ${serialMs.toFixed(0)} ms, 6 in parallel ${parallelMs.toFixed(0)} ms, order kept`,
		});
	}

	{
		const transactions = Array.from({ length: 20_000 }, (_, i) => ({
			sr_no: i + 1,
			txn_date: `${String((i % 28) + 1).padStart(2, '0')}-0${(i % 9) + 1}-25`,
			value_date: `${String((i % 28) + 1).padStart(2, '0')}-0${(i % 9) + 1}-25`,
			reference_no: `UTR${100000000 + i}`,
			description:
				i % 3 === 0 ? `UPI/CR/${i}/MERCHANT PAYMENT/okaxis` : `NEFT-SALARY-ACME LTD-${i}`,
			txn_type: i % 2 ? 'Dr.' : 'Cr.',
			credit: i % 2 ? '' : 1000 + (i % 500),
			debit: i % 2 ? 200 + (i % 300) : '',
			balance: 50000 + i,
		}));
		const raw = JSON.stringify({
			status_code: 200,
			data: {
				client_id: 'aa_bench',
				status: 'completed',
				total_accounts: 1,
				accounts: [{ account_index: 0, bank_name: 'HDFC Bank', transactions }],
			},
		});
		const rawBytes = Buffer.byteLength(raw);
		const parsed = JSON.parse(raw);

		gc();
		const before = process.memoryUsage().heapUsed;
		const simplified = normalizeStatementResult(parsed);
		gc();
		const retained = process.memoryUsage().heapUsed - before;
		if (simplified.totalTransactions !== 20_000)
			throw new Error('statement normaliser lost transactions');
		const memoryRatio = retained / rawBytes;
		results.push({
			name: 'normaliser memory (simplified 20k-transaction statement, heap ÷ raw JSON bytes)',
			ratio: memoryRatio,
			target: '≤ 4.0',
			ok: memoryRatio <= 4,
			detail: `raw ${(rawBytes / 1e6).toFixed(2)} MB, simplified output retains ${(retained / 1e6).toFixed(2)} MB${
				(global as unknown as { gc?: unknown }).gc ? '' : ' (run without --expose-gc: approximate)'
			}`,
		});

		let started = performance.now();
		for (let i = 0; i < 5; i++) JSON.parse(raw);
		const parseMs = (performance.now() - started) / 5;
		started = performance.now();
		for (let i = 0; i < 5; i++) normalizeStatementResult(parsed);
		const normalizeMs = (performance.now() - started) / 5;
		const speedRatio = normalizeMs / parseMs;
		results.push({
			name: 'normaliser speed (simplify ÷ JSON.parse of the same statement)',
			ratio: speedRatio,
			target: '≤ 3.0',
			ok: speedRatio <= 3,
			detail: `JSON.parse ${parseMs.toFixed(1)} ms, simplify ${normalizeMs.toFixed(1)} ms (${((normalizeMs / 20_000) * 1000).toFixed(2)} µs/txn)`,
		});
	}

	await sandbox.close();

	console.log('\nFinVerify benchmarks (one run, ratios)\n');
	for (const r of results) {
		console.log(
			`${r.ok ? 'PASS' : 'MISS'}  ${r.ratio.toFixed(2).padStart(6)}  target ${r.target.padEnd(6)}  ${r.name}\n                         ${r.detail}`,
		);
	}
	const missed = results.filter((r) => !r.ok).length;
	console.log(`\n${results.length - missed} passed, ${missed} failed`);
	process.exitCode = missed ? 1 : 0;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
