/**
 * The words a builder types into n8n's node panel find FinVerify, by n8n's own search rules
 * (test/unit/nodeSearch.cts): the panel reads node names and codex aliases only, and the FinVerify
 * Trigger is merged into FinVerify's entry, so FinVerify.node.json's aliases are the words that count.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { FinVerifyTrigger } from '../../nodes/FinVerifyTrigger/FinVerifyTrigger.node';
import {
	fuzzyScore,
	holdsInOrder,
	panelEntries,
	searchPanel,
	searchQuery,
	type SearchableNode,
} from './nodeSearch.cjs';

const PACKAGE = 'n8n-nodes-finverify';
const codex = (file: string) =>
	JSON.parse(readFileSync(path.resolve(__dirname, '../../nodes', file), 'utf8')) as {
		node: string;
		alias: string[];
	};

function asSearched(description: INodeTypeDescription, file: string): SearchableNode {
	return {
		name: `${PACKAGE}.${description.name}`,
		displayName: description.displayName,
		group: description.group,
		codex: { alias: codex(file).alias },
		hasActions: description.properties.some((p) => p.name === 'operation'),
	};
}

const finVerify = asSearched(new FinVerify().description, 'FinVerify/FinVerify.node.json');
const trigger = asSearched(
	new FinVerifyTrigger().getNodeType().description,
	'FinVerifyTrigger/FinVerifyTrigger.node.json',
);
/** A few of n8n's own entries, so results have something to be ranked against. */
const others: SearchableNode[] = [
	{ name: 'n8n-nodes-base.httpRequest', displayName: 'HTTP Request', codex: { alias: ['API'] } },
	{ name: 'n8n-nodes-base.webhook', displayName: 'Webhook', group: ['trigger'] },
	{ name: 'n8n-nodes-base.wait', displayName: 'Wait', codex: { alias: ['pause', 'sleep'] } },
	{ name: 'n8n-nodes-base.salesforce', displayName: 'Salesforce', hasActions: true },
];
const panel = [finVerify, trigger, ...others];

/** The words of the first hour in the editor: what a builder of onboarding and lending checks types. */
const WORDS = [
	'journey',
	'consent',
	'wait for journey',
	'directors',
	'verify PAN',
	'loan',
	'PAN',
	'CIN',
	'LLPIN',
	'KYC',
	'KYB',
	'GST',
	'company',
	'search by name',
	'credit report',
	'CIBIL',
	'commercial',
	'EPFO',
	'income tax',
	'ITR',
	'bank statement',
	'account aggregator',
	'collection session',
	'wait for session',
	'underwriting',
	'lending',
];

describe("n8n's search rules, restated", () => {
	test('the query: lowercased, a trailing beginning of "trigger" dropped', () => {
		expect(searchQuery('FinVerify Tri')).toBe('finverify');
		expect(searchQuery('Verify PAN')).toBe('verify pan');
		expect(searchQuery('trigger')).toBe('trigger');
	});

	test('a text matches when it holds the characters in order, gaps allowed', () => {
		expect(holdsInOrder('wfj', 'Wait for Journey')).toBe(true);
		expect(holdsInOrder('journey', 'FinVerify')).toBe(false);
		expect(holdsInOrder('verify pan', 'FinVerify')).toBe(false);
	});

	test('scores: an exact text beats a text that only holds the letters; the display name weighs 1.3', () => {
		expect(fuzzyScore('pan', 'PAN')).toBe(100 + 15 + 60 + 60);
		expect(fuzzyScore('pan', 'Company')).toBeLessThan(fuzzyScore('pan', 'PAN') as number);
		expect(fuzzyScore('pan', 'Pangea')).toBe(100 + 15 + 60 + 60 - 5 * 3);
		expect(fuzzyScore('bs', 'Bank Statement')).toBe(100 + 15 + 38 - 5 * 12);
		const [best] = searchPanel('http', panel);
		expect(best.node.name).toBe('n8n-nodes-base.httpRequest');
		expect(best.score).toBeCloseTo(1.3 * (fuzzyScore('http', 'HTTP Request') as number));
	});

	test('popularity is added: n8n ranks its popular nodes up', () => {
		const plain = searchPanel('wait', panel).map((r) => r.node.name);
		const popular = searchPanel('wait', panel, { 'n8n-nodes-base.wait': 0.9 });
		expect(popular[0].node.name).toBe('n8n-nodes-base.wait');
		expect(plain).toContain('n8n-nodes-base.wait');
	});

	test('the FinVerify Trigger is merged into the FinVerify entry: its own aliases are never searched', () => {
		const entries = panelEntries(panel).map((n) => n.name);
		expect(entries).toContain(finVerify.name);
		expect(entries).not.toContain(trigger.name);
		// n8n's own Webhook trigger has no node of its name with actions: it stays an entry
		expect(entries).toContain('n8n-nodes-base.webhook');
		// a trigger whose aliases were its own would be lost: every one is on the FinVerify entry too
		const finVerifyAliases = (finVerify.codex?.alias ?? []).map((a) => a.toLowerCase());
		for (const alias of trigger.codex?.alias ?? [])
			expect(finVerifyAliases).toContain(alias.toLowerCase());
	});

	test('a word of another service finds nothing of ours', () => {
		const names = searchPanel('salesforce', panel).map((r) => r.node.name);
		expect(names).toEqual(['n8n-nodes-base.salesforce']);
		expect(searchPanel('hubspot', panel)).toEqual([]);
	});
});

describe('the words a builder types find FinVerify', () => {
	test.each(WORDS)('"%s"', (word) => {
		const results = searchPanel(word, panel);
		const ours = results.find((r) => r.node.name === finVerify.name);
		expect(ours).toBeDefined();
		// by an alias equal to the word: the highest score an alias can give for it, so only n8n's
		// popularity can rank another node above
		expect(ours?.matched.toLowerCase()).toBe(word.toLowerCase());
		expect(ours?.score).toBe(fuzzyScore(searchQuery(word), word));
	});

	test('the aliases are the words of the service, each once', () => {
		const aliases = finVerify.codex?.alias ?? [];
		expect(new Set(aliases.map((a) => a.toLowerCase())).size).toBe(aliases.length);
		expect(aliases.length).toBeLessThanOrEqual(60);
	});
});
