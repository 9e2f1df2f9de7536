/**
 * What the README's quick start promises a new user: the example workflow it imports, the FinVerify node whose
 * output it describes, and the output fields it names. The unit suite checks the promise against the example
 * file and the docs; the CLI suite checks it against the example's real output in n8n.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const README = path.resolve(__dirname, '..', '..', 'README.md');

export interface ReadmeTour {
	/** File name in examples/. */
	example: string;
	/** Name of the node in that example. */
	node: string;
	/** Output fields the README names for that node. */
	fields: string[];
}

/** Parses the "Quick start" section: its example link and its "**Execute workflow**. **<node>** returns …" step. */
export function readmeTour(markdown = readFileSync(README, 'utf8')): ReadmeTour {
	const section = /^## Quick start[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1];
	if (!section) throw new Error('README.md has no "## Quick start" section');
	const example = /\/examples\/([\w.-]+\.json)\)/.exec(section)?.[1];
	if (!example) throw new Error('the quick start links no file of examples/');
	const step = /^\d+\. \*\*Execute workflow\*\*\.([\s\S]*?)(?=^\d+\. |(?![\s\S]))/m.exec(
		section,
	)?.[1];
	if (!step) throw new Error('the quick start has no "**Execute workflow**." step');
	const node = /^\s*\*\*([^*]+)\*\* returns/.exec(step)?.[1];
	if (!node) throw new Error('the "Execute workflow" step names no node ("**<node>** returns …")');
	const fields = [...step.matchAll(/`([a-z][A-Za-z0-9]*)`/g)].map((m) => m[1]);
	return { example, node, fields };
}
