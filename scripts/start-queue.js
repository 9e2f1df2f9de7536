#!/usr/bin/env node
'use strict';
/**
 * `npm run start:queue`: the package on n8n's queue mode, on one machine, the way teams run n8n at scale.
 *
 *   PostgreSQL + Redis   from the Debian packages (apt-get install when missing and root), each started as an
 *                        unprivileged process on 127.0.0.1 with its data under .cache/queue-services/
 *   n8n main             editor + REST API on 127.0.0.1:$N8N_PORT (5690); enqueues every execution
 *   n8n worker × 2       run the executions (`n8n worker`, FINVERIFY_WORKERS to change the count)
 *   n8n webhook          the webhook processor on 127.0.0.1:$N8N_PORT+2 (5692): production webhooks
 *                        (/webhook/…, /webhook-waiting/…) go here, so trigger URLs and resume URLs point here
 *   sandbox              as in `npm start`, on $SANDBOX_PORT (4011)
 *
 * All n8n processes share one user folder (.cache/n8n-queue-home), so one installed copy of the package, and one
 * database; the same owner login, credential and examples as `npm start`. Ctrl-C stops everything, PostgreSQL
 * and Redis included. Ports differ from `npm start`'s, so both can run side by side.
 *
 * Environment: N8N_PORT (5690; the webhook processor, workers and task brokers use the next ports), SANDBOX_PORT
 *   (4011), FINVERIFY_PG_PORT (5433), FINVERIFY_REDIS_PORT (6380), FINVERIFY_WORKERS (2), N8N_USER_FOLDER,
 *   FINVERIFY_QUEUE_DATA_DIR (PostgreSQL/Redis data), FINVERIFY_SERVICE_USER (account the services run as when
 *   started by root; default finverify-db, created when missing), FINVERIFY_SKIP_BUILD=1, FINVERIFY_REIMPORT=1,
 *   FINVERIFY_RUNTIME_DIR, FINVERIFY_OWNER_EMAIL / FINVERIFY_OWNER_PASSWORD.
 * Flags: --exit-when-ready (start, verify, print, stop).
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ensureRuntime } = require('./runtime');
const lib = require('./n8n-env');
const q = require('./queue-stack');

const REPO = lib.REPO_ROOT;
const EXIT_WHEN_READY = process.argv.includes('--exit-when-ready');

const N8N_PORT = Number(process.env.N8N_PORT || 5690);
const WEBHOOK_PORT = N8N_PORT + 2;
const WORKERS = Math.max(1, Number(process.env.FINVERIFY_WORKERS || 2));
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4011);
const PG_PORT = Number(process.env.FINVERIFY_PG_PORT || 5433);
const REDIS_PORT = Number(process.env.FINVERIFY_REDIS_PORT || 6380);
const USER_FOLDER = path.resolve(
	process.env.N8N_USER_FOLDER || path.join(REPO, '.cache', 'n8n-queue-home'),
);
const DATA_DIR = path.resolve(
	process.env.FINVERIFY_QUEUE_DATA_DIR || path.join(REPO, '.cache', 'queue-services'),
);
const N8N_URL = `http://127.0.0.1:${N8N_PORT}`;
const WEBHOOK_URL = `http://127.0.0.1:${WEBHOOK_PORT}`;
const SANDBOX_URL = `http://127.0.0.1:${SANDBOX_PORT}`;
const OWNER = {
	...lib.DEFAULT_OWNER,
	...(process.env.FINVERIFY_OWNER_EMAIL ? { email: process.env.FINVERIFY_OWNER_EMAIL } : {}),
	...(process.env.FINVERIFY_OWNER_PASSWORD
		? { password: process.env.FINVERIFY_OWNER_PASSWORD }
		: {}),
};
/** n8n processes: [name, role, port (HTTP or worker health), task-broker port] */
const PROCESSES = [
	['main', 'main', N8N_PORT, N8N_PORT + 1],
	['webhook', 'webhook', WEBHOOK_PORT, WEBHOOK_PORT + 1],
	...Array.from({ length: WORKERS }, (_, i) => [
		`worker-${i + 1}`,
		'worker',
		WEBHOOK_PORT + 2 + 2 * i,
		WEBHOOK_PORT + 3 + 2 * i,
	]),
];

const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)} s`;
const say = (m) => console.log(`[start:queue ${elapsed().padStart(7)}] ${m}`);
const logPath = (name) => path.join(USER_FOLDER, 'logs', `${name}.log`);

// ---------------------------------------------------------------------------------------------------------------
// children and shutdown: n8n first (workers finish their running executions), then the sandbox, then the services

const n8nChildren = []; // { name, child }
const services = {}; // { pg, redis }
let sandbox;
let shuttingDown = false;

async function shutdown(code, why) {
	if (shuttingDown) return;
	shuttingDown = true;
	if (why) say(why);
	const running = [
		...n8nChildren,
		...(sandbox ? [{ name: 'sandbox', child: sandbox }] : []),
	].filter((c) => lib.groupAlive(c.child.pid));
	const cli = await lib.stopCliCommands(); // an n8n import still running (Ctrl-C during the set-up)
	if (cli) say(`stopped ${cli} running n8n CLI command(s)`);
	if (running.length) say(`stopping ${running.map((c) => c.name).join(', ')} …`);
	const left = [];
	for (const [name, ok] of await Promise.all(
		running.map(async (c) => [c.name, await lib.stopGroup(c.child, { graceMs: 35000 })]),
	))
		if (!ok) left.push(name);
	if (services.pg || services.redis) say('stopping PostgreSQL and Redis …');
	if (!(await q.stopServices(services))) left.push('PostgreSQL/Redis');
	if (left.length) say(`WARNING: still running after SIGKILL: ${left.join(', ')}`);
	else say('everything stopped; nothing left running.');
	process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(sig, () => {
		if (shuttingDown) return;
		console.log('');
		shutdown(sig === 'SIGINT' ? 130 : 143, `${sig} received`);
	});
}
process.on('exit', () => {
	lib.killCliCommandsNow();
	for (const c of n8nChildren) lib.killGroupNow(c.child);
	if (sandbox) lib.killGroupNow(sandbox);
	for (const s of [services.pg, services.redis]) if (s) lib.killGroupNow(s.child);
});

function watch(name, child) {
	child.on('exit', (code, signal) => {
		if (shuttingDown) return;
		shutdown(
			1,
			`${name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); see ${logPath(name)}`,
		);
	});
}

// ---------------------------------------------------------------------------------------------------------------

function build() {
	if (process.env.FINVERIFY_SKIP_BUILD === '1') {
		if (!fs.existsSync(path.join(REPO, 'dist')))
			throw new Error('FINVERIFY_SKIP_BUILD=1 but dist/ does not exist');
		return say('build: skipped (FINVERIFY_SKIP_BUILD=1)');
	}
	say('build: npm run build …');
	const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO, stdio: 'inherit' });
	if (r.status !== 0) throw new Error('npm run build failed (see above)');
}

async function checkPorts() {
	const wanted = [
		...PROCESSES.flatMap(([name, , port, broker]) => [
			[`n8n ${name}`, port],
			[`n8n ${name} task broker`, broker],
		]),
		['sandbox (SANDBOX_PORT)', SANDBOX_PORT],
		['PostgreSQL (FINVERIFY_PG_PORT)', PG_PORT],
		['Redis (FINVERIFY_REDIS_PORT)', REDIS_PORT],
	];
	const busy = [];
	for (const [name, port] of wanted)
		if (await lib.portInUse(port)) busy.push(`${name}: 127.0.0.1:${port}`);
	if (busy.length)
		throw new Error(
			`port(s) already in use — is another \`npm run start:queue\` running? Stop it or choose other ports (N8N_PORT, SANDBOX_PORT, FINVERIFY_PG_PORT, FINVERIFY_REDIS_PORT):\n  ${busy.join('\n  ')}`,
		);
}

async function startSandbox() {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
	sandbox = lib.spawnGroup(
		process.execPath,
		['--require', 'tsx/cjs', path.join(REPO, 'sandbox', 'main.cts')],
		{
			cwd: REPO,
			env: { ...env, SANDBOX_PORT: String(SANDBOX_PORT), NODE_ENV: 'development' },
			logFile: logPath('sandbox'),
		},
	);
	watch('sandbox', sandbox);
	await lib.waitForHttp(`${SANDBOX_URL}/__sandbox/health`, {
		timeoutMs: 60000,
		proc: sandbox,
		what: 'sandbox',
	});
	say(`sandbox: ready on ${SANDBOX_URL}`);
}

/** Credential + examples, imported once per database (again when the PostgreSQL cluster is new or they changed). */
async function importData(runtime, env) {
	const credential = { ...lib.SANDBOX_CREDENTIAL, data: lib.sandboxCredentialData(SANDBOX_URL) };
	// trigger URLs in the examples point at the webhook processor, which serves production webhooks
	const workflows = lib.readExampleWorkflows().map((w) => ({
		...w,
		workflow: lib.localizeWorkflow(w.workflow, { n8nUrl: WEBHOOK_URL, sandboxUrl: SANDBOX_URL }),
	}));
	const statePath = path.join(USER_FOLDER, '.n8n', 'finverify-queue-imports.json');
	const cluster = String(fs.statSync(path.join(services.pg.dataDir, 'PG_VERSION')).ino);
	let state = {};
	try {
		state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
	} catch {
		/* first run */
	}
	if (state.cluster !== cluster || process.env.FINVERIFY_REIMPORT === '1') state = { cluster };
	const hash = (x) => crypto.createHash('sha256').update(JSON.stringify(x)).digest('hex');
	if (state.credential !== hash(credential)) {
		say(
			`import: credential "${credential.name}" (the first n8n command on a new database also creates its tables) …`,
		);
		await lib.importCredential(runtime, env, credential);
		state.credential = hash(credential);
	}
	if (state.workflows !== hash(workflows)) {
		say(`import: ${workflows.length} example workflow(s) …`);
		await lib.importWorkflows(
			runtime,
			env,
			workflows.map((w) => w.workflow),
			{ name: 'examples.json' },
		);
		for (const w of workflows.filter((x) => lib.hasFinVerifyTrigger(x.workflow))) {
			say(`import: publishing "${w.workflow.name}" …`);
			await lib.publishWorkflow(runtime, env, w.workflow.id);
		}
		state.workflows = hash(workflows);
	} else say('import: credential and examples already in this database');
	fs.mkdirSync(path.dirname(statePath), { recursive: true });
	fs.writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
	return workflows;
}

async function main() {
	say(`n8n-nodes-finverify in queue mode: main + ${WORKERS} worker(s) + 1 webhook processor`);
	const runtime = await ensureRuntime({ log: say });
	const packages = await q.ensureServerPackages({ log: say });
	build();
	await checkPorts();
	fs.mkdirSync(path.join(USER_FOLDER, 'logs'), { recursive: true });
	for (const n of ['postgres', 'redis', 'sandbox', ...PROCESSES.map((p) => p[0])])
		fs.writeFileSync(logPath(n), '');
	const dest = lib.installPackage(USER_FOLDER);
	say(
		`package: installed once into ${path.relative(REPO, dest)} (the user folder every n8n process uses)`,
	);

	const user = q.serviceUser({ log: say });
	const dataDir = q.serviceDataDir(DATA_DIR, user, { log: say });
	say(
		`services: PostgreSQL (${path.basename(path.dirname(packages.pgBin))}) and Redis as ${user ? `"${user.name}"` : 'this user'}, data in ${dataDir}`,
	);
	[services.pg, services.redis] = await Promise.all([
		q.startPostgres({
			runtime,
			pgBin: packages.pgBin,
			dataDir: path.join(dataDir, 'postgres'),
			port: PG_PORT,
			user,
			logFile: logPath('postgres'),
			log: say,
		}),
		q.startRedis({
			redisServer: packages.redisServer,
			dataDir: path.join(dataDir, 'redis'),
			port: REDIS_PORT,
			user,
			logFile: logPath('redis'),
		}),
	]);
	watch('postgres', services.pg.child);
	watch('redis', services.redis.child);
	say(`services: PostgreSQL on 127.0.0.1:${PG_PORT}, Redis on 127.0.0.1:${REDIS_PORT}`);

	const base = lib.n8nEnv({
		userFolder: USER_FOLDER,
		port: N8N_PORT,
		brokerPort: N8N_PORT + 1,
		owner: lib.ownerWithHash(runtime, OWNER),
		runtime,
		inheritN8nEnv: true,
	});
	const env = q.queueEnv(base, {
		pgPort: PG_PORT,
		redisPort: REDIS_PORT,
		webhookPort: WEBHOOK_PORT,
	});

	const [workflows] = await Promise.all([importData(runtime, env), startSandbox()]);
	if (shuttingDown) return;

	// main first (it owns the database migrations and activates published workflows), then the others together
	const start = async ([name, role, port, brokerPort]) => {
		say(`n8n ${name}: starting …`);
		const p = await q.startQueueProcess(runtime, env, {
			name,
			role,
			port,
			brokerPort,
			logFile: logPath(name),
		});
		n8nChildren.push({ name, child: p.child });
		watch(name, p.child);
		say(`n8n ${name}: ready${role === 'worker' ? ` (health ${p.url}/healthz)` : ` on ${p.url}`}`);
		return p;
	};
	await start(PROCESSES[0]);
	await Promise.all(PROCESSES.slice(1).map(start));

	const auth = await lib.ensureOwner(N8N_URL, OWNER);
	const types = (await lib.loadedNodeTypes(N8N_URL, auth.cookie)).filter((t) =>
		t.startsWith(`${lib.PACKAGE_NAME}.`),
	);

	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n editor   ${N8N_URL}/   (queue mode: every execution runs on a worker)`);
	console.log(`  login        ${OWNER.email}  /  ${OWNER.password}`);
	console.log(`  webhooks     ${WEBHOOK_URL}/webhook/…   (webhook processor)`);
	console.log(
		`  workers      ${PROCESSES.filter((p) => p[1] === 'worker')
			.map((p) => `${p[0]} (http://127.0.0.1:${p[2]}/healthz)`)
			.join(', ')}`,
	);
	console.log(
		`  PostgreSQL   127.0.0.1:${PG_PORT} database ${q.PG_DATABASE}, user ${q.PG_USER}   Redis 127.0.0.1:${REDIS_PORT}`,
	);
	console.log(`  sandbox      ${SANDBOX_URL}`);
	console.log(
		`  credential   "${lib.SANDBOX_CREDENTIAL.name}" (FinVerify API, environment sandbox, key sandbox-key)`,
	);
	console.log(
		`  nodes        ${types.length ? types.join(', ') : 'NONE LOADED (see the main log)'}`,
	);
	console.log(
		`  workflows    ${workflows.map((w) => `${w.workflow.name} (${N8N_URL}/workflow/${w.workflow.id})`).join('\n               ')}`,
	);
	console.log(
		`  logs         ${path.relative(REPO, path.join(USER_FOLDER, 'logs')) || USER_FOLDER}/{main,worker-N,webhook,postgres,redis,sandbox}.log`,
	);
	console.log(
		`  ready after  ${elapsed()}            Ctrl-C stops everything (PostgreSQL and Redis too).`,
	);
	console.log(`${line}\n`);

	if (EXIT_WHEN_READY) await shutdown(0, '--exit-when-ready: stopping again');
}

main().catch((e) => {
	console.error(`\n[start:queue] ERROR: ${e && e.stack ? e.stack : e}\n`);
	shutdown(1);
});
