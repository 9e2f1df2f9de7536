/**
 * What the README's quick start promises a new user: the example workflow it imports, the FinVerify node whose
 * output it describes, and the output fields it names. The unit suite checks the promise against the example
 * file and the docs; the CLI suite checks it against the example's real output in n8n.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { FinVerifyApi } from '../../credentials/FinVerifyApi.credentials';

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

/** The credential the quick start has a new user create: each field's label and value, as the README writes them. */
export interface ReadmeCredential {
	/** "Environment" → "Local Simulator", "API Key" → "sandbox-key", … */
	fields: Record<string, string>;
	/** The same as the credential's data: property names and values (options by their value). */
	data: Record<string, string>;
}

/**
 * Parses the quick start's "create a **FinVerify API** credential: Environment **Local Simulator**, API Key
 * `sandbox-key`, …" step into the credential data n8n would store for it. A label that is no field of the
 * credential, or an option the field does not have, throws.
 */
export function readmeCredential(markdown = readFileSync(README, 'utf8')): ReadmeCredential {
	const section = /^## Quick start[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1];
	if (!section) throw new Error('README.md has no "## Quick start" section');
	const step = /create a \*\*FinVerify API\*\* credential:([\s\S]*?)\*\*Test\*\*/.exec(
		section,
	)?.[1];
	if (!step)
		throw new Error('the quick start has no "create a **FinVerify API** credential: …" step');
	const text = step.replace(/\s+/g, ' ');
	const fields: Record<string, string> = {};
	for (const m of text.matchAll(
		/([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*) (?:\*\*([^*]+)\*\*|`([^`]+)`)/g,
	))
		fields[m[1]] = m[2] ?? m[3];
	const properties: INodeProperties[] = new FinVerifyApi().properties;
	const data: Record<string, string> = {};
	for (const [label, value] of Object.entries(fields)) {
		const property = properties.find((p) => p.displayName === label);
		if (!property) throw new Error(`the quick start names "${label}", no field of the credential`);
		const options = property.options as INodePropertyOptions[] | undefined;
		const option = options?.find((o) => o.name === value);
		if (options && !option)
			throw new Error(`the quick start's ${label} "${value}" is no option of the field`);
		data[property.name] = option ? String(option.value) : value;
	}
	return { fields, data };
}
