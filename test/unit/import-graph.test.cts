/**
 * The import graph of the shipped code (nodes/ and credentials/) and its floor plan: no file reaches itself
 * again through its imports, and every import goes to the same floor or a lower one (FLOORS below; type-only
 * imports count: a type import is still an arrow of the floor plan). No exceptions.
 *
 * The walker reads the TypeScript sources as text (static `import`/`export … from`, side-effect imports,
 * `require()` and `import()` of relative paths) and resolves each to a `.ts` file or a folder's `index.ts`.
 * Negative cases on a temporary tree prove that it finds a cycle, an unresolved import and an arrow back up.
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

/**
 * The floors of the shipped code, lowest first: a file may import files of its own floor or of a lower one,
 * never of a higher one. A file is on the floor of the deepest folder listed here that holds it (so
 * `nodes/FinVerify/` is the node class alone: its subfolders are listed). docs/ARCHITECTURE.md's rooms follow it.
 */
const FLOORS: ReadonlyArray<readonly [folder: string, floor: number]> = [
	// what both nodes and the credential use; imports nothing of the nodes
	['nodes/shared/', 0],
	// the one way to the service
	['nodes/FinVerify/transport/', 1],
	// pure readers of the service's answers
	['nodes/FinVerify/helpers/normalize/', 2],
	// validation, downloads, polling plans, output choice, journey results
	['nodes/FinVerify/helpers/', 3],
	// Wait for Completion and Wait for a Final Status, and the resume URL's webhook
	['nodes/FinVerify/completion/', 4],
	// the router, the operation contract, the shared fields and the resources' operations
	['nodes/FinVerify/actions/', 5],
	['nodes/FinVerify/methods/', 5],
	// the node classes and the credential
	['nodes/FinVerify/', 6],
	['nodes/FinVerifyTrigger/', 6],
	['credentials/', 6],
];

/** The deepest listed folder holding a file, with its floor (undefined when none does). */
function placeOf(file: string, floors: typeof FLOORS) {
	const holding = floors.filter(([folder]) => file.startsWith(folder));
	holding.sort(([a], [b]) => b.length - a.length);
	return holding[0];
}

const floorOf = (file: string, floors: typeof FLOORS) => placeOf(file, floors)?.[1];

/** Files on no floor, and imports that go to a higher floor, as "file (floor) → target (floor)". */
function floorViolations(edges: Map<string, string[]>, floors: typeof FLOORS) {
	const unplaced = [...edges.keys()].filter((file) => floorOf(file, floors) === undefined);
	const upward = [...edges]
		.flatMap(([file, targets]) =>
			targets.map((target) => ({
				file,
				target,
				from: floorOf(file, floors)!,
				to: floorOf(target, floors)!,
			})),
		)
		.filter(({ from, to }) => from !== undefined && to !== undefined && to > from)
		.map(({ file, target, from, to }) => `${file} (${from}) → ${target} (${to})`)
		.sort();
	return { unplaced, upward };
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

	test('every file is on a floor, and no import goes up a floor', () => {
		expect(floorViolations(graph.edges, FLOORS)).toEqual({ unplaced: [], upward: [] });
	});

	test('every floor holds files (the table names no folder that is gone)', () => {
		const places = new Set([...graph.edges.keys()].map((file) => placeOf(file, FLOORS)?.[0]));
		const empty = FLOORS.map(([folder]) => folder).filter((folder) => !places.has(folder));
		expect(empty).toEqual([]);
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

	test('finds an import back up a floor (a type-only one too) and a file on no floor', () => {
		const graph = importGraph(root, ['nodes']);
		const floors = [
			['nodes/lib/', 0],
			['nodes/', 1],
		] as const;
		expect(floorViolations(graph.edges, floors)).toEqual({
			unplaced: [],
			upward: ['nodes/lib/index.ts (0) → nodes/a.ts (1)'],
		});
		expect(floorViolations(graph.edges, [['nodes/lib/', 0]]).unplaced).toEqual(
			expect.arrayContaining(['nodes/a.ts', 'nodes/b.ts']),
		);
		// nodes/b.ts imports nodes/lib/ (floor 0) from floor 1: down, allowed
		expect(floorViolations(graph.edges, floors).upward).not.toContainEqual(
			expect.stringContaining('nodes/b.ts'),
		);
	});
});
