/**
 * Personal data in what the real n8n app (2.41.1, SQLite) stores, with the execution-data settings
 * docs/privacy.md recommends: a credit pull (EPFO with Credit Report, which answers with the subject's
 * PAN, mobile number and, for the sandbox's magic mobile, a full Aadhaar) with Personal Data in Output:
 * Masked leaves none of the three in any file of n8n's user folder (database, its WAL, logs), in plain
 * text or base64. Controls that the search can fail: the same run with Full stores the PAN and the mobile
 * number (Aadhaar stays masked), and with Raw the Aadhaar.
 *
 * The subject's mobile number reaches the node through `$env`, so that the workflow and its trigger's
 * output do not hold it: what is measured is what the FinVerify node adds (identifiers a workflow receives
 * are stored with the node that received them; docs/privacy.md says so).
 *
 * Then, with saving of successful executions off (EXECUTIONS_DATA_SAVE_ON_SUCCESS=none), a production
 * execution waiting for a journey's callback is still stored while it waits, resumes on the final
 * callback and runs its next node, and is then not kept.
 */
import { EPFO_CRIF_FULL_AADHAAR_MOBILE } from '../../sandbox/magic.cjs';
import { N8nStack, sandboxApi, waitFor, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(300_000);

const MOBILE = EPFO_CRIF_FULL_AADHAAR_MOBILE;
const NODE = 'EPFO and credit';

/** The recommended execution-data settings (docs/privacy.md), plus $env access for this test's input. */
const RECOMMENDED = {
	EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
	EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
	EXECUTIONS_DATA_SAVE_ON_PROGRESS: 'false',
	EXECUTIONS_DATA_PRUNE: 'true',
	EXECUTIONS_DATA_MAX_AGE: '168',
	EXECUTIONS_DATA_PRUNE_MAX_COUNT: '10000',
};

let stack: N8nStack;
let pull: Workflow;
let waiting: Workflow;

const variant = (base: Workflow, id: string, name: string, parameters: Record<string, unknown>) => {
	const wf = JSON.parse(JSON.stringify(base)) as Workflow;
	wf.id = id;
	wf.name = name;
	const node = wf.nodes.find((n) => n.name === NODE)!;
	node.parameters = { ...node.parameters, ...parameters };
	return wf;
};

beforeAll(async () => {
	stack = await N8nStack.create({ name: 'privacy', stepMs: 200 });
	Object.assign(stack.env, RECOMMENDED, {
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		FINVERIFY_E2E_SUBJECT_MOBILE: MOBILE,
	});
	pull = stack.fixture('privacy-credit-pull.workflow.json');
	waiting = stack.fixture('privacy-wait-webhook.workflow.json');
	await stack.importAll([
		pull,
		variant(pull, 'e2ePrivacyPull02', 'e2e: Personal Data Full', { personalData: 'full' }),
		variant(pull, 'e2ePrivacyPull03', 'e2e: Output Raw', { outputMode: 'raw' }),
		waiting,
	]);
	await stack.publish(waiting.id);
	await stack.start();
}, 900_000);

afterAll(async () => await stack?.stop());

/** Runs a workflow by hand to success; the output of its FinVerify node. */
async function runToSuccess(id: string) {
	const executionId = await stack.runManually({ ...pull, id });
	const done = await stack.waitForExecution(executionId, { timeoutMs: 120_000 });
	expect(done.status).toBe('success');
	return done.run.json(NODE);
}

/** Which of the subject's identifiers some file of n8n's user folder holds (plain or base64). */
const storedIdentifiers = (subject: Record<string, string>) => {
	const { scanned, hits } = stack.scanFiles(Object.values(subject));
	expect(scanned.some((f) => f.includes('database.sqlite'))).toBe(true);
	const names = new Set(
		hits.map((h) => Object.keys(subject).find((k) => h.secret.startsWith(subject[k]))),
	);
	return [...names].sort();
};

test('Masked stores no full PAN, mobile or Aadhaar of the subject; Full stores PAN and mobile, Raw the Aadhaar', async () => {
	// the subject's identifiers as the service answers (asked outside n8n, so n8n never stores this)
	const { status, json } = await sandboxApi(stack.sandbox.url, 'epfo-crif-combined/fetch', {
		mobile_number: MOBILE,
	});
	expect(status).toBe(200);
	const answer = JSON.stringify(json);
	const subject = {
		pan: /"pan":"([A-Z]{5}[0-9]{4}[A-Z])"/.exec(answer)?.[1] ?? '',
		mobile: MOBILE,
		aadhaar: /"aadhaar_number":"([0-9]{12})"/.exec(answer)?.[1] ?? '',
	};
	expect(subject.pan).toMatch(/^[A-Z]{5}[0-9]{4}[A-Z]$/);
	expect(subject.aadhaar).toMatch(/^[0-9]{12}$/);

	const [masked] = await runToSuccess(pull.id);
	expect(masked.mobileNumber).toBe(`XXXXXX${MOBILE.slice(-4)}`);
	expect(masked.consentRecord).toMatchObject({
		consentReference: 'e2e consent form 1',
		workflowId: pull.id,
	});
	expect(storedIdentifiers(subject)).toEqual([]);

	const [full] = await runToSuccess('e2ePrivacyPull02');
	expect(full.mobileNumber).toBe(MOBILE);
	expect(storedIdentifiers(subject)).toEqual(['mobile', 'pan']);

	await runToSuccess('e2ePrivacyPull03');
	expect(storedIdentifiers(subject)).toEqual(['aadhaar', 'mobile', 'pan']);
});

test('saving of successful executions off: a waiting execution is stored, resumes on its callback, runs on, and is not kept', async () => {
	Object.assign(stack.env, { EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none' });
	await stack.restartN8n();
	const webhook = `${stack.url}/webhook/e2e-privacy-wait`;
	// the published workflow is active some seconds after n8n is up: the first accepted call starts it
	await waitFor(
		async () => {
			const r = await fetch(webhook, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ mobile: '9876543210' }),
			});
			return r.status === 200 ? true : undefined;
		},
		{ timeoutMs: 120_000, what: 'the published webhook workflow to accept a call' },
	);
	const stored = await waitFor(
		async () => {
			const list = await stack.executions(waiting.id);
			return list.length === 1 && list[0].status === 'waiting' ? list : undefined;
		},
		{ timeoutMs: 60_000, what: 'the execution to wait, stored' },
	);
	const execution = await stack.execution(String(stored[0].id));
	const clientId = String(execution.run.json('Start journey and wait')[0].clientId);
	expect(clientId).toMatch(/.+/);
	expect(await stack.control.requests('aa-bsa-journey/status')).toHaveLength(0);

	// consent: the sandbox walks on to the final status and calls back
	await stack.control.advanceJourney(clientId, 'consent_granted');
	// the node after the waiting one ran: it asked the service for the journey's status
	const statusCalls = await waitFor(
		async () => {
			const calls = await stack.control.requests('aa-bsa-journey/status');
			return calls.length > 0 ? calls : undefined;
		},
		{ timeoutMs: 60_000, what: 'the resumed execution to run its next node' },
	);
	expect(JSON.stringify(statusCalls[0])).toContain(clientId);
	// a success that is not kept: the execution is gone once it finished
	await waitFor(
		async () => ((await stack.executions(waiting.id)).length === 0 ? true : undefined),
		{ timeoutMs: 60_000, what: 'the finished execution to be removed' },
	);
});
