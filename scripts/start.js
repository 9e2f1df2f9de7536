#!/usr/bin/env node
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
 * Environment: N8N_PORT, SANDBOX_PORT, N8N_USER_FOLDER (default <repo>/.cache/n8n-home), N8N_RUNNERS_BROKER_PORT,
 *   FINVERIFY_RUNTIME_DIR, FINVERIFY_OWNER_EMAIL, FINVERIFY_OWNER_PASSWORD, FINVERIFY_SKIP_BUILD=1 (use dist/ as is),
 *   FINVERIFY_EXAMPLES_DIR (default <repo>/examples), FINVERIFY_REIMPORT=1 (import credential + examples even if unchanged), FINVERIFY_QUIET=1 (no n8n/sandbox log
 *   lines on the console; they always go to <user folder>/logs/).
 * Flags: --exit-when-ready (start, verify, print, stop: a smoke test), --quiet.
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ensureDependencies } = require('./bootstrap');
const { ensureRuntime } = require('./runtime');
const lib = require('./n8n-env');

const REPO = lib.REPO_ROOT;
const argv = new Set(process.argv.slice(2));
const EXIT_WHEN_READY = argv.has('--exit-when-ready');
const QUIET = argv.has('--quiet') || process.env.FINVERIFY_QUIET === '1';

const N8N_PORT = Number(process.env.N8N_PORT || 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT || 4010);
const BROKER_PORT = Number(
	process.env.N8N_RUNNERS_BROKER_PORT || (N8N_PORT === 5678 ? 5679 : N8N_PORT + 1),
);
const USER_FOLDER = path.resolve(
	process.env.N8N_USER_FOLDER || path.join(REPO, '.cache', 'n8n-home'),
);
const N8N_URL = `http://127.0.0.1:${N8N_PORT}`;
const SANDBOX_URL = `http://127.0.0.1:${SANDBOX_PORT}`;
const OWNER = {
	...lib.DEFAULT_OWNER,
	...(process.env.FINVERIFY_OWNER_EMAIL ? { email: process.env.FINVERIFY_OWNER_EMAIL } : {}),
	...(process.env.FINVERIFY_OWNER_PASSWORD
		? { password: process.env.FINVERIFY_OWNER_PASSWORD }
		: {}),
};

const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)} s`;
const say = (m) => console.log(`[start ${elapsed().padStart(7)}] ${m}`);

// ---------------------------------------------------------------------------------------------------------------
// children and shutdown

const children = []; // { name, child }
let shuttingDown = false;

async function shutdown(code, why) {
	if (shuttingDown) return;
	shuttingDown = true;
	if (why) say(why);
	const running = children.filter((c) => lib.groupAlive(c.child.pid));
	if (running.length)
		say(`stopping ${running.map((c) => `${c.name} (pid ${c.child.pid})`).join(', ')} …`);
	const [results] = await Promise.all([
		Promise.all(
			running.map(async (c) => [c.name, await lib.stopGroup(c.child, { graceMs: 15000 })]),
		),
		lib.stopCliCommands(), // an n8n import still running
	]);
	const left = results.filter(([, ok]) => !ok).map(([n]) => n);
	if (left.length) say(`WARNING: still running after SIGKILL: ${left.join(', ')}`);
	else if (running.length) say('everything stopped; nothing left running.');
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
	// last resort, e.g. after a crash, or a CLI command started while the shutdown was under way
	children.forEach((c) => lib.killGroupNow(c.child));
	lib.killCliCommandsNow();
});

function track(name, child) {
	children.push({ name, child });
	child.on('exit', (code, signal) => {
		if (shuttingDown) return;
		shutdown(
			1,
			`${name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); see ${logPath(name)}`,
		);
	});
	return child;
}

function logPath(name) {
	return path.join(USER_FOLDER, 'logs', `${name}.log`);
}

function fail(msg) {
	console.error(`\n[start] ERROR: ${msg}\n`);
	return shutdown(1);
}

// ---------------------------------------------------------------------------------------------------------------
// steps

function npm(args, opts = {}) {
	const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
		cwd: REPO,
		stdio: 'inherit',
		...opts,
	});
	if (r.error) throw r.error;
	return r.status === 0;
}

function build() {
	if (process.env.FINVERIFY_SKIP_BUILD === '1') {
		if (!fs.existsSync(path.join(REPO, 'dist')))
			throw new Error('FINVERIFY_SKIP_BUILD=1 but dist/ does not exist');
		return say('build: skipped (FINVERIFY_SKIP_BUILD=1), using the existing dist/');
	}
	say('build: npm run build …');
	const t = Date.now();
	if (!npm(['run', '--silent', 'build'])) throw new Error('npm run build failed (see above)');
	say(`build: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

async function checkPorts() {
	const busy = [];
	for (const [name, port] of [
		['n8n (N8N_PORT)', N8N_PORT],
		['n8n task broker (N8N_RUNNERS_BROKER_PORT)', BROKER_PORT],
		['sandbox (SANDBOX_PORT)', SANDBOX_PORT],
	]) {
		if (await lib.portInUse(port)) busy.push(`${name}: 127.0.0.1:${port}`);
	}
	if (busy.length) {
		throw new Error(
			`port(s) already in use — is another \`npm start\` running? Stop it or choose other ports:\n  ${busy.join('\n  ')}`,
		);
	}
}

async function startSandbox() {
	const main = path.join(REPO, 'sandbox', 'main.cts');
	if (!fs.existsSync(main)) {
		say(`sandbox: ${path.relative(REPO, main)} does not exist (yet); continuing without a sandbox`);
		return false;
	}
	const child = lib.spawnGroup(process.execPath, ['--require', 'tsx/cjs', main], {
		cwd: REPO,
		env: {
			...stripNpmEnv(process.env),
			SANDBOX_PORT: String(SANDBOX_PORT),
			NODE_ENV:
				process.env.NODE_ENV === 'test' ? 'development' : process.env.NODE_ENV || 'development',
		},
		logFile: logPath('sandbox'),
		onLine: QUIET ? undefined : (l) => console.log(`  [sandbox] ${l}`),
	});
	track('sandbox', child);
	say(`sandbox: starting (pid ${child.pid}) on ${SANDBOX_URL} …`);
	await lib.waitForHttp(`${SANDBOX_URL}/__sandbox/health`, {
		timeoutMs: 60000,
		proc: child,
		what: 'sandbox',
	});
	say('sandbox: ready');
	return true;
}

function stripNpmEnv(env) {
	return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k)));
}

/** Import the credential and the examples, unless exactly this content was already imported into this database. */
async function importData(runtime, env) {
	const credential = { ...lib.SANDBOX_CREDENTIAL, data: lib.sandboxCredentialData(SANDBOX_URL) };
	// The examples are written for the default ports; other ports (N8N_PORT, SANDBOX_PORT) are filled in here.
	const workflows = lib
		.readExampleWorkflows(
			process.env.FINVERIFY_EXAMPLES_DIR
				? path.resolve(process.env.FINVERIFY_EXAMPLES_DIR)
				: undefined,
		)
		.map((w) => ({
			...w,
			workflow: lib.localizeWorkflow(w.workflow, { n8nUrl: N8N_URL, sandboxUrl: SANDBOX_URL }),
		}));
	const statePath = path.join(USER_FOLDER, '.n8n', 'finverify-imports.json');
	const dbPath = path.join(USER_FOLDER, '.n8n', 'database.sqlite');
	const dbId = fs.existsSync(dbPath) ? String(fs.statSync(dbPath).ino) : null;
	let state = {};
	try {
		state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
	} catch {
		/* first run */
	}
	if (!dbId || state.db !== dbId || process.env.FINVERIFY_REIMPORT === '1') state = {};
	const hash = (x) => crypto.createHash('sha256').update(JSON.stringify(x)).digest('hex');
	const credHash = hash(credential);
	const wfHash = hash(workflows.map((w) => w.workflow));

	if (state.credential !== credHash) {
		say(`import: credential "${credential.name}" (${credential.type}, id ${credential.id}) …`);
		await lib.importCredential(runtime, env, credential);
		state.credential = credHash;
	} else say(`import: credential "${credential.name}" already imported`);

	if (!workflows.length) say('import: no example workflows in examples/ (yet)');
	else if (state.workflows !== wfHash) {
		say(
			`import: ${workflows.length} example workflow(s): ${workflows.map((w) => `${w.workflow.name} [${w.file}]`).join(', ')} …`,
		);
		await lib.importWorkflows(
			runtime,
			env,
			workflows.map((w) => w.workflow),
			{ name: 'examples.json' },
		);
		// A FinVerify Trigger receives events only while its workflow is published (the journey example's part 2).
		for (const w of workflows.filter((x) => lib.hasFinVerifyTrigger(x.workflow))) {
			say(
				`import: publishing "${w.workflow.name}" (its FinVerify Trigger listens only while published) …`,
			);
			try {
				await lib.publishWorkflow(runtime, env, w.workflow.id);
			} catch (e) {
				say(
					`WARNING: could not publish "${w.workflow.name}"; publish it in the editor. ${String(e.message).split('\n')[0]}`,
				);
			}
		}
		state.workflows = wfHash;
	} else say(`import: ${workflows.length} example workflow(s) already imported`);

	state.db = String(fs.statSync(dbPath).ino); // the import created the database if it did not exist
	fs.writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
	return workflows;
}

async function startN8n(runtime, env) {
	const child = lib.spawnGroup(runtime.node, lib.n8nArgs(runtime, 'start'), {
		cwd: USER_FOLDER,
		env,
		logFile: logPath('n8n'),
		onLine: QUIET ? undefined : (l) => console.log(`  [n8n] ${l}`),
	});
	track('n8n', child);
	say(`n8n: starting (pid ${child.pid}) on ${N8N_URL} …`);
	await lib.waitForN8nReady(N8N_URL, { timeoutMs: 180000, proc: child });
	say('n8n: ready');
	return child;
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
	say(
		`n8n-nodes-finverify: npm start (user folder ${path.relative(REPO, USER_FOLDER) || USER_FOLDER})`,
	);
	if (!(await ensureDependencies({ log: say }))) say('dependencies: present');
	const runtime = await ensureRuntime({ log: (m) => say(m) });
	say(`runtime: n8n ${runtime.n8nVersion} on ${path.relative(REPO, runtime.node)}`);
	build();
	await checkPorts();

	fs.mkdirSync(path.join(USER_FOLDER, 'logs'), { recursive: true });
	for (const n of ['n8n', 'sandbox']) fs.writeFileSync(logPath(n), ''); // fresh logs per start
	const dest = lib.installPackage(USER_FOLDER);
	say(`package: installed into ${path.relative(REPO, dest)}`);

	const owner = lib.ownerWithHash(runtime, OWNER);
	const env = lib.n8nEnv({
		userFolder: USER_FOLDER,
		port: N8N_PORT,
		brokerPort: BROKER_PORT,
		owner,
		runtime,
		inheritN8nEnv: true,
	});

	// The sandbox boots while the n8n CLI imports (each n8n CLI call takes several seconds).
	const [sandboxUp, workflows] = await Promise.all([startSandbox(), importData(runtime, env)]);
	if (shuttingDown) return;

	await startN8n(runtime, env);
	const auth = await lib.ensureOwner(N8N_URL, OWNER);
	say(
		`owner: login OK (${auth.method === 'existing' ? 'owner managed by env: N8N_INSTANCE_OWNER_*' : 'set up via POST /rest/owner/setup'})`,
	);
	const types = (await lib.loadedNodeTypes(N8N_URL, auth.cookie)).filter((t) =>
		t.startsWith(`${lib.PACKAGE_NAME}.`),
	);
	const missing = Object.values(lib.NODE_TYPES).filter((t) => !types.includes(t));
	if (missing.length)
		say(
			`WARNING: n8n did not load ${missing.join(', ')}; see ${path.relative(REPO, logPath('n8n'))}`,
		);
	else say(`package: n8n loaded ${types.join(', ')}`);

	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n editor   ${N8N_URL}/`);
	console.log(`  login        ${OWNER.email}  /  ${OWNER.password}`);
	console.log(
		`  sandbox      ${sandboxUp ? SANDBOX_URL : `(not started: sandbox/main.cts missing) would be ${SANDBOX_URL}`}`,
	);
	console.log(
		`  credential   "${lib.SANDBOX_CREDENTIAL.name}" (FinVerify API, environment sandbox, key sandbox-key)`,
	);
	console.log(
		`  nodes        ${types.length ? types.join(', ') : 'NONE LOADED (see the n8n log)'}`,
	);
	console.log(
		`  workflows    ${workflows.length ? workflows.map((w) => `${w.workflow.name} (${N8N_URL}/workflow/${w.workflow.id})`).join('\n               ') : '(none in examples/)'}`,
	);
	console.log(
		`  logs         ${path.relative(REPO, logPath('n8n'))}, ${path.relative(REPO, logPath('sandbox'))}`,
	);
	console.log(`  ready after  ${elapsed()}            Ctrl-C stops everything.`);
	console.log(`${line}\n`);

	if (EXIT_WHEN_READY) await shutdown(0, '--exit-when-ready: stopping again');
}

main().catch((e) => {
	// Ctrl-C while a step was still running (an n8n CLI import, the login check, an install): that step fails
	// because its process or server was just stopped. Not an error: the shutdown already says what it does.
	if (shuttingDown) return;
	fail(e && e.stack ? e.stack : String(e));
});
