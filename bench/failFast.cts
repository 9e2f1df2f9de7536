/**
 * What a wrong key or an outage costs at a slow service (issue 32, point 6): 50 company lookups through n8n-core's
 * real engine (test/harness, the node loaded from source) against a scripted loopback server whose every answer comes
 * after FAILFAST_LATENCY_MS (default 800 ms), at Items in Parallel 1, 3 and 50, On Error: Continue (using error
 * output), the default Retries (3). Counted: the lookups the server received, the node's credential checks (the
 * credential Test's free journey status request) and the wall time of the node. One run; the figures go to
 * docs/reliability.md ("Failing fast"); nothing here is a timed assertion.
 *
 *   node --require tsx/cjs bench/failFast.cts            # prints a Markdown table, writes bench/results/failFast.json
 *   FAILFAST_LATENCY_MS=0 node --require tsx/cjs bench/failFast.cts
 */
import * as fs from 'node:fs';
import path from 'node:path';

import { Engine, nodeWorkflow, startStubServer } from '../test/harness/index.cjs';
import type { StubResponse, StubServer } from '../test/harness/index.cjs';

const LOOKUP = '/api/v1/services/corporate/cin-lookup';
const CHECK = '/api/v1/services/aa-bsa-journey/status';
const ITEMS = Number(process.env.FAILFAST_ITEMS ?? 50);
const LATENCY_MS = Number(process.env.FAILFAST_LATENCY_MS ?? 800);
const PARALLEL = (process.env.FAILFAST_PARALLEL ?? '1,3,50').split(',').map(Number);
const KEYS = { apiKey: 'bench-key', apiSecret: 'bench-secret' };
/** FAILFAST_SCENARIOS=wrong,outage,…: only the scenarios whose name starts with one of these. */
const ONLY = process.env.FAILFAST_SCENARIOS?.split(',');

const cinOf = (i: number) => `L17110MH1973PLC0${String(19000 + i).padStart(5, '0')}`;

interface Scenario {
	name: string;
	/** The answer to a lookup and to the credential check. */
	lookup: (cin: string) => StubResponse;
	check: StubResponse;
}

const unauthorized = {
	status: 401,
	body: { success: false, message: 'Invalid API key or secret', error_code: 'UNAUTHORIZED' },
};
const gatewayTimeout = { status: 504, body: '<html><body>504 Gateway Time-out</body></html>' };

const scenarios: Scenario[] = [
	{
		name: 'wrong key (401 everywhere)',
		lookup: () => ({ ...unauthorized, delayMs: LATENCY_MS }),
		check: { ...unauthorized, delayMs: LATENCY_MS },
	},
	{
		name: 'outage (a gateway answering 504 everywhere)',
		lookup: () => ({ ...gatewayTimeout, delayMs: LATENCY_MS }),
		check: { ...gatewayTimeout, delayMs: LATENCY_MS },
	},
	{
		name: 'outage of the lookups alone (504 after the latency; the status check answers at once)',
		lookup: () => ({ ...gatewayTimeout, delayMs: LATENCY_MS }),
		check: {
			status: 404,
			body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
		},
	},
	{
		name: 'healthy slow service, the status check at once (bureau pulls take seconds)',
		lookup: (cin) => ({
			delayMs: LATENCY_MS,
			body: { success: true, data: { cin, company_name: 'ACME LIMITED', status: 'Active' } },
		}),
		check: {
			status: 404,
			body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
		},
	},
	{
		name: 'healthy slow service, the status check as slow',
		lookup: (cin) => ({
			delayMs: LATENCY_MS,
			body: { success: true, data: { cin, company_name: 'ACME LIMITED', status: 'Active' } },
		}),
		check: {
			status: 404,
			delayMs: LATENCY_MS,
			body: { success: false, message: 'Journey not found', error_code: 'NOT_FOUND' },
		},
	},
];

const lookups = (concurrency: number) =>
	nodeWorkflow({
		items: Array.from({ length: ITEMS }, (_, i) => ({ cin: cinOf(i) })),
		onError: 'continueErrorOutput',
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
			requestOptions: { concurrency },
		},
	});

interface Row {
	scenario: string;
	parallel: number;
	lookups: number;
	checks: number;
	outputs: number;
	errorItems: number;
	stopped: string | null;
	ms: number;
}

async function measure(engine: Engine, stub: StubServer, scenario: Scenario, parallel: number) {
	stub.requests.splice(0);
	stub.answer(LOOKUP, (request) =>
		scenario.lookup(String((request.body as { cin?: string })?.cin)),
	);
	stub.respond(CHECK, scenario.check);
	const started = Date.now();
	const result = await engine.run(lookups(parallel));
	const ms = Date.now() - started;
	const row: Row = {
		scenario: scenario.name,
		parallel,
		lookups: stub.requests.filter((r) => r.path === LOOKUP).length,
		checks: stub.requests.filter((r) => r.path === CHECK).length,
		outputs: result.error ? 0 : result.output('FinVerify', 0).length,
		errorItems: result.error ? 0 : result.output('FinVerify', 1).length,
		stopped: result.error ? result.error.message.slice(0, 80) : null,
		ms,
	};
	process.stderr.write(`[failFast] ${JSON.stringify(row)}\n`);
	return row;
}

async function main() {
	const engine = await Engine.create();
	const stub = await startStubServer();
	engine.setCredentials({ finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...KEYS } });
	const rows: Row[] = [];
	try {
		for (const scenario of scenarios.filter(
			(s) => !ONLY || ONLY.some((name) => s.name.startsWith(name)),
		))
			for (const parallel of PARALLEL) rows.push(await measure(engine, stub, scenario, parallel));
	} finally {
		await stub.close();
	}
	const table = [
		`${ITEMS} lookups, every answer after ${LATENCY_MS} ms (unless said), Continue (using error output), Retries 3`,
		'',
		'| Case | Items in Parallel | Lookups sent | Credential checks | Outcome | Time |',
		'| --- | --- | --- | --- | --- | --- |',
		...rows.map(
			(r) =>
				`| ${r.scenario} | ${r.parallel} | ${r.lookups} | ${r.checks} | ${
					r.stopped ? `stopped: ${r.stopped}` : `${r.outputs} outputs, ${r.errorItems} error items`
				} | ${(r.ms / 1000).toFixed(1)} s |`,
		),
	].join('\n');
	process.stdout.write(`${table}\n`);
	const out = path.join(
		__dirname,
		'results',
		`failFast-${ITEMS}-items-${LATENCY_MS}ms${ONLY ? `-${ONLY.join('-')}` : ''}.json`,
	);
	fs.writeFileSync(
		out,
		`${JSON.stringify({ measuredAt: new Date().toISOString(), items: ITEMS, latencyMs: LATENCY_MS, rows }, null, '\t')}\n`,
	);
}

main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});
