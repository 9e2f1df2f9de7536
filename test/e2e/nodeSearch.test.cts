/**
 * The node panel search of the real n8n 2.41.1 editor, over its own node list: n8n-nodes-base and the
 * LangChain nodes as the app ships them (`dist/types/nodes.json`), each node's popularity as the editor's
 * bundle carries it, and FinVerify's codex. The search rules are restated in test/unit/nodeSearch.cts;
 * here they run against everything a builder's search competes with. No n8n process is started.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { searchPanel, type SearchableNode, type SearchResult } from '../unit/nodeSearch.cjs';
import { REPO, type Runtime } from './helpers/stack.cjs';

/* eslint-disable @typescript-eslint/no-require-imports */
const { ensureRuntime } = require('../../scripts/runtime.js');
/* eslint-enable @typescript-eslint/no-require-imports */

jest.setTimeout(600_000);

interface Described {
	name: string;
	displayName: string;
	group: string[];
	hidden?: boolean;
	codex?: { alias?: string[] };
	properties: Array<{ name: string }>;
}

let nodes: SearchableNode[];
let popularity: Record<string, number>;

beforeAll(async () => {
	const runtime: Runtime = await ensureRuntime({ log: () => undefined });
	const modules = runtime.n8nModules;
	const described = (file: string, prefix: string): Described[] =>
		(JSON.parse(readFileSync(path.join(modules, file), 'utf8')) as Described[]).map((d) => ({
			...d,
			name: d.name.includes('.') ? d.name : `${prefix}.${d.name}`,
		}));
	const byName = new Map<string, Described>();
	for (const d of [
		...described('n8n-nodes-base/dist/types/nodes.json', 'n8n-nodes-base'),
		...described('@n8n/n8n-nodes-langchain/dist/types/nodes.json', '@n8n/n8n-nodes-langchain'),
	])
		if (!d.hidden) byName.set(d.name, d);
	nodes = [...byName.values()].map((d) => ({
		name: d.name,
		displayName: d.displayName,
		group: d.group,
		codex: d.codex,
		hasActions: d.properties.some((p) => p.name === 'operation'),
	}));
	const codex = JSON.parse(
		readFileSync(path.join(REPO, 'nodes/FinVerify/FinVerify.node.json'), 'utf8'),
	) as { alias: string[] };
	nodes.push({
		name: 'n8n-nodes-finverify.finVerify',
		displayName: 'FinVerify',
		codex,
		hasActions: true,
	});
	// the editor's popularity list (`virtual:node-popularity-data`), bundled as {id:`…`,popularity:0.9}
	popularity = {};
	const assets = path.join(modules, 'n8n-editor-ui/dist/assets');
	for (const file of readdirSync(assets).filter((f) => f.endsWith('.js')))
		for (const m of readFileSync(path.join(assets, file), 'utf8').matchAll(
			/\{id:`([^`]+)`,popularity:([0-9.e-]+)\}/g,
		))
			popularity[m[1]] = Number(m[2]);
});

function rankOf(word: string): { rank: number; results: SearchResult[] } {
	const results = searchPanel(word, nodes, popularity);
	return {
		rank: results.findIndex((r) => r.node.name === 'n8n-nodes-finverify.finVerify') + 1,
		results,
	};
}

test("the editor's node list and popularity were read", () => {
	expect(nodes.length).toBeGreaterThan(400);
	expect(Object.keys(popularity).length).toBeGreaterThan(100);
	expect(popularity['n8n-nodes-base.httpRequest']).toBeGreaterThan(0.5);
});

test.each(['journey', 'consent', 'wait for journey', 'directors', 'verify PAN', 'loan', 'KYC'])(
	'"%s" finds FinVerify first',
	(word) => {
		expect(rankOf(word).rank).toBe(1);
	},
);

test.each(['PAN', 'CIN', 'GST', 'ITR', 'EPFO', 'company', 'credit report', 'bank statement'])(
	'"%s" finds FinVerify; a node above it is there only by its popularity',
	(word) => {
		const { rank, results } = rankOf(word);
		expect(rank).toBeGreaterThan(0);
		const ours = results[rank - 1];
		for (const above of results.slice(0, rank - 1)) {
			const withoutPopularity = above.score - 100 * (popularity[above.node.name] ?? 0);
			expect(withoutPopularity).toBeLessThanOrEqual(ours.score);
		}
		process.stdout.write(`[search] "${word}": FinVerify ${rank} of ${results.length}\n`);
	},
);
