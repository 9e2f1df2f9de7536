// @ts-check
'use strict';
/**
 * Everything for running the real n8n app with this package installed, under the one name the e2e helpers
 * (test/e2e/helpers/stack.cts, queue.cts), the e2e tests and bench/ have always imported. The code lives in
 * scripts/lib/, one module a job:
 *
 *   lib/places.js       every port, folder and environment variable name (PORTS, RESERVED_PORTS, nodesFolder here)
 *   lib/processes.js    process groups (spawnGroup, stopGroup, killGroupNow, groupAlive), request, waitForHttp,
 *                       portInUse
 *   lib/n8n-process.js  n8nEnv, n8nArgs, runN8n (+ stopCliCommands, killCliCommandsNow), waitForN8nReady
 *   lib/user-folder.js  installPackage, the owner, the sandbox credential, example workflows, imports, publish,
 *                       the node-type checks
 *
 * New code may require the lib/ module it needs directly.
 */
const places = require('./lib/places');
const processes = require('./lib/processes');
const n8nProcess = require('./lib/n8n-process');
const userFolder = require('./lib/user-folder');

module.exports = {
	REPO_ROOT: places.REPO_ROOT,
	PORTS: places.PORTS,
	RESERVED_PORTS: places.RESERVED_PORTS,
	nodesFolder: places.nodesFolder,
	...processes,
	...n8nProcess,
	...userFolder,
};
