/**
 * The node description of the Credit Report, Company and Employment resources: every operation is
 * routed, has an action text and its own fields; option names are camelCase; text fields show a
 * placeholder; alphabetical operation lists.
 */
import type { INodeProperties } from 'n8n-workflow';

import * as company from '../../nodes/FinVerify/actions/company';
import * as creditReport from '../../nodes/FinVerify/actions/creditReport';
import * as employment from '../../nodes/FinVerify/actions/employment';
import { registry } from '../../nodes/FinVerify/actions/router';

const resources = { creditReport, company, employment } as const;

const operationField = (description: INodeProperties[]) => description.find((p) => p.name === 'operation') as INodeProperties;

describe.each(Object.entries(resources))('%s', (resource, module) => {
	const field = operationField(module.description);
	const options = (field.options ?? []) as Array<{ name: string; value: string; action?: string; description?: string }>;

	test('every operation is listed, alphabetical, with an action and a description, and routed', () => {
		expect(options.map((o) => o.name)).toEqual([...options.map((o) => o.name)].sort((a, b) => a.localeCompare(b)));
		expect(options.map((o) => o.value).sort()).toEqual(Object.keys(module.operations).sort());
		expect(Object.keys(registry[resource as keyof typeof registry]).sort()).toEqual(Object.keys(module.operations).sort());
		for (const o of options) {
			expect(o.action).toMatch(/^[A-Z][a-z]/);
			expect(o.description).toBeTruthy();
		}
		expect(options.map((o) => o.value)).toContain(field.default);
	});

	test.each(Object.entries(module.operations))('%s: its fields show only for it, are described, camelCase', (operation, op) => {
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
				if (p.type === 'string' && p.name !== 'binaryPropertyName') expect(p.placeholder).toMatch(/^e\.g\. /);
				if (p.type !== 'collection' && p.type !== 'resourceLocator' && p.name !== 'binaryPropertyName') {
					expect(p.description).toBeTruthy();
				}
				if (p.type === 'options' || p.type === 'multiOptions') {
					for (const o of (p.options ?? []) as Array<{ value: string }>) expect(String(o.value)).toMatch(/^[a-z][a-zA-Z0-9]*$/);
				}
				if (p.type === 'collection') walk((p.options ?? []) as INodeProperties[], false);
			}
		};
		walk(description, true);
	});
});
