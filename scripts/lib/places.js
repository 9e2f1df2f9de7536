// @ts-check
'use strict';
/**
 * Every port, folder and environment variable the scripts know, in one place: the other scripts and modules read
 * them from here and never spell a default port, a cache folder or a variable name themselves.
 *
 *   ENV                     the names of the environment variables the scripts read (FINVERIFY_*, and n8n's own)
 *   PORTS, RESERVED_PORTS   `npm start`'s and `npm run start:queue`'s default ports; the ones tests never take
 *   FOLDERS                 the repository's folders and its .cache/ layout
 *   runtimeDir(version)     the cached n8n runtime's folder (FINVERIFY_RUNTIME_DIR or .cache/runtime/n8n-<version>)
 *   n8nFolder / nodesFolder / logsFolder / logPath / importFolder    inside one n8n user folder
 *   startPlaces(env) / queuePlaces(env)   the ports and folders of `npm start` / `npm run start:queue`
 *
 * Plain CommonJS, Node's standard library only: scripts/bootstrap.js and scripts/runtime.js use it before
 * node_modules exists.
 */
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Environment variables the scripts read (the names; the values stay in process.env). */
const ENV = Object.freeze({
	// the cached runtime (scripts/runtime.js)
	RUNTIME_DIR: 'FINVERIFY_RUNTIME_DIR', // folder of the cached Node + n8n (default FOLDERS.runtimes/n8n-<version>)
	N8N_LINE: 'FINVERIFY_N8N_LINE', // 2 (default) or 1: which n8n line to run
	// `npm start` and `npm run start:queue`
	N8N_PORT: 'N8N_PORT', // n8n's editor/REST port (5678; queue mode 5690)
	BROKER_PORT: 'N8N_RUNNERS_BROKER_PORT', // n8n's task-runner broker (default N8N_PORT + 1)
	USER_FOLDER: 'N8N_USER_FOLDER', // n8n keeps its data in <user folder>/.n8n
	SANDBOX_PORT: 'SANDBOX_PORT', // the sandbox (4010; queue mode 4011)
	SKIP_BUILD: 'FINVERIFY_SKIP_BUILD', // 1: use dist/ as it is
	REIMPORT: 'FINVERIFY_REIMPORT', // 1: import the credential and the examples even if unchanged
	QUIET: 'FINVERIFY_QUIET', // 1: no n8n/sandbox log lines on the console (`npm start`)
	EXAMPLES_DIR: 'FINVERIFY_EXAMPLES_DIR', // the example workflows to import (default examples/)
	OWNER_EMAIL: 'FINVERIFY_OWNER_EMAIL', // the owner login (default owner@example.com)
	OWNER_PASSWORD: 'FINVERIFY_OWNER_PASSWORD',
	// queue mode only
	WORKERS: 'FINVERIFY_WORKERS', // number of `n8n worker` processes (2)
	PG_PORT: 'FINVERIFY_PG_PORT', // PostgreSQL (5433)
	REDIS_PORT: 'FINVERIFY_REDIS_PORT', // Redis (6380)
	QUEUE_DATA_DIR: 'FINVERIFY_QUEUE_DATA_DIR', // PostgreSQL/Redis data (default FOLDERS.queueServices)
	SERVICE_USER: 'FINVERIFY_SERVICE_USER', // account PostgreSQL/Redis run as when started by root (finverify-db)
	PG_BIN: 'FINVERIFY_PG_BIN', // folder with initdb + postgres (default: newest /usr/lib/postgresql/<major>/bin)
	REDIS_SERVER: 'FINVERIFY_REDIS_SERVER', // the redis-server binary
	// `npm test`
	TEST_STEPS: 'TEST_STEPS', // only these steps of scripts/test-all.js, comma-separated
	CHROMIUM_PATH: 'CHROMIUM_PATH', // the browser suite's Chromium (default FOLDERS.chromium)
	HOGS: 'FINVERIFY_HOGS', // scripts/loaded.js: how many busy processes run beside the tests (default: one per core)
});

/** Default ports. `npm start` and `npm run start:queue` use different ones, so both can run side by side. */
const PORTS = Object.freeze({
	n8n: 5678, // `npm start`: editor + REST API
	broker: 5679, // `npm start`: n8n's task-runner broker (n8n + 1)
	sandbox: 4010, // `npm start`: the sandbox
	queueN8n: 5690, // `npm run start:queue`: main; the webhook processor is +2, workers and brokers follow
	queueSandbox: 4011,
	postgres: 5433,
	redis: 6380,
});

/** `npm start`'s ports: the tests, the benchmarks and the queue suite never take them (one may be running). */
const RESERVED_PORTS = Object.freeze([PORTS.n8n, PORTS.broker, PORTS.sandbox]);

const CACHE = path.join(REPO_ROOT, '.cache');

/** The repository's folders and its .cache/ layout (all absolute). */
const FOLDERS = Object.freeze({
	repo: REPO_ROOT,
	dist: path.join(REPO_ROOT, 'dist'),
	examples: path.join(REPO_ROOT, 'examples'),
	sandboxMain: path.join(REPO_ROOT, 'sandbox', 'main.cts'),
	workflows: path.join(REPO_ROOT, '.github', 'workflows'),
	cache: CACHE,
	runtimes: path.join(CACHE, 'runtime'), // one folder per n8n version: n8n-<version>
	userFolder: path.join(CACHE, 'n8n-home'), // `npm start`'s n8n user folder
	queueUserFolder: path.join(CACHE, 'n8n-queue-home'), // `npm run start:queue`'s
	queueServices: path.join(CACHE, 'queue-services'), // its PostgreSQL and Redis data
	// the system's packages (Debian), used when present
	chromium: '/usr/bin/chromium',
	postgresVersions: '/usr/lib/postgresql', // <major>/bin/{initdb,postgres}
	redisServer: '/usr/bin/redis-server',
});

/**
 * The cached runtime's folder for an n8n version: FINVERIFY_RUNTIME_DIR, else .cache/runtime/n8n-<version>.
 * @param {string} n8nVersion
 */
function runtimeDir(n8nVersion, env = process.env) {
	return path.resolve(env[ENV.RUNTIME_DIR] || path.join(FOLDERS.runtimes, `n8n-${n8nVersion}`));
}

// ---------------------------------------------------------------------------------------------------------------
// inside one n8n user folder

/** n8n's own data folder (database, settings, installed nodes): <user folder>/.n8n. @param {string} userFolder */
function n8nFolder(userFolder) {
	return path.join(userFolder, '.n8n');
}

/** Where n8n looks for installed community packages. @param {string} userFolder */
function nodesFolder(userFolder) {
	return path.join(n8nFolder(userFolder), 'nodes');
}

/** The scripts' logs (n8n, sandbox, PostgreSQL, Redis): <user folder>/logs. @param {string} userFolder */
function logsFolder(userFolder) {
	return path.join(userFolder, 'logs');
}

/** @param {string} userFolder @param {string} name  e.g. 'n8n', 'sandbox', 'worker-1' */
function logPath(userFolder, name) {
	return path.join(logsFolder(userFolder), `${name}.log`);
}

/** Files handed to the n8n CLI (import:*, export:*), removed after use. @param {string} userFolder */
function importFolder(userFolder) {
	return path.join(userFolder, 'import');
}

// ---------------------------------------------------------------------------------------------------------------
// the places of `npm start` and `npm run start:queue`, defaults overridden by the environment

/** @param {string | undefined} value @param {number} fallback */
const port = (value, fallback) => Number(value || fallback);
const url = (/** @type {number} */ p) => `http://127.0.0.1:${p}`;

/** @typedef {Record<string, string | undefined>} Env */

/** Owner e-mail/password overrides (FINVERIFY_OWNER_EMAIL / _PASSWORD). @param {Env} [env] */
function ownerOverrides(env = process.env) {
	return {
		...(env[ENV.OWNER_EMAIL] ? { email: /** @type {string} */ (env[ENV.OWNER_EMAIL]) } : {}),
		...(env[ENV.OWNER_PASSWORD]
			? { password: /** @type {string} */ (env[ENV.OWNER_PASSWORD]) }
			: {}),
	};
}

/**
 * What both start scripts have: n8n's and the sandbox's ports and URLs, the user folder, the examples.
 * @param {Env} env
 * @param {{ n8nPort: number, sandboxPort: number, userFolder: string }} defaults
 */
function commonPlaces(env, defaults) {
	const n8nPort = port(env[ENV.N8N_PORT], defaults.n8nPort);
	const sandboxPort = port(env[ENV.SANDBOX_PORT], defaults.sandboxPort);
	const examplesDir = env[ENV.EXAMPLES_DIR];
	return {
		n8nPort,
		sandboxPort,
		userFolder: path.resolve(env[ENV.USER_FOLDER] || defaults.userFolder),
		n8nUrl: url(n8nPort),
		sandboxUrl: url(sandboxPort),
		examplesDir: examplesDir ? path.resolve(examplesDir) : FOLDERS.examples,
	};
}

/** Ports, folders and URLs of `npm start`. @param {Env} [env] */
function startPlaces(env = process.env) {
	const common = commonPlaces(env, {
		n8nPort: PORTS.n8n,
		sandboxPort: PORTS.sandbox,
		userFolder: FOLDERS.userFolder,
	});
	return {
		...common,
		brokerPort: port(env[ENV.BROKER_PORT], common.n8nPort + 1),
		/** which credential/examples were imported into which database (see importExamplesOnce) */
		importState: path.join(n8nFolder(common.userFolder), 'finverify-imports.json'),
		database: path.join(n8nFolder(common.userFolder), 'database.sqlite'),
	};
}

/**
 * Ports, folders and URLs of `npm run start:queue`: main on N8N_PORT (5690) with its broker on +1, the webhook
 * processor on +2 (broker +3), then each worker a health port and a broker port.
 * @param {Env} [env]
 */
function queuePlaces(env = process.env) {
	const common = commonPlaces(env, {
		n8nPort: PORTS.queueN8n,
		sandboxPort: PORTS.queueSandbox,
		userFolder: FOLDERS.queueUserFolder,
	});
	const { n8nPort } = common;
	const webhookPort = n8nPort + 2;
	const workers = Math.max(1, Number(env[ENV.WORKERS] || 2));
	/** @type {{ name: string, role: 'main' | 'worker' | 'webhook', port: number, brokerPort: number }[]} */
	const processes = [
		{ name: 'main', role: 'main', port: n8nPort, brokerPort: n8nPort + 1 },
		{ name: 'webhook', role: 'webhook', port: webhookPort, brokerPort: webhookPort + 1 },
		...Array.from({ length: workers }, (_, i) => ({
			name: `worker-${i + 1}`,
			role: /** @type {const} */ ('worker'),
			port: webhookPort + 2 + 2 * i,
			brokerPort: webhookPort + 3 + 2 * i,
		})),
	];
	return {
		...common,
		webhookPort,
		workers,
		processes,
		pgPort: port(env[ENV.PG_PORT], PORTS.postgres),
		redisPort: port(env[ENV.REDIS_PORT], PORTS.redis),
		dataDir: path.resolve(env[ENV.QUEUE_DATA_DIR] || FOLDERS.queueServices),
		webhookUrl: url(webhookPort),
		importState: path.join(n8nFolder(common.userFolder), 'finverify-queue-imports.json'),
	};
}

module.exports = {
	REPO_ROOT,
	ENV,
	PORTS,
	RESERVED_PORTS,
	FOLDERS,
	runtimeDir,
	n8nFolder,
	nodesFolder,
	logsFolder,
	logPath,
	importFolder,
	ownerOverrides,
	startPlaces,
	queuePlaces,
};
