/**
 * The import graph of the shipped code (nodes/ and credentials/): no file reaches itself again through its
 * imports (type-only imports count: a type import is still an arrow of the floor plan), and imports that run from
 * nodes/shared/ into a node's folder are exactly the known ones below (none may be added).
 *
 * The walker reads the TypeScript sources as text (static `import`/`export … from`, side-effect imports,
 * `require()` and `import()` of relative paths) and resolves each to a `.ts` file or a folder's `index.ts`.
 * Negative cases on a temporary tree prove that it finds a cycle and an unresolved import.
 */
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

/** Relative import specifiers of one source file (static imports and re-exports, require(), import()). */
function importSpecifiers(source: string): string[] {
	const withoutComments = source
		.replace(/\/\*[\s\S]*?\*\//g, '')
		.replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
	const found: string[] = [];
	const patterns = [
		/(?:^|[\n;])\s*(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
		/(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g,
		/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
		/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
	];
	for (const pattern of patterns)
		for (const m of withoutComments.matchAll(pattern)) found.push(m[1]);
	return found.filter((s) => s.startsWith('.'));
}

/** Every `.ts` source under `dir` (not `.d.ts`, not the generated `__schema__` folders). */
function sources(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === '__schema__' ? [] : sources(full);
		return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
	});
}

interface ImportGraph {
	/** file (relative to the root, `/`-separated) → the files it imports */
	edges: Map<string, string[]>;
	/** imports that name no `.ts` file or folder index: "file → specifier" */
	unresolved: string[];
}

/** The import graph of the `.ts` sources under `folders` (relative to `root`). */
function importGraph(root: string, folders: string[]): ImportGraph {
	const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
	const edges = new Map<string, string[]>();
	const unresolved: string[] = [];
	for (const file of folders.flatMap((f) => sources(path.join(root, f)))) {
		const targets: string[] = [];
		for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
			const base = path.resolve(path.dirname(file), specifier);
			const target = [`${base}.ts`, path.join(base, 'index.ts'), base].find(
				(candidate) => existsSync(candidate) && statSync(candidate).isFile(),
			);
			if (target) targets.push(rel(target));
			else unresolved.push(`${rel(file)} → ${specifier}`);
		}
		edges.set(rel(file), [...new Set(targets)]);
	}
	return { edges, unresolved };
}

/** Every import cycle, as the files of each strongly connected component (Tarjan), each list sorted. */
function importCycles(edges: Map<string, string[]>): string[][] {
	let next = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	const visit = (file: string) => {
		index.set(file, next);
		low.set(file, next++);
		stack.push(file);
		onStack.add(file);
		for (const target of edges.get(file) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		const selfImport = (edges.get(file) ?? []).includes(file);
		if (component.length > 1 || selfImport) cycles.push(component.sort());
	};
	for (const file of edges.keys()) if (!index.has(file)) visit(file);
	return cycles;
}

/** Imports from `from/` into any of `into` folders, as "file → target". */
function crossings(edges: Map<string, string[]>, from: string, into: string[]): string[] {
	return [...edges]
		.filter(([file]) => file.startsWith(from))
		.flatMap(([file, targets]) =>
			targets
				.filter((t) => into.some((folder) => t.startsWith(folder)))
				.map((t) => `${file} → ${t}`),
		)
		.sort();
}

describe('the shipped code’s import graph', () => {
	const graph = importGraph(REPO, ['nodes', 'credentials']);

	test('covers both nodes and the credential, and every relative import resolves', () => {
		expect([...graph.edges.keys()]).toEqual(
			expect.arrayContaining([
				'nodes/FinVerify/FinVerify.node.ts',
				'nodes/FinVerifyTrigger/FinVerifyTrigger.node.ts',
				'credentials/FinVerifyApi.credentials.ts',
			]),
		);
		expect(graph.edges.get('nodes/FinVerify/FinVerify.node.ts')?.length).toBeGreaterThan(0);
		expect(graph.unresolved).toEqual([]);
	});

	test('has no import cycle', () => {
		expect(importCycles(graph.edges)).toEqual([]);
	});

	// nodes/shared/ is meant to be the floor both nodes stand on, importing nothing of either node. Today it still
	// uses the action node's normalizers (events.ts) and transport (results.ts): moving those helpers into
	// nodes/shared/ is the floor-plan change of the contributor-loop issue. Until then this list may only shrink.
	test('nodes/shared/ imports from the nodes’ folders only what it already did', () => {
		expect(
			crossings(graph.edges, 'nodes/shared/', ['nodes/FinVerify/', 'nodes/FinVerifyTrigger/']),
		).toEqual([
			'nodes/shared/events.ts → nodes/FinVerify/helpers/normalize/collectionSession.ts',
			'nodes/shared/events.ts → nodes/FinVerify/helpers/normalize/common.ts',
			'nodes/shared/events.ts → nodes/FinVerify/helpers/normalize/journey.ts',
			'nodes/shared/results.ts → nodes/FinVerify/transport/index.ts',
		]);
	});
});

describe('the import-graph walker (negative cases on a temporary tree)', () => {
	let root: string;
	const write = (file: string, text: string) => {
		mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
		writeFileSync(path.join(root, file), text);
	};
	beforeAll(() => {
		root = mkdtempSync(path.join(tmpdir(), 'finverify-imports-'));
		write('nodes/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
		write('nodes/b.ts', "import type { C } from './lib';\nexport const b = 1 as unknown as C;\n");
		write(
			'nodes/lib/index.ts',
			"// import { nothing } from '../commented';\nexport type { A } from '../a';\nexport type C = number;\n",
		);
		write('nodes/c.ts', "import {\n\tx,\n\ty,\n} from './missing';\nexport const c = [x, y];\n");
		write('nodes/d.ts', "import './side';\nexport const d = require('./a');\n");
		write('nodes/side.ts', 'export {};\n');
	});
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	test('finds a cycle through a type-only re-export and a folder index, and the unresolved import', () => {
		const graph = importGraph(root, ['nodes']);
		expect(importCycles(graph.edges)).toEqual([['nodes/a.ts', 'nodes/b.ts', 'nodes/lib/index.ts']]);
		expect(graph.unresolved).toEqual(['nodes/c.ts → ./missing']);
		expect(graph.edges.get('nodes/d.ts')).toEqual(['nodes/side.ts', 'nodes/a.ts']);
		expect(graph.edges.get('nodes/lib/index.ts')).toEqual(['nodes/a.ts']); // the comment is not an import
	});

	test('a tree without cycles passes', () => {
		const graph = importGraph(root, ['nodes']);
		graph.edges.set('nodes/lib/index.ts', []);
		expect(importCycles(graph.edges)).toEqual([]);
	});
});
