/**
 * `npm run bench`: every figure of docs/benchmarks.md, measured in one run on this machine and written to
 * bench/results/latest.json (BENCH_QUICK=1: bench/results/quick.json, small sizes, one repetition, to check the
 * instrument); then docs/benchmarks.md's generated block is rewritten from it (bench/docs.cts). Never a timed
 * assertion in the test suite: targets are ratios measured here, reported as met or missed.
 *
 * Environment: BENCH_QUICK=1, BENCH_APP=0 (skip the real n8n app), BENCH_REPETITIONS, BENCH_ITEMS,
 * BENCH_TRANSACTIONS, BENCH_LATENCY_MS, BENCH_STUB_PORT (default: a free port; the n8n app and the sandbox always
 * take free ports), FINVERIFY_RUNTIME_DIR (the cached n8n runtime).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';

import { appLatency, appStatement, appThroughput, appTrigger } from './app.cjs';
import { writeDocs } from './docs.cjs';
import { createEngine, profile, scaling, throughput } from './engine.cjs';
import { childJson, log, MB, median, REPO, settings, startStub } from './lib.cjs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * BENCH_ONLY=engine: load time, engine throughput and the profile only (a fast check while working on the node);
 * BENCH_ONLY=app: the real-app scenarios only. Either writes bench/results/<engine|app>-only.json and leaves the
 * page alone.
 */
const ONLY =
	process.env.BENCH_ONLY === 'engine' || process.env.BENCH_ONLY === 'app'
		? process.env.BENCH_ONLY
		: undefined;

/** Package load time: a fresh Node process with n8n-workflow already loaded (as in n8n) requires dist/. */
/** BENCH_APP_SCENARIOS=trigger,…: only these real-app scenarios (default: all of them). */
const APP_SCENARIOS = new Set(
	(process.env.BENCH_APP_SCENARIOS ?? 'throughput,latency,trigger,statement').split(','),
);

async function loadTime() {
	const script = `
		require('n8n-workflow');
		const t = process.hrtime.bigint();
		const { FinVerify } = require('./dist/nodes/FinVerify/FinVerify.node.js');
		const { FinVerifyTrigger } = require('./dist/nodes/FinVerifyTrigger/FinVerifyTrigger.node.js');
		const { FinVerifyApi } = require('./dist/credentials/FinVerifyApi.credentials.js');
		new FinVerify(); new FinVerifyTrigger(); new FinVerifyApi();
		process.stdout.write(JSON.stringify({ ms: Number(process.hrtime.bigint() - t) / 1e6 }) + '\\n');`;
	const samples: number[] = [];
	for (let i = 0; i < 5; i++) {
		const out = execFileSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8' });
		samples.push((JSON.parse(out.trim()) as { ms: number }).ms);
	}
	return { samples, medianMs: median(samples) };
}

async function sandboxThroughput() {
	const out: Json = {};
	for (const shape of ['sample', 'reference']) {
		const runs = [];
		for (let r = 0; r < settings.repetitions; r++)
			runs.push(
				await childJson<Json>(path.join(__dirname, 'sandbox-load.cts'), {
					BENCH_JSON: '1',
					BENCH_SHAPE: shape,
					BENCH_SECONDS: settings.quick ? '2' : '5',
				}),
			);
		out[shape] = {
			runs,
			requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
			p99: median(runs.map((r) => r.p99)),
		};
	}
	return out;
}

async function engineStatement(stubUrl: string) {
	const out: Json = {};
	for (const mode of ['empty', 'split', 'single', 'csvFile']) {
		const runs = [];
		for (let r = 0; r < settings.repetitions; r++)
			runs.push(
				await childJson<Json>(
					path.join(__dirname, 'statement-child.cts'),
					{ BENCH_MODE: mode, BENCH_STUB_URL: stubUrl },
					['--expose-gc'],
				),
			);
		out[mode] = {
			runs,
			ms: median(runs.map((r) => r.ms)),
			peakRssMB: median(runs.map((r) => r.peakRss / MB)),
		};
	}
	return out;
}

async function main() {
	const started = Date.now();
	const loadAvg = os.loadavg();
	const result: Json = {
		generatedAt: new Date().toISOString(),
		settings,
		machine: {
			cpus: os.cpus().length,
			cpuModel: os.cpus()[0]?.model,
			node: process.version,
			loadAverageAtStart: loadAvg.map((l) => Math.round(l * 100) / 100),
		},
	};
	const file = path.join(
		__dirname,
		'results',
		ONLY ? `${ONLY}-only.json` : settings.quick ? 'quick.json' : 'latest.json',
	);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	// written after every section, so a failure late in a long run keeps what was measured
	const save = () => fs.writeFileSync(file, `${JSON.stringify(result, null, '\t')}\n`);
	const section = async (name: string, fn: () => Promise<unknown>) => {
		try {
			result[name] = await fn();
		} catch (error) {
			result.errors = {
				...(result.errors ?? {}),
				[name]: String((error as Error)?.stack ?? error).slice(0, 4000),
			};
			log(`${name} FAILED: ${(error as Error)?.message}`);
		}
		save();
	};
	const stub = await startStub({ STUB_TRANSACTIONS: String(settings.statementTransactions) });
	try {
		if (ONLY !== 'app') {
			await section('load', loadTime);
			const engine = await createEngine(stub);
			await section('engine', () => throughput(engine, stub));
			await section('profile', () => profile(engine));
			await section(
				'triggerHistory',
				async () => await childJson<Json>(path.join(__dirname, 'trigger-history.cts')),
			);
			// Process Once's cost per delivery against Deliveries Remembered (ratios to the default's)
			await section(
				'processOnceHistory',
				async () =>
					await childJson<Json>(path.join(__dirname, 'process-once-history.cts'), {}, [
						'--expose-gc',
					]),
			);
		}
		if (!ONLY) {
			await section('scaling', async () => await scaling(await createEngine(stub)));
			await section('engineStatement', () => engineStatement(stub.url));
			await section('sandbox', sandboxThroughput);
		}
		if (settings.app && ONLY !== 'engine') {
			if (APP_SCENARIOS.has('throughput')) await section('app', () => appThroughput(stub));
			if (APP_SCENARIOS.has('latency')) await section('appLatency', appLatency);
			if (APP_SCENARIOS.has('trigger')) {
				await section('appTrigger', () => appTrigger(stub));
				// n8n's own setting that creates an expression isolate only when an expression is evaluated
				await section('appTriggerLazyAcquire', () =>
					appTrigger(stub, { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }),
				);
			}
			if (APP_SCENARIOS.has('statement')) await section('appStatement', () => appStatement(stub));
		}
	} finally {
		await stub.close();
	}
	result.machine.loadAverageAtEnd = os.loadavg().map((l) => Math.round(l * 100) / 100);
	result.durationSeconds = Math.round((Date.now() - started) / 1000);
	save();
	log(`wrote ${path.relative(REPO, file)}`);
	if (ONLY) return;
	const { summary, missed } = writeDocs(file, { write: !settings.quick });
	process.stdout.write(`${summary}\n`);
	if (missed > 0) log(`${missed} target(s) missed (reported, not a failure of the run)`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
