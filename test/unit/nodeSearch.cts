/**
 * n8n's node panel search, restated from the rules of the n8n 2.41.1 editor (editor-ui
 * `features/shared/nodeCreator`: `useActionsGeneration` builds the list, `nodeCreator.utils` `searchNodes`
 * searches it with `@n8n/utils` `sublimeSearch`, `useViewStacks` adds each node's popularity), so tests can
 * ask what a builder finds by a word:
 *
 * - The list: every node, except that a trigger whose name without "Trigger" is the name of a node with
 *   actions is merged into that node's entry and is not searched itself (its own aliases are not read).
 * - The query: lowercased; a last word that is the beginning of "trigger" is dropped ("finverify tri").
 * - An entry is a result when one of its texts, the display name or one of its codex aliases, holds the
 *   query's characters in order (case-insensitive, gaps allowed). Descriptions, actions, resources and
 *   operations are not read.
 * - Its score is the best of its texts' fuzzy scores, the display name's times 1.3 and an alias's times 1,
 *   plus 100 × its popularity (n8n's own nodes only). A fuzzy score starts at 100, loses 20 per text
 *   character before the first match (at most 200) and 5 per unmatched character, and gains 60 per
 *   matched character right after the previous one, 38 per match after a space or underscore, 30 per
 *   match on a lower-to-upper case step and 15 when the first character matches.
 *
 * n8n looks for the best alignment with a bounded recursion; `fuzzyScore` takes the best alignment there
 * is. They agree where the tests look: a text equal to the query (an exact alias) has one alignment, and
 * the highest score any text of that length can have.
 */

export interface SearchableNode {
	/** The node type's name, e.g. `n8n-nodes-finverify.finVerify`. */
	name: string;
	displayName: string;
	group?: string[];
	codex?: { alias?: string[] };
	/** Whether the node has actions (operations) n8n lists under it; a trigger merges only into such a node. */
	hasActions?: boolean;
}

export interface SearchResult {
	node: SearchableNode;
	score: number;
	/** The text that gave the score. */
	matched: string;
}

const WEIGHT = { displayName: 1.3, alias: 1 };

/** The query n8n searches for: lowercased, a trailing beginning of "trigger" dropped. */
export function searchQuery(input: string): string {
	const words = input.split(' ');
	const last = words[words.length - 1].toLowerCase();
	const trimmed =
		words.length > 1 && 'trigger'.startsWith(last)
			? words
					.slice(0, -1)
					.filter((w) => w !== '')
					.join(' ')
					.trimEnd()
			: input;
	return trimmed.toLowerCase();
}

/** Whether `text` holds the characters of `query` in order, case-insensitive. */
export function holdsInOrder(query: string, text: string): boolean {
	if (query === '' || text === '') return false;
	const t = text.toLowerCase();
	let at = 0;
	for (const c of query.toLowerCase()) {
		at = t.indexOf(c, at);
		if (at < 0) return false;
		at++;
	}
	return true;
}

const isLower = (c: string) => c !== c.toUpperCase();
const isUpper = (c: string) => c !== c.toLowerCase();

/** The bonus for matching the character at `i` of `text`, whatever matched before it. */
function placeBonus(text: string, i: number): number {
	if (i === 0) return 15;
	const before = text[i - 1];
	let bonus = 0;
	if (isLower(before) && isUpper(text[i])) bonus += 30;
	if (before === ' ' || before === '_') bonus += 38;
	return bonus;
}

/** The fuzzy score of the best alignment of `query` in `text`, or undefined when it does not match. */
export function fuzzyScore(query: string, text: string): number | undefined {
	if (!holdsInOrder(query, text)) return undefined;
	const q = query.toLowerCase();
	const t = text.toLowerCase();
	// best[i]: the best score so far of an alignment whose last matched character is text[i] (what
	// follows does not depend on where the alignment started, so the best one per place is enough)
	let best: Array<number | undefined> = [...t].map((c, i) =>
		c === q[0] ? placeBonus(text, i) + leadingPenalty(text, i) : undefined,
	);
	for (let k = 1; k < q.length; k++) {
		const next: Array<number | undefined> = [];
		for (let i = 0; i < t.length; i++) {
			if (t[i] !== q[k]) continue;
			for (let j = 0; j < i; j++) {
				const prior = best[j];
				if (prior === undefined) continue;
				const candidate = prior + placeBonus(text, i) + (j === i - 1 ? 60 : 0);
				if (next[i] === undefined || candidate > (next[i] as number)) next[i] = candidate;
			}
		}
		best = next;
	}
	const top = Math.max(...best.filter((s): s is number => s !== undefined));
	return 100 + top - 5 * (text.length - q.length);
}

/** 20 per character before the first match, at most 200; none for a text starting with "n8n". */
function leadingPenalty(text: string, start: number): number {
	if (text.toLowerCase().startsWith('n8n')) return 0;
	return Math.max(-20 * start, -200);
}

/**
 * The entries of the node panel: a trigger named like a node with actions (`xTrigger` and `x`) is merged
 * into that node's entry, so only the node's display name and aliases are searched.
 */
export function panelEntries(nodes: SearchableNode[]): SearchableNode[] {
	const regular = nodes.filter((n) => !n.group?.includes('trigger'));
	const merged = new Set(regular.filter((n) => n.hasActions).map((n) => n.name));
	const triggers = nodes.filter(
		(n) => n.group?.includes('trigger') && !merged.has(n.name.replace('Trigger', '')),
	);
	return [...regular, ...triggers];
}

/** The entries n8n shows for `input`, best first. */
export function searchPanel(
	input: string,
	nodes: SearchableNode[],
	popularity: Record<string, number> = {},
): SearchResult[] {
	const query = searchQuery(input);
	const results: SearchResult[] = [];
	for (const node of panelEntries(nodes)) {
		const texts = [
			{ text: node.displayName, weight: WEIGHT.displayName },
			...(node.codex?.alias ?? []).map((text) => ({ text, weight: WEIGHT.alias })),
		];
		let hit: { score: number; matched: string } | undefined;
		for (const { text, weight } of texts) {
			const score = fuzzyScore(query, text);
			if (score === undefined) continue;
			if (hit === undefined || score * weight > hit.score)
				hit = { score: score * weight, matched: text };
		}
		if (hit) results.push({ node, ...hit, score: hit.score + 100 * (popularity[node.name] ?? 0) });
	}
	return results.sort((a, b) => b.score - a.score);
}
