/**
 * Chromium (Debian's /usr/bin/chromium) driven by playwright-core, for the editor tests.
 *
 * - a fresh --user-data-dir per suite, headless, no sandbox/GPU/background networking;
 * - nothing but 127.0.0.1: host names do not resolve (--host-resolver-rules), and every request to another host
 *   is aborted and recorded (`offHostRequests`), so a test can assert that none happened;
 * - n8n's editor marks its elements with data-test-id: getByTestId() uses that attribute;
 * - screenshots go to .cache/e2e-screenshots/ (always) and to docs/screenshots/ with FINVERIFY_UPDATE_SCREENSHOTS=1.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { chromium, selectors, type BrowserContext, type Page } from 'playwright-core';

import { REPO } from './stack.cjs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS = path.join(REPO, '.cache', 'e2e-screenshots');
export const DOCS_SCREENSHOTS = path.join(REPO, 'docs', 'screenshots');
const UPDATE_DOCS = process.env.FINVERIFY_UPDATE_SCREENSHOTS === '1';

export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-quic',
	// no DNS at all: only the IP literal 127.0.0.1 is reachable
	'--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

export interface Browser {
	context: BrowserContext;
	page: Page;
	offHostRequests: string[];
	close(): Promise<void>;
}

/**
 * Fails (never skips) when there is no Chromium: the suite calls it before it starts n8n, so a missing browser
 * shows up at once as failed tests with this message. `npm test` installs Debian's package when run as root.
 */
export function assertChromium(): void {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`Chromium not found at ${CHROMIUM}: the browser suite cannot run and counts as FAILED. Install it (Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
		);
	}
}

export async function launchBrowser(userDataDir: string): Promise<Browser> {
	assertChromium();
	selectors.setTestIdAttribute('data-test-id');
	fs.mkdirSync(userDataDir, { recursive: true });
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
		viewport: { width: 1440, height: 900 },
		timeout: 60_000,
	});
	context.setDefaultTimeout(30_000);
	const offHostRequests: string[] = [];
	await context.route('**/*', (route) => {
		const url = new URL(route.request().url());
		if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:')
			return route.continue();
		offHostRequests.push(url.href);
		return route.abort('blockedbyclient');
	});
	const page = context.pages()[0] ?? (await context.newPage());
	return { context, page, offHostRequests, close: () => context.close() };
}

/**
 * Wait until the page's finite animations and transitions have finished (a dropdown fading in, a toast sliding
 * in); endless ones (spinners) do not count. Gives up quietly after `timeoutMs`: it only makes pictures sharp.
 */
export async function animationsDone(page: Page, timeoutMs = 5_000): Promise<void> {
	await page
		.waitForFunction(
			`document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)`,
			undefined,
			{ timeout: timeoutMs },
		)
		.catch(() => undefined);
}

/**
 * Save a screenshot as <name>.png in the artifacts folder (and docs/screenshots/ when updating them), once the
 * page's animations are done.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
	fs.mkdirSync(ARTIFACTS, { recursive: true });
	const file = path.join(ARTIFACTS, `${name}.png`);
	await animationsDone(page);
	await page.screenshot({ path: file });
	if (UPDATE_DOCS) {
		fs.mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
		fs.copyFileSync(file, path.join(DOCS_SCREENSHOTS, `${name}.png`));
	}
	return file;
}

/**
 * Run a browser step; on failure, save a screenshot of every open page and rethrow with where to find them
 * (and whatever context `explain` adds, e.g. the n8n log).
 */
export async function step<T>(
	browser: Browser,
	name: string,
	fn: () => Promise<T>,
	explain: () => string = () => '',
): Promise<T> {
	try {
		return await fn();
	} catch (e) {
		const shots: string[] = [];
		for (const [i, p] of browser.context.pages().entries()) {
			try {
				fs.mkdirSync(ARTIFACTS, { recursive: true });
				const file = path.join(ARTIFACTS, `failure-${name.replace(/[^a-z0-9]+/gi, '-')}-${i}.png`);
				await p.screenshot({ path: file, timeout: 10_000 });
				shots.push(`${file} (${p.url()})`);
			} catch {
				/* page gone */
			}
		}
		const err = e as Error;
		err.message = `${name}: ${err.message}\nscreenshots: ${shots.join(', ') || 'none'}${explain() ? `\n${explain()}` : ''}`;
		throw err;
	}
}
