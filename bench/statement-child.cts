/**
 * One big-statement run in a fresh process (so its peak RSS is its own): BENCH_MODE = empty (a workflow with only
 * the trigger: the baseline), split (one item per transaction), single (one item) or csvFile / jsonLinesFile
 * (Transactions As a file). Prints one JSON line: wall time of the run and the process's peak RSS.
 */
import './lib.cjs';

import { performance } from 'node:perf_hooks';

import { Engine, nodeWorkflow } from '../test/harness/index.cjs';
import type { WorkflowJson } from '../test/harness/index.cjs';
import { peakRss } from './lib.cjs';

async function main() {
	const mode = process.env.BENCH_MODE ?? 'empty';
	const url = process.env.BENCH_STUB_URL ?? '';
	const engine = await Engine.create({ fromSource: false });
	engine.setCredentials({
		finVerifyApi: { environment: 'custom', baseUrl: url, apiKey: 'k', apiSecret: 's' },
	});
	const options: Record<string, string> =
		mode === 'split'
			? { splitInto: 'transactions' }
			: mode === 'single'
				? { splitInto: 'none' }
				: { transactionsAs: mode };
	const wf: WorkflowJson =
		mode === 'empty'
			? {
					...nodeWorkflow({ parameters: {} }),
					nodes: nodeWorkflow({ parameters: {} }).nodes.slice(0, 1),
					connections: {},
				}
			: nodeWorkflow({
					parameters: {
						resource: 'bankStatementJourney',
						operation: 'getStatementResult',
						clientId: 'aa_0123456789abcdef01234567',
						simplify: true,
						options,
						requestOptions: { maxRetries: 0, timeout: 120000 },
					},
				});
	const baseRss = peakRss();
	const started = performance.now();
	const result = await engine.run(wf);
	const ms = performance.now() - started;
	if (result.error) throw new Error(result.error.message);
	const items = mode === 'empty' ? 0 : result.output('FinVerify').length;
	process.stdout.write(`${JSON.stringify({ mode, ms, peakRss: peakRss(), baseRss, items })}\n`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
