'use strict';
/**
 * Shared pieces for running the real n8n app with this package installed: used by `npm start` (scripts/start.js)
 * and by the e2e tests (test/e2e/). Plain CommonJS, no dependencies beyond Node's standard library (and, for the
 * owner's password hash, the `bcryptjs` that ships inside the cached n8n install).
 *
 *   n8nEnv(opts)                    environment for `n8n start` / `n8n import:*` (same key for both!)
 *   installPackage(userFolder)      copy package.json + dist/ where n8n looks for installed community packages
 *   runN8n(runtime, env, args)      one n8n CLI command (import:credentials, import:workflow, export:nodes, ...)
 *   importCredential / importWorkflows / prepareWorkflow
 *   waitForHttp / waitForHealthz, login, ensureOwner
 *   spawnGroup / stopGroup          child processes in their own process group, stopped as a whole
 */
const { spawn, execFile } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..');
const PACKAGE_NAME = require(path.join(REPO_ROOT, 'package.json')).name; // n8n-nodes-finverify
const NODE_TYPES = {
	action: `${PACKAGE_NAME}.finVerify`,
	trigger: `${PACKAGE_NAME}.finVerifyTrigger`,
};
const CREDENTIAL_TYPE = 'finVerifyApi';

/** Fixed so that `n8n import:*` and `n8n start` agree, and a kept user folder keeps working across runs. */
const DEFAULT_ENCRYPTION_KEY = 'finverify-local-dev-key-not-a-secret-0001';

const DEFAULT_OWNER = Object.freeze({
	email: 'owner@example.com',
	firstName: 'FinVerify',
	lastName: 'Developer',
	password: 'FinVerify-Sandbox-1', // n8n's rules: 8-64 chars, a digit, an upper-case letter
});

/** The sandbox credential `npm start` and the e2e tests import (id: n8n ids are 16 alphanumerics). */
const SANDBOX_CREDENTIAL = Object.freeze({
	id: 'finVerifySandbox',
	name: 'FinVerify sandbox',
	type: CREDENTIAL_TYPE,
});

function sandboxCredentialData(sandboxUrl) {
	return {
		environment: 'sandbox',
		sandboxUrl,
		apiKey: 'sandbox-key',
		apiSecret: 'sandbox-secret',
		refreshToken: 'sandbox-refresh-token',
		webhookSecret: 'sandbox-webhook-secret',
	};
}

// ---------------------------------------------------------------------------------------------------------------
// environment

/**
 * Environment for every n8n process of one instance (CLI commands and `start` must share it).
 * @param {object} o
 * @param {string} o.userFolder   N8N_USER_FOLDER (n8n keeps its data in <userFolder>/.n8n)
 * @param {number} [o.port=5678]
 * @param {number} [o.brokerPort] task-runner broker port, default port + 1 (never equal to the editor port)
 * @param {string} [o.encryptionKey]
 * @param {object} [o.owner]      { email, firstName, lastName, passwordHash } -> owner managed by env
 * @param {object} [o.runtime]    runtimePaths() of scripts/runtime.js: its Node 24 goes first on PATH (n8n spawns its
 *                                JS task runner as plain `node` from PATH)
 * @param {boolean} [o.inheritN8nEnv=false]  let the caller's own N8N_* / DB_* / ... variables override the defaults
 *                                (`npm start` does, so `N8N_LOG_LEVEL=debug npm start` works; tests do not)
 * @param {object} [o.extra]      more variables (win over everything)
 */
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

function n8nEnv({
	userFolder,
	port = 5678,
	brokerPort,
	encryptionKey = DEFAULT_ENCRYPTION_KEY,
	owner,
	runtime,
	inheritN8nEnv = false,
	extra = {},
} = {}) {
	if (!userFolder) throw new Error('n8nEnv: userFolder is required');
	const env = {};
	const inherited = {};
	for (const [k, v] of Object.entries(process.env)) {
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
		...(runtime && runtime.n8nVersion.startsWith('1.')
			? {}
			: { N8N_DISABLED_MODULES: 'mcp-registry' }),
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
		...(runtime && runtime.n8nVersion.startsWith('1.')
			? { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' }
			: {}),
		N8N_LOG_LEVEL: 'info',
		GENERIC_TIMEZONE: 'UTC',
	});
	Object.assign(env, inherited);
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
const N8N_RUN = path.join(__dirname, 'n8n-run.js');

/**
 * Arguments for `runtime.node` to run `n8n <args…>` through scripts/n8n-run.js:
 * spawn(runtime.node, n8nArgs(runtime, 'start'), …). Stopping its process group stops n8n and the runner.
 */
function n8nArgs(runtime, ...args) {
	return [N8N_RUN, runtime.n8nBin, ...args];
}

/** bcrypt hash of the owner's password, made with the bcryptjs that n8n itself uses (inside the runtime). */
function bcryptHash(runtime, password) {
	const bcrypt = require(
		require.resolve('bcryptjs', {
			paths: [runtime.n8nModules, path.join(runtime.n8nModules, 'n8n')],
		}),
	);
	return bcrypt.hashSync(password, 10);
}

/** Owner (with passwordHash) for n8nEnv({ owner }). */
function ownerWithHash(runtime, owner = DEFAULT_OWNER) {
	return { ...owner, passwordHash: bcryptHash(runtime, owner.password) };
}

// ---------------------------------------------------------------------------------------------------------------
// the package, installed the way n8n installs community packages

function nodesFolder(userFolder) {
	return path.join(userFolder, '.n8n', 'nodes');
}

/**
 * Copy package.json + dist/ (no node_modules: n8n-workflow comes from n8n) to
 * <userFolder>/.n8n/nodes/node_modules/<name>. Node types are then `<name>.finVerify` / `<name>.finVerifyTrigger`.
 */
function installPackage(userFolder, { packageRoot = REPO_ROOT } = {}) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
	const dist = path.join(packageRoot, 'dist');
	if (!fs.existsSync(dist))
		throw new Error(`${dist} is missing: build the package first (npm run build)`);
	const nodes = nodesFolder(userFolder);
	const dest = path.join(nodes, 'node_modules', pkg.name);
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	fs.copyFileSync(path.join(packageRoot, 'package.json'), path.join(dest, 'package.json'));
	fs.cpSync(dist, path.join(dest, 'dist'), { recursive: true });
	// n8n keeps a package.json in the nodes folder listing what is installed there; keep it consistent.
	const nodesPj = path.join(nodes, 'package.json');
	let manifest = { name: 'installed-nodes', private: true, dependencies: {} };
	try {
		manifest = JSON.parse(fs.readFileSync(nodesPj, 'utf8'));
	} catch {
		/* first install */
	}
	manifest.dependencies = { ...(manifest.dependencies || {}), [pkg.name]: pkg.version };
	fs.writeFileSync(nodesPj, JSON.stringify(manifest, null, 2) + '\n');
	return dest;
}

// ---------------------------------------------------------------------------------------------------------------
// CLI

/** Run one n8n CLI command with the runtime's Node 24. Rejects with stdout/stderr in the message. */
/**
 * Activate a workflow from the CLI (before `n8n start`: a running n8n does not see it). n8n 2.x calls this
 * `publish:workflow`; 1.x has `update:workflow --active=true`.
 */
function publishWorkflow(runtime, env, id) {
	const args = runtime.n8nVersion.startsWith('1.')
		? ['update:workflow', `--id=${id}`, '--active=true']
		: ['publish:workflow', `--id=${id}`];
	return runN8n(runtime, env, args);
}

/** n8n CLI commands still running (runN8n), so a shutdown can stop them too: stopCliCommands(). */
const cliCommands = new Set();

function runN8n(runtime, env, args, { timeoutMs = 180000 } = {}) {
	return new Promise((resolve, reject) => {
		const child = execFile(
			runtime.node,
			[runtime.n8nBin, ...args],
			{ env, maxBuffer: 64 << 20, timeout: timeoutMs },
			(err, stdout, stderr) => {
				if (err) {
					err.message = `n8n ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`.trim();
					err.stdout = stdout;
					err.stderr = stderr;
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

/** SIGTERM every running n8n CLI command, SIGKILL what is left after graceMs; resolves when all are gone. */
async function stopCliCommands({ graceMs = 5000 } = {}) {
	const running = [...cliCommands].filter((c) => c.exitCode === null && c.signalCode === null);
	const gone = running.map((c) => new Promise((r) => c.once('exit', r)));
	for (const c of running) c.kill('SIGTERM');
	const timer = setTimeout(() => running.forEach((c) => c.kill('SIGKILL')), graceMs);
	await Promise.all(gone);
	clearTimeout(timer);
	return running.length;
}

function tmpFile(userFolder, name, data) {
	const dir = path.join(userFolder, 'import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/** `n8n import:credentials` of one credential with plain `data` (n8n encrypts it on import). */
async function importCredential(runtime, env, { id, name, type, data }) {
	const file = tmpFile(env.N8N_USER_FOLDER, `credential-${id}.json`, [{ id, name, type, data }]);
	try {
		return await runN8n(runtime, env, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true }); // plain secrets: do not leave them lying around
	}
}

/** A stable n8n id (16 alphanumerics) derived from a string, for example the example file's name. */
function stableId(seed) {
	const h = crypto.createHash('sha256').update(seed).digest();
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	let id = '';
	for (let i = 0; i < 16; i++) id += abc[h[i] % abc.length];
	return id;
}

/**
 * Make an example workflow importable: node types CUSTOM.x -> <package>.x, our credential on every node that
 * uses a finVerifyApi credential (and on our nodes), a stable id, not active.
 */
function prepareWorkflow(wf, { id, credential = SANDBOX_CREDENTIAL } = {}) {
	const ref = { id: credential.id, name: credential.name };
	const nodes = (wf.nodes || []).map((n) => {
		const node = { ...n };
		if (typeof node.type === 'string' && node.type.startsWith('CUSTOM.'))
			node.type = `${PACKAGE_NAME}.${node.type.slice(7)}`;
		const ours = typeof node.type === 'string' && node.type.startsWith(`${PACKAGE_NAME}.`);
		const creds = { ...(node.credentials || {}) };
		if (ours || CREDENTIAL_TYPE in creds) creds[CREDENTIAL_TYPE] = ref;
		if (Object.keys(creds).length) node.credentials = creds;
		return node;
	});
	return { ...wf, id: wf.id || id, nodes, active: false };
}

/** Read examples/*.json (a workflow or an array of workflows per file). */
function readExampleWorkflows(dir = path.join(REPO_ROOT, 'examples')) {
	if (!fs.existsSync(dir)) return [];
	const out = [];
	for (const f of fs
		.readdirSync(dir)
		.filter((x) => x.endsWith('.json'))
		.sort()) {
		const parsed = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
		const list = Array.isArray(parsed) ? parsed : [parsed];
		list.forEach((wf, i) => {
			if (wf && Array.isArray(wf.nodes))
				out.push({ file: f, workflow: prepareWorkflow(wf, { id: stableId(`${f}#${i}`) }) });
		});
	}
	return out;
}

/** The addresses the example workflows are written for: `npm start` with its default ports. */
const EXAMPLE_N8N_URL = 'http://127.0.0.1:5678';
const EXAMPLE_SANDBOX_URL = 'http://127.0.0.1:4010';

/**
 * Point an example at the actual n8n and sandbox addresses: every string value that starts with
 * http://127.0.0.1:5678 (or localhost:5678) / http://127.0.0.1:4010 gets the given base URL instead (for example
 * the bank statement journey's trigger URL, the HTTP Request node's URL). A no-op with the default ports.
 */
function localizeWorkflow(wf, { n8nUrl = EXAMPLE_N8N_URL, sandboxUrl = EXAMPLE_SANDBOX_URL } = {}) {
	const swaps = [
		[/(?<![\w.])http:\/\/(?:127\.0\.0\.1|localhost):5678(?!\d)/g, n8nUrl.replace(/\/$/, '')],
		[/(?<![\w.])http:\/\/(?:127\.0\.0\.1|localhost):4010(?!\d)/g, sandboxUrl.replace(/\/$/, '')],
	];
	const walk = (v) => {
		if (typeof v === 'string') return swaps.reduce((s, [re, url]) => s.replace(re, url), v);
		if (Array.isArray(v)) return v.map(walk);
		if (v && typeof v === 'object')
			return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
		return v;
	};
	return walk(wf);
}

/** Workflows with a FinVerify Trigger (they only receive events once published). */
function hasFinVerifyTrigger(wf) {
	return (wf.nodes || []).some((n) => n.type === NODE_TYPES.trigger && !n.disabled);
}

/** `n8n import:workflow` of prepared workflows (one file, one n8n process). */
async function importWorkflows(runtime, env, workflows, { name = 'workflows.json' } = {}) {
	if (!workflows.length) return null;
	const file = tmpFile(env.N8N_USER_FOLDER, name, workflows);
	try {
		return await runN8n(runtime, env, ['import:workflow', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** `n8n export:nodes` -> the list of node type names n8n loads (a cheap "does the package load" check). */
async function exportNodeTypes(runtime, env) {
	const file = path.join(env.N8N_USER_FOLDER, 'import', `nodes-${process.pid}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	await runN8n(runtime, env, ['export:nodes', `--output=${file}`]);
	const list = JSON.parse(fs.readFileSync(file, 'utf8'));
	fs.rmSync(file, { force: true });
	return list.map((n) => n.name);
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

/** Minimal HTTP client (127.0.0.1 only in practice): resolves { status, headers, body, json }. */
function request(url, { method = 'GET', headers = {}, body, timeoutMs = 10000 } = {}) {
	return new Promise((resolve, reject) => {
		const data =
			body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				headers: {
					...(data !== undefined
						? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }
						: {}),
					...headers,
				},
				timeout: timeoutMs,
			},
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let json;
					try {
						json = JSON.parse(text);
					} catch {
						/* not JSON */
					}
					resolve({ status: res.statusCode, headers: res.headers, body: text, json });
				});
			},
		);
		req.on('timeout', () =>
			req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)),
		);
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

/**
 * Poll `url` until it answers 2xx. `proc` (optional ChildProcess): give up early if it exits.
 */
async function waitForHttp(url, { timeoutMs = 120000, intervalMs = 500, proc, what = url } = {}) {
	const t0 = Date.now();
	let last = '';
	while (Date.now() - t0 < timeoutMs) {
		if (proc && proc.exitCode !== null)
			throw new Error(`${what}: the process exited (code ${proc.exitCode}) before ${url} answered`);
		if (proc && proc.signalCode)
			throw new Error(
				`${what}: the process was killed (${proc.signalCode}) before ${url} answered`,
			);
		try {
			const r = await request(url, { timeoutMs: 5000 });
			if (r.status >= 200 && r.status < 300) return r;
			last = `HTTP ${r.status}`;
		} catch (e) {
			last = e.code || e.message;
		}
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	throw new Error(`${what}: no answer from ${url} within ${timeoutMs / 1000} s (last: ${last})`);
}

function waitForHealthz(baseUrl, opts = {}) {
	return waitForHttp(`${baseUrl.replace(/\/$/, '')}/healthz`, { what: 'n8n', ...opts });
}

/** n8n's /healthz answers before the REST API and the editor are ready; /healthz/readiness waits for the DB. */
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

/** POST /rest/login -> { status, cookie, user }. n8n 2.x takes `emailOrLdapLoginId`; 1.x took `email`. */
async function login(baseUrl, { email, password }) {
	const r = await request(`${baseUrl.replace(/\/$/, '')}/rest/login`, {
		method: 'POST',
		body: { emailOrLdapLoginId: email, email, password },
	});
	const setCookie = r.headers['set-cookie'] || [];
	const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
	return { status: r.status, cookie, user: r.json && r.json.data, body: r.body };
}

/**
 * Make sure the owner account exists and can log in: if login fails and the instance still needs set-up,
 * POST /rest/owner/setup (the fallback when the env-managed owner is not applied).
 */
async function ensureOwner(baseUrl, owner = DEFAULT_OWNER) {
	let r = await login(baseUrl, owner);
	if (r.status === 200) return { ...r, method: 'existing' };
	const setup = await request(`${baseUrl.replace(/\/$/, '')}/rest/owner/setup`, {
		method: 'POST',
		body: {
			email: owner.email,
			firstName: owner.firstName,
			lastName: owner.lastName,
			password: owner.password,
		},
	});
	if (setup.status !== 200) {
		throw new Error(
			`cannot log in as ${owner.email} (HTTP ${r.status}: ${r.body.slice(0, 200)}) and owner set-up failed (HTTP ${setup.status}: ${setup.body.slice(0, 200)})`,
		);
	}
	r = await login(baseUrl, owner);
	if (r.status !== 200)
		throw new Error(
			`owner set up, but login still fails: HTTP ${r.status} ${r.body.slice(0, 200)}`,
		);
	return { ...r, method: 'owner-setup' };
}

/** Node type names the running editor knows (GET /types/nodes.json needs a login cookie). */
async function loadedNodeTypes(baseUrl, cookie) {
	const r = await request(`${baseUrl.replace(/\/$/, '')}/types/nodes.json`, {
		headers: { cookie },
		timeoutMs: 30000,
	});
	if (r.status !== 200 || !Array.isArray(r.json))
		throw new Error(`GET /types/nodes.json: HTTP ${r.status}`);
	return [...new Set(r.json.map((n) => n.name))];
}

/** Is something listening on 127.0.0.1:port? */
function portInUse(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', (e) => resolve(e.code === 'EADDRINUSE' || e.code === 'EACCES'));
		srv.once('listening', () => srv.close(() => resolve(false)));
		srv.listen(port, host);
	});
}

// ---------------------------------------------------------------------------------------------------------------
// processes

/**
 * Spawn a long-running child in its own process group (detached), so stopGroup() takes down it and everything
 * it started (n8n's task runner, tsx's node child ...). Output: `onLine(line, stream)` and/or a log file.
 */
function spawnGroup(cmd, args, { cwd, env, onLine, logFile } = {}) {
	if (logFile && !onLine) {
		// Output only to the log: the child writes to the file itself. No pipe means no EPIPE if this process
		// dies first (n8n then loops on logging its own EPIPE at 100% CPU and stops answering).
		const fd = fs.openSync(logFile, 'a');
		try {
			return spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', fd, fd] });
		} finally {
			fs.closeSync(fd);
		}
	}
	const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	const out = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
	for (const [stream, name] of [
		[child.stdout, 'stdout'],
		[child.stderr, 'stderr'],
	]) {
		let buf = '';
		stream.on('data', (c) => {
			if (out) out.write(c);
			if (!onLine) return;
			buf += c.toString();
			let i;
			while ((i = buf.indexOf('\n')) >= 0) {
				onLine(buf.slice(0, i).replace(/\r$/, ''), name);
				buf = buf.slice(i + 1);
			}
		});
		stream.on('end', () => {
			if (onLine && buf) onLine(buf, name);
			buf = '';
		});
	}
	child.on('close', () => out && out.end());
	return child;
}

function groupAlive(pgid) {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

/**
 * SIGTERM the child's process group, wait up to graceMs, then SIGKILL; resolves once nothing of the group is left.
 */
async function stopGroup(child, { graceMs = 10000, signal = 'SIGTERM' } = {}) {
	if (!child || !child.pid) return true;
	const pgid = child.pid;
	if (!groupAlive(pgid)) return true;
	try {
		process.kill(-pgid, signal);
	} catch {
		/* already gone */
	}
	const t0 = Date.now();
	while (groupAlive(pgid) && Date.now() - t0 < graceMs)
		await new Promise((r) => setTimeout(r, 100));
	if (groupAlive(pgid)) {
		try {
			process.kill(-pgid, 'SIGKILL');
		} catch {
			/* gone */
		}
		const t1 = Date.now();
		while (groupAlive(pgid) && Date.now() - t1 < 5000) await new Promise((r) => setTimeout(r, 100));
	}
	return !groupAlive(pgid);
}

/** Synchronous last resort (process 'exit' handler): SIGKILL the group. */
function killGroupNow(child) {
	if (!child || !child.pid) return;
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {
		/* gone */
	}
}

module.exports = {
	publishWorkflow,
	REPO_ROOT,
	PACKAGE_NAME,
	NODE_TYPES,
	CREDENTIAL_TYPE,
	DEFAULT_ENCRYPTION_KEY,
	DEFAULT_OWNER,
	SANDBOX_CREDENTIAL,
	sandboxCredentialData,
	n8nEnv,
	n8nArgs,
	bcryptHash,
	ownerWithHash,
	nodesFolder,
	installPackage,
	runN8n,
	stopCliCommands,
	killCliCommandsNow,
	importCredential,
	stableId,
	prepareWorkflow,
	readExampleWorkflows,
	EXAMPLE_N8N_URL,
	EXAMPLE_SANDBOX_URL,
	localizeWorkflow,
	hasFinVerifyTrigger,
	importWorkflows,
	exportNodeTypes,
	request,
	waitForHttp,
	waitForHealthz,
	waitForN8nReady,
	login,
	ensureOwner,
	loadedNodeTypes,
	portInUse,
	spawnGroup,
	stopGroup,
	killGroupNow,
	groupAlive,
};
