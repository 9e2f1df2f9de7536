// @ts-check
'use strict';
/**
 * An n8n user folder set up for this package: the package installed where n8n looks for community packages, the
 * owner account, the "FinVerify sandbox" credential, the example workflows imported (and published when they
 * have a FinVerify Trigger), and the checks that n8n loaded the nodes.
 *
 *   installPackage(userFolder)          copy package.json + dist/ where n8n looks for installed community packages
 *   DEFAULT_OWNER, ownerFromEnv, ownerWithHash, login, ensureOwner
 *   SANDBOX_CREDENTIAL, sandboxCredentialData, importCredential
 *   readExampleWorkflows, prepareWorkflow, localizeWorkflow, stableId, importWorkflows, publishWorkflow
 *   importExamplesOnce(opts)            credential + examples, imported once per database (`npm start`, start:queue)
 *   exportNodeTypes / loadedNodeTypes   which node types n8n loads (CLI / running editor)
 *
 * Plain CommonJS, Node's standard library only (and, for the owner's password hash, the `bcryptjs` that ships
 * inside the cached n8n install).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const places = require('./places');
const { runN8n } = require('./n8n-process');
const { request } = require('./processes');

/** @typedef {import('../runtime').RuntimePaths} Runtime */
/** @typedef {import('./n8n-process').N8nEnv} N8nEnv */
/** @typedef {import('./n8n-process').OwnerWithHash} OwnerWithHash */
/** @typedef {Record<string, any>} Json */
/** @typedef {{ id: string, name: string, nodes: Json[], active?: boolean } & Json} Workflow */
/** @typedef {{ file: string, workflow: Workflow }} Example */

const REPO_ROOT = places.REPO_ROOT;
/** @type {string} n8n-nodes-finverify */
const PACKAGE_NAME = require(path.join(REPO_ROOT, 'package.json')).name;
const NODE_TYPES = Object.freeze({
	action: `${PACKAGE_NAME}.finVerify`,
	trigger: `${PACKAGE_NAME}.finVerifyTrigger`,
});
const CREDENTIAL_TYPE = 'finVerifyApi';

/** @typedef {{ email: string, firstName: string, lastName: string, password: string }} Owner */

/** @type {Readonly<Owner>} */
const DEFAULT_OWNER = Object.freeze({
	email: 'owner@example.com',
	firstName: 'FinVerify',
	lastName: 'Developer',
	password: 'FinVerify-Sandbox-1', // n8n's rules: 8-64 chars, a digit, an upper-case letter
});

/** The owner of `npm start` / start:queue: DEFAULT_OWNER with FINVERIFY_OWNER_EMAIL / _PASSWORD. @returns {Owner} */
function ownerFromEnv(env = process.env) {
	return { ...DEFAULT_OWNER, ...places.ownerOverrides(env) };
}

/** @typedef {{ id: string, name: string, type: string }} CredentialRef */

/** The sandbox credential `npm start` and the e2e tests import (id: n8n ids are 16 alphanumerics). */
/** @type {Readonly<CredentialRef>} */
const SANDBOX_CREDENTIAL = Object.freeze({
	id: 'finVerifySandbox',
	name: 'FinVerify sandbox',
	type: CREDENTIAL_TYPE,
});

/** @param {string} sandboxUrl */
function sandboxCredentialData(sandboxUrl) {
	return {
		environment: 'sandbox',
		sandboxUrl,
		apiKey: 'sandbox-key',
		apiSecret: 'sandbox-secret',
		refreshToken: 'sandbox-refresh-token',
		webhookSecret: 'sandbox-webhook-secret',
	};
}

// ---------------------------------------------------------------------------------------------------------------
// the owner

/**
 * bcrypt hash of the owner's password, made with the bcryptjs that n8n itself uses (inside the runtime).
 * @param {Pick<Runtime, 'n8nModules'>} runtime
 * @param {string} password
 * @returns {string}
 */
function bcryptHash(runtime, password) {
	const bcrypt = require(
		require.resolve('bcryptjs', {
			paths: [runtime.n8nModules, path.join(runtime.n8nModules, 'n8n')],
		}),
	);
	return bcrypt.hashSync(password, 10);
}

/**
 * Owner (with passwordHash) for n8nEnv({ owner }).
 * @param {Pick<Runtime, 'n8nModules'>} runtime
 * @param {Owner} [owner]
 * @returns {Owner & OwnerWithHash}
 */
function ownerWithHash(runtime, owner = DEFAULT_OWNER) {
	return { ...owner, passwordHash: bcryptHash(runtime, owner.password) };
}

/**
 * POST /rest/login -> { status, cookie, user }. n8n 2.x takes `emailOrLdapLoginId`; 1.x took `email`.
 * @param {string} baseUrl
 * @param {{ email: string, password: string }} credentials
 */
async function login(baseUrl, { email, password }) {
	const r = await request(`${baseUrl.replace(/\/$/, '')}/rest/login`, {
		method: 'POST',
		body: { emailOrLdapLoginId: email, email, password },
	});
	const setCookie = r.headers['set-cookie'] || [];
	const cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
	return { status: r.status, cookie, user: r.json && r.json.data, body: r.body };
}

/**
 * Make sure the owner account exists and can log in: if login fails and the instance still needs set-up,
 * POST /rest/owner/setup (the fallback when the env-managed owner is not applied).
 * @param {string} baseUrl
 * @param {Owner} [owner]
 */
async function ensureOwner(baseUrl, owner = DEFAULT_OWNER) {
	let r = await login(baseUrl, owner);
	if (r.status === 200) return { ...r, method: 'existing' };
	const setup = await request(`${baseUrl.replace(/\/$/, '')}/rest/owner/setup`, {
		method: 'POST',
		body: {
			email: owner.email,
			firstName: owner.firstName,
			lastName: owner.lastName,
			password: owner.password,
		},
	});
	if (setup.status !== 200) {
		throw new Error(
			`cannot log in as ${owner.email} (HTTP ${r.status}: ${r.body.slice(0, 200)}) and owner set-up failed (HTTP ${setup.status}: ${setup.body.slice(0, 200)})`,
		);
	}
	r = await login(baseUrl, owner);
	if (r.status !== 200)
		throw new Error(
			`owner set up, but login still fails: HTTP ${r.status} ${r.body.slice(0, 200)}`,
		);
	return { ...r, method: 'owner-setup' };
}

// ---------------------------------------------------------------------------------------------------------------
// the package, installed the way n8n installs community packages

/**
 * Copy package.json + dist/ (no node_modules: n8n-workflow comes from n8n) to
 * <userFolder>/.n8n/nodes/node_modules/<name>. Node types are then `<name>.finVerify` / `<name>.finVerifyTrigger`.
 * @param {string} userFolder
 * @param {{ packageRoot?: string }} [opts]
 * @returns {string} the installed package's folder
 */
function installPackage(userFolder, { packageRoot = REPO_ROOT } = {}) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
	const dist = path.join(packageRoot, 'dist');
	if (!fs.existsSync(dist))
		throw new Error(`${dist} is missing: build the package first (npm run build)`);
	const nodes = places.nodesFolder(userFolder);
	const dest = path.join(nodes, 'node_modules', pkg.name);
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	fs.copyFileSync(path.join(packageRoot, 'package.json'), path.join(dest, 'package.json'));
	fs.cpSync(dist, path.join(dest, 'dist'), { recursive: true });
	// n8n keeps a package.json in the nodes folder listing what is installed there; keep it consistent.
	const nodesPj = path.join(nodes, 'package.json');
	let manifest = { name: 'installed-nodes', private: true, dependencies: {} };
	try {
		manifest = JSON.parse(fs.readFileSync(nodesPj, 'utf8'));
	} catch {
		/* first install */
	}
	manifest.dependencies = { ...(manifest.dependencies || {}), [pkg.name]: pkg.version };
	fs.writeFileSync(nodesPj, JSON.stringify(manifest, null, 2) + '\n');
	return dest;
}

// ---------------------------------------------------------------------------------------------------------------
// credentials and workflows, through the n8n CLI

/** @param {string} userFolder @param {string} name @param {unknown} data */
function tmpFile(userFolder, name, data) {
	const dir = places.importFolder(userFolder);
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(data, null, 2));
	return file;
}

/**
 * `n8n import:credentials` of one credential with plain `data` (n8n encrypts it on import).
 * @param {Pick<Runtime, 'node' | 'n8nBin'>} runtime
 * @param {N8nEnv} env
 * @param {CredentialRef & { data: Json }} credential
 */
async function importCredential(runtime, env, { id, name, type, data }) {
	const file = tmpFile(env.N8N_USER_FOLDER, `credential-${id}.json`, [{ id, name, type, data }]);
	try {
		return await runN8n(runtime, env, ['import:credentials', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true }); // plain secrets: do not leave them lying around
	}
}

/**
 * Activate a workflow from the CLI (before `n8n start`: a running n8n does not see it). n8n 2.x calls this
 * `publish:workflow`; 1.x has `update:workflow --active=true`.
 * @param {Pick<Runtime, 'node' | 'n8nBin' | 'n8nVersion'>} runtime
 * @param {N8nEnv} env
 * @param {string} id
 */
function publishWorkflow(runtime, env, id) {
	const args = runtime.n8nVersion.startsWith('1.')
		? ['update:workflow', `--id=${id}`, '--active=true']
		: ['publish:workflow', `--id=${id}`];
	return runN8n(runtime, env, args);
}

/** A stable n8n id (16 alphanumerics) derived from a string, for example the example file's name. @param {string} seed */
function stableId(seed) {
	const h = crypto.createHash('sha256').update(seed).digest();
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	let id = '';
	for (let i = 0; i < 16; i++) id += abc[h[i] % abc.length];
	return id;
}

/**
 * Make an example workflow importable: node types CUSTOM.x -> <package>.x, our credential on every node that
 * uses a finVerifyApi credential (and on our nodes), a stable id, not active.
 * @param {Json} wf
 * @param {{ id?: string, credential?: { id: string, name: string } }} [opts]
 * @returns {Workflow}
 */
function prepareWorkflow(wf, { id, credential = SANDBOX_CREDENTIAL } = {}) {
	const ref = { id: credential.id, name: credential.name };
	const nodes = (wf.nodes || []).map((/** @type {Json} */ n) => {
		const node = { ...n };
		if (typeof node.type === 'string' && node.type.startsWith('CUSTOM.'))
			node.type = `${PACKAGE_NAME}.${node.type.slice(7)}`;
		const ours = typeof node.type === 'string' && node.type.startsWith(`${PACKAGE_NAME}.`);
		const creds = { ...(node.credentials || {}) };
		if (ours || CREDENTIAL_TYPE in creds) creds[CREDENTIAL_TYPE] = ref;
		if (Object.keys(creds).length) node.credentials = creds;
		return node;
	});
	return /** @type {Workflow} */ ({ ...wf, id: wf.id || id, nodes, active: false });
}

/**
 * Read examples/*.json (a workflow or an array of workflows per file).
 * @param {string} [dir]
 * @returns {Example[]}
 */
function readExampleWorkflows(dir = places.FOLDERS.examples) {
	if (!fs.existsSync(dir)) return [];
	/** @type {Example[]} */
	const out = [];
	for (const f of fs
		.readdirSync(dir)
		.filter((x) => x.endsWith('.json'))
		.sort()) {
		const parsed = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
		const list = Array.isArray(parsed) ? parsed : [parsed];
		list.forEach((wf, i) => {
			if (wf && Array.isArray(wf.nodes))
				out.push({ file: f, workflow: prepareWorkflow(wf, { id: stableId(`${f}#${i}`) }) });
		});
	}
	return out;
}

/** The addresses the example workflows are written for: `npm start` with its default ports. */
const EXAMPLE_N8N_URL = `http://127.0.0.1:${places.PORTS.n8n}`;
const EXAMPLE_SANDBOX_URL = `http://127.0.0.1:${places.PORTS.sandbox}`;

/** `http://127.0.0.1:<port>` or `http://localhost:<port>` at the start of a URL, not followed by a digit. @param {number} port */
const localUrl = (port) =>
	new RegExp(`(?<![\\w.])http:\\/\\/(?:127\\.0\\.0\\.1|localhost):${port}(?!\\d)`, 'g');

/**
 * Point an example at the actual n8n and sandbox addresses: every string value that starts with
 * http://127.0.0.1:5678 (or localhost:5678) / http://127.0.0.1:4010 gets the given base URL instead (for example
 * the bank statement journey's trigger URL, the HTTP Request node's URL). A no-op with the default ports.
 * @template T
 * @param {T} wf
 * @param {{ n8nUrl?: string, sandboxUrl?: string }} [urls]
 * @returns {T}
 */
function localizeWorkflow(wf, { n8nUrl = EXAMPLE_N8N_URL, sandboxUrl = EXAMPLE_SANDBOX_URL } = {}) {
	/** @type {[RegExp, string][]} */
	const swaps = [
		[localUrl(places.PORTS.n8n), n8nUrl.replace(/\/$/, '')],
		[localUrl(places.PORTS.sandbox), sandboxUrl.replace(/\/$/, '')],
	];
	/** @param {unknown} v @returns {any} */
	const walk = (v) => {
		if (typeof v === 'string') return swaps.reduce((s, [re, url]) => s.replace(re, url), v);
		if (Array.isArray(v)) return v.map(walk);
		if (v && typeof v === 'object')
			return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
		return v;
	};
	return walk(wf);
}

/** Workflows with a FinVerify Trigger (they only receive events once published). @param {{ nodes?: Json[] }} wf */
function hasFinVerifyTrigger(wf) {
	return (wf.nodes || []).some((n) => n.type === NODE_TYPES.trigger && !n.disabled);
}

/**
 * `n8n import:workflow` of prepared workflows (one file, one n8n process).
 * @param {Pick<Runtime, 'node' | 'n8nBin'>} runtime
 * @param {N8nEnv} env
 * @param {Json[]} workflows
 * @param {{ name?: string }} [opts]
 */
async function importWorkflows(runtime, env, workflows, { name = 'workflows.json' } = {}) {
	if (!workflows.length) return null;
	const file = tmpFile(env.N8N_USER_FOLDER, name, workflows);
	try {
		return await runN8n(runtime, env, ['import:workflow', `--input=${file}`]);
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/**
 * @typedef {object} ImportExamplesOptions
 * @property {Runtime} runtime
 * @property {N8nEnv} env
 * @property {string} sandboxUrl     the credential's sandbox URL (and the examples' sandbox addresses)
 * @property {string} n8nUrl         the examples' n8n addresses (trigger URLs: n8n, or the webhook processor)
 * @property {string} statePath      remembers what was imported into which database
 * @property {() => string | null} databaseId  the database's identity (an inode); null: no database yet
 * @property {string} [examplesDir]
 * @property {boolean} [reimport]    import even if unchanged (FINVERIFY_REIMPORT=1)
 * @property {boolean} [publishFailureIsFatal]  default: a warning (publish it in the editor)
 * @property {(message: string) => void} log
 */

/**
 * The set-up step `npm start` and `npm run start:queue` share: import the "FinVerify sandbox" credential and the
 * example workflows (pointed at the given n8n and sandbox URLs) with the n8n CLI, and publish the ones with a
 * FinVerify Trigger; skipped for what exactly this content was already imported into this database.
 * @param {ImportExamplesOptions} o
 * @returns {Promise<Example[]>} the examples, as imported
 */
async function importExamplesOnce({
	runtime,
	env,
	sandboxUrl,
	n8nUrl,
	statePath,
	databaseId,
	examplesDir,
	reimport = false,
	publishFailureIsFatal = false,
	log,
}) {
	const credential = { ...SANDBOX_CREDENTIAL, data: sandboxCredentialData(sandboxUrl) };
	// The examples are written for the default ports; the actual addresses are filled in here.
	const workflows = readExampleWorkflows(examplesDir).map((w) => ({
		...w,
		workflow: localizeWorkflow(w.workflow, { n8nUrl, sandboxUrl }),
	}));
	const dbId = databaseId();
	/** @type {{ db?: string, credential?: string, workflows?: string }} */
	let state = {};
	try {
		state = JSON.parse(fs.readFileSync(statePath, 'utf8'));
	} catch {
		/* first run */
	}
	if (!dbId || state.db !== dbId || reimport) state = {};
	const hash = (/** @type {unknown} */ x) =>
		crypto.createHash('sha256').update(JSON.stringify(x)).digest('hex');
	const credHash = hash(credential);
	const wfHash = hash(workflows.map((w) => w.workflow));

	if (state.credential !== credHash) {
		log(`import: credential "${credential.name}" (${credential.type}, id ${credential.id}) …`);
		await importCredential(runtime, env, credential);
		state.credential = credHash;
	} else log(`import: credential "${credential.name}" already imported`);

	if (!workflows.length) log('import: no example workflows in examples/ (yet)');
	else if (state.workflows !== wfHash) {
		log(
			`import: ${workflows.length} example workflow(s): ${workflows.map((w) => `${w.workflow.name} [${w.file}]`).join(', ')} …`,
		);
		await importWorkflows(
			runtime,
			env,
			workflows.map((w) => w.workflow),
			{ name: 'examples.json' },
		);
		// A FinVerify Trigger receives events only while its workflow is published (the journey example's part 2).
		for (const w of workflows.filter((x) => hasFinVerifyTrigger(x.workflow))) {
			log(
				`import: publishing "${w.workflow.name}" (its FinVerify Trigger listens only while published) …`,
			);
			try {
				await publishWorkflow(runtime, env, w.workflow.id);
			} catch (e) {
				if (publishFailureIsFatal) throw e;
				log(
					`WARNING: could not publish "${w.workflow.name}"; publish it in the editor. ${String(e.message).split('\n')[0]}`,
				);
			}
		}
		state.workflows = wfHash;
	} else log(`import: ${workflows.length} example workflow(s) already imported`);

	state.db = databaseId() || undefined; // the import created the database if it did not exist
	fs.mkdirSync(path.dirname(statePath), { recursive: true });
	fs.writeFileSync(statePath, JSON.stringify(state, null, 2) + '\n');
	return workflows;
}

/** The inode of a file as a string (a database's identity: a new database is a new file), null when missing. @param {string} file */
function fileIdentity(file) {
	return fs.existsSync(file) ? String(fs.statSync(file).ino) : null;
}

// ---------------------------------------------------------------------------------------------------------------
// did n8n load the nodes?

/**
 * `n8n export:nodes` -> the list of node type names n8n loads (a cheap "does the package load" check).
 * @param {Pick<Runtime, 'node' | 'n8nBin'>} runtime
 * @param {N8nEnv} env
 * @returns {Promise<string[]>}
 */
async function exportNodeTypes(runtime, env) {
	const file = path.join(places.importFolder(env.N8N_USER_FOLDER), `nodes-${process.pid}.json`);
	fs.mkdirSync(path.dirname(file), { recursive: true });
	await runN8n(runtime, env, ['export:nodes', `--output=${file}`]);
	const list = JSON.parse(fs.readFileSync(file, 'utf8'));
	fs.rmSync(file, { force: true });
	return list.map((/** @type {{ name: string }} */ n) => n.name);
}

/**
 * Node type names the running editor knows (GET /types/nodes.json needs a login cookie).
 * @param {string} baseUrl
 * @param {string} cookie
 * @returns {Promise<string[]>}
 */
async function loadedNodeTypes(baseUrl, cookie) {
	const r = await request(`${baseUrl.replace(/\/$/, '')}/types/nodes.json`, {
		headers: { cookie },
		timeoutMs: 30000,
	});
	if (r.status !== 200 || !Array.isArray(r.json))
		throw new Error(`GET /types/nodes.json: HTTP ${r.status}`);
	return [...new Set(r.json.map((/** @type {{ name: string }} */ n) => n.name))];
}

module.exports = {
	PACKAGE_NAME,
	NODE_TYPES,
	CREDENTIAL_TYPE,
	DEFAULT_OWNER,
	ownerFromEnv,
	SANDBOX_CREDENTIAL,
	sandboxCredentialData,
	bcryptHash,
	ownerWithHash,
	login,
	ensureOwner,
	installPackage,
	importCredential,
	publishWorkflow,
	stableId,
	prepareWorkflow,
	readExampleWorkflows,
	EXAMPLE_N8N_URL,
	EXAMPLE_SANDBOX_URL,
	localizeWorkflow,
	hasFinVerifyTrigger,
	importWorkflows,
	importExamplesOnce,
	fileIdentity,
	exportNodeTypes,
	loadedNodeTypes,
};
