/** The trigger's node description: conventions n8n and its lint rely on, and consistency with the status lists it reads. */
import type { INodeProperties } from 'n8n-workflow';

import { FinVerifyTrigger } from '../../../nodes/FinVerifyTrigger/FinVerifyTrigger.node';
import { SESSION_FINAL_STATUSES, SESSION_STATUSES } from '../../../nodes/shared/statuses';
import { JOURNEY_FINAL_STATUSES, JOURNEY_STATUSES } from '../../../nodes/shared/statuses';
import codex from '../../../nodes/FinVerifyTrigger/FinVerifyTrigger.node.json';

const versioned = new FinVerifyTrigger();
/** The version a new trigger gets. */
const node = versioned.getNodeType();
const { description } = node;
const property = (name: string) => {
	const found = description.properties.find((p) => p.name === name);
	if (!found) throw new Error(`no property ${name}`);
	return found as Omit<INodeProperties, 'options'> & {
		options: Array<{ name: string; value: string; description?: string }>;
	};
};

test('trigger conventions: names, group, no inputs, icons, credential', () => {
	expect(description).toMatchObject({
		name: 'finVerifyTrigger',
		displayName: 'FinVerify Trigger',
		group: ['trigger'],
		inputs: [],
		version: 1.3,
		defaultVersion: 1.3,
		icon: { light: 'file:../../icons/finverify.svg', dark: 'file:../../icons/finverify.dark.svg' },
		credentials: [{ name: 'finVerifyApi', required: true }],
	});
	expect(description.subtitle).toMatch(/^=/);
	expect(codex.node).toBe('n8n-nodes-finverify.finVerifyTrigger');
});

test('the versions: 1, 1.1 and 1.2 share one description, 1.3 (the default) its own', () => {
	// 1.1 is 1 without n8n's per-delivery expression for a version-1 start node; 1.2 masks personal data by
	// default; 1.3 answers when the workflow has finished (docs/trigger.md)
	expect(versioned.description.defaultVersion).toBe(1.3);
	expect(Object.keys(versioned.nodeVersions).map(Number).sort()).toEqual([1, 1.1, 1.2, 1.3]);
	for (const v of [1, 1.1, 1.2])
		expect(versioned.getNodeType(v).description.version).toEqual([1, 1.1, 1.2]);
	// the same fields on every version (what differs by version is said by displayOptions)
	expect(versioned.getNodeType(1).description.properties).toBe(description.properties);
});

test("one POST webhook: before 1.3 answered on receipt, with an explicit responseData (never n8n's default body) that is a plain value, not an expression n8n would evaluate per delivery", () => {
	expect(versioned.getNodeType(1.2).description.webhooks).toEqual([
		{
			name: 'default',
			httpMethod: 'POST',
			responseMode: 'onReceived',
			responseData: { received: true },
			path: 'finverify',
		},
	]);
});

test("from 1.3 answered when the workflow has finished (n8n's last node answer), with no body: nothing of the workflow goes back to the sender", () => {
	expect(description.webhooks).toEqual([
		{
			name: 'default',
			httpMethod: 'POST',
			responseMode: 'lastNode',
			responseData: 'noData',
			path: 'finverify',
		},
	]);
});

test('Personal Data in Output: from version 1.2 only, Masked by default', () => {
	const field = property('personalData');
	expect(field.default).toBe('masked');
	expect(field.options.map((o) => o.value)).toEqual(['masked', 'full']);
	expect(field.displayOptions).toEqual({ show: { '@version': [{ _cnd: { gte: 1.2 } }] } });
});

test('all three webhook lifecycle methods exist', () => {
	expect(Object.keys(node.webhookMethods?.default ?? {}).sort()).toEqual([
		'checkExists',
		'create',
		'delete',
	]);
});

test('events default to both kinds', () => {
	expect(property('events').default).toEqual(['journey', 'session']);
	expect(property('events').options.map((o) => o.value)).toEqual(['journey', 'session']);
});

test('the status multi-select lists every journey and session state, sorted by name', () => {
	const options = property('statuses').options;
	expect(options.map((o) => o.value).sort()).toEqual(
		[
			...JOURNEY_STATUSES.map((s) => `journey:${s}`),
			...SESSION_STATUSES.map((s) => `session:${s}`),
		].sort(),
	);
	const names = options.map((o) => o.name);
	expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	// descriptions say which states are final, consistent with the lists events.ts decides finality with
	for (const option of options) {
		const [type, state] = option.value.split(':');
		const final = (type === 'journey' ? JOURNEY_FINAL_STATUSES : SESSION_FINAL_STATUSES).some(
			(s) => s === state,
		);
		expect([option.value, option.description?.startsWith('Final:')]).toEqual([option.value, final]);
	}
});

test('verification defaults to HMAC; token and warning notice only show for their modes', () => {
	expect(property('verification').default).toBe('hmacSignature');
	expect(
		property('verification')
			.options.map((o) => o.value)
			.sort(),
	).toEqual(['hmacSignature', 'none', 'urlToken']);
	expect(property('token').displayOptions).toEqual({ show: { verification: ['urlToken'] } });
	expect(property('token').typeOptions).toEqual({ password: true });
	expect(property('noVerificationNotice')).toMatchObject({
		type: 'notice',
		displayOptions: { show: { verification: ['none'] } },
	});
	expect(property('setupNotice').type).toBe('notice');
});

test('options: documented defaults', () => {
	const defaults = Object.fromEntries(
		(
			property('options') as unknown as { options: Array<{ name: string; default: unknown }> }
		).options.map((o) => [o.name, o.default]),
	);
	expect(defaults).toEqual({
		dedupeWindowMinutes: 60,
		idHeader: 'X-Webhook-Id',
		eventHeader: 'X-Webhook-Event',
		signatureHeader: 'X-Webhook-Signature',
		timestampHeader: 'X-Webhook-Timestamp',
		toleranceSeconds: 300,
	});
});
