/**
 * The corporate lookups describe one world: a PAN handed out by a CIN lookup finds the same company in the
 * PAN lookup, and a CIN introduced by a PAN lookup finds the same name and PAN in the CIN lookup.
 */
import type { RunningSandbox } from '../../sandbox/server.cjs';
import { api, call, start } from './helpers.cjs';

let sandbox: RunningSandbox;
beforeAll(async () => (sandbox = await start()));
afterAll(async () => await sandbox.close());

test.each(['reference', 'sample'] as const)(
	'CIN → PAN → the same company (PAN lookup in the %s shape)',
	async (shape) => {
		const cin = 'U72200KA2011PTC059001';
		const company = await call(sandbox, 'POST', api('corporate/cin-lookup'), {
			body: { cin },
			shape: 'reference',
		});
		expect(company.status).toBe(200);
		const { pan, company_name: name } = company.json.data;
		expect(pan).toMatch(/^[A-Z]{3}C[A-Z]\d{4}[A-Z]$/);

		const entity = await call(sandbox, 'POST', api('corporate/pan-lookup'), {
			body: { pan },
			shape,
		});
		expect(entity.status).toBe(200);
		if (shape === 'reference')
			expect(entity.json.data).toMatchObject({
				pan,
				entity_name: name,
				entity_type: 'Company',
				cin,
			});
		else
			expect(entity.json.data.result).toMatchObject({
				pan,
				legal_name: name,
				entity_type: 'Company',
				cin,
			});
	},
);

test('LLPIN → PAN → the same LLP', async () => {
	const llp = await call(sandbox, 'POST', api('corporate/llpin-lookup'), {
		body: { llpin: 'AAB-1234' },
		shape: 'reference',
	});
	const { pan, llp_name: name } = llp.json.data;
	const entity = await call(sandbox, 'POST', api('corporate/pan-lookup'), {
		body: { pan },
		shape: 'reference',
	});
	expect(entity.json.data).toMatchObject({
		pan,
		entity_name: name,
		entity_type: 'LLP',
		llpin: 'AAB-1234',
		cin: null,
	});
});

test('PAN → CIN → the same name and PAN', async () => {
	const pan = 'AAKCM4821Q'; // 4th letter C: a company
	const entity = await call(sandbox, 'POST', api('corporate/pan-lookup'), {
		body: { pan },
		shape: 'reference',
	});
	const { cin, entity_name: name } = entity.json.data;
	expect(cin).toMatch(/^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}$/);
	const company = await call(sandbox, 'POST', api('corporate/cin-lookup'), {
		body: { cin },
		shape: 'reference',
	});
	expect(company.json.data).toMatchObject({ cin, company_name: name, pan });
});

test('an unrelated PAN still gets its own deterministic entity', async () => {
	const first = await call(sandbox, 'POST', api('corporate/pan-lookup'), {
		body: { pan: 'BBQCX1234Z' },
		shape: 'reference',
	});
	const again = await call(sandbox, 'POST', api('corporate/pan-lookup'), {
		body: { pan: 'BBQCX1234Z' },
		shape: 'reference',
	});
	expect(again.json).toEqual(first.json);
});
