// @ts-check
'use strict';
/**
 * n8n in queue mode on one machine: PostgreSQL and Redis (scripts/lib/queue-services.js), then an n8n main,
 * workers and a webhook processor sharing one user folder (so one installed copy of this package) and one
 * database. Used by `npm run start:queue` (scripts/start-queue.js) and the e2e queue suite
 * (test/e2e/helpers/queue.cts), which also take the services' functions from here.
 *
 *   queueEnv(base, opts)                the variables every n8n process of the queue setup shares
 *   startQueueProcess(runtime, env, opts)   n8n main (`start`), `worker` or `webhook`, waited until ready
 *   executionsStartedBy(logFile)        which executions a worker ran
 *   + everything of lib/queue-services.js (ensureServerPackages, serviceUser, startPostgres, startRedis, ...)
 *
 * Plain CommonJS, Node's standard library only.
 */
const fs = require('node:fs');
const path = require('node:path');
const { n8nFolder } = require('./lib/places');
const { sleep, spawnGroup, killGroupNow, waitForHttp } = require('./lib/processes');
const { n8nArgs, waitForN8nReady } = require('./lib/n8n-process');
const services = require('./lib/queue-services');
const { PG_DATABASE, PG_PASSWORD, PG_USER, tail } = services;

/** @typedef {import('./runtime').RuntimePaths} Runtime */
/** @typedef {import('node:child_process').ChildProcess} ChildProcess */
/** @typedef {import('./lib/queue-services').Service} Service */

// ---------------------------------------------------------------------------------------------------------------
// n8n in queue mode

/**
 * The variables every n8n process of the queue setup shares, on top of lib.n8nEnv(): queue mode, Redis, PostgreSQL,
 * manual executions on workers too, production webhooks only on the webhook processor (N8N_WEBHOOK_URL points
 * there, so trigger URLs and $execution.resumeUrl do too).
 * @param {Record<string, string>} base  n8nEnv()
 * @param {{ pgPort: number, redisPort: number, webhookPort: number,
 *   workerLock?: { lockDuration?: number, lockRenewTime?: number, stalledInterval?: number } }} opts
 * @returns {Record<string, string>}
 */
function queueEnv(base, { pgPort, redisPort, webhookPort, workerLock = {} }) {
	return {
		...base,
		EXECUTIONS_MODE: 'queue',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pgPort),
		DB_POSTGRESDB_DATABASE: PG_DATABASE,
		DB_POSTGRESDB_USER: PG_USER,
		DB_POSTGRESDB_PASSWORD: PG_PASSWORD,
		// n8n's default is 2 connections per process. Issue 34: 1,000 resume callbacks within a minute on the webhook
		// processor with 2 ended 148 executions in error ("timeout exceeded when trying to connect", 4,079 times in its
		// log) and answered 500 to many callbacks; 10 per process (4 processes, 40 of PostgreSQL's 100)
		DB_POSTGRESDB_POOL_SIZE: '10',
		N8N_WEBHOOK_URL: `http://127.0.0.1:${webhookPort}/`,
		...(workerLock.lockDuration
			? { QUEUE_WORKER_LOCK_DURATION: String(workerLock.lockDuration) }
			: {}),
		...(workerLock.lockRenewTime
			? { QUEUE_WORKER_LOCK_RENEW_TIME: String(workerLock.lockRenewTime) }
			: {}),
		...(workerLock.stalledInterval
			? { QUEUE_WORKER_STALLED_INTERVAL: String(workerLock.stalledInterval) }
			: {}),
	};
}

/**
 * Environment of one process: `role` is 'main' | 'worker' | 'webhook'. Each gets its own task-runner broker port
 * and event log; a worker its health endpoint (for readiness); main and the webhook processor their HTTP port.
 * @param {Record<string, string>} env
 * @param {{ name: string, role: Role, port: number, brokerPort: number }} opts
 * @returns {Record<string, string>}
 */
function processEnv(env, { name, role, port, brokerPort }) {
	/** @type {Record<string, string>} */
	const own = {
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: path.join(
			n8nFolder(env.N8N_USER_FOLDER),
			`n8nEventLog-${name}.log`,
		),
	};
	if (role === 'worker')
		Object.assign(own, {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(port),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		});
	else Object.assign(own, { N8N_PORT: String(port) });
	return { ...env, ...own };
}

/** @typedef {'main' | 'worker' | 'webhook'} Role */
/** @type {Record<Role, string[]>} */
const COMMANDS = { main: ['start'], worker: ['worker'], webhook: ['webhook'] };

/**
 * n8n keeps a crash marker (<user folder>/.n8n/crash.journal) while a process runs and, when a new process finds
 * one, logs "Last session crashed" and waits 10 s. Processes sharing one user folder would each find the marker
 * of the others: so each one is launched only after the previous has written its marker, which is then removed.
 */
/** @type {Promise<unknown>} */
let launching = Promise.resolve();
/**
 * @param {Record<string, string>} env
 * @param {() => ChildProcess} spawnIt
 * @returns {Promise<ChildProcess>}
 */
function launchOne(env, spawnIt) {
	const journal = path.join(n8nFolder(env.N8N_USER_FOLDER), 'crash.journal');
	const turn = launching.then(async () => {
		fs.rmSync(journal, { force: true });
		const child = spawnIt();
		const t0 = Date.now();
		while (!fs.existsSync(journal) && child.exitCode === null && Date.now() - t0 < 30000)
			await sleep(100);
		return child;
	});
	launching = turn.catch(() => undefined);
	return turn;
}

/**
 * Start one n8n process of the queue setup and wait until it is ready (main: REST API; worker and webhook
 * processor: /healthz/readiness). Output goes to `logFile`. Several can be started at once.
 * @param {Pick<Runtime, 'node' | 'n8nBin'>} runtime
 * @param {Record<string, string>} env  queueEnv()
 * @param {{ name: string, role: Role, port: number, brokerPort: number, logFile: string, args?: string[],
 *   timeoutMs?: number }} opts
 */
async function startQueueProcess(
	runtime,
	env,
	{ name, role, port, brokerPort, logFile, args = [], timeoutMs = 240000 },
) {
	const child = await launchOne(env, () =>
		spawnGroup(runtime.node, n8nArgs(runtime, ...COMMANDS[role], ...args), {
			cwd: env.N8N_USER_FOLDER,
			env: processEnv(env, { name, role, port, brokerPort }),
			logFile,
		}),
	);
	const url = `http://127.0.0.1:${port}`;
	try {
		if (role === 'main') await waitForN8nReady(url, { timeoutMs, proc: child, what: name });
		else await waitForHttp(`${url}/healthz/readiness`, { timeoutMs, proc: child, what: name });
	} catch (e) {
		killGroupNow(child);
		throw new Error(`${e.message}\n--- ${path.basename(logFile)} ---\n${tail(logFile, 40)}`);
	}
	return { child, name, role, port, brokerPort, url, logFile };
}

/**
 * Execution ids a worker started, from its log ("Worker started execution <id> (job <n>)").
 * @param {string} logFile
 * @returns {string[]}
 */
function executionsStartedBy(logFile) {
	let text = '';
	try {
		text = fs.readFileSync(logFile, 'utf8');
	} catch {
		return [];
	}
	return [...text.matchAll(/Worker started execution (\d+) \(job/g)].map((m) => m[1]);
}

module.exports = {
	...services,
	queueEnv,
	processEnv,
	startQueueProcess,
	executionsStartedBy,
};
