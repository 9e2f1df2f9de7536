/**
 * Load benchmark of the sandbox: autocannon, in-process, against CIN lookup on a random port for ~5 s.
 * Run: `node --require tsx/cjs bench/sandbox-load.cts` (optional env: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_SHAPE;
 * BENCH_JSON=1 prints one JSON line instead, as `npm run bench` reads it).
 */
import { startSandbox } from '../sandbox/server.cjs';

interface AutocannonResult {
	requests: { average: number; total: number };
	latency: { p50: number; p99: number; average: number; max: number };
	errors: number;
	timeouts: number;
	non2xx: number;
	duration: number;
}
// autocannon ships no types; only the options used here are declared.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (
	options: Record<string, unknown>,
) => Promise<AutocannonResult>;

async function main(): Promise<void> {
	const seconds = Number(process.env.BENCH_SECONDS ?? 5);
	const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
	const shape = process.env.BENCH_SHAPE === 'reference' ? 'reference' : 'sample';
	const sandbox = await startSandbox({ port: 0, quiet: true, shape });
	try {
		const cins = Array.from(
			{ length: 200 },
			(_, i) => `U72200KA20${String(10 + (i % 10))}PTC${String(100000 + i)}`,
		);
		let next = 0;
		const result = await autocannon({
			url: `${sandbox.url}/api/v1/services/corporate/cin-lookup`,
			method: 'POST',
			connections,
			duration: seconds,
			headers: {
				'content-type': 'application/json',
				'x-api-key': 'sandbox-key',
				'x-api-secret': 'sandbox-secret',
			},
			// a different CIN per request, so the numbers include data generation, not a cached answer
			requests: [
				{
					setupRequest: (req: Record<string, unknown>) => ({
						...req,
						body: JSON.stringify({ cin: cins[next++ % cins.length] }),
					}),
				},
			],
		});
		if (process.env.BENCH_JSON === '1') {
			process.stdout.write(
				`${JSON.stringify({ shape, connections, seconds: result.duration, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx })}\n`,
			);
			return;
		}
		const line = (label: string, value: string) =>
			process.stdout.write(`${label.padEnd(22)}${value}\n`);
		process.stdout.write(
			`Sandbox load: POST /corporate/cin-lookup (${shape} shape), ${connections} connections, ${result.duration} s\n`,
		);
		line('requests/s (avg)', result.requests.average.toFixed(0));
		line('requests (total)', String(result.requests.total));
		line('latency p50', `${result.latency.p50} ms`);
		line('latency p99', `${result.latency.p99} ms`);
		line('latency avg / max', `${result.latency.average.toFixed(2)} / ${result.latency.max} ms`);
		line('errors / non-2xx', `${result.errors + result.timeouts} / ${result.non2xx}`);
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
