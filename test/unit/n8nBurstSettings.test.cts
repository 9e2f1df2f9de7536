/**
 * The n8n settings for bursts of callbacks that `npm start` and the e2e / scale suites give n8n (n8nEnv() in
 * scripts/lib/n8n-process.js; docs/scaling.md#many-waiting-executions-resumed-at-once). The suites check in the real
 * app that n8n starts with them (test/e2e/start.test.cts, waiting.test.cts).
 */
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts without types */
const { n8nEnv } = require(path.join(REPO, 'scripts', 'lib', 'n8n-process.js')) as {
	n8nEnv(o: {
		userFolder: string;
		runtime?: { node: string; n8nVersion: string };
		inheritN8nEnv?: boolean;
		burstSettings?: boolean;
	}): Record<string, string>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const LINE_2 = { node: '/opt/node24/bin/node', n8nVersion: '2.41.1' };
const LINE_1 = { node: '/opt/node22/bin/node', n8nVersion: '1.123.81' };
const NAMES = [
	'N8N_CONCURRENCY_PRODUCTION_LIMIT',
	'DB_SQLITE_POOL_SIZE',
	'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE',
	'N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP',
];
const burst = (env: Record<string, string>) =>
	Object.fromEntries(NAMES.filter((name) => name in env).map((name) => [name, env[name]]));

test('n8n 2.x: production concurrency 10, SQLite pool 4, lazy isolate acquire; the isolate-skip default untouched', () => {
	expect(burst(n8nEnv({ userFolder: '/tmp/x', runtime: LINE_2 }))).toEqual({
		N8N_CONCURRENCY_PRODUCTION_LIMIT: '10',
		DB_SQLITE_POOL_SIZE: '4',
		N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
	});
});

test('n8n 1.x: the same without lazy acquire (n8n 1.123 has no such setting)', () => {
	expect(burst(n8nEnv({ userFolder: '/tmp/x', runtime: LINE_1 }))).toEqual({
		N8N_CONCURRENCY_PRODUCTION_LIMIT: '10',
		DB_SQLITE_POOL_SIZE: '4',
	});
});

test("burstSettings: false leaves n8n's defaults (benchmarks), 1.x keeps its pooled SQLite mode", () => {
	expect(burst(n8nEnv({ userFolder: '/tmp/x', runtime: LINE_2, burstSettings: false }))).toEqual(
		{},
	);
	expect(burst(n8nEnv({ userFolder: '/tmp/x', runtime: LINE_1, burstSettings: false }))).toEqual({
		DB_SQLITE_POOL_SIZE: '3',
	});
});

test("npm start lets the caller's own value win; the suites do not", () => {
	const saved = process.env.N8N_CONCURRENCY_PRODUCTION_LIMIT;
	process.env.N8N_CONCURRENCY_PRODUCTION_LIMIT = '-1';
	try {
		const own = n8nEnv({ userFolder: '/tmp/x', runtime: LINE_2, inheritN8nEnv: true });
		expect(own.N8N_CONCURRENCY_PRODUCTION_LIMIT).toBe('-1');
		const suite = n8nEnv({ userFolder: '/tmp/x', runtime: LINE_2 });
		expect(suite.N8N_CONCURRENCY_PRODUCTION_LIMIT).toBe('10');
	} finally {
		if (saved === undefined) delete process.env.N8N_CONCURRENCY_PRODUCTION_LIMIT;
		else process.env.N8N_CONCURRENCY_PRODUCTION_LIMIT = saved;
	}
});
