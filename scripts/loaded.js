#!/usr/bin/env node
// @ts-check
'use strict';
// `npm run test:loaded [-- <command…>]`: runs a test command on a machine whose cores are all busy with other work.
// It starts one busy process per core (a Node loop that never sleeps, at the same priority as the tests), runs the
// command under them, stops them, and prints the load average it saw. The suite must pass this way: a test that
// fails only here races a timer, a connection or a fixed budget against the machine's load.
//
//   npm run test:loaded                                  `npm test` under load
//   npm run test:loaded -- npm run test:fast             any command
//   npm run test:loaded -- npx jest test/integration/trigger.deliveries.test.cts
//   FINVERIFY_HOGS=4 npm run test:loaded -- …            another number of busy processes (default: one per core)
//
// Plain CommonJS without dependencies, like the other scripts.
const { spawn } = require('node:child_process');
const os = require('node:os');

const { ENV } = require('./lib/places');

const cores =
	typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
const hogCount = Number(process.env[ENV.HOGS] || cores);
if (!Number.isInteger(hogCount) || hogCount < 0) {
	console.error(`${ENV.HOGS} must be a whole number (got ${process.env[ENV.HOGS]})`);
	process.exit(2);
}
const given = process.argv.slice(2);
const [command, ...args] = given.length ? given : ['npm', 'test'];

/** One process that keeps a core busy until it is killed. */
const hogs = Array.from({ length: hogCount }, () =>
	spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }),
);
const stopHogs = () => {
	for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);

/** 1-minute load averages, sampled every 10 s. @type {number[]} */
const samples = [];
const sample = () => samples.push(os.loadavg()[0]);
const sampler = setInterval(sample, 10_000);

const started = Date.now();
console.log(
	`=== loaded: ${hogs.length} busy process(es) on ${cores} core(s) (pids ${hogs.map((h) => h.pid).join(', ')}); ` +
		`running: ${[command, ...args].join(' ')}`,
);
const child = spawn(command, args, { stdio: 'inherit' });
/** @param {NodeJS.Signals} signal */
const forward = (signal) => () => child.kill(signal);
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));
child.on('close', (status, signal) => {
	clearInterval(sampler);
	sample();
	stopHogs();
	const seconds = ((Date.now() - started) / 1000).toFixed(0);
	const peak = Math.max(...samples);
	const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
	console.log(
		`=== loaded: ${[command, ...args].join(' ')} ${status === 0 ? 'passed' : `FAILED (${signal ?? status})`} ` +
			`in ${seconds} s with ${hogs.length} busy process(es) on ${cores} core(s); 1-minute load average ` +
			`mean ${mean.toFixed(1)}, peak ${peak.toFixed(1)} (${samples.length} samples)`,
	);
	process.exit(status ?? 1);
});
