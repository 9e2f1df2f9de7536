/**
 * The n8n editor in Chromium, against the real app with this package installed: sign in, open an example,
 * open a FinVerify node (resources, operations), run the workflow from the canvas and read the output, and
 * complete a hosted collection session in the browser so that the waiting execution finishes.
 */
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import {
	assertChromium,
	launchBrowser,
	screenshot,
	step,
	type Browser,
} from './helpers/browser.cjs';
import { N8nStack, NODE_TYPES, OWNER, waitFor, type Workflow } from './helpers/stack.cjs';

jest.setTimeout(180_000);

let stack: N8nStack;
let browser: Browser;
let page: Page;

const explain = () => `--- n8n log (tail) ---\n${stack.logTail(30)}`;
const run = <T,>(name: string, fn: () => Promise<T>) => step(browser, name, fn, explain);

beforeAll(async () => {
	assertChromium(); // before n8n starts: no browser = every test here fails at once, with how to install it
	stack = await N8nStack.create({ name: 'browser' });
	await stack.importAll();
	await stack.start();
	browser = await launchBrowser(path.join(stack.userFolder, 'chromium-profile'));
	page = browser.page;
}, 900_000);

afterAll(async () => {
	await browser?.close().catch(() => undefined);
	await stack?.stop();
});

/** Poll a browser condition (playwright-core has no auto-retrying assertions). */
const until = (what: string, cond: () => Promise<boolean>, timeoutMs = 30_000) =>
	waitFor(async () => ((await cond()) ? true : undefined), { timeoutMs, what, intervalMs: 250 });
const inputValue = (testId: string) =>
	page.getByTestId(testId).locator('input').first().inputValue();

const canvasNode = (name: string) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
const nodeSucceeded = (name: string) => canvasNode(name).getByTestId('canvas-node-status-success');
/** The visible entries of the open dropdown (n8n renders every select's options; only the open one is visible). */
const openDropdownItems = async (): Promise<string[]> => {
	const items = page.getByTestId('parameter-input-item').filter({ visible: true });
	await items.first().waitFor();
	return (await items.allInnerTexts()).map((t) => t.split('\n')[0].trim());
};

async function openWorkflow(wf: Workflow): Promise<void> {
	await page.goto(`${stack.url}/workflow/${wf.id}`);
	await page.getByTestId('canvas-node').first().waitFor({ timeout: 60_000 });
}

async function openNode(name: string): Promise<void> {
	await canvasNode(name).dblclick();
	await page.getByTestId('ndv').waitFor();
	await page.getByTestId('node-title-container').filter({ hasText: name }).waitFor();
}

async function closeNode(): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

test('signs in to the editor through the sign-in form', async () => {
	await run('sign-in', async () => {
		await page.goto(`${stack.url}/signin`);
		await page.locator('input[name="emailOrLdapLoginId"]').fill(OWNER.email);
		await page.locator('input[name="password"]').fill(OWNER.password);
		await page.getByTestId('form-submit-button').click();
		await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 60_000 });
		expect(new URL(page.url()).pathname).toMatch(/^\/home/);
		const cookies = await browser.context.cookies(stack.url);
		expect(cookies.map((c) => c.name)).toContain('n8n-auth');
	});
});

test('opens the company onboarding example: its FinVerify nodes are on the canvas', async () => {
	const wf = stack.example('company-onboarding.json');
	await run('open-workflow', async () => {
		await openWorkflow(wf);
		const expected = wf.nodes
			.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
			.map((n) => n.name);
		await until(
			`${expected.length} nodes on the canvas`,
			async () => (await page.getByTestId('canvas-node').count()) === expected.length,
		);
		const onCanvas = await page
			.getByTestId('canvas-node')
			.evaluateAll((els) =>
				els.map((e) => [e.getAttribute('data-node-name'), e.getAttribute('data-node-type')]),
			);
		expect(onCanvas.map(([name]) => name).sort()).toEqual([...expected].sort());
		expect(onCanvas.filter(([, type]) => type === NODE_TYPES.action).map(([name]) => name)).toEqual(
			expect.arrayContaining([
				'Search company by name',
				'Get company by CIN',
				'Verify PAN',
				'Commercial credit report',
			]),
		);
		await page.getByTestId('sticky').first().waitFor(); // the explanation note renders too
		// the icons arrive with the node types, after the canvas: without them the screenshot shows blank nodes
		await until('every node icon rendered', async () =>
			page.getByTestId('canvas-node').evaluateAll((els) =>
				els.every((el) => {
					const img = el.querySelector('.n8n-node-icon img') as unknown as {
						complete: boolean;
						naturalWidth: number;
					} | null;
					if (img) return img.complete && img.naturalWidth > 0;
					return el.querySelector('.n8n-node-icon svg') !== null;
				}),
			),
		);
		await screenshot(page, 'editor-workflow');
	});
});

test('the FinVerify node shows its resources and operations', async () => {
	await run('node-resources-operations', async () => {
		await openNode('Get company by CIN');
		await until(
			'the Resource parameter to show Company',
			async () => (await inputValue('parameter-input-resource')) === 'Company',
		);
		expect(await inputValue('parameter-input-operation')).toBe('Get by CIN');
		expect(await inputValue('node-credentials-select')).toBe('FinVerify sandbox');

		await page.getByTestId('parameter-input-resource').click();
		const resources = await openDropdownItems();
		expect(resources).toEqual(
			expect.arrayContaining([
				'Custom API Call',
				'Bank Statement Journey',
				'Collection Session',
				'Company',
				'Credit Report',
				'Employment',
				'Income Tax Return',
			]),
		);
		await screenshot(page, 'node-resources');
		await page.keyboard.press('Escape');
		await page
			.getByTestId('parameter-input-item')
			.filter({ visible: true })
			.first()
			.waitFor({ state: 'hidden' });

		await page.getByTestId('parameter-input-operation').click();
		const operations = await openDropdownItems();
		expect(operations).toEqual(
			expect.arrayContaining([
				'Get by CIN',
				'Get Entity by PAN',
				'Get LLP by LLPIN',
				'Search by Name',
			]),
		);
		expect(operations).not.toContain('Get Multi-Bureau Report'); // operations follow the chosen resource
		await screenshot(page, 'node-operations');
		await page.keyboard.press('Escape');
		await page
			.getByTestId('parameter-input-item')
			.filter({ visible: true })
			.first()
			.waitFor({ state: 'hidden' });
		await closeNode();
	});
});

test('schema preview: before a first run, the next node shows the output fields of a FinVerify node', async () => {
	// n8n asks /schemas/<package>.<node>/<version>/<resource>/<operation>.json for nodes that have not run;
	// the package ships nodes/FinVerify/__schema__/v<version>/<resource>/<operation>.json (see docs/output.md)
	const wf = stack.example('company-onboarding.json');
	const url = `${stack.url}/schemas/${NODE_TYPES.action}/1.0.0/company/searchByName.json`;
	await run('schema-preview', async () => {
		const direct = await page.request.get(url);
		expect(direct.status()).toBe(200);
		const schema = (await direct.json()) as { type: string; properties: Record<string, unknown> };
		expect(schema.type).toBe('object');
		expect(Object.keys(schema.properties)).toEqual(
			expect.arrayContaining(['name', 'entityType', 'identifier', 'cin', 'llpin']),
		);
		expect((await page.request.get(url.replace('1.0.0', '2.0.0'))).status()).toBe(200);

		const answers: Array<{ url: string; status: number }> = [];
		page.on('response', (r) => {
			if (r.url().includes('/schemas/')) answers.push({ url: r.url(), status: r.status() });
		});
		await openWorkflow(wf); // a fresh load: nothing of this workflow has run yet
		await openNode('Get company by CIN');
		const ndv = page.getByTestId('ndv');
		await ndv.getByTestId('schema-preview-warning').first().waitFor({ timeout: 30_000 });
		const fields = ndv.getByTestId('run-data-schema-item');
		await until('the preview to list identifier and entityType', async () => {
			const texts = await fields.allInnerTexts();
			return ['identifier', 'entityType'].every((f) => texts.some((t) => t.includes(f)));
		});
		await screenshot(page, 'schema-preview');
		expect(answers.filter((a) => a.url.includes('finVerify'))).toEqual(
			expect.arrayContaining([{ url, status: 200 }]),
		);
		// core nodes without a schema (the Set node) still answer 404; no FinVerify request does
		expect(answers.filter((a) => a.url.includes('finverify') && a.status !== 200)).toEqual([]);
		await closeNode();
	});
});

test('runs the workflow with the "Execute workflow" button and shows the output', async () => {
	const wf = stack.example('company-onboarding.json');
	await run('execute-workflow', async () => {
		await page.getByTestId('execute-workflow-button').click();
		for (const name of [
			'Search company by name',
			'Get company by CIN',
			'Verify PAN',
			'Commercial credit report',
		]) {
			await nodeSucceeded(name).waitFor({ timeout: 60_000 });
		}
		// the same run, as n8n stored it
		const latest = await waitFor(async () => (await stack.executions(wf.id))[0], {
			what: `an execution of "${wf.name}"`,
		});
		const stored = await stack.waitForExecution(latest.id);
		expect(stored).toMatchObject({ status: 'success', mode: 'manual' });
		const [company] = stored.run.json('Get company by CIN');

		await openNode('Get company by CIN');
		const output = page.getByTestId('output-panel');
		await output.getByText('1 item').first().waitFor();
		await output.getByText(company.name).first().waitFor();
		await output.getByText(company.cin).first().waitFor();
		await screenshot(page, 'node-output');
		await closeNode();

		await openNode('Commercial credit report');
		await output.getByText('text/html').first().waitFor(); // the report is a binary HTML file
		await output
			.getByText(stored.run.json('Commercial credit report')[0].fileName)
			.first()
			.waitFor();
		await screenshot(page, 'node-output-binary');
		await closeNode();
	});
});

test('collection session: the recipient submits the hosted ITR form and the waiting execution finishes', async () => {
	const wf = stack.example('collection-session-wait.json');
	await run('collection-session', async () => {
		await openWorkflow(wf);
		await page.getByTestId('execute-workflow-button').click();

		const waiting = await waitFor(
			async () => {
				const [latest] = await stack.executions(wf.id);
				return latest?.status === 'waiting' ? latest : undefined;
			},
			{ timeoutMs: 30_000, what: 'the execution to wait for the callback' },
		);
		await until('the FinVerify node to show that it waits', async () =>
			/\bwaiting\b/.test(
				(await canvasNode('Create collection session').getAttribute('class')) ?? '',
			),
		);
		const [session] = (await stack.execution(waiting.id)).run.json('Create collection session');

		// the e-mail the sandbox "sent" carries the hosted link
		const mail = (await stack.control.outbox()).find((m) => m.session_id === session.sessionId);
		expect(mail).toBeDefined();
		const link = String(mail?.link);
		expect(link).toBe(session.hostedUrl);

		const hosted = await browser.context.newPage();
		await hosted.setViewportSize({ width: 1024, height: 640 });
		await hosted.goto(link);
		await hosted.getByRole('heading', { name: 'Share your income-tax return details' }).waitFor();
		await hosted.locator('#pan').fill('ABCPS1234K');
		await hosted.locator('#date_of_birth').fill('1990-04-12');
		await hosted.locator('#assessment_year').fill('2024-25');
		await screenshot(hosted, 'hosted-session');

		// the sandbox answers the submission with a redirect to the session's redirect_url (https://example.com/…);
		// the browser stays on 127.0.0.1: the answer is taken here and a local page is shown instead
		let redirect = '';
		await hosted.route('**/collect/*/submit', async (route) => {
			const answer = await route.fetch({ maxRedirects: 0 });
			redirect = answer.headers().location ?? `(HTTP ${answer.status()})`;
			await route.fulfill({
				status: 200,
				contentType: 'text/html',
				body: `<h1>Submitted</h1><p id="redirect">${redirect}</p>`,
			});
		});
		await hosted.locator('#submit').click();
		await hosted.locator('#redirect').waitFor();
		expect(redirect).toBe(
			`https://example.com/thank-you?session_id=${session.sessionId}&status=completed`,
		);

		// the sandbox POSTs the status change to $execution.resumeUrl: the FinVerify node resumes, the execution finishes
		const done = await stack.waitForExecution(waiting.id, { timeoutMs: 60_000 });
		expect(done.status).toBe('success');
		expect(done.run.json('Session outcome')[0]).toMatchObject({
			sessionId: session.sessionId,
			status: 'completed',
			pan: 'ABCPS1234K',
		});

		await page.bringToFront();
		await nodeSucceeded('Continue with the ITR analysis').waitFor({ timeout: 60_000 }); // the editor saw it too
		expect(
			await canvasNode('Follow up with the recipient')
				.getByTestId('canvas-node-status-success')
				.count(),
		).toBe(0);
		await page.waitForTimeout(1500); // let the canvas settle (button and toast animations) for the screenshot
		await screenshot(page, 'collection-session-complete');
		await hosted.close();
	});
});

test('the browser never contacted anything but 127.0.0.1', () => {
	expect(browser.offHostRequests).toEqual([]);
});
