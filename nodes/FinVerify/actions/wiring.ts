import type { IConnections, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { kindOfKey, maskAllButLast4 } from '../helpers/personalData';

/**
 * Where the node's items go, seen from the workflow's connections. In n8n an item sent to an output
 * with nothing connected disappears and the execution ends green (n8n-facts.md). n8n gives a node no
 * public way to read its own connections by output (`getChildNodes` names the nodes after it, not the
 * output they hang on), so this reads the connections of the workflow the execution context runs:
 * `workflow.connectionsBySourceNode`, present in n8n-core 2.41.1 and 1.123.x alike. Where an n8n does
 * not expose it, the answer is "unknown" and the node never fails for it.
 */
export type Wiring = (outputIndex: number) => boolean;

interface WithWorkflow {
	workflow?: { connectionsBySourceNode?: IConnections };
}

/** Whether each main output (by index, n8n's error output included) has a connection; undefined when unknown. */
export function wiringOf(context: IExecuteFunctions): Wiring | undefined {
	const connections = (context as unknown as WithWorkflow).workflow?.connectionsBySourceNode;
	if (connections === undefined || connections === null || typeof connections !== 'object')
		return undefined;
	const main = connections[context.getNode().name]?.main ?? [];
	return (outputIndex: number) =>
		(main[outputIndex] ?? []).some((connection) => connection !== null && !!connection?.node);
}

/** Keys that name an item's subject, by what they are (the first found names the item). */
const IDENTITY_KEYS: Array<[RegExp, string]> = [
	[/^(cin|companycin)$/, 'CIN'],
	[/^llpin$/, 'LLPIN'],
	[/^(gstin|gst)$/, 'GSTIN'],
	[/^(clientid|journeyid)$/, 'journey'],
	[/^sessionid$/, 'session'],
	[/^jobid$/, 'job'],
	[/^(applicantid|applicationid|customerid|leadid|reference|referenceid)$/, 'reference'],
];

const PERSONAL_LABEL: Record<string, string> = {
	pan: 'PAN',
	mobile: 'mobile',
	accountNumber: 'account',
	identityNumber: 'ID',
};

const compact = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * What identifies an item's subject, masked where it is personal data (a PAN or a mobile number to its
 * last 4 characters): `PAN XXXXXX234F`, `CIN L17110MH1973PLC019786`; undefined when nothing does. Read
 * from the item's request (what it sends) or its input fields, two levels deep at most.
 */
export function identityOf(...sources: unknown[]): string | undefined {
	for (const source of sources) {
		const found = findIdentity(source, 0);
		if (found) return found;
	}
	return undefined;
}

function findIdentity(value: unknown, depth: number): string | undefined {
	if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > 2)
		return undefined;
	const record = value as IDataObject;
	let personal: string | undefined;
	for (const [key, field] of Object.entries(record)) {
		if (typeof field !== 'string' && typeof field !== 'number') continue;
		const text = String(field).trim();
		if (text === '' || text.length > 64) continue;
		const k = compact(key);
		const named = IDENTITY_KEYS.find(([pattern]) => pattern.test(k));
		if (named) return `${named[1]} ${text}`;
		const kind = kindOfKey(key);
		if (kind && PERSONAL_LABEL[kind] && personal === undefined)
			personal = `${PERSONAL_LABEL[kind]} ${maskAllButLast4(text)}`;
	}
	if (personal) return personal;
	for (const field of Object.values(record)) {
		const found = findIdentity(field, depth + 1);
		if (found) return found;
	}
	return undefined;
}

/**
 * Items named 1-based with their subjects, cut after `max`: `item 2 (PAN XXXXXX234F)`,
 * `items 1, 2, 4`, `items 1 (CIN L17…), 3 (CIN U00…) and 12 more`.
 */
export function itemsPhrase(
	entries: Array<{ index: number; identity?: string }>,
	max = 10,
): string {
	const shown = entries
		.slice(0, max)
		.map(({ index, identity }) => `${index + 1}${identity ? ` (${identity})` : ''}`);
	const more = entries.length > max ? ` and ${entries.length - max} more` : '';
	return `item${entries.length > 1 ? 's' : ''} ${shown.join(', ')}${more}`;
}
