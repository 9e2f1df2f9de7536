// @ts-check
'use strict';
/**
 * Builds the simulator package in sandbox/ (published as n8n-nodes-finverify-sandbox, run with npx):
 * compiles sandbox/**\/*.cts to sandbox/dist and copies the OpenAPI contract it is built from into
 * sandbox/openapi (the path sandbox/openapi.cts reads, relative to its compiled file). Then
 * `npm pack ./sandbox` makes the tarball.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const sandbox = path.join(root, 'sandbox');

fs.rmSync(path.join(sandbox, 'dist'), { recursive: true, force: true });
execFileSync(
	process.execPath,
	[require.resolve('typescript/bin/tsc'), '-p', path.join(sandbox, 'tsconfig.json')],
	{ stdio: 'inherit', cwd: root },
);
fs.mkdirSync(path.join(sandbox, 'openapi'), { recursive: true });
fs.copyFileSync(
	path.join(root, 'openapi', 'finverify.openapi.yaml'),
	path.join(sandbox, 'openapi', 'finverify.openapi.yaml'),
);
fs.chmodSync(path.join(sandbox, 'dist', 'main.cjs'), 0o755);
