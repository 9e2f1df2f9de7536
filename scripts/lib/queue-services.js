// @ts-check
'use strict';
/**
 * PostgreSQL and Redis for n8n's queue mode, on one machine: the system's packages (installed with apt-get when
 * missing and root), started as unprivileged processes on loopback ports with their data in a folder of our own,
 * stopped the way each wants to be stopped. Used through scripts/queue-stack.js.
 *
 *   ensureServerPackages({ log })       postgresql + redis-server present? (installed with apt-get when root)
 *   serviceUser({ log }) / serviceDataDir   the unprivileged account they run as (when we are root), its folder
 *   startPostgres(opts) / startRedis(opts) / stopServices(services)
 *   pgClient(runtime, port) / redisCommand(port, command)
 *
 * Plain CommonJS, Node's standard library only (the PostgreSQL client is the `pg` inside the cached n8n install).
 */
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { ENV, FOLDERS } = require('./places');
const { groupAlive, sleep, stopGroup } = require('./processes');

/** @typedef {import('../runtime').RuntimePaths} Runtime */
/** @typedef {import('node:child_process').ChildProcess} ChildProcess */
/** @typedef {(message: string) => void} Log */
/** @typedef {{ name: string, uid: number, gid: number, home: string }} ServiceUser */
/** @typedef {{ child: ChildProcess, port: number, dataDir: string }} Service  a running PostgreSQL or Redis */

const PG_USER = 'n8n';
const PG_DATABASE = 'n8n';
/** Local-only development password (PostgreSQL listens on 127.0.0.1 only). */
const PG_PASSWORD = 'finverify-local-postgres';
const SERVICE_ACCOUNT = 'finverify-db';

// ---------------------------------------------------------------------------------------------------------------
// packages

/**
 * The bin folder of the newest installed PostgreSQL server (Debian: /usr/lib/postgresql/<major>/bin).
 * @returns {string | undefined}
 */
function findPostgresBin() {
	const fromEnv = process.env[ENV.PG_BIN];
	const candidates = fromEnv ? [fromEnv] : [];
	try {
		const majors = fs
			.readdirSync(FOLDERS.postgresVersions)
			.filter((d) => /^\d+$/.test(d))
			.sort((a, b) => Number(b) - Number(a));
		candidates.push(...majors.map((m) => path.join(FOLDERS.postgresVersions, m, 'bin')));
	} catch {
		/* no Debian PostgreSQL */
	}
	return candidates.find((d) =>
		['initdb', 'postgres'].every((b) => fs.existsSync(path.join(d, b))),
	);
}

/** @returns {string | undefined} */
function findRedisServer() {
	const candidates = [process.env[ENV.REDIS_SERVER], FOLDERS.redisServer];
	for (const dir of (process.env.PATH || '').split(path.delimiter))
		if (dir) candidates.push(path.join(dir, 'redis-server'));
	return candidates.find((c) => c && fs.existsSync(c));
}

/**
 * Run a command to its end; resolves its exit code and combined output (never rejects).
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [opts]
 * @returns {Promise<{ code: number | null, out: string }>}
 */
function run(cmd, args, opts = {}) {
	return new Promise((resolve) => {
		const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
		let out = '';
		child.stdout?.on('data', (c) => (out += c));
		child.stderr?.on('data', (c) => (out += c));
		child.on('error', (e) => resolve({ code: -1, out: `${out}\n${e.message}` }));
		child.on('close', (code) => resolve({ code, out }));
	});
}

/**
 * PostgreSQL server binaries and redis-server: found, or installed from the Debian packages `postgresql` and
 * `redis-server` (as root, with apt-get; the packages' own system services are not started). Otherwise a clear
 * error saying what to install.
 * @param {{ log?: Log }} [opts]
 * @returns {Promise<{ pgBin: string, redisServer: string, installed: string[], seconds: number }>}
 */
async function ensureServerPackages({ log = console.log } = {}) {
	let pgBin = findPostgresBin();
	let redisServer = findRedisServer();
	const missing = [...(pgBin ? [] : ['postgresql']), ...(redisServer ? [] : ['redis-server'])];
	if (pgBin && redisServer) return { pgBin, redisServer, installed: [], seconds: 0 };
	const hint = `sudo apt-get install ${missing.join(' ')}   (Debian/Ubuntu; or set ${ENV.PG_BIN} / ${ENV.REDIS_SERVER})`;
	if (process.getuid?.() !== 0)
		throw new Error(`queue mode needs ${missing.join(' and ')}, which are not installed: ${hint}`);
	if (!fs.existsSync('/usr/bin/apt-get'))
		throw new Error(
			`queue mode needs ${missing.join(' and ')} and there is no apt-get: install them yourself`,
		);
	const t0 = Date.now();
	log(`[queue] installing ${missing.join(' ')} with apt-get (one-off) …`);
	// Keep the packages from starting their system-wide services (we start our own, unprivileged instances).
	const policy = '/usr/sbin/policy-rc.d';
	const ownPolicy = !fs.existsSync(policy);
	if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
	try {
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		const install = () =>
			run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
		let r = await install();
		if (r.code !== 0) {
			log('[queue] apt-get install failed; apt-get update and retry …');
			await run('apt-get', ['update', '-q'], { env });
			r = await install();
		}
		if (r.code !== 0)
			throw new Error(`apt-get install ${missing.join(' ')} failed:\n${r.out.slice(-3000)}`);
	} finally {
		if (ownPolicy) fs.rmSync(policy, { force: true });
	}
	pgBin = findPostgresBin();
	redisServer = findRedisServer();
	if (!pgBin || !redisServer)
		throw new Error(
			`installed ${missing.join(' ')} but cannot find initdb/postgres or redis-server`,
		);
	const seconds = (Date.now() - t0) / 1000;
	log(`[queue] installed ${missing.join(' ')} (${seconds.toFixed(0)} s)`);
	return { pgBin, redisServer, installed: missing, seconds };
}

// ---------------------------------------------------------------------------------------------------------------
// the unprivileged account

/** @param {string} name @returns {ServiceUser | undefined} */
function passwdEntry(name) {
	const r = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
	if (r.status !== 0 || !r.stdout) return undefined;
	const [, , uid, gid, , home] = r.stdout.trim().split(':');
	return { name, uid: Number(uid), gid: Number(gid), home };
}

/**
 * Who PostgreSQL and Redis run as. Not root: ourselves (null: nothing to switch). Root: the system account
 * FINVERIFY_SERVICE_USER or `finverify-db`, created (useradd --system, no login shell) when missing;
 * PostgreSQL refuses to run as root.
 * @param {{ log?: Log }} [opts]
 * @returns {ServiceUser | null}
 */
function serviceUser({ log = console.log } = {}) {
	if (process.getuid?.() !== 0) return null;
	const name = process.env[ENV.SERVICE_USER] || SERVICE_ACCOUNT;
	let entry = passwdEntry(name);
	if (!entry) {
		const r = spawnSync(
			'useradd',
			['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', name],
			{ encoding: 'utf8' },
		);
		if (r.status !== 0) throw new Error(`useradd ${name} failed: ${r.stderr || r.error}`);
		entry = passwdEntry(name);
		log(`[queue] created the system account "${name}" for PostgreSQL and Redis`);
	}
	if (!entry || entry.uid === 0) throw new Error(`cannot use the account "${name}"`);
	return entry;
}

/**
 * Can `user` reach and write `dir`? (every parent folder must let it through)
 * @param {string} dir
 * @param {ServiceUser | null} user
 */
function reachable(dir, user) {
	if (!user) return true;
	const r = spawnSync('test', ['-w', dir, '-a', '-x', dir], { uid: user.uid, gid: user.gid });
	return r.status === 0;
}

/**
 * A folder for the services' data owned by `user`: `preferred` when the account can reach it, otherwise one under
 * the system's temp folder (for example when the repository lives under /root).
 * @param {string} preferred
 * @param {ServiceUser | null} user
 * @param {{ log?: Log }} [opts]
 */
function serviceDataDir(preferred, user, { log = console.log } = {}) {
	fs.mkdirSync(preferred, { recursive: true });
	if (user) fs.chownSync(preferred, user.uid, user.gid);
	if (!user || reachable(preferred, user)) return preferred;
	const hash = crypto.createHash('sha256').update(preferred).digest('hex').slice(0, 10);
	const fallback = path.join(os.tmpdir(), `finverify-queue-${hash}`);
	fs.mkdirSync(fallback, { recursive: true, mode: 0o755 });
	fs.chownSync(fallback, user.uid, user.gid);
	log(
		`[queue] ${user.name} cannot reach ${preferred}; keeping PostgreSQL/Redis data in ${fallback}`,
	);
	return fallback;
}

// ---------------------------------------------------------------------------------------------------------------
// processes

/**
 * Like spawnGroup with the output to a log file, optionally as another account.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ env: NodeJS.ProcessEnv, logFile: string, user: ServiceUser | null | undefined, cwd?: string }} opts
 */
function spawnService(cmd, args, { env, logFile, user, cwd }) {
	const fd = fs.openSync(logFile, 'a');
	try {
		return spawn(cmd, args, {
			cwd: cwd || os.tmpdir(),
			env: {
				...env,
				...(user ? { HOME: user.home || '/', USER: user.name, LOGNAME: user.name } : {}),
			},
			detached: true,
			stdio: ['ignore', fd, fd],
			...(user ? { uid: user.uid, gid: user.gid } : {}),
		});
	} finally {
		fs.closeSync(fd);
	}
}

/** The last lines of a log file. @param {string} file */
function tail(file, lines = 30) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

/** The `pg` module of the cached n8n install. @param {Pick<Runtime, 'n8nModules'>} runtime */
function pgModule(runtime) {
	return require(
		require.resolve('pg', { paths: [runtime.n8nModules, path.join(runtime.n8nModules, 'n8n')] }),
	);
}

/**
 * A connected `pg` client for the queue setup's database (the caller ends it).
 * @param {Pick<Runtime, 'n8nModules'>} runtime
 * @param {number} port
 * @returns {Promise<any>} a pg.Client
 */
async function pgClient(runtime, port, database = PG_DATABASE) {
	const { Client } = pgModule(runtime);
	const client = new Client({
		host: '127.0.0.1',
		port,
		user: PG_USER,
		password: PG_PASSWORD,
		database,
	});
	await client.connect();
	return client;
}

/**
 * PostgreSQL on 127.0.0.1:port with its cluster in `dataDir` (initdb on first use: superuser `n8n`, password
 * authentication, no Unix socket), then the database `n8n`. `fast`: fsync and synchronous commit off (tests).
 * Resolves { child, port, dataDir }.
 * @param {{ runtime: Pick<Runtime, 'n8nModules'>, pgBin: string, dataDir: string, port: number,
 *   user?: ServiceUser | null, logFile: string, fast?: boolean, log?: Log }} opts
 * @returns {Promise<Service>}
 */
async function startPostgres({
	runtime,
	pgBin,
	dataDir,
	port,
	user,
	logFile,
	fast = false,
	log = console.log,
}) {
	const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
	if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
		fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
		if (user) fs.chownSync(dataDir, user.uid, user.gid);
		fs.chmodSync(dataDir, 0o700);
		const pwfile = path.join(dataDir, '..', `.pw-${process.pid}`);
		fs.writeFileSync(pwfile, `${PG_PASSWORD}\n`, { mode: 0o600 });
		if (user) fs.chownSync(pwfile, user.uid, user.gid);
		try {
			const r = await run(
				path.join(pgBin, 'initdb'),
				[
					'-D',
					dataDir,
					'-U',
					PG_USER,
					`--pwfile=${pwfile}`,
					'--auth=scram-sha-256',
					'--encoding=UTF8',
					'--locale=C',
					'--no-instructions',
				],
				{ env, cwd: os.tmpdir(), ...(user ? { uid: user.uid, gid: user.gid } : {}) },
			);
			if (r.code !== 0) throw new Error(`initdb failed (exit ${r.code}):\n${r.out.slice(-3000)}`);
		} finally {
			fs.rmSync(pwfile, { force: true });
		}
		log(`[queue] PostgreSQL cluster created in ${dataDir}`);
	}
	const args = [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'unix_socket_directories=',
		'-c',
		'max_connections=200',
		...(fast
			? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
			: []),
	];
	const child = spawnService(path.join(pgBin, 'postgres'), args, { env, logFile, user });
	// wait until it accepts connections, then make sure the database exists
	const t0 = Date.now();
	for (;;) {
		if (child.exitCode !== null || child.signalCode)
			throw new Error(
				`PostgreSQL exited (${child.exitCode ?? child.signalCode}):\n${tail(logFile)}`,
			);
		try {
			const c = await pgClient(runtime, port, 'postgres');
			try {
				const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [PG_DATABASE]);
				if (!r.rowCount) await c.query(`CREATE DATABASE ${PG_DATABASE}`);
			} finally {
				await c.end();
			}
			break;
		} catch (e) {
			if (Date.now() - t0 > 60000)
				throw new Error(
					`PostgreSQL did not accept connections within 60 s (${e.message}):\n${tail(logFile)}`,
				);
			await sleep(300);
		}
	}
	return { child, port, dataDir };
}

/**
 * Send one inline command to Redis and resolve the first reply line.
 * @param {number} port
 * @param {string} command
 * @returns {Promise<string>}
 */
function redisCommand(port, command, timeoutMs = 2000) {
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, '127.0.0.1');
		let buf = '';
		const timer = setTimeout(() => {
			socket.destroy();
			reject(new Error('timeout'));
		}, timeoutMs);
		socket.on('connect', () => socket.write(`${command}\r\n`));
		socket.on('data', (c) => {
			buf += c;
			const i = buf.indexOf('\r\n');
			if (i >= 0) {
				clearTimeout(timer);
				socket.end();
				resolve(buf.slice(0, i));
			}
		});
		socket.on('error', (e) => {
			clearTimeout(timer);
			reject(e);
		});
	});
}

/**
 * Redis on 127.0.0.1:port with its files in `dataDir`; `persist: false` keeps everything in memory (tests).
 * @param {{ redisServer: string, dataDir: string, port: number, user?: ServiceUser | null, logFile: string,
 *   persist?: boolean }} opts
 * @returns {Promise<Service>}
 */
async function startRedis({ redisServer, dataDir, port, user, logFile, persist = true }) {
	fs.mkdirSync(dataDir, { recursive: true });
	if (user) fs.chownSync(dataDir, user.uid, user.gid);
	const args = [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--protected-mode',
		'yes',
		'--daemonize',
		'no',
		'--dir',
		dataDir,
		'--appendonly',
		'no',
		...(persist ? ['--save', '60 1'] : ['--save', '']),
	];
	const child = spawnService(redisServer, args, { env: process.env, logFile, user });
	const t0 = Date.now();
	for (;;) {
		if (child.exitCode !== null || child.signalCode)
			throw new Error(`Redis exited (${child.exitCode ?? child.signalCode}):\n${tail(logFile)}`);
		try {
			if ((await redisCommand(port, 'PING')) === '+PONG') break;
		} catch {
			/* not yet */
		}
		if (Date.now() - t0 > 30000)
			throw new Error(`Redis did not answer within 30 s:\n${tail(logFile)}`);
		await sleep(200);
	}
	return { child, port, dataDir };
}

/**
 * Stop a service the way it wants to be stopped: the signal to its main process only (PostgreSQL: SIGINT, its
 * "fast" shutdown; Redis: SIGTERM), wait until its whole process group is gone, then SIGKILL what is left.
 * @param {Service | undefined} service
 * @param {NodeJS.Signals} signal
 * @returns {Promise<boolean>} true when it is gone
 */
async function stopService(service, signal, graceMs = 20000) {
	const pid = service && service.child && service.child.pid;
	if (!service || !pid || !groupAlive(pid)) return true;
	try {
		process.kill(pid, signal);
	} catch {
		/* gone */
	}
	const t0 = Date.now();
	while (groupAlive(pid) && Date.now() - t0 < graceMs) await sleep(100);
	return stopGroup(service.child, { graceMs: 1000, signal: 'SIGKILL' });
}

/**
 * Stop PostgreSQL and Redis (after the n8n processes).
 * @param {{ pg?: Service, redis?: Service }} services
 */
async function stopServices({ pg, redis }) {
	const [a, b] = await Promise.all([stopService(pg, 'SIGINT'), stopService(redis, 'SIGTERM')]);
	return a && b;
}

module.exports = {
	PG_USER,
	PG_DATABASE,
	PG_PASSWORD,
	findPostgresBin,
	findRedisServer,
	ensureServerPackages,
	serviceUser,
	serviceDataDir,
	startPostgres,
	startRedis,
	redisCommand,
	pgClient,
	stopService,
	stopServices,
	tail,
};
