// @ts-check
'use strict';
/**
 * Free TCP ports on 127.0.0.1 for the processes the suites and benchmarks start (n8n, its task broker,
 * PostgreSQL, Redis, a sandbox in another process): a port is only free until someone binds it, so two
 * things make a pick safe on a busy machine where several runs start stacks at once:
 *
 * - Ports are taken **below the kernel's ephemeral range** (`/proc/sys/net/ipv4/ip_local_port_range`,
 *   32768-60999 by default). A port asked from the OS with `listen(0)` comes from that range, which is
 *   also where every outgoing connection's local port comes from: released, it can be taken by the next
 *   connection before the process meant to listen on it starts.
 * - Each pick is **reserved across processes** by a file in `<tmp>/finverify-ports/` holding the
 *   reserving process's id (created exclusively; a file whose process is gone is taken over), so two
 *   runs on one machine never hand out the same port. The files go when the process exits.
 *
 * Plain CommonJS without dependencies, like the other scripts.
 */
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { RESERVED_PORTS } = require('./places');

const LOCKS = path.join(os.tmpdir(), 'finverify-ports');
const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (32768 where it cannot be read). */
function ephemeralStart() {
	try {
		const [low] = fs
			.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (Number.isInteger(low) && low > LOWEST + 1000) return low;
	} catch {
		// not Linux: the IANA range's start
	}
	return 32768;
}

/** @param {number} pid */
function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

/** @type {Set<number>} */
const mine = new Set();
let cleanupInstalled = false;
function releaseAll() {
	for (const port of mine) {
		try {
			fs.unlinkSync(path.join(LOCKS, String(port)));
		} catch {
			// already gone
		}
	}
	mine.clear();
}

/**
 * Reserves `port` for this process unless another live process holds it.
 * @param {number} port
 */
function reserve(port) {
	if (mine.has(port)) return false;
	fs.mkdirSync(LOCKS, { recursive: true });
	const file = path.join(LOCKS, String(port));
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
			mine.add(port);
			if (!cleanupInstalled) {
				cleanupInstalled = true;
				process.on('exit', releaseAll);
			}
			return true;
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
			let owner = 0;
			try {
				owner = Number(fs.readFileSync(file, 'utf8'));
			} catch {
				// removed meanwhile: try again
			}
			if (owner > 0 && alive(owner)) return false;
			try {
				fs.unlinkSync(file);
			} catch {
				// another process took it over first: the next attempt finds out
			}
		}
	}
	return false;
}

/**
 * Whether nothing listens on 127.0.0.1:`port` now.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function bindable(port) {
	return new Promise((resolve) => {
		const probe = net.createServer();
		probe.once('error', () => resolve(false));
		probe.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
			probe.close(() => resolve(true)),
		);
	});
}

/**
 * `n` different free ports, reserved for this process: below the ephemeral range, none of `npm start`'s
 * (RESERVED_PORTS), none another run on this machine holds.
 * @param {number} n
 * @returns {Promise<number[]>}
 */
async function freePorts(n) {
	const high = ephemeralStart();
	/** @type {number[]} */
	const out = [];
	for (let tries = 0; out.length < n; tries++) {
		if (tries > 50_000) throw new Error(`no free port between ${LOWEST} and ${high}`);
		const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
		if (/** @type {readonly number[]} */ (RESERVED_PORTS).includes(port) || !reserve(port))
			continue;
		if (await bindable(port)) out.push(port);
	}
	return out;
}

/** One free port (see `freePorts`). */
async function freePort() {
	const [port] = await freePorts(1);
	return port;
}

module.exports = { freePort, freePorts, reserve, ephemeralStart, LOCKS };
