/**
 * Every link in the documentation resolves: relative links point at files (or folders) of this repository,
 * `#anchors` at headings of the target Markdown file (GitHub's slug rules), images exist, and external
 * http(s) links are well-formed (checked for syntax only: no test depends on the network).
 * Checked: README.md, CONTRIBUTING.md, CHANGELOG.md (when present) and docs/**\/*.md.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface Link {
	/** As written, without the optional title. */
	target: string;
	image: boolean;
	line: number;
}

/** Lines of a Markdown text with fenced code blocks blanked out (line numbers are kept). */
function proseLines(markdown: string): string[] {
	let fence: string | undefined;
	return markdown.split(/\r?\n/).map((line) => {
		const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
		if (fence) {
			if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length)
				fence = undefined;
			return '';
		}
		if (opener) {
			fence = opener[1];
			return '';
		}
		return line;
	});
}

/** A line with its code spans (`x`, ``x``) blanked out, so `[a](b)` inside code is not a link. */
function withoutCodeSpans(line: string): string {
	return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));
}

/** Reads a link destination starting at `start` (just after the opening parenthesis). */
function readDestination(text: string, start: number): string | undefined {
	let i = start;
	while (text[i] === ' ') i++;
	if (text[i] === '<') {
		const end = text.indexOf('>', i);
		return end === -1 ? undefined : text.slice(i + 1, end);
	}
	let depth = 0;
	let j = i;
	for (; j < text.length; j++) {
		const c = text[j];
		if (c === '\\') {
			j++;
			continue;
		}
		if (c === '(') depth++;
		else if (c === ')') {
			if (depth === 0) break;
			depth--;
		} else if (c === ' ' || c === '\t') break;
	}
	if (j >= text.length) return undefined;
	return text.slice(i, j);
}

/** Inline links and images, reference definitions, autolinks and HTML src/href attributes. */
export function extractLinks(markdown: string): Link[] {
	const links: Link[] = [];
	proseLines(markdown).forEach((raw, index) => {
		const line = withoutCodeSpans(raw);
		const lineNo = index + 1;
		const definition = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(line);
		if (definition) {
			links.push({ target: definition[1], image: false, line: lineNo });
			return;
		}
		for (let i = line.indexOf(']('); i !== -1; i = line.indexOf('](', i + 2)) {
			// find the matching "[" to tell an image from a link
			let depth = 0;
			let open = -1;
			for (let k = i - 1; k >= 0; k--) {
				if (line[k] === ']') depth++;
				else if (line[k] === '[') {
					if (depth === 0) {
						open = k;
						break;
					}
					depth--;
				}
			}
			if (open === -1) continue;
			const target = readDestination(line, i + 2);
			if (target === undefined) continue;
			links.push({ target, image: open > 0 && line[open - 1] === '!', line: lineNo });
		}
		for (const match of line.matchAll(/<((?:https?|mailto):[^\s>]+)>/g)) {
			links.push({ target: match[1], image: false, line: lineNo });
		}
		for (const match of line.matchAll(/<(img|a)\b[^>]*?\b(src|href)="([^"]*)"/gi)) {
			links.push({ target: match[3], image: match[1].toLowerCase() === 'img', line: lineNo });
		}
	});
	return links;
}

/** GitHub's heading slug (github-slugger): lowercase, punctuation and symbols removed, spaces to hyphens. */
export function githubSlug(heading: string): string {
	const text = heading
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '') // images
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links keep their text
		.replace(/<[^>]+>/g, '') // HTML tags
		.replace(/`/g, '')
		.replace(/\*+/g, '');
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: heading slugs (duplicates get -1, -2, …) and HTML ids/names. */
export function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of proseLines(markdown)) {
		const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
		if (heading) {
			const slug = githubSlug(heading[1]);
			const count = seen.get(slug) ?? 0;
			seen.set(slug, count + 1);
			anchors.add(count === 0 ? slug : `${slug}-${count}`);
		}
		for (const match of line.matchAll(/<[a-z]+\b[^>]*?\b(?:id|name)="([^"]+)"/gi)) {
			anchors.add(match[1]);
		}
	}
	return anchors;
}

/** Problems with the links of one Markdown file (`file` is relative to the repository root). */
export function checkMarkdown(markdown: string, file: string, root = ROOT): string[] {
	const problems: string[] = [];
	const here = path.join(root, file);
	const report = (link: Link, why: string) =>
		problems.push(`${file}:${link.line}: ${link.image ? 'image' : 'link'} "${link.target}" ${why}`);

	for (const link of extractLinks(markdown)) {
		const target = link.target;
		if (target === '') {
			report(link, 'is empty');
			continue;
		}
		const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target);
		if (scheme) {
			const protocol = scheme[1].toLowerCase();
			if (protocol === 'mailto') {
				if (!/^mailto:[^@\s]+@[^@\s]+\.[^@\s]+$/i.test(target))
					report(link, 'is not an e-mail link');
				continue;
			}
			if (protocol !== 'http' && protocol !== 'https') {
				report(link, `uses the scheme "${protocol}:" (only http, https and mailto are allowed)`);
				continue;
			}
			let url: URL | undefined;
			try {
				url = new URL(target);
			} catch {
				url = undefined;
			}
			const hostOk =
				url !== undefined &&
				(/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(url.hostname) ||
					['localhost', '127.0.0.1'].includes(url.hostname));
			if (!url || !hostOk || !new RegExp(`^${protocol}://`, 'i').test(target)) {
				report(link, 'is not a well-formed http(s) URL');
				continue;
			}
			// a link to a file of this repository on GitHub (what the npm page needs): that file must exist here
			const inRepository = repositoryLinkToRelative(target);
			if (inRepository !== undefined) {
				const branch = /^\/(?:blob|tree)\/([^/]+)\//.exec(target.slice(REPOSITORY_URL.length));
				if (branch && branch[1] !== DEFAULT_BRANCH)
					report(
						link,
						`names the branch "${branch[1]}"; links to this repository use ${DEFAULT_BRANCH}`,
					);
				for (const problem of checkMarkdown(`[link](/${inRepository})`, file, root))
					report(
						link,
						problem.replace(/^[^"]*"[^"]*" /, 'resolves to a file of this repository that '),
					);
			}
			continue;
		}
		if (target.startsWith('//')) {
			report(link, 'is protocol-relative; write http(s):// or a relative path');
			continue;
		}

		const hashAt = target.indexOf('#');
		const rawPath = (hashAt === -1 ? target : target.slice(0, hashAt)).replace(/\?.*$/, '');
		const anchor = hashAt === -1 ? undefined : target.slice(hashAt + 1);
		let decoded: string;
		try {
			decoded = decodeURIComponent(rawPath);
		} catch {
			report(link, 'has a malformed percent-encoding');
			continue;
		}
		const resolved =
			decoded === ''
				? here
				: decoded.startsWith('/')
					? path.join(root, decoded)
					: path.resolve(path.dirname(here), decoded);
		const relative = path.relative(root, resolved);
		if (relative.startsWith('..') || path.isAbsolute(relative)) {
			report(link, 'points outside the repository');
			continue;
		}
		const source = decoded === '' ? markdown : undefined;
		if (source === undefined && !existsSync(resolved)) {
			report(link, `points at ${relative}, which does not exist`);
			continue;
		}
		if (link.image && (source !== undefined || statSync(resolved).isDirectory())) {
			report(link, 'is an image link that does not point at a file');
			continue;
		}
		if (anchor === undefined) continue;
		if (anchor === '') {
			report(link, 'has an empty #anchor');
			continue;
		}
		const isMarkdown = source !== undefined || /\.md$/i.test(resolved);
		if (!isMarkdown) {
			if (statSync(resolved).isDirectory() || !/^L\d+(-L\d+)?$/.test(anchor)) {
				report(link, `has the anchor #${anchor}, which only Markdown files and line numbers offer`);
			}
			continue;
		}
		const anchors = anchorsOf(source ?? readFileSync(resolved, 'utf8'));
		if (!anchors.has(decodeURIComponent(anchor))) {
			report(link, `names #${anchor}, which is no heading of ${relative || file}`);
		}
	}
	return problems;
}

/** The documentation files the test covers, relative to the repository root. */
export function documentationFiles(root = ROOT): string[] {
	const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((f) =>
		existsSync(path.join(root, f)),
	);
	const walk = (dir: string): string[] =>
		readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
			const child = path.posix.join(dir, entry.name);
			if (entry.isDirectory()) return walk(child);
			return entry.name.endsWith('.md') ? [child] : [];
		});
	return [...files, ...(existsSync(path.join(root, 'docs')) ? walk('docs') : [])];
}

const REPOSITORY_URL = 'https://github.com/n8n-nodes-finverify/n8n-nodes-finverify';
const DEFAULT_BRANCH = 'main';

/**
 * Links into this repository's GitHub pages as a relative link the checker can resolve: the repository
 * page shows the README (`#anchor`), `/blob/<branch>/<path>` and `/tree/<branch>/<path>` show files.
 */
export function repositoryLinkToRelative(url: string): string | undefined {
	if (!url.startsWith(REPOSITORY_URL)) return undefined;
	const rest = url.slice(REPOSITORY_URL.length);
	// `#readme` is the anchor GitHub gives the rendered README itself
	if (rest === '' || rest === '#readme') return 'README.md';
	if (rest.startsWith('#')) return `README.md${rest}`;
	const file = /^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(rest);
	return file ? file[1] : undefined;
}

/** Documentation URLs the shipped code gives n8n (codex files, credential, package.json). */
function shippedDocumentationUrls(): Array<{ source: string; url: string }> {
	const sources = [
		'package.json',
		'credentials/FinVerifyApi.credentials.ts',
		...readdirSync(path.join(ROOT, 'nodes'), { recursive: true, encoding: 'utf8' })
			.filter((f) => /\.node\.(json|ts)$/.test(f))
			.map((f) => path.posix.join('nodes', f.split(path.sep).join('/'))),
	];
	return sources.flatMap((source) =>
		[
			...readFileSync(path.join(ROOT, source), 'utf8').matchAll(
				/https:\/\/github\.com\/[^\s"'`)]+/g,
			),
		].map((match) => ({ source, url: match[0].replace(/\.git$/, '') })),
	);
}

describe('documentation links', () => {
	const files = documentationFiles();

	it('covers the README, CONTRIBUTING and the docs folder', () => {
		expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md']));
		expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThanOrEqual(5);
	});

	it.each(files)('%s: every link and anchor resolves', (file) => {
		const markdown = readFileSync(path.join(ROOT, file), 'utf8');
		expect(checkMarkdown(markdown, file)).toEqual([]);
	});

	it('finds the links (the README alone links every docs page and both screenshots it shows)', () => {
		const links = files.flatMap((f) => extractLinks(readFileSync(path.join(ROOT, f), 'utf8')));
		expect(links.length).toBeGreaterThan(80);
		const readme = extractLinks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
		expect(readme.filter((l) => l.image).length).toBeGreaterThanOrEqual(2);
	});

	it('the documentation links in the shipped nodes, credential and package.json resolve', () => {
		const urls = shippedDocumentationUrls();
		expect(urls.length).toBeGreaterThanOrEqual(5);
		const problems = urls.flatMap(({ source, url }) => {
			const relative = repositoryLinkToRelative(url);
			if (relative === undefined) return [`${source}: ${url} is not a link into ${REPOSITORY_URL}`];
			return checkMarkdown(`[doc](${relative})`, 'README.md').map((p) => `${source}: ${url}: ${p}`);
		});
		expect(problems).toEqual([]);
	});

	it('the README works on the npm page (which carries no docs/): absolute links to the repository and to n8n', () => {
		const readme = extractLinks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
		// relative links are for images and the README's own headings only
		expect(
			readme.filter(
				(l) => !l.image && !l.target.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(l.target),
			),
		).toEqual([]);
		expect(
			readme.filter((l) => repositoryLinkToRelative(l.target)?.startsWith('docs/')).length,
		).toBeGreaterThan(10);
		expect(readme.map((l) => l.target)).toContain(
			'https://docs.n8n.io/integrations/community-nodes/installation/',
		);
	});

	it('every page in docs/ is reachable from the README by following links', () => {
		const reached = new Set<string>(['README.md']);
		const queue = ['README.md'];
		while (queue.length > 0) {
			const file = queue.shift() as string;
			for (const link of extractLinks(readFileSync(path.join(ROOT, file), 'utf8'))) {
				if (link.target.startsWith('#')) continue;
				const inRepository = repositoryLinkToRelative(link.target);
				if (/^[a-z][a-z0-9+.-]*:/i.test(link.target) && inRepository === undefined) continue;
				const target =
					inRepository !== undefined
						? path.posix.normalize(decodeURIComponent(inRepository.split('#')[0]))
						: path.posix.normalize(
								path.posix.join(
									path.posix.dirname(file),
									decodeURIComponent(link.target.split('#')[0]),
								),
							);
				if (target.endsWith('.md') && !reached.has(target) && existsSync(path.join(ROOT, target))) {
					reached.add(target);
					queue.push(target);
				}
			}
		}
		expect(files.filter((f) => f.startsWith('docs/') && !reached.has(f))).toEqual([]);
	});
});

describe('the link checker', () => {
	// A synthetic page placed in docs/, so relative links resolve against the real repository.
	const check = (markdown: string) => checkMarkdown(markdown, 'docs/synthetic.md');

	it('accepts links, anchors and images that exist', () => {
		const markdown = [
			'# Title',
			'## Set-up: where the URL goes',
			'## Set-up: where the URL goes',
			'See [the README](../README.md#try-it-locally), [here](#title), [again](#set-up-where-the-url-goes-1),',
			'[a folder](../examples/), [the spec](../openapi/finverify.openapi.yaml#L1) and <https://n8n.io/docs>.',
			'![Editor](screenshots/editor-workflow.png) [mail](mailto:someone@example.com)',
			'[ref]: ../LICENSE',
			'```md',
			'[inside a fence](missing.md) is not a link',
			'```',
			'`[inside code](missing.md)` is not a link either.',
		].join('\n');
		expect(check(markdown)).toEqual([]);
	});

	it('checks a link to a file of this repository on GitHub against the repository', () => {
		const url = `${REPOSITORY_URL}/blob/main`;
		expect(
			check(
				`[ok](${url}/docs/sandbox.md) [anchor](${url}/README.md#try-it-locally) [tree](${REPOSITORY_URL}/tree/main/examples)`,
			),
		).toEqual([]);
		const problems = check(
			`[gone](${url}/docs/no-such-page.md) [bad anchor](${url}/docs/sandbox.md#no-such-heading) [branch](${REPOSITORY_URL}/blob/dev/README.md)`,
		);
		expect(problems).toHaveLength(3);
		expect(problems[0]).toMatch(
			/no-such-page\.md" resolves to a file of this repository that points at docs\/no-such-page\.md, which does not exist/,
		);
		expect(problems[1]).toContain('#no-such-heading, which is no heading of docs/sandbox.md');
		expect(problems[2]).toContain('names the branch "dev"');
	});

	it('reports a link to a file that does not exist', () => {
		expect(check('[gone](no-such-page.md)')).toEqual([
			'docs/synthetic.md:1: link "no-such-page.md" points at docs/no-such-page.md, which does not exist',
		]);
	});

	it('reports an anchor that is no heading of the target file', () => {
		const problems = check('[x](../README.md#no-such-heading) [y](#missing)\n# Only heading');
		expect(problems).toHaveLength(2);
		expect(problems[0]).toContain('#no-such-heading, which is no heading of README.md');
		expect(problems[1]).toContain('#missing');
	});

	it('reports a missing image, an image of a folder and a broken reference definition', () => {
		const problems = check(
			'![shot](screenshots/none.png)\n![dir](screenshots)\n[r]: ../NOPE.md\n<img src="x.png">',
		);
		expect(problems).toHaveLength(4);
		expect(problems.join('\n')).toMatch(/image "screenshots\/none.png" points at/);
		expect(problems.join('\n')).toMatch(/image "screenshots" is an image link that does not point/);
		expect(problems.join('\n')).toMatch(/link "..\/NOPE.md" points at NOPE.md/);
		expect(problems.join('\n')).toMatch(/image "x.png" points at docs\/x.png/);
	});

	it('reports malformed external links without contacting them', () => {
		const problems = check(
			'[a](https://) [b](http://no_tld) [c](ftp://example.com/x) [d](//example.com) [e](https:/example.com)',
		);
		expect(problems).toHaveLength(5);
	});

	it('reports links that leave the repository and anchors into non-Markdown files', () => {
		const problems = check(
			'[out](../../etc/passwd) [yaml](../openapi/finverify.openapi.yaml#paths)',
		);
		expect(problems).toHaveLength(2);
		expect(problems[0]).toContain('points outside the repository');
		expect(problems[1]).toContain('which only Markdown files and line numbers offer');
	});

	it('maps repository URLs to files and reports a stale README anchor in them', () => {
		expect(repositoryLinkToRelative(`${REPOSITORY_URL}#credentials`)).toBe('README.md#credentials');
		expect(repositoryLinkToRelative(`${REPOSITORY_URL}/blob/main/docs/trigger.md#output`)).toBe(
			'docs/trigger.md#output',
		);
		expect(repositoryLinkToRelative('https://github.com/someone/else#x')).toBeUndefined();
		const stale = repositoryLinkToRelative(`${REPOSITORY_URL}#no-such-section`) as string;
		expect(checkMarkdown(`[doc](${stale})`, 'README.md')).toHaveLength(1);
	});

	it.each([
		['Credit Report → Get Multi-Bureau Report', 'credit-report--get-multi-bureau-report'],
		[
			'Start Analysis (Preview): `incomeTaxReturn` / `startAnalysis`',
			'start-analysis-preview-incometaxreturn--startanalysis',
		],
		['Reliability, errors and secrets', 'reliability-errors-and-secrets'],
		['Set-up (each suite does its own)', 'set-up-each-suite-does-its-own'],
		['Get by CIN', 'get-by-cin'],
		['The [FinVerify API](x.md) credential', 'the-finverify-api-credential'],
		['snake_case **bold**', 'snake_case-bold'],
	])('slugs "%s" as GitHub does', (heading, slug) => {
		expect(githubSlug(heading)).toBe(slug);
	});
});
