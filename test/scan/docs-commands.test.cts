/**
 * Every command CONTRIBUTING.md and docs/testing.md tell a contributor to type, run in its dry-run form, and every
 * repository path they name, present:
 * - `npm test` / `npm run test:fast` / `TEST_STEPS=… npm test`: scripts/test-all.js --dry-run lists the steps;
 * - an `npm run` script running jest: the same jest arguments with `--listTests` find test files (exactly the
 *   named files when the script names files); any other `npm run` script: it exists, and the local files and the
 *   tools (node_modules/.bin) it names are there;
 * - `npx jest …`: with `--listTests`, exactly the named files (a single file runs alone), or the project's files;
 * - `node <script>` (`--help` where the script has it), `.ci/run`, `npx <package>`: the file or package is there;
 * - commands that install or publish (`npm ci`, `apt-get install`, `npm publish`) are not run; each has its reason.
 * A command no checker recognises fails the test: a new documented command needs a check here.
 * It starts some twenty processes (jest alone ten times), seconds of CPU: it is in the scan step, with the other tool
 * runs, not on `npm run test:fast`'s path.
 */
import { spawn } from 'node:child_process';
import {
	accessSync,
	constants,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const DOCS = ['CONTRIBUTING.md', 'docs/testing.md'];
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
	name: string;
	scripts: Record<string, string>;
};

jest.setTimeout(120_000);

/** Inline code spans (a span may wrap lines) and the lines of ```bash blocks, comments removed. */
function codeIn(markdown: string): string[] {
	const blocks = [...markdown.matchAll(/```(?:bash|sh|console)\n([\s\S]*?)```/g)].flatMap((m) =>
		m[1].split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()),
	);
	const prose = markdown.replace(/```[\s\S]*?```/g, '');
	const spans = [...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\s+/g, ' ').trim());
	return [...blocks, ...spans].filter(Boolean);
}

const COMMAND = /^(?:[A-Z][A-Z0-9_]*=\S*\s+)*(?:npm|npx|node|\.ci\/run|apt-get)(?:\s|$)/;

/** The documented commands, each with the files that name it. */
function documentedCommands(): Map<string, string[]> {
	const commands = new Map<string, string[]>();
	for (const doc of DOCS)
		for (const code of codeIn(readFileSync(path.join(REPO, doc), 'utf8')))
			if (COMMAND.test(code)) commands.set(code, [...(commands.get(code) ?? []), doc]);
	return commands;
}

/** `A=1 B=2 cmd args` → the environment and the words (optional `[--flag]` parts dropped). */
function parse(command: string): { env: Record<string, string>; words: string[] } {
	const words = command
		.replace(/\[[^\]]*\]/g, '')
		.split(/\s+/)
		.filter(Boolean);
	const env: Record<string, string> = {};
	while (words.length && /^[A-Z][A-Z0-9_]*=/.test(words[0])) {
		const [name, ...value] = words.shift()!.split('=');
		env[name] = value.join('=');
	}
	return { env, words };
}

/** Processes running at once: the checks of all documented commands start together (`results` below). */
const MAX_PROCESSES = 4;
let running = 0;
const waiting: Array<() => void> = [];

/** Runs a process to its end, at most MAX_PROCESSES at a time. */
async function run(args: string[], env: Record<string, string> = {}, command = process.execPath) {
	if (running < MAX_PROCESSES) running++;
	else await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing process hands its slot over
	try {
		// only what the documented command sets: a TEST_STEPS of the run around this test must not leak in
		const { TEST_STEPS: _outer, ...outer } = process.env;
		const child = spawn(command, args, { cwd: REPO, env: { ...outer, ...env } });
		const chunks: Buffer[] = [];
		child.stdout.on('data', (c: Buffer) => chunks.push(c));
		child.stderr.on('data', (c: Buffer) => chunks.push(c));
		const code = await new Promise<number | null>((resolve, reject) => {
			child.on('error', reject);
			child.on('close', resolve);
		});
		return { code, out: Buffer.concat(chunks).toString('utf8') };
	} finally {
		const next = waiting.shift();
		if (next) next();
		else running--;
	}
}

const JEST = path.join(REPO, 'node_modules', 'jest', 'bin', 'jest.js');
const listed = new Map<string, Promise<string[]>>();
/**
 * The test files jest would run with these arguments (relative paths). Remembered per arguments: the documented
 * variables (FINVERIFY_E2E_KEEP, …) change what the tests do, not which files run.
 */
async function listTests(args: string[], env: Record<string, string> = {}): Promise<string[]> {
	const key = args.join(' ');
	if (!listed.has(key))
		listed.set(
			key,
			run([JEST, ...args, '--listTests'], env).then((r) => {
				expect(r.code).toBe(0);
				return r.out
					.split('\n')
					.filter((line) => line.startsWith(REPO))
					.map((line) => path.relative(REPO, line));
			}),
		);
	return [...(await listed.get(key)!)];
}

/** test-all.js's dry run: the steps it would run. */
async function plannedSteps(
	args: string[],
	env: Record<string, string>,
): Promise<{ steps: string[]; out: string }> {
	const r = await run([path.join(REPO, 'scripts', 'test-all.js'), ...args, '--dry-run'], env);
	expect(r.code).toBe(0);
	return {
		steps: [...r.out.matchAll(/^(\w+): /gm)].map((m) => m[1]).filter((s) => s !== 'not'),
		out: r.out,
	};
}

const bin = (name: string) => existsSync(path.join(REPO, 'node_modules', '.bin', name));
const isFileArg = (word: string) => /^[\w.-]+(\/[\w.-]+)+$|\.(c?ts|js|mjs|json)$/.test(word);

/** `npm run <script>` without jest: its tools and files exist. Returns what was checked. */
function checkScript(name: string): string {
	const script = pkg.scripts[name];
	expect(script).toBeDefined();
	for (const part of script.split(/&&|\|\|/)) {
		const { words } = parse(part.trim());
		const [tool, ...all] = words;
		const rest = all.filter((w, i) => !['--require', '-r'].includes(all[i - 1] ?? '')); // tsx/cjs is a module
		if (tool === 'npm') expect(pkg.scripts[rest[rest[0] === 'run' ? 1 : 0]]).toBeDefined();
		else if (tool !== 'node')
			expect({ tool, installed: bin(tool) }).toEqual({ tool, installed: true });
		for (const word of rest.filter(isFileArg))
			expect({ file: word, exists: existsSync(path.join(REPO, word)) }).toEqual({
				file: word,
				exists: true,
			});
	}
	return `npm run ${name}: ${script}`;
}

/** Runs the dry-run form of one documented command; throws (an expect) when it is wrong. */
async function check(command: string): Promise<string> {
	const { env, words } = parse(command);
	const [tool, ...args] = words;
	if (tool === 'npm') {
		const [verb, name, ...rest] = args;
		if (verb === 'pack') {
			// described as the first thing the package scan does
			expect(readFileSync(path.join(REPO, 'scripts', 'scan-package.js'), 'utf8')).toMatch(/'pack'/);
			return `${command}: run by scripts/scan-package.js (the scan step)`;
		}
		if (verb === 'install' && name === pkg.name) {
			// the README's install of the published package: what test/e2e/install.test.cts runs from a tarball
			expect(readFileSync(path.join(REPO, 'test', 'e2e', 'install.test.cts'), 'utf8')).toContain(
				'const README_COMMAND = `npm install ${PKG.name}`',
			);
			return `${command}: run by test/e2e/install.test.cts (a packed tarball, a loopback registry)`;
		}
		if (verb === 'ci' || verb === 'publish') {
			// npm ci installs from the registry; a bare npm publish is refused by prepublishOnly (not run)
			if (verb === 'publish') expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
			return `${command}: not run (installs / publishes)`;
		}
		const script = verb === 'run' ? name : verb;
		expect(pkg.scripts[script]).toBeDefined();
		const extra = verb === 'run' ? rest : [name, ...rest].filter(Boolean);
		if (pkg.scripts[script].startsWith('node scripts/test-all.js')) {
			const flags = pkg.scripts[script].split(/\s+/).slice(2);
			const { steps, out } = await plannedSteps(flags, env);
			if (env.TEST_STEPS) expect(steps).toEqual(env.TEST_STEPS.split(','));
			else if (flags.includes('--fast')) {
				expect(steps).toEqual(['typecheck', 'format', 'lint', 'build', 'unit', 'integration']);
				expect(out).toMatch(/not run: scan, e2e/);
			} else
				expect(steps).toEqual([
					'typecheck',
					'format',
					'lint',
					'build',
					'unit',
					'integration',
					'scan',
					'e2e',
					'scale',
					'burst',
				]);
			return `${command}: ${steps.join(', ')}`;
		}
		const jestScript = parse(pkg.scripts[script]);
		if (jestScript.words[0] === 'jest') {
			const files = await listTests([...jestScript.words.slice(1), ...extra], {
				...jestScript.env,
				...env,
			});
			expect(files.length).toBeGreaterThan(0);
			const named = jestScript.words.filter(isFileArg);
			if (named.length) expect(files.sort()).toEqual(named.sort());
			return `${command}: ${files.length} test files`;
		}
		if (script === 'start' || script === 'dev') {
			const r = await run(['scripts/start.js', '--help']);
			expect(r.code).toBe(0);
			expect(r.out).toMatch(/--watch/);
		}
		return checkScript(script);
	}
	if (tool === 'npx') {
		const [target, ...rest] = args;
		if (target === 'jest') {
			const files = await listTests(rest, env);
			const named = rest.filter(isFileArg);
			if (named.length)
				expect(files).toEqual(named); // exactly the named files, nothing else
			else expect(files.length).toBeGreaterThan(0);
			return `${command}: ${files.join(', ')}`;
		}
		if (target === 'playwright') {
			// docs/testing.md names it as not used (it would download browsers): no script runs it
			const scripts = [
				...Object.values(pkg.scripts),
				readFileSync(path.join(REPO, '.ci', 'run'), 'utf8'),
			];
			expect(scripts.filter((s) => /playwright install/.test(s))).toEqual([]);
			return `${command}: documented as not used`;
		}
		// the simulator's own package (sandbox/package.json): its bin is the documented command
		const sandboxManifest = JSON.parse(
			readFileSync(path.join(REPO, 'sandbox', 'package.json'), 'utf8'),
		) as { name: string; bin?: Record<string, string> };
		if (target === sandboxManifest.name) {
			expect(Object.keys(sandboxManifest.bin ?? {})).toContain(target);
			return `${command}: the bin of sandbox/package.json (run from its tarball by test/e2e/sandboxPackage.test.cts)`;
		}
		// a package run by npx (network use, e.g. the registry scan after publishing): installed locally with a bin
		const manifest = JSON.parse(
			readFileSync(path.join(REPO, 'node_modules', target, 'package.json'), 'utf8'),
		) as { bin?: unknown };
		expect(manifest.bin).toBeDefined();
		return `${command}: ${target} installed (not run: it asks the npm registry)`;
	}
	if (tool === 'node') {
		if (args[0] === '--require') {
			// `node --require tsx/cjs file.cts`: a .cts file runs this way
			const dir = mkdtempSync(path.join(tmpdir(), 'finverify-cts-'));
			try {
				const file = path.join(dir, 'probe.cts');
				writeFileSync(file, 'const answer: number = 42;\nconsole.log(`cts ${answer}`);\n');
				const r = await run([...args.slice(0, 2), file]);
				expect(r.out.trim()).toBe('cts 42');
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
			return `${command}: ran a .cts file`;
		}
		const script = args[0];
		expect(existsSync(path.join(REPO, script))).toBe(true);
		expect((await run(['--check', script])).code).toBe(0);
		if (script === 'scripts/start.js') expect((await run([script, '--help'])).code).toBe(0);
		return `${command}: ${script} present`;
	}
	if (tool === '.ci/run') {
		accessSync(path.join(REPO, '.ci', 'run'), constants.X_OK);
		expect(readFileSync(path.join(REPO, '.ci', 'run'), 'utf8')).toMatch(/npm test/);
		return `${command}: executable, runs npm test`;
	}
	if (tool === 'apt-get') return `${command}: not run (installs a Debian package)`;
	throw new Error(`no check for the documented command \`${command}\`: add one to this test`);
}

describe('documented commands', () => {
	const commands = documentedCommands();

	test('the documents name the everyday commands (the extraction works)', () => {
		expect([...commands.keys()]).toEqual(
			expect.arrayContaining([
				'npm test',
				'npm run test:fast',
				'npx jest test/unit/validation.test.cts',
				'npx jest test/integration/company.test.cts',
				'TEST_STEPS=lint,unit npm test',
				'FINVERIFY_UPDATE_SCREENSHOTS=1 npm run test:e2e',
			]),
		);
	});

	// every check at once (each is mostly waiting for a process); each test below reports its own
	const results = new Map<string, Promise<string>>();
	beforeAll(() => {
		for (const command of commands.keys()) {
			const result = check(command);
			result.catch(() => {}); // reported by its test
			results.set(command, result);
		}
	});

	test.each([...commands.keys()])('%s', async (command) => {
		expect(await results.get(command)).toContain(command.split(' ')[0]);
	});

	test('a single integration file runs alone (not the whole integration project)', async () => {
		expect(await listTests(['test/integration/company.test.cts'])).toEqual([
			'test/integration/company.test.cts',
		]);
		// the old documented form: jest reads the path as a second project name and runs every integration file
		expect(
			(await listTests(['--selectProjects', 'integration', 'test/integration/company.test.cts']))
				.length,
		).toBeGreaterThan(1);
	});

	test('an unknown or wrong command fails its check', async () => {
		await expect(check('npm run no-such-script')).rejects.toThrow();
		await expect(check('npx jest test/unit/no-such.test.cts')).rejects.toThrow();
		await expect(check('TEST_STEPS=lint,nonsense npm test')).rejects.toThrow();
		await expect(check('make everything')).rejects.toThrow(/no check/);
	});
});

describe('repository paths named in the documents', () => {
	const ROOTS =
		/^(?:scripts|test|nodes|credentials|sandbox|docs|examples|bench|openapi|icons|\.github|\.ci)\/|^[\w.-]+\.(?:json|js|mjs|md)$/;
	const paths = [
		...new Set(
			DOCS.flatMap((doc) => codeIn(readFileSync(path.join(REPO, doc), 'utf8')))
				.map((code) => code.split(' ')[0])
				.filter((code) => ROOTS.test(code) && !/[<>{}*…]/.test(code)),
		),
	];

	test('there are some (the extraction works)', () => {
		expect(paths).toEqual(
			expect.arrayContaining(['test/e2e/start.test.cts', 'scripts/runtime.js']),
		);
	});

	// bare file names (`places.js`) are those of the folder the sentence is about: scripts/ or scripts/lib/
	const ignored = readFileSync(path.join(REPO, '.gitignore'), 'utf8').split('\n');
	test.each(paths.filter((p) => !ignored.includes(p)))('%s exists', (named) => {
		const candidates = named.includes('/')
			? [named]
			: [named, `scripts/${named}`, `scripts/lib/${named}`];
		expect(candidates.some((c) => existsSync(path.join(REPO, c)))).toBe(true);
	});
});
