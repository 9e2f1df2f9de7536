/**
 * Issue 45 through n8n-core's real engine against the simulator, both layouts: Decide On (decisionReady
 * over exactly the chosen facts, decidedOn on every answer), a struck-off company declinable on its
 * status and leaving on Complete, a company's PAN passed on unmasked (an individual's stays masked), and
 * the directors with their dates and whether current.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { nodeWorkflow } from '../harness/index.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import { registryFacts } from '../../sandbox/data/corporate.cjs';
import { NODE, SHAPES, withSandbox } from './support.cjs';

/** A CIN the simulator's registry gives `status`: found among generated CINs of one pattern. */
function cinWith(status: string): string {
	for (let n = 1000; n < 2000; n++) {
		const cin = `U72200KA2011PTC05${n}`;
		if (registryFacts(cin, 'company').status === status) return cin;
	}
	throw new Error(`no CIN with status ${status}`);
}

function v3(parameters: IDataObject): WorkflowJson {
	const wf = nodeWorkflow({ parameters: { resource: 'company', ...parameters } });
	wf.nodes = wf.nodes.map((n): INode => (n.name === NODE ? { ...n, typeVersion: 3 } : n));
	return wf;
}

const FULL = [
	'status',
	'age',
	'pendingCases',
	'bureauDefaults',
	'gstFilingDelay',
	'epfPaymentDelay',
];

describe.each(SHAPES)('company decisions, %s layout', (shape) => {
	const { run } = withSandbox({ shape });
	const active = cinWith('Active');
	const struck = cinWith('Struck Off');
	const byCin = (cin: string, extra: IDataObject = {}) =>
		v3({ operation: 'getByCin', company: { __rl: true, mode: 'cin', value: cin }, ...extra });

	test('Decide On, default: the full set, named in decidedOn; never ready without every fact', async () => {
		const result = await run(byCin(active));
		expect(result.error).toBeUndefined();
		const [complete, incomplete] = [result.json(NODE, 0), result.json(NODE, 1)];
		const [json] = [...complete, ...incomplete];
		expect(json.decidedOn).toEqual(FULL);
		// the reference layout states no risk flags; the sample layout no status
		expect(incomplete).toHaveLength(1);
		expect(json.incomplete).toContain(
			shape === 'reference'
				? 'risk flags unknown: pending cases, bureau defaults, GST filing delay, EPF payment delay'
				: 'status unknown',
		);
	});

	test('Decide On Status and Age: ready where the layout states both (reference), on Complete', async () => {
		const result = await run(byCin(active, { decideOn: 'statusAndAge' }));
		const out = shape === 'reference' ? result.json(NODE, 0) : result.json(NODE, 1);
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({
			decisionReady: shape === 'reference',
			decidedOn: ['status', 'age'],
		});
		if (shape === 'reference') expect(out[0]).toMatchObject({ adverse: [], declinable: false });
	});

	test('Decide On chosen facts: the flags alone are ready in the sample layout', async () => {
		const facts = ['age', 'pendingCases', 'bureauDefaults', 'gstFilingDelay'];
		const result = await run(byCin(active, { decideOn: 'custom', decideOnFacts: facts }));
		const [json] = [...result.json(NODE, 0), ...result.json(NODE, 1)];
		expect(json).toMatchObject({ decidedOn: facts, decisionReady: shape === 'sample' });
	});

	test('a struck-off company is declinable on its status and leaves on Complete (reference: the layout with a status)', async () => {
		if (shape === 'sample') return; // Get by CIN's sample layout states no status: see Get Entity by PAN
		const result = await run(byCin(struck));
		expect(result.json(NODE, 1)).toHaveLength(0);
		expect(result.json(NODE, 0)).toEqual([
			expect.objectContaining({
				decisionReady: false,
				declinable: true,
				adverse: [
					expect.objectContaining({
						kind: 'struckOff',
						text: "Company: struck off (status 'Struck Off')",
					}),
				],
				statusCategory: 'struckOff',
			}),
		]);
	});

	test("Get Entity by PAN: the company's PAN from Get by CIN, unmasked, and a struck-off entity declinable", async () => {
		const reference = await run(
			byCin(struck, { outputMode: 'normalized', incompleteAnswers: 'keep' }),
		);
		const record = reference.json(NODE)[0];
		if (shape === 'reference') expect(record.pan).toMatch(/^[A-Z]{3}C[A-Z]\d{4}[A-Z]$/);
		else expect(record.pan).toBeNull(); // the sample layout states none
		const pan = String(registryPan(struck));
		const result = await run(v3({ operation: 'getEntityByPan', pan }));
		const [json] = [...result.json(NODE, 0), ...result.json(NODE, 1)];
		expect(json).toMatchObject({ pan, declinable: true, statusCategory: 'struckOff' });
		expect(result.json(NODE, 0)).toHaveLength(1);
	});

	test('directors: DIN, name, designation, dates, current (sample); unknown (null) in the reference layout', async () => {
		const result = await run(
			byCin(active, { outputMode: 'normalized', incompleteAnswers: 'keep' }),
		);
		const { directors } = result.json(NODE)[0];
		if (shape === 'reference') expect(directors).toBeNull();
		else
			for (const d of directors as IDataObject[])
				expect(d).toEqual({
					din: expect.stringMatching(/^\d{8}$/),
					name: expect.any(String),
					designation: expect.any(String),
					appointedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
					ceasedOn: null,
					current: true,
				});
	});
});

/** The PAN the simulator's registry gives a CIN (its reference answer, read without the node). */
const pans = new Map<string, string>();
function registryPan(cin: string): string | undefined {
	return pans.get(cin);
}
beforeAll(async () => {
	const { NameRegistry, companyReference } = await import('../../sandbox/data/corporate.cjs');
	for (let n = 1000; n < 2000; n++) {
		const cin = `U72200KA2011PTC05${n}`;
		pans.set(cin, companyReference(cin, new NameRegistry()).data.pan);
	}
});
