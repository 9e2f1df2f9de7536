#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm start`: everything needed to try the package in the real n8n editor, on a fresh clone.
 *
 *   1. project dependencies: npm ci when node_modules is missing or older than package-lock.json
 *   2. the cached Node 24 + n8n runtime (scripts/runtime.js; ~5 min once, then instant)
 *   3. npm run build -> dist/
 *   4. the package copied into <N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-finverify (as n8n installs it)
 *   5. the sandbox (sandbox/main.cts) on 127.0.0.1:$SANDBOX_PORT (4010)
 *   6. the credential "FinVerify sandbox" and the workflows of examples/*.json imported with the n8n CLI
 *   7. n8n on 127.0.0.1:$N8N_PORT (5678) with an owner account managed by env; login checked
 *
 * Ctrl-C (SIGINT/SIGTERM/SIGHUP) stops everything it started (whole process groups) and checks nothing is left.
 *
 * Environment (names and defaults: scripts/lib/places.js): N8N_PORT, SANDBOX_PORT, N8N_USER_FOLDER (default
 *   <repo>/.cache/n8n-home), N8N_RUNNERS_BROKER_PORT, FINVERIFY_RUNTIME_DIR, FINVERIFY_OWNER_EMAIL,
 *   FINVERIFY_OWNER_PASSWORD, FINVERIFY_SKIP_BUILD=1 (use dist/ as is), FINVERIFY_EXAMPLES_DIR (default
 *   <repo>/examples), FINVERIFY_REIMPORT=1 (import credential + examples even if unchanged), FINVERIFY_QUIET=1 (no
 *   n8n/sandbox log lines on the console; they always go to <user folder>/logs/).
 * Flags: --exit-when-ready (start, verify, print, stop: a smoke test), --quiet, --watch (`npm run dev`: after a
 * change under nodes/ or credentials/, `tsc --watch` rebuilds dist/ and n8n restarts with the new build;
 * scripts/lib/watch.js), --help.
 */
const fs = require('node:fs');
const path = require('node:path');
const { ensureDependencies } = require('./bootstrap');
const { ensureRuntime } = require('./runtime');
const places = require('./lib/places');
const { spawnGroup } = require('./lib/processes');
const { n8nArgs, n8nEnv, waitForN8nReady } = require('./lib/n8n-process');
const setup = require('./lib/user-folder');
const { Supervisor, assertPortsFree, buildPackage, startSandbox } = require('./lib/dev-stack');
const { watchBuild } = require('./lib/watch');

const REPO = places.REPO_ROOT;
const argv = new Set(process.argv.slice(2));
const USAGE = `Usage: npm start [-- flags]   (npm run dev = npm start -- --watch)

  --watch            rebuild dist/ when nodes/ or credentials/ change (tsc --watch) and restart n8n with it
  --exit-when-ready  start everything, check it, print the summary, stop again (a smoke test)
  --quiet            n8n and sandbox output only in their logs (also FINVERIFY_QUIET=1)
  --help             this text

Ports, folders and other settings come from the environment: see scripts/lib/places.js.`;
if (argv.has('--help')) {
	console.log(USAGE);
	process.exit(0);
}
const unknownFlags = [...argv].filter(
	(a) => !['--watch', '--exit-when-ready', '--quiet', '--help'].includes(a),
);
if (unknownFlags.length) {
	console.error(`unknown flag(s): ${unknownFlags.join(' ')}\n\n${USAGE}`);
	process.exit(2);
}
const WATCH = argv.has('--watch');
const EXIT_WHEN_READY = argv.has('--exit-when-ready');
const QUIET = argv.has('--quiet') || process.env[places.ENV.QUIET] === '1';
const P = places.startPlaces();
const OWNER = setup.ownerFromEnv();

const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)} s`;
const say = (/** @type {string} */ m) => console.log(`[start ${elapsed().padStart(7)}] ${m}`);
const logPath = (/** @type {string} */ name) => places.logPath(P.userFolder, name);

const supervisor = new Supervisor({
	say,
	userFolder: P.userFolder,
	graceMs: 15000,
}).handleSignals();

/** @param {string} msg */
function fail(msg) {
	console.error(`\n[start] ERROR: ${msg}\n`);
	return supervisor.shutdown(1);
}

/** @param {import('./runtime').RuntimePaths} runtime @param {import('./lib/n8n-process').N8nEnv} env */
async function startN8n(runtime, env) {
	const child = spawnGroup(runtime.node, n8nArgs(runtime, 'start'), {
		cwd: P.userFolder,
		env,
		logFile: logPath('n8n'),
		onLine: QUIET ? undefined : (l) => console.log(`  [n8n] ${l}`),
	});
	supervisor.track('n8n', child);
	say(`n8n: starting (pid ${child.pid}) on ${P.n8nUrl} …`);
	await waitForN8nReady(P.n8nUrl, { timeoutMs: 180000, proc: child });
	say('n8n: ready');
	return child;
}

/** The sandbox, unless sandbox/main.cts is missing (then n8n starts without one). */
async function sandbox() {
	if (!fs.existsSync(places.FOLDERS.sandboxMain)) {
		say(
			`sandbox: ${path.relative(REPO, places.FOLDERS.sandboxMain)} does not exist (yet); continuing without a sandbox`,
		);
		return false;
	}
	say(`sandbox: starting on ${P.sandboxUrl} …`);
	await startSandbox({
		supervisor,
		port: P.sandboxPort,
		logFile: logPath('sandbox'),
		onLine: QUIET ? undefined : (l) => console.log(`  [sandbox] ${l}`),
	});
	say('sandbox: ready');
	return true;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
	say(
		`n8n-nodes-finverify: npm start (user folder ${path.relative(REPO, P.userFolder) || P.userFolder})`,
	);
	if (!(await ensureDependencies({ log: say }))) say('dependencies: present');
	const runtime = await ensureRuntime({ log: (m) => say(m) });
	say(`runtime: n8n ${runtime.n8nVersion} on ${path.relative(REPO, runtime.node)}`);
	buildPackage(say);
	await assertPortsFree(
		[
			[`n8n (${places.ENV.N8N_PORT})`, P.n8nPort],
			[`n8n task broker (${places.ENV.BROKER_PORT})`, P.brokerPort],
			[`sandbox (${places.ENV.SANDBOX_PORT})`, P.sandboxPort],
		],
		'is another `npm start` running? Stop it or choose other ports',
	);

	fs.mkdirSync(places.logsFolder(P.userFolder), { recursive: true });
	for (const n of ['n8n', 'sandbox']) fs.writeFileSync(logPath(n), ''); // fresh logs per start
	const dest = setup.installPackage(P.userFolder);
	say(`package: installed into ${path.relative(REPO, dest)}`);

	const env = n8nEnv({
		userFolder: P.userFolder,
		port: P.n8nPort,
		brokerPort: P.brokerPort,
		owner: setup.ownerWithHash(runtime, OWNER),
		runtime,
		inheritN8nEnv: true,
		sandboxUrl: P.sandboxUrl,
	});

	// The sandbox boots while the n8n CLI imports (each n8n CLI call takes several seconds).
	const [sandboxUp, workflows] = await Promise.all([
		sandbox(),
		setup.importExamplesOnce({
			runtime,
			env,
			sandboxUrl: P.sandboxUrl,
			n8nUrl: P.n8nUrl,
			examplesDir: P.examplesDir,
			statePath: P.importState,
			databaseId: () => setup.fileIdentity(P.database),
			reimport: process.env[places.ENV.REIMPORT] === '1',
			log: say,
		}),
	]);
	if (supervisor.shuttingDown) return;

	const n8n = await startN8n(runtime, env);
	const auth = await setup.ensureOwner(P.n8nUrl, OWNER);
	say(
		`owner: login OK (${auth.method === 'existing' ? 'owner managed by env: N8N_INSTANCE_OWNER_*' : 'set up via POST /rest/owner/setup'})`,
	);
	const types = (await setup.loadedNodeTypes(P.n8nUrl, auth.cookie)).filter((t) =>
		t.startsWith(`${setup.PACKAGE_NAME}.`),
	);
	const missing = Object.values(setup.NODE_TYPES).filter((t) => !types.includes(t));
	if (missing.length)
		say(
			`WARNING: n8n did not load ${missing.join(', ')}; see ${path.relative(REPO, logPath('n8n'))}`,
		);
	else say(`package: n8n loaded ${types.join(', ')}`);

	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n editor   ${P.n8nUrl}/`);
	console.log(`  login        ${OWNER.email}  /  ${OWNER.password}`);
	console.log(
		`  sandbox      ${sandboxUp ? P.sandboxUrl : `(not started: sandbox/main.cts missing) would be ${P.sandboxUrl}`}`,
	);
	console.log(
		`  credential   "${setup.SANDBOX_CREDENTIAL.name}" (FinVerify API, environment sandbox, key sandbox-key)`,
	);
	console.log(
		`  nodes        ${types.length ? types.join(', ') : 'NONE LOADED (see the n8n log)'}`,
	);
	console.log(
		`  workflows    ${workflows.length ? workflows.map((w) => `${w.workflow.name} (${P.n8nUrl}/workflow/${w.workflow.id})`).join('\n               ') : '(none in examples/)'}`,
	);
	console.log(
		`  logs         ${path.relative(REPO, logPath('n8n'))}, ${path.relative(REPO, logPath('sandbox'))}`,
	);
	console.log(`  ready after  ${elapsed()}            Ctrl-C stops everything.`);
	console.log(`${line}\n`);

	if (WATCH) watchNodes(runtime, env, n8n);
	if (EXIT_WHEN_READY) await supervisor.shutdown(0, '--exit-when-ready: stopping again');
}

/**
 * --watch: tsc --watch rebuilds dist/ on every change under nodes/ or credentials/; after a compile without errors
 * the package is copied into the user folder again and n8n restarts (it loads community nodes at start-up).
 * @param {import('./runtime').RuntimePaths} runtime
 * @param {import('./lib/n8n-process').N8nEnv} env
 * @param {import('node:child_process').ChildProcess} first  the running n8n
 */
function watchNodes(runtime, env, first) {
	let n8n = first;
	const { child } = watchBuild({
		cwd: REPO,
		say,
		logFile: logPath('tsc'),
		reload: async () => {
			const started = Date.now();
			say('watch: build changed; reinstalling the package and restarting n8n …');
			setup.installPackage(P.userFolder);
			await supervisor.replace('n8n', n8n, async () => (n8n = await startN8n(runtime, env)));
			say(
				`watch: n8n reloaded with the new build (${((Date.now() - started) / 1000).toFixed(1)} s)`,
			);
		},
	});
	supervisor.track('tsc', child);
	say(`watch: tsc --watch (pid ${child.pid}) rebuilds dist/ on changes in nodes/ and credentials/`);
}

main().catch((e) => {
	// Ctrl-C while a step was still running (an n8n CLI import, the login check, an install): that step fails
	// because its process or server was just stopped. Not an error: the shutdown already says what it does.
	if (supervisor.shuttingDown) return;
	fail(e && e.stack ? e.stack : String(e));
});
