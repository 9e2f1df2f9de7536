// @ts-check
'use strict';
/**
 * n8n process control: the environment every n8n process of one instance shares, the n8n CLI (one command at a
 * time, tracked so a shutdown can stop it), the long-running `n8n start` / `worker` / `webhook` through
 * scripts/n8n-run.js (which adds n8n's JavaScript task runner), and waiting until n8n is ready.
 *
 *   n8nEnv(opts)                     environment for `n8n start` / `n8n import:*` (same encryption key for both!)
 *   n8nArgs(runtime, ...args)        arguments for runtime.node to run `n8n <args>` with its task runner
 *   runN8n(runtime, env, args)       one n8n CLI command; stopCliCommands() / killCliCommandsNow() stop them
 *   waitForHealthz / waitForN8nReady
 *
 * Plain CommonJS, Node's standard library only.
 */
const { execFile } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const { PORTS } = require('./places');
const { waitForHttp } = require('./processes');

/** @typedef {import('../runtime').RuntimePaths} Runtime */
/** @typedef {Record<string, string>} N8nEnv  every value set; N8N_USER_FOLDER always */

/** Fixed so that `n8n import:*` and `n8n start` agree, and a kept user folder keeps working across runs. */
const DEFAULT_ENCRYPTION_KEY = 'finverify-local-dev-key-not-a-secret-0001';

const N8N_VAR = /^(N8N_|DB_|EXECUTIONS_|GENERIC_TIMEZONE$|WEBHOOK_URL$|QUEUE_)/;
// Set from the options, never inherited: they define which instance this is.
const STRUCTURAL = new Set([
	'N8N_USER_FOLDER',
	'N8N_PORT',
	'N8N_RUNNERS_BROKER_PORT',
	'N8N_EDITOR_BASE_URL',
	'N8N_WEBHOOK_URL',
	'WEBHOOK_URL',
	'N8N_LISTEN_ADDRESS',
	'N8N_HOST',
	'N8N_PROTOCOL',
]);

/**
 * @typedef {object} OwnerWithHash  the owner n8n creates from N8N_INSTANCE_OWNER_* (see user-folder.js)
 * @property {string} email
 * @property {string} firstName
 * @property {string} lastName
 * @property {string} passwordHash
 */

/**
 * @typedef {object} N8nEnvOptions
 * @property {string} userFolder   N8N_USER_FOLDER (n8n keeps its data in <userFolder>/.n8n)
 * @property {number} [port]       default 5678
 * @property {number} [brokerPort] task-runner broker port, default port + 1 (never equal to the editor port)
 * @property {string} [encryptionKey]
 * @property {OwnerWithHash} [owner]  owner managed by env
 * @property {Pick<Runtime, 'node' | 'n8nVersion'>} [runtime]  runtimePaths() of scripts/runtime.js: its Node
 *                                 goes first on PATH (n8n spawns its JS task runner as plain `node` from PATH)
 * @property {boolean} [inheritN8nEnv]  let the caller's own N8N_* / DB_* / ... variables override the defaults
 *                                 (`npm start` does, so `N8N_LOG_LEVEL=debug npm start` works; tests do not)
 * @property {string} [sandboxUrl]  the simulator this n8n works with: a new FinVerify API credential's Simulator
 *                                 URL follows it (see simulatorUrlOverwrite)
 * @property {boolean} [burstSettings]  the settings for bursts of callbacks (default true; see burstEnv); false leaves
 *                                 n8n's own defaults, for benchmarks that measure them
 * @property {Record<string, string>} [extra]  more variables (win over everything)
 */

/** The Simulator URL a new FinVerify API credential starts with (SANDBOX_BASE_URL, nodes/shared/constants.ts). */
const CREDENTIAL_SIMULATOR_URL = `http://127.0.0.1:${PORTS.sandbox}`;

/**
 * n8n's credential overwrites (CREDENTIALS_OVERWRITE_DATA) that fill the Simulator URL of a FinVerify API credential
 * with the simulator this n8n works with, when that is not the credential's default: a credential created in the
 * editor then reaches the simulator `npm start` or start:queue started, whatever its port. n8n applies an
 * overwrite to an empty field only (the "FinVerify sandbox" credential keeps its own value) and its editor hides an
 * overwritten field. The caller's own CREDENTIALS_OVERWRITE_DATA is kept, and wins for the same field.
 * @param {string | undefined} sandboxUrl
 * @param {string | undefined} existing  CREDENTIALS_OVERWRITE_DATA of the environment
 * @returns {Record<string, string>}
 */
function simulatorUrlOverwrite(sandboxUrl, existing) {
	const url = (sandboxUrl || '').replace(/\/+$/, '');
	if (!url || url === CREDENTIAL_SIMULATOR_URL) return {};
	/** @type {Record<string, Record<string, unknown>>} */
	let data = {};
	if (existing) {
		try {
			data = JSON.parse(existing);
		} catch {
			return {}; // not JSON: n8n reports it at start; nothing to merge into
		}
	}
	const own = data.finVerifyApi || {};
	return {
		CREDENTIALS_OVERWRITE_DATA: JSON.stringify({
			...data,
			finVerifyApi: { sandboxUrl: url, ...own },
		}),
	};
}

/**
 * The n8n settings for bursts of callbacks, which docs/scaling.md recommends
 * (#many-waiting-executions-resumed-at-once).
 * Issue 34: 500 waiting executions resumed within a minute on SQLite with n8n 2.41.1's defaults ended some in
 * `LockAcquireTimeoutError: Timeout waiting for lock SqliteWriteConnectionMutex` (one write connection; a write waits
 * at most 60 s, @n8n/db getSqliteConnectionOptions) and left some `running` for good; with these three together
 * (measured on a quieter machine), 500 of 500 resumed and every callback was answered 200 at its first attempt.
 * - N8N_CONCURRENCY_PRODUCTION_LIMIT: at most 10 production executions (webhook, trigger, resume) run at once;
 *   more wait in n8n's in-memory queue (regular mode; queue mode ignores it), a throttled resume keeping its
 *   callback open until it runs. 2.41.1 releases the reservation on every failure path of ActiveExecutions.add
 *   and when the run ends, so a failed resume does not keep its slot. 1.x has the same setting.
 * - DB_SQLITE_POOL_SIZE: SQLite with one write connection and 4 read connections (WAL) rather than 3. The pooled
 *   mode is 2.x's only one; 1.x's default, the legacy mode (pool size 0, deprecated by n8n at start-up), updates a
 *   finished execution's status and its data in two statements without a transaction, so a REST read in between
 *   saw `success` with no run data (`npm run test:n8n1`, the journey example): 1.x gets the pool either way.
 * - N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE (2.x; n8n 1.123 has no such setting): an expression isolate is created only
 *   when an expression is evaluated, not for every webhook call and every resume (n8n-workflow
 *   Expression.acquireIsolate, @n8n/expression-runtime's lazyAcquire). The FinVerify Trigger and the resume URL
 *   evaluate none per call.
 * N8N_EXPRESSION_ENGINE_ALLOW_WEBHOOK_ISOLATE_SKIP is not set: it is true by default and only ever skips the
 * isolate for n8n's own Webhook node with static parameters (2.41.1 live-webhooks.js webhookPhaseNeedsIsolate);
 * for the FinVerify Trigger and for resume URLs (waiting-webhooks.js always acquires) it changes nothing.
 * @param {boolean} n8n1
 * @param {boolean} enabled  false: n8n's own defaults (1.x keeps the pool, see above)
 * @returns {Record<string, string>}
 */
function burstEnv(n8n1, enabled) {
	if (!enabled) return n8n1 ? { DB_SQLITE_POOL_SIZE: '3' } : {};
	return {
		N8N_CONCURRENCY_PRODUCTION_LIMIT: '10',
		DB_SQLITE_POOL_SIZE: '4',
		...(n8n1 ? {} : { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }),
	};
}

/**
 * Environment for every n8n process of one instance (CLI commands and `start` must share it).
 * @param {N8nEnvOptions} opts
 * @returns {N8nEnv}
 */
function n8nEnv(
	{
		userFolder,
		port = PORTS.n8n,
		brokerPort,
		encryptionKey = DEFAULT_ENCRYPTION_KEY,
		owner,
		runtime,
		inheritN8nEnv = false,
		sandboxUrl,
		burstSettings = true,
		extra = {},
	} = /** @type {any} */ ({}),
) {
	if (!userFolder) throw new Error('n8nEnv: userFolder is required');
	/** @type {Record<string, string>} */
	const env = {};
	/** @type {Record<string, string>} */
	const inherited = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (v === undefined) continue;
		if (/^npm_/i.test(k)) continue; // `npm start` / jest leak npm_config_* (ignore-scripts, ...) and npm_package_*
		if (k === 'NODE_OPTIONS' || k === 'JEST_WORKER_ID') continue;
		if (N8N_VAR.test(k) || k.startsWith('N8N_INSTANCE_OWNER_')) {
			if (inheritN8nEnv && !STRUCTURAL.has(k) && !k.startsWith('N8N_INSTANCE_OWNER_'))
				inherited[k] = v;
			continue;
		}
		env[k] = v;
	}
	const broker = brokerPort || Number(port) + 1;
	if (Number(broker) === Number(port))
		throw new Error(`N8N_RUNNERS_BROKER_PORT must differ from N8N_PORT (${port})`);
	const n8n1 = Boolean(runtime && runtime.n8nVersion.startsWith('1.'));
	Object.assign(env, {
		NODE_ENV: 'production', // NOT 'test' (jest sets it): n8n then refuses to load nodes
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		DB_TYPE: 'sqlite',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(port),
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(broker),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		// Nothing but 127.0.0.1: no MCP-server registry refresh (a 2.x module: 1.x refuses unknown module
		// names), no verified-packages list from api.n8n.io.
		...(n8n1 ? {} : { N8N_DISABLED_MODULES: 'mcp-registry' }),
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// Task runners, set explicitly (n8n 2.41 warns about every default here that will change):
		// external mode, because internal mode is deprecated and always tries a Python runner too ("Python 3 is
		// missing"). scripts/n8n-run.js starts the JavaScript runner next to `n8n start` / `n8n worker` with this
		// per-instance token; Python is not used by anything here.
		N8N_RUNNERS_MODE: 'external',
		N8N_RUNNERS_AUTH_TOKEN: crypto.randomBytes(24).toString('hex'),
		N8N_RUNNERS_TASK_TIMEOUT: '300', // today's default (5 min), before it drops to 60 s
		// The Compression node's limits at their announced future defaults (this package does not use the node).
		N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES: String(256 * 1024 * 1024),
		N8N_COMPRESSION_NODE_MAX_ZIP_ENTRIES: '1000',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		// Binary data (report files) on disk, not in memory or the database: 2.x's default, set for 1.x too.
		...(n8n1 ? { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } : {}),
		// bursts of callbacks: see burstEnv
		...burstEnv(n8n1, burstSettings),
		N8N_LOG_LEVEL: 'info',
		GENERIC_TIMEZONE: 'UTC',
	});
	Object.assign(env, inherited);
	Object.assign(env, simulatorUrlOverwrite(sandboxUrl, env.CREDENTIALS_OVERWRITE_DATA));
	if (runtime) env.PATH = [path.dirname(runtime.node), env.PATH || ''].join(path.delimiter);
	if (owner) {
		Object.assign(env, {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: owner.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: owner.firstName,
			N8N_INSTANCE_OWNER_LAST_NAME: owner.lastName,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: owner.passwordHash,
		});
	}
	return Object.assign(env, extra);
}

/** The wrapper that runs the n8n CLI and, for `start` and `worker`, n8n's JavaScript task runner (external mode). */
const N8N_RUN = path.join(__dirname, '..', 'n8n-run.js');

/**
 * Arguments for `runtime.node` to run `n8n <args…>` through scripts/n8n-run.js:
 * spawn(runtime.node, n8nArgs(runtime, 'start'), …). Stopping its process group stops n8n and the runner.
 * @param {Pick<Runtime, 'n8nBin'>} runtime
 * @param {...string} args
 */
function n8nArgs(runtime, ...args) {
	return [N8N_RUN, runtime.n8nBin, ...args];
}

// ---------------------------------------------------------------------------------------------------------------
// the n8n CLI

/** n8n CLI commands still running (runN8n), so a shutdown can stop them too: stopCliCommands(). */
/** @type {Set<import('node:child_process').ChildProcess>} */
const cliCommands = new Set();

/**
 * Run one n8n CLI command with the runtime's Node. Rejects with stdout/stderr in the message.
 * @param {Pick<Runtime, 'node' | 'n8nBin'>} runtime
 * @param {NodeJS.ProcessEnv} env
 * @param {string[]} args
 * @param {{ timeoutMs?: number }} [opts]
 * @returns {Promise<{ stdout: string, stderr: string }>}
 */
function runN8n(runtime, env, args, { timeoutMs = 180000 } = {}) {
	return new Promise((resolve, reject) => {
		const child = execFile(
			runtime.node,
			[runtime.n8nBin, ...args],
			{ env, maxBuffer: 64 << 20, timeout: timeoutMs },
			(err, stdout, stderr) => {
				if (err) {
					err.message = `n8n ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`.trim();
					Object.assign(err, { stdout, stderr });
					return reject(err);
				}
				resolve({ stdout, stderr });
			},
		);
		cliCommands.add(child);
		child.on('exit', () => cliCommands.delete(child));
	});
}

/** Synchronous last resort (process 'exit' handler): SIGKILL every running n8n CLI command. */
function killCliCommandsNow() {
	for (const c of cliCommands) c.kill('SIGKILL');
}

/**
 * SIGTERM every running n8n CLI command, SIGKILL what is left after graceMs; resolves when all are gone.
 * @param {{ graceMs?: number }} [opts]
 * @returns {Promise<number>} how many were running
 */
async function stopCliCommands({ graceMs = 5000 } = {}) {
	const running = [...cliCommands].filter((c) => c.exitCode === null && c.signalCode === null);
	const gone = running.map((c) => new Promise((r) => c.once('exit', r)));
	for (const c of running) c.kill('SIGTERM');
	const timer = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), graceMs);
	await Promise.all(gone);
	clearTimeout(timer);
	return running.length;
}

// ---------------------------------------------------------------------------------------------------------------
// readiness

/** @param {string} baseUrl @param {import('./processes').WaitOptions} [opts] */
function waitForHealthz(baseUrl, opts = {}) {
	return waitForHttp(`${baseUrl.replace(/\/$/, '')}/healthz`, { what: 'n8n', ...opts });
}

/**
 * n8n's /healthz answers before the REST API and the editor are ready; /healthz/readiness waits for the DB.
 * @param {string} baseUrl
 * @param {import('./processes').WaitOptions} [opts]
 */
async function waitForN8nReady(baseUrl, opts = {}) {
	await waitForHealthz(baseUrl, opts);
	await waitForHttp(`${baseUrl.replace(/\/$/, '')}/healthz/readiness`, {
		what: 'n8n readiness',
		...opts,
	});
	// The REST API is mounted last; /rest/settings is public.
	await waitForHttp(`${baseUrl.replace(/\/$/, '')}/rest/settings`, {
		what: 'n8n REST API',
		...opts,
	});
}

module.exports = {
	DEFAULT_ENCRYPTION_KEY,
	CREDENTIAL_SIMULATOR_URL,
	n8nEnv,
	simulatorUrlOverwrite,
	n8nArgs,
	runN8n,
	stopCliCommands,
	killCliCommandsNow,
	waitForHealthz,
	waitForN8nReady,
};
