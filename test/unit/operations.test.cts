/**
 * The node description of every resource of the FinVerify node: every resource of the Resource dropdown is
 * checked here; every operation of a resource's dropdown is one it can run, has an action text and its own
 * fields; parameter names and option values are camelCase; text fields show a placeholder; Preview operations
 * say so in their description; operation lists are alphabetical.
 */
import type { INodeProperties } from 'n8n-workflow';

import * as apiRequest from '../../nodes/FinVerify/actions/apiRequest';
import * as bankStatementJourney from '../../nodes/FinVerify/actions/bankStatementJourney';
import * as collectionSession from '../../nodes/FinVerify/actions/collectionSession';
import * as company from '../../nodes/FinVerify/actions/company';
import * as creditReport from '../../nodes/FinVerify/actions/creditReport';
import * as employment from '../../nodes/FinVerify/actions/employment';
import * as incomeTaxReturn from '../../nodes/FinVerify/actions/incomeTaxReturn';
import * as triggerDelivery from '../../nodes/FinVerify/actions/triggerDelivery';
import { registry } from '../../nodes/FinVerify/actions/router';
import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';

const resources = {
	creditReport,
	company,
	employment,
	incomeTaxReturn,
	bankStatementJourney,
	collectionSession,
	triggerDelivery,
	apiRequest,
} as const;

/** Operations whose request or response shape the specification does not give. */
const PREVIEW = ['startAnalysis', 'getAnalysisStatus', 'confirmPasswordReset', 'start'];

/** HTTP method option values keep their usual uppercase spelling. */
const UPPERCASE_OPTION_FIELDS = ['method'];

const operationField = (description: INodeProperties[]) =>
	description.find((p) => p.name === 'operation') as INodeProperties;

test('every resource of the Resource dropdown is checked below', () => {
	const resource = new FinVerify().description.properties.find((p) => p.name === 'resource');
	const values = ((resource?.options ?? []) as Array<{ value: string }>).map((o) => o.value);
	expect(Object.keys(resources).sort()).toEqual(values.sort());
});

describe.each(Object.entries(resources))('%s', (resource, module) => {
	const field = operationField(module.description);
	const options = (field.options ?? []) as Array<{
		name: string;
		value: string;
		action?: string;
		description?: string;
	}>;

	test('its dropdown lists exactly the operations it can run, alphabetical, each with an action and a description', () => {
		expect(options.map((o) => o.name)).toEqual(
			[...options.map((o) => o.name)].sort((a, b) => a.localeCompare(b)),
		);
		// module.operations is what the router's registry holds for the resource (a typed map)
		expect(options.map((o) => o.value).sort()).toEqual(Object.keys(module.operations).sort());
		for (const o of options) {
			expect(o.action).toMatch(/^[A-Z][a-z]/);
			expect(o.description).toBeTruthy();
			expect(o.description?.endsWith('(preview)')).toBe(PREVIEW.includes(o.value));
		}
		expect(options.map((o) => o.value)).toContain(field.default);
	});

	test('its fields are part of the node', () => {
		const { properties } = new FinVerify().description;
		for (const p of module.description) expect(properties).toContain(p);
	});

	test.each(Object.entries(module.operations))(
		'%s: its fields show only for it, are described, camelCase',
		(operation, op) => {
			const { description } = op as { description: INodeProperties[] };
			expect(description.length).toBeGreaterThan(0);
			const walk = (props: INodeProperties[], top: boolean) => {
				for (const p of props) {
					expect(p.name).toMatch(/^[a-z][a-zA-Z0-9]*$/);
					expect(p.displayName).toBeTruthy();
					if (top) {
						expect(p.displayOptions?.show?.resource).toEqual([resource]);
						expect(p.displayOptions?.show?.operation).toEqual([operation]);
					}
					const secret = p.typeOptions?.password === true;
					if (p.type === 'string' && !secret && p.name !== 'binaryPropertyName')
						expect(p.placeholder).toMatch(/^e\.g\. /);
					if (
						!['collection', 'fixedCollection', 'notice'].includes(p.type) &&
						p.name !== 'binaryPropertyName'
					) {
						expect(p.description).toBeTruthy();
					}
					if (p.type === 'boolean') expect(p.description).toMatch(/^Whether /);
					if (
						(p.type === 'options' || p.type === 'multiOptions') &&
						!UPPERCASE_OPTION_FIELDS.includes(p.name)
					) {
						// an empty value is the "nothing chosen yet" entry of a field without a default (Gender)
						for (const o of (p.options ?? []) as Array<{ value: string }>)
							if (o.value !== '') expect(String(o.value)).toMatch(/^[a-z][a-zA-Z0-9]*$/);
					}
					if (p.type === 'collection') walk((p.options ?? []) as INodeProperties[], false);
					if (p.type === 'fixedCollection') {
						for (const group of (p.options ?? []) as Array<{ values: INodeProperties[] }>)
							walk(group.values, false);
					}
				}
			};
			walk(description, true);
		},
	);
});

test('every registered operation has both steps: read (checks, sends nothing) and execute (sends)', () => {
	const steps = Object.entries(registry).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, op]) => [
			`${resource}.${operation}`,
			typeof op.read,
			typeof op.execute,
		]),
	);
	expect(steps.length).toBeGreaterThanOrEqual(20);
	for (const [name, read, execute] of steps)
		expect([name, read, execute]).toEqual([name, 'function', 'function']);
});

test('passwords are password fields', () => {
	const fields = [
		...incomeTaxReturn.operations.startAnalysis.description,
		...incomeTaxReturn.operations.resetPortalPassword.description,
	];
	for (const name of ['portalPassword', 'newPassword']) {
		expect(fields.find((f) => f.name === name)?.typeOptions?.password).toBe(true);
	}
});

describe('operations that pull a credit report say what they need before a first run', () => {
	/** Every operation with a consent field pulls a credit report (or a business's). */
	const creditPulls = Object.entries(resources).flatMap(([resource, module]) =>
		Object.entries(module.operations)
			.filter(([, op]) =>
				(op as { description: INodeProperties[] }).description.some((p) => p.name === 'consent'),
			)
			.map(([operation, op]) => ({
				key: `${resource}.${operation}`,
				fields: (op as { description: INodeProperties[] }).description,
			})),
	);

	test('the credit pulls are these three', () => {
		expect(creditPulls.map((c) => c.key).sort()).toEqual([
			'creditReport.getCommercialReport',
			'creditReport.getMultiBureauReport',
			'employment.getEpfoRecordWithCredit',
		]);
	});

	test.each(creditPulls)(
		'$key: a notice first, naming consent and every required field without a usable default',
		({ key, fields }) => {
			const [first] = fields;
			expect(first.type).toBe('notice');
			const text = first.displayName.toLowerCase();
			expect(text).toContain('subject has consented set to yes');
			// a required field whose default cannot be sent: empty text, "choose …" (Gender), consent No
			const needed = fields.filter(
				(p) => p.required && (p.default === '' || p.default === false) && p.type !== 'notice',
			);
			expect(needed.length).toBeGreaterThan(0);
			for (const p of needed) {
				const named =
					p.name === 'consent'
						? 'subject has consented'
						: p.name === 'mobileNumber'
							? 'mobile number'
							: p.name === 'businessName'
								? 'name'
								: p.displayName.toLowerCase();
				expect({ key, field: p.name, named: text.includes(named) }).toEqual({
					key,
					field: p.name,
					named: true,
				});
			}
			if (key === 'creditReport.getMultiBureauReport') expect(text).toContain('gender');
		},
	);
});
