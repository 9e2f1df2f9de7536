#!/usr/bin/env node
// @ts-check
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
 * Environment (names and defaults: scripts/lib/places.js): N8N_PORT (5690; the webhook processor, workers and
 *   task brokers use the next ports), SANDBOX_PORT (4011), FINVERIFY_PG_PORT (5433), FINVERIFY_REDIS_PORT (6380),
 *   FINVERIFY_WORKERS (2), N8N_USER_FOLDER, FINVERIFY_QUEUE_DATA_DIR (PostgreSQL/Redis data),
 *   FINVERIFY_SERVICE_USER (account the services run as when started by root; default finverify-db, created
 *   when missing), FINVERIFY_SKIP_BUILD=1, FINVERIFY_REIMPORT=1, FINVERIFY_EXAMPLES_DIR, FINVERIFY_RUNTIME_DIR,
 *   FINVERIFY_OWNER_EMAIL / FINVERIFY_OWNER_PASSWORD.
 * Flags: --exit-when-ready (start, verify, print, stop).
 */
const fs = require('node:fs');
const path = require('node:path');
const { ensureRuntime } = require('./runtime');
const places = require('./lib/places');
const { killGroupNow } = require('./lib/processes');
const { n8nEnv } = require('./lib/n8n-process');
const setup = require('./lib/user-folder');
const { Supervisor, assertPortsFree, buildPackage, startSandbox } = require('./lib/dev-stack');
const q = require('./queue-stack');

const REPO = places.REPO_ROOT;
const EXIT_WHEN_READY = process.argv.includes('--exit-when-ready');
const P = places.queuePlaces();
const OWNER = setup.ownerFromEnv();

const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)} s`;
const say = (/** @type {string} */ m) => console.log(`[start:queue ${elapsed().padStart(7)}] ${m}`);
const logPath = (/** @type {string} */ name) => places.logPath(P.userFolder, name);

// Shutdown: n8n and the sandbox first (workers finish their running executions), then the services.
/** @type {{ pg?: import('./lib/queue-services').Service, redis?: import('./lib/queue-services').Service }} */
const services = {};
const supervisor = new Supervisor({
	say,
	userFolder: P.userFolder,
	graceMs: 35000,
	stopAfter: async () => {
		if (services.pg || services.redis) say('stopping PostgreSQL and Redis …');
		return (await q.stopServices(services)) ? [] : ['PostgreSQL/Redis'];
	},
	killAfterNow: () => {
		for (const s of [services.pg, services.redis]) if (s) killGroupNow(s.child);
	},
}).handleSignals();

// ---------------------------------------------------------------------------------------------------------------

async function main() {
	say(`n8n-nodes-finverify in queue mode: main + ${P.workers} worker(s) + 1 webhook processor`);
	const runtime = await ensureRuntime({ log: say });
	const packages = await q.ensureServerPackages({ log: say });
	buildPackage(say);
	await assertPortsFree(
		[
			...P.processes.flatMap(({ name, port, brokerPort }) => [
				/** @type {[string, number]} */ ([`n8n ${name}`, port]),
				/** @type {[string, number]} */ ([`n8n ${name} task broker`, brokerPort]),
			]),
			[`sandbox (${places.ENV.SANDBOX_PORT})`, P.sandboxPort],
			[`PostgreSQL (${places.ENV.PG_PORT})`, P.pgPort],
			[`Redis (${places.ENV.REDIS_PORT})`, P.redisPort],
		],
		`is another \`npm run start:queue\` running? Stop it or choose other ports (${places.ENV.N8N_PORT}, ${places.ENV.SANDBOX_PORT}, ${places.ENV.PG_PORT}, ${places.ENV.REDIS_PORT})`,
	);
	fs.mkdirSync(places.logsFolder(P.userFolder), { recursive: true });
	for (const n of ['postgres', 'redis', 'sandbox', ...P.processes.map((p) => p.name)])
		fs.writeFileSync(logPath(n), '');
	const dest = setup.installPackage(P.userFolder);
	say(
		`package: installed once into ${path.relative(REPO, dest)} (the user folder every n8n process uses)`,
	);

	const user = q.serviceUser({ log: say });
	const dataDir = q.serviceDataDir(P.dataDir, user, { log: say });
	say(
		`services: PostgreSQL (${path.basename(path.dirname(packages.pgBin))}) and Redis as ${user ? `"${user.name}"` : 'this user'}, data in ${dataDir}`,
	);
	[services.pg, services.redis] = await Promise.all([
		q.startPostgres({
			runtime,
			pgBin: packages.pgBin,
			dataDir: path.join(dataDir, 'postgres'),
			port: P.pgPort,
			user,
			logFile: logPath('postgres'),
			log: say,
		}),
		q.startRedis({
			redisServer: packages.redisServer,
			dataDir: path.join(dataDir, 'redis'),
			port: P.redisPort,
			user,
			logFile: logPath('redis'),
		}),
	]);
	supervisor.watch('postgres', services.pg.child);
	supervisor.watch('redis', services.redis.child);
	say(`services: PostgreSQL on 127.0.0.1:${P.pgPort}, Redis on 127.0.0.1:${P.redisPort}`);

	const base = n8nEnv({
		userFolder: P.userFolder,
		port: P.n8nPort,
		brokerPort: P.n8nPort + 1,
		owner: setup.ownerWithHash(runtime, OWNER),
		runtime,
		inheritN8nEnv: true,
		sandboxUrl: P.sandboxUrl,
	});
	const env = q.queueEnv(base, {
		pgPort: P.pgPort,
		redisPort: P.redisPort,
		webhookPort: P.webhookPort,
	});

	const pgVersionFile = path.join(services.pg.dataDir, 'PG_VERSION');
	const [workflows] = await Promise.all([
		// trigger URLs in the examples point at the webhook processor, which serves production webhooks; the
		// first n8n command on a new database also creates its tables
		setup.importExamplesOnce({
			runtime,
			env,
			sandboxUrl: P.sandboxUrl,
			n8nUrl: P.webhookUrl,
			examplesDir: P.examplesDir,
			statePath: P.importState,
			databaseId: () => setup.fileIdentity(pgVersionFile), // a new PostgreSQL cluster: import again
			reimport: process.env[places.ENV.REIMPORT] === '1',
			publishFailureIsFatal: true,
			log: say,
		}),
		startSandbox({ supervisor, port: P.sandboxPort, logFile: logPath('sandbox') }).then(() =>
			say(`sandbox: ready on ${P.sandboxUrl}`),
		),
	]);
	if (supervisor.shuttingDown) return;

	// main first (it owns the database migrations and activates published workflows), then the others together
	const start = async (
		/** @type {(typeof P.processes)[number]} */ { name, role, port, brokerPort },
	) => {
		say(`n8n ${name}: starting …`);
		const p = await q.startQueueProcess(runtime, env, {
			name,
			role,
			port,
			brokerPort,
			logFile: logPath(name),
		});
		supervisor.track(name, p.child);
		say(`n8n ${name}: ready${role === 'worker' ? ` (health ${p.url}/healthz)` : ` on ${p.url}`}`);
		return p;
	};
	await start(P.processes[0]);
	await Promise.all(P.processes.slice(1).map(start));

	const auth = await setup.ensureOwner(P.n8nUrl, OWNER);
	const types = (await setup.loadedNodeTypes(P.n8nUrl, auth.cookie)).filter((t) =>
		t.startsWith(`${setup.PACKAGE_NAME}.`),
	);

	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n editor   ${P.n8nUrl}/   (queue mode: every execution runs on a worker)`);
	console.log(`  login        ${OWNER.email}  /  ${OWNER.password}`);
	console.log(`  webhooks     ${P.webhookUrl}/webhook/…   (webhook processor)`);
	console.log(
		`  workers      ${P.processes
			.filter((p) => p.role === 'worker')
			.map((p) => `${p.name} (http://127.0.0.1:${p.port}/healthz)`)
			.join(', ')}`,
	);
	console.log(
		`  PostgreSQL   127.0.0.1:${P.pgPort} database ${q.PG_DATABASE}, user ${q.PG_USER}   Redis 127.0.0.1:${P.redisPort}`,
	);
	console.log(`  sandbox      ${P.sandboxUrl}`);
	console.log(
		`  credential   "${setup.SANDBOX_CREDENTIAL.name}" (FinVerify API, environment sandbox, key sandbox-key)`,
	);
	console.log(
		`  nodes        ${types.length ? types.join(', ') : 'NONE LOADED (see the main log)'}`,
	);
	console.log(
		`  workflows    ${workflows.map((w) => `${w.workflow.name} (${P.n8nUrl}/workflow/${w.workflow.id})`).join('\n               ')}`,
	);
	console.log(
		`  logs         ${path.relative(REPO, places.logsFolder(P.userFolder)) || P.userFolder}/{main,worker-N,webhook,postgres,redis,sandbox}.log`,
	);
	console.log(
		`  ready after  ${elapsed()}            Ctrl-C stops everything (PostgreSQL and Redis too).`,
	);
	console.log(`${line}\n`);

	if (EXIT_WHEN_READY) await supervisor.shutdown(0, '--exit-when-ready: stopping again');
}

main().catch((e) => {
	console.error(`\n[start:queue] ERROR: ${e && e.stack ? e.stack : e}\n`);
	supervisor.shutdown(1);
});
