/**
 * Every text the editor shows for the two nodes and the credential (display names, descriptions, hints,
 * placeholders, option names, actions, notices) reads the same after n8n's editor has sanitised it.
 *
 * n8n's editor renders parameter descriptions, hints and notices as HTML after passing them through its
 * `sanitizeHtml` (editor-ui `utils/htmlUtils`, built on the `xss` library): a tag whose name is not one of
 * p, strong, b, code, a, br, i, em, small is removed together with its angle brackets, so a hint like
 * "files go to <name>_0" reads "files go to _0". `renderedByEditor` reproduces that effect; the test
 * asserts it changes nothing. Hints stay within the 120 characters n8n's own lint allows; operation names
 * carry no "(Preview)" or "(shape assumed)"; tooltips carry no raw markdown and no jargon.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FinVerifyApi } from '../../credentials/FinVerifyApi.credentials';
import { registry } from '../../nodes/FinVerify/actions/router';
import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { FinVerifyTrigger } from '../../nodes/FinVerifyTrigger/FinVerifyTrigger.node';

const EDITOR_ALLOWED_TAGS = ['p', 'strong', 'b', 'code', 'a', 'br', 'i', 'em', 'small'];

/** What the editor leaves of a text: tags outside its allow-list vanish, angle brackets and all. */
export function renderedByEditor(text: string): string {
	return text.replace(
		/<\/?\s*([A-Za-z][A-Za-z0-9_:-]*)((?:\s[^<>]*)?)\/?>/g,
		(tag: string, name: string) => (EDITOR_ALLOWED_TAGS.includes(name.toLowerCase()) ? tag : ''),
	);
}

interface Shown {
	where: string;
	kind: 'displayName' | 'description' | 'hint' | 'placeholder' | 'option' | 'action' | 'notice';
	text: string;
}

function collect(properties: INodeProperties[], where: string, out: Shown[]): Shown[] {
	for (const p of properties) {
		const at = `${where} › ${p.name}`;
		out.push({
			where: at,
			kind: p.type === 'notice' ? 'notice' : 'displayName',
			text: p.displayName,
		});
		if (p.description) out.push({ where: at, kind: 'description', text: p.description });
		if (p.hint) out.push({ where: at, kind: 'hint', text: p.hint });
		if (typeof p.placeholder === 'string')
			out.push({ where: at, kind: 'placeholder', text: p.placeholder });
		for (const mode of p.modes ?? []) {
			if (mode.placeholder)
				out.push({ where: `${at}:${mode.name}`, kind: 'placeholder', text: mode.placeholder });
			if (mode.hint) out.push({ where: `${at}:${mode.name}`, kind: 'hint', text: mode.hint });
		}
		for (const option of (p.options ?? []) as Array<
			INodePropertyOptions | INodeProperties | { displayName: string; values: INodeProperties[] }
		>) {
			if ('values' in option) {
				collect(option.values, `${at}.${option.displayName}`, out);
			} else if ('type' in option) {
				collect([option], at, out);
			} else {
				const o = option as INodePropertyOptions;
				out.push({ where: `${at}=${String(o.value)}`, kind: 'option', text: o.name });
				if (o.description)
					out.push({ where: `${at}=${String(o.value)}`, kind: 'description', text: o.description });
				if (o.action)
					out.push({ where: `${at}=${String(o.value)}`, kind: 'action', text: o.action });
			}
		}
	}
	return out;
}

function shownBy(name: string, description: INodeTypeDescription): Shown[] {
	return collect(description.properties, name, [
		{ where: name, kind: 'description', text: description.description },
	]);
}

const credential = new FinVerifyApi();
const texts: Shown[] = [
	...shownBy('FinVerify', new FinVerify().description),
	...shownBy('FinVerify Trigger', new FinVerifyTrigger().getNodeType().description),
	...collect(credential.properties, 'FinVerify API credential', []),
];

describe('the sanitising rule reproduced here', () => {
	test('drops tags outside the allow-list and keeps the rest', () => {
		expect(renderedByEditor('files go to <name>_0, <name>_1')).toBe('files go to _0, _1');
		expect(renderedByEditor('add ?token=<token> to the URL')).toBe('add ?token= to the URL');
		expect(renderedByEditor('a <code>field</code> and <b>bold</b>')).toBe(
			'a <code>field</code> and <b>bold</b>',
		);
		expect(renderedByEditor('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2');
		expect(renderedByEditor('sha256=&lt;hex&gt;')).toBe('sha256=&lt;hex&gt;');
	});
});

describe('text shown in the editor', () => {
	test('collects the texts of both nodes and the credential', () => {
		expect(texts.length).toBeGreaterThan(200);
		expect(texts.filter((t) => t.kind === 'hint').length).toBeGreaterThan(3);
	});

	test('no text loses words to HTML sanitising', () => {
		const lost = texts.filter((t) => renderedByEditor(t.text) !== t.text);
		expect(lost.map((t) => `${t.where} (${t.kind}): ${t.text}`)).toEqual([]);
	});

	test('hints are at most 120 characters', () => {
		const long = texts.filter((t) => t.kind === 'hint' && t.text.length > 120);
		expect(long.map((t) => `${t.where} (${t.text.length}): ${t.text}`)).toEqual([]);
	});

	// n8n's own fields' descriptions run about 60 characters (the median); the details of a field go to its
	// hint and to docs/operations.md, so the tooltip stays a sentence
	test('field and option descriptions are at most 200 characters', () => {
		const long = texts.filter((t) => t.kind === 'description' && t.text.length > 200);
		expect(long.map((t) => `${t.where} (${t.text.length}): ${t.text}`)).toEqual([]);
		// the search reaches the descriptions (options and collections too), long ones among them
		const descriptions = texts.filter((t) => t.kind === 'description');
		expect(descriptions.length).toBeGreaterThan(200);
		expect(Math.max(...descriptions.map((t) => t.text.length))).toBeGreaterThan(150);
	});

	test('operation and resource names carry no "(Preview)" or "(shape assumed)"', () => {
		const marked = texts.filter(
			(t) =>
				(t.kind === 'option' || t.kind === 'action') && /\(preview\)|shape assumed/i.test(t.text),
		);
		expect(marked.map((t) => `${t.where}: ${t.text}`)).toEqual([]);
	});

	test('tooltips and hints carry no markdown backticks and no jargon', () => {
		const jargon = /`|response shape|sample payload|\bpayload\b|\bshape\b/i;
		const bad = texts.filter(
			(t) => ['description', 'hint', 'notice'].includes(t.kind) && jargon.test(t.text),
		);
		expect(bad.map((t) => `${t.where} (${t.kind}): ${t.text}`)).toEqual([]);
	});
});

describe('nodes panel, search and documentation links', () => {
	const codex = (file: string) =>
		JSON.parse(readFileSync(path.resolve(__dirname, '../../nodes', file), 'utf8')) as {
			alias: string[];
			resources: Record<string, Array<{ url: string }>>;
		};
	const action = codex('FinVerify/FinVerify.node.json');
	const trigger = codex('FinVerifyTrigger/FinVerifyTrigger.node.json');

	test('documentation links carry no #anchor (n8n appends its tracking parameters after the URL)', () => {
		const urls = [
			...Object.values(action.resources).flat(),
			...Object.values(trigger.resources).flat(),
		].map((r) => r.url);
		urls.push(credential.documentationUrl);
		expect(urls.length).toBeGreaterThanOrEqual(5);
		for (const url of urls) expect(url).not.toContain('#');
	});

	test("the nodes panel's FinVerify entry (n8n shows the trigger's description there) says what the node does", () => {
		expect(new FinVerifyTrigger().getNodeType().description.description).toMatch(
			/^Verify people and businesses/,
		);
	});

	test('one way to call any endpoint: the last resource is "Custom API Call" (n8n then adds no second one)', () => {
		const resource = new FinVerify().description.properties.find((p) => p.name === 'resource');
		const options = (resource?.options ?? []) as INodePropertyOptions[];
		expect(options[options.length - 1]).toMatchObject({
			name: 'Custom API Call',
			value: 'apiRequest',
		});
		expect(options.filter((o) => o.name === 'Custom API Call')).toHaveLength(1);
		expect(options[0].value).not.toBe('apiRequest');
		const others = options.slice(0, -1).map((o) => o.name);
		expect(others).toEqual([...others].sort((a, b) => a.localeCompare(b)));
	});
});

test('canvas subtitles: every registered operation has "Resource · Operation" in the dropdowns\' names', () => {
	const { subtitle } = new FinVerify().description;
	const map = JSON.parse(/\((\{.*\})\)/.exec(subtitle as string)?.[1] ?? '{}') as Record<
		string,
		string
	>;
	// derived from the dropdowns (actions/subtitle.ts): each operation the router can run has one
	const registered = Object.entries(registry).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => `${resource}.${operation}`),
	);
	expect(Object.keys(map).sort()).toEqual(registered.sort());
	expect(map['company.getByCin']).toBe('Company · Get by CIN');
	expect(map['employment.getEpfoRecordWithCredit']).toBe(
		'Employment · Get EPFO Record with Credit Report',
	);
	expect(map['apiRequest.send']).toBe('Custom API Call · Send');
});

/**
 * n8n names a node added from the actions list after the operation's action (n8n-workflow's
 * `NodeHelpers.makeNodeName`, which the editor calls, and renames it while the name is untouched), and
 * every expression that reads it repeats that name: `$('Get company by CIN or LLPIN').item.json.cin`.
 */
describe('default node names', () => {
	const description = new FinVerify().description;
	const resource = description.properties.find((p) => p.name === 'resource');
	const names = ((resource?.options ?? []) as INodePropertyOptions[]).flatMap((r) => {
		const operation = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(r.value),
		);
		return ((operation?.options ?? []) as INodePropertyOptions[]).map((o) => ({
			where: `${String(r.value)}.${String(o.value)}`,
			name: NodeHelpers.makeNodeName({ resource: r.value, operation: o.value }, description),
		}));
	});

	test('one per operation, the action, each different', () => {
		expect(names.length).toBeGreaterThanOrEqual(21);
		expect(new Set(names.map((n) => n.name)).size).toBe(names.length);
		expect(names.find((n) => n.where === 'company.getByCin')?.name).toBe(
			'Get company by CIN or LLPIN',
		);
	});

	test('short enough to read in an expression: at most 30 characters', () => {
		const long = names.filter((n) => n.name.length > 30);
		expect(long.map((n) => `${n.where}: ${n.name} (${n.name.length})`)).toEqual([]);
	});
});

test('Get Commercial Report says where its PAN comes from when the registry answer has none', () => {
	const notices = new FinVerify().description.properties.filter(
		(p) =>
			p.type === 'notice' &&
			p.displayOptions?.show?.operation?.includes('getCommercialReport') === true,
	);
	const pan = notices.find((n) => n.name === 'panSourceNotice');
	expect(pan?.displayName).toMatch(/Get by CIN/);
	expect(pan?.displayName).toMatch(/GSTIN: characters 3 to 12/);
	// before the fields, right after the list of what the operation needs
	expect(notices.map((n) => n.name)).toEqual(['beforeRunningNotice', 'panSourceNotice']);
});
