// @ts-check
'use strict';
/**
 * Child processes and the loopback HTTP they serve, for any long-running process the scripts start (n8n, the
 * sandbox, PostgreSQL, Redis):
 *
 *   spawnGroup / stopGroup / killGroupNow / groupAlive   a child in its own process group, stopped as a whole
 *   request(url, opts)                                    minimal HTTP client (127.0.0.1 only in practice)
 *   waitForHttp(url, opts)                                poll until 2xx, giving up early if the process exits
 *   portInUse(port)                                       is something listening on 127.0.0.1:port?
 *
 * Plain CommonJS, Node's standard library only.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// HTTP

/**
 * @typedef {object} HttpResponse
 * @property {number} status
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} body
 * @property {any} json   the parsed body, undefined when it is not JSON
 */

/**
 * Minimal HTTP client (127.0.0.1 only in practice): resolves { status, headers, body, json }.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: unknown, timeoutMs?: number }} [opts]
 * @returns {Promise<HttpResponse>}
 */
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
				/** @type {Buffer[]} */
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
					resolve({ status: res.statusCode || 0, headers: res.headers, body: text, json });
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
 * @typedef {object} WaitOptions
 * @property {number} [timeoutMs]
 * @property {number} [intervalMs]
 * @property {import('node:child_process').ChildProcess} [proc]  give up early if it exits
 * @property {string} [what]   named in the error
 */

/**
 * Poll `url` until it answers 2xx. `proc` (optional ChildProcess): give up early if it exits.
 * @param {string} url
 * @param {WaitOptions} [opts]
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
		await sleep(intervalMs);
	}
	throw new Error(`${what}: no answer from ${url} within ${timeoutMs / 1000} s (last: ${last})`);
}

/**
 * Is something listening on 127.0.0.1:port?
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function portInUse(port, host = '127.0.0.1') {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.once('error', (/** @type {NodeJS.ErrnoException} */ e) =>
			resolve(e.code === 'EADDRINUSE' || e.code === 'EACCES'),
		);
		srv.once('listening', () => srv.close(() => resolve(false)));
		srv.listen(port, host);
	});
}

// ---------------------------------------------------------------------------------------------------------------
// process groups

/**
 * @typedef {object} SpawnGroupOptions
 * @property {string} [cwd]
 * @property {NodeJS.ProcessEnv} [env]
 * @property {(line: string, stream: 'stdout' | 'stderr') => void} [onLine]  each output line
 * @property {string} [logFile]  output appended here
 */

/**
 * Spawn a long-running child in its own process group (detached), so stopGroup() takes down it and everything
 * it started (n8n's task runner, tsx's node child ...). Output: `onLine(line, stream)` and/or a log file.
 * @param {string} cmd
 * @param {string[]} args
 * @param {SpawnGroupOptions} [opts]
 * @returns {import('node:child_process').ChildProcess}
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
	for (const [stream, name] of /** @type {const} */ ([
		[child.stdout, 'stdout'],
		[child.stderr, 'stderr'],
	])) {
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

/** Is anything of the process group `pgid` still running? @param {number} pgid */
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
 * @param {{ pid?: number } | null | undefined} child
 * @param {{ graceMs?: number, signal?: NodeJS.Signals }} [opts]
 * @returns {Promise<boolean>} true when the group is gone
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
	while (groupAlive(pgid) && Date.now() - t0 < graceMs) await sleep(100);
	if (groupAlive(pgid)) {
		try {
			process.kill(-pgid, 'SIGKILL');
		} catch {
			/* gone */
		}
		const t1 = Date.now();
		while (groupAlive(pgid) && Date.now() - t1 < 5000) await sleep(100);
	}
	return !groupAlive(pgid);
}

/** Synchronous last resort (process 'exit' handler): SIGKILL the group. @param {{ pid?: number } | null | undefined} child */
function killGroupNow(child) {
	if (!child || !child.pid) return;
	try {
		process.kill(-child.pid, 'SIGKILL');
	} catch {
		/* gone */
	}
}

module.exports = {
	sleep,
	request,
	waitForHttp,
	portInUse,
	spawnGroup,
	groupAlive,
	stopGroup,
	killGroupNow,
};
