/**
 * What the scale tests report besides their assertions: load average, and n8n's memory during the burst (figures,
 * never asserted: the machine is shared).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';

/** The 1 / 5 / 15 minute load averages, one decimal. */
export const loadAverage = () =>
	os
		.loadavg()
		.map((l) => Math.round(l * 10) / 10)
		.join(' ');

const statusKb = (pid: number, field: 'VmRSS' | 'VmHWM'): number => {
	try {
		const m = new RegExp(`${field}:\\s+(\\d+)`).exec(
			fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
		);
		return m ? Number(m[1]) : 0;
	} catch {
		return 0; // the process has ended
	}
};

/** The resident memory of the processes now, summed, in MB (a process that has ended counts 0). */
export const rssMb = (pids: number[]): number =>
	Math.round(pids.reduce((sum, pid) => sum + statusKb(pid, 'VmRSS'), 0) / 1024);

/** How often SQLite's write lock timed out (`LockAcquireTimeoutError`) in these n8n logs. */
export const lockTimeouts = (logFiles: string[]): number =>
	logFiles.reduce(
		(sum, file) => sum + fs.readFileSync(file, 'utf8').split('LockAcquireTimeoutError').length - 1,
		0,
	);

/** Every process of a process group's tree (n8n, its task runner), by walking /proc children. */
export function treePids(root: number): number[] {
	const out = [root];
	for (let i = 0; i < out.length; i++) {
		try {
			for (const t of fs.readdirSync(`/proc/${out[i]}/task`))
				for (const c of fs
					.readFileSync(`/proc/${out[i]}/task/${t}/children`, 'utf8')
					.split(' ')
					.filter(Boolean))
					out.push(Number(c));
		} catch {
			// gone
		}
	}
	return out;
}

/** Resets the peak resident memory (VmHWM) of each process; false when the kernel refused. */
export function resetPeaks(pids: number[]): boolean {
	let ok = true;
	for (const pid of pids)
		try {
			fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		} catch {
			ok = false;
		}
	return ok;
}

/**
 * Samples every 2 s, until stopped: the largest sum of the processes' resident memory seen at one moment, and, when
 * `metricsUrl` is given (n8n's /metrics, N8N_METRICS=true), the largest V8 heap and the largest memory outside it
 * (`nodejs_external_memory_bytes`: among others the expression engine's isolates) of that process.
 */
export function sampleMemory(pids: number[], metricsUrl?: string) {
	const peak = { sumRssMb: 0, heapUsedMb: 0, externalMb: 0, samples: 0 };
	let stopped = false;
	const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
	const metric = (text: string, name: string) =>
		Number(new RegExp(`^(?:n8n_)?${name}(?:\\{[^}]*\\})? ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? 0);
	const loop = (async () => {
		while (!stopped) {
			const sum = pids.reduce((s, pid) => s + statusKb(pid, 'VmRSS'), 0);
			peak.sumRssMb = Math.max(peak.sumRssMb, Math.round(sum / 1024));
			if (metricsUrl) {
				try {
					const text = await (await fetch(metricsUrl)).text();
					peak.heapUsedMb = Math.max(
						peak.heapUsedMb,
						mb(metric(text, 'nodejs_heap_size_used_bytes')),
					);
					peak.externalMb = Math.max(
						peak.externalMb,
						mb(metric(text, 'nodejs_external_memory_bytes')),
					);
				} catch {
					// n8n busy or not answering: the next sample
				}
			}
			peak.samples++;
			await new Promise((r) => setTimeout(r, 2000));
		}
	})();
	return {
		peak,
		/** Stops sampling; adds each process's own peak (VmHWM) summed, an upper bound of the sum at one moment. */
		async stop() {
			stopped = true;
			await loop;
			return {
				...peak,
				sumOfPeaksMb: Math.round(pids.reduce((s, pid) => s + statusKb(pid, 'VmHWM'), 0) / 1024),
			};
		},
	};
}

/**
 * n8n's expression-engine counters from /metrics (N8N_METRICS=true): expressions evaluated, isolates taken from the
 * pool, isolates created on the spot (cold starts). Undefined when n8n did not answer.
 */
export async function expressionCounters(
	metricsUrl: string,
): Promise<{ evaluations: number; acquired: number; coldStarts: number } | undefined> {
	try {
		const text = await (await fetch(metricsUrl)).text();
		const sum = (re: RegExp) => [...text.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
		return {
			evaluations: sum(/^n8n_expression_evaluation_duration_seconds_count\{[^}]*\} (\S+)/gm),
			acquired: sum(/^n8n_expression_pool_acquired_total (\S+)/gm),
			coldStarts: sum(/^n8n_expression_pool_cold_start_sync_total (\S+)/gm),
		};
	} catch {
		return undefined;
	}
}

/**
 * Starts `count` executions that go on to wait, by posting `{ mobile }` to the workflow's start webhook
 * `inFlight` at a time (each a different mobile number); resolves the answers other than 200, for the test to
 * assert there are none.
 */
export async function startWaitingExecutions(
	startUrl: string,
	count: number,
	inFlight: number,
): Promise<string[]> {
	let next = 0;
	const failures: string[] = [];
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			for (let n = next++; n < count; n = next++) {
				const res = await fetch(startUrl, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ mobile: `98${String(n).padStart(8, '0')}` }),
				});
				if (res.status !== 200) failures.push(`${res.status} ${(await res.text()).slice(0, 120)}`);
				else await res.arrayBuffer();
			}
		}),
	);
	return failures;
}
