#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * Lists the executions an n8n instance shows as `running` for longer than a workflow of yours should run: on one n8n
 * in regular mode, such an execution is most likely stuck (n8n marked it running, the run ended on a database error,
 * and nothing in the running n8n changes it again: docs/scaling.md#executions-stuck-in-running). It asks n8n's
 * public API (Settings → n8n API: create an API key), changes nothing, and exits 1 when it found any (a cron or
 * monitoring check), 0 when none, 2 when it could not ask.
 *
 *   N8N_API_KEY=… node scripts/stuck-executions.js --url http://127.0.0.1:5678 --older-than 15
 *
 * --older-than: minutes (default 15). Pick more than your longest workflow runs between two waits.
 * Plain CommonJS, Node's standard library only (Node 18 or later for fetch).
 */

/**
 * The running executions started more than `olderThanMs` before `nowMs`, oldest first.
 * @param {Array<{ id: string | number, workflowId?: string, startedAt?: string | null, status?: string }>} executions
 * @param {number} nowMs @param {number} olderThanMs
 */
function stuckCandidates(executions, nowMs, olderThanMs) {
	return executions
		.filter((e) => e.status === undefined || e.status === 'running')
		.map((e) => ({ ...e, ageMs: nowMs - Date.parse(String(e.startedAt)) }))
		.filter((e) => Number.isFinite(e.ageMs) && e.ageMs > olderThanMs)
		.sort((a, b) => b.ageMs - a.ageMs);
}

/** @param {string} url @param {string} apiKey */
async function runningExecutions(url, apiKey) {
	/** @type {any[]} */
	const all = [];
	let cursor = '';
	do {
		const q = new URLSearchParams({ status: 'running', limit: '250' });
		if (cursor) q.set('cursor', cursor);
		const res = await fetch(`${url.replace(/\/+$/, '')}/api/v1/executions?${q}`, {
			headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' },
		});
		if (!res.ok) throw new Error(`n8n answered ${res.status} to GET /api/v1/executions`);
		const body = /** @type {{ data: any[], nextCursor?: string | null }} */ (await res.json());
		all.push(...body.data);
		cursor = body.nextCursor || '';
	} while (cursor);
	return all;
}

async function main() {
	const arg = (/** @type {string} */ name, /** @type {string} */ fallback) => {
		const i = process.argv.indexOf(name);
		return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
	};
	const url = arg('--url', process.env.N8N_URL || 'http://127.0.0.1:5678');
	const minutes = Number(arg('--older-than', '15'));
	const apiKey = process.env.N8N_API_KEY || '';
	if (!apiKey || !(minutes > 0)) {
		console.error(
			'usage: N8N_API_KEY=<key> node scripts/stuck-executions.js [--url <n8n url>] [--older-than <minutes>]',
		);
		process.exit(2);
	}
	let found;
	try {
		found = stuckCandidates(await runningExecutions(url, apiKey), Date.now(), minutes * 60_000);
	} catch (e) {
		console.error(`could not list executions: ${/** @type {Error} */ (e).message}`);
		process.exit(2);
	}
	if (found.length === 0) {
		console.log(`no execution running for more than ${minutes} minutes`);
		return;
	}
	console.log(`${found.length} execution(s) running for more than ${minutes} minutes:`);
	for (const e of found)
		console.log(
			`  execution ${e.id}  workflow ${e.workflowId}  started ${e.startedAt}  (${Math.round(e.ageMs / 60_000)} min)`,
		);
	console.log(
		'On one n8n in regular mode these are most likely stuck: docs/scaling.md#executions-stuck-in-running says what to do.',
	);
	process.exitCode = 1;
}

if (require.main === module) void main();

module.exports = { stuckCandidates };
