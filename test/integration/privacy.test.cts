/**
 * Personal data and consent evidence through n8n-core's real engine against the sandbox: Personal Data in
 * Output (Masked by default, Full on request, Raw unmasked), Aadhaar masked whatever the choice, and the
 * consent record every credit pull carries in every output mode (what was asserted, when, by which
 * workflow, execution and node, with the builder's reference).
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { EPFO_CRIF_FULL_AADHAAR_MOBILE } from '../../sandbox/magic.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import { expectNothingSent, fixtures, NODE, withSandbox } from './support.cjs';

/** The fixture with the FinVerify node at version 2 (no Simplify), plus `parameters`. */
function v2(wf: WorkflowJson, parameters: IDataObject = {}): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((node) => {
			if (node.name !== NODE) return node;
			const { simplify: _simplify, ...rest } = node.parameters as IDataObject;
			return {
				...node,
				typeVersion: 2,
				parameters: { ...rest, ...parameters } as INode['parameters'],
			};
		}),
	};
}

const multiBureau = fixtures('creditReport')('getMultiBureauReport');
const multiBureauSplit = fixtures('creditReport')('getMultiBureauReport.split');
const commercial = fixtures('creditReport')('getCommercialReport.jsonOnly');
const epfoCredit = fixtures('employment')('getEpfoRecordWithCredit');

const PAN = 'ABCDE1234F';
const MOBILE = '9876543210';
const MODES = ['simplified', 'normalized', 'raw'] as const;

describe('Personal Data in Output', () => {
	const sandbox = withSandbox({ shape: 'sample' });

	test.each(['simplified', 'normalized'])(
		'%s, default (Masked): no full PAN or mobile number; last 4 characters kept',
		async (outputMode) => {
			const result = await sandbox.run(v2(multiBureau, { outputMode }));
			expect(result.error).toBeUndefined();
			const text = JSON.stringify(result.json(NODE));
			expect(text).not.toContain(PAN);
			expect(text).not.toContain(MOBILE);
			expect(result.json(NODE)[0].pan).toBe('XXXXXX234F');
		},
	);

	test('Full: PAN and mobile as the service sent them', async () => {
		const result = await sandbox.run(
			v2(multiBureau, { outputMode: 'normalized', personalData: 'full' }),
		);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)[0].pan).toBe(PAN);
		expect(JSON.stringify(result.json(NODE))).toContain(MOBILE);
	});

	test('Raw: the answer unmasked (the Raw option and its notice say so)', async () => {
		const result = await sandbox.run(v2(multiBureau, { outputMode: 'raw' }));
		expect(result.error).toBeUndefined();
		expect(JSON.stringify(result.json(NODE))).toContain(PAN);
	});

	test('Aadhaar: masked to its last 4 digits under Full; only Raw shows it', async () => {
		const withFullAadhaar = {
			...epfoCredit,
			pinData: { Start: [{ json: { mobile: EPFO_CRIF_FULL_AADHAAR_MOBILE } }] },
		};
		const raw = await sandbox.run(v2(withFullAadhaar, { outputMode: 'raw' }));
		expect(raw.error).toBeUndefined();
		const aadhaar = JSON.stringify(raw.json(NODE)).match(/"aadhaar_number":"([0-9]{12})"/)?.[1];
		expect(aadhaar).toMatch(/^[2-9][0-9]{11}$/);
		for (const outputMode of ['simplified', 'normalized']) {
			const result = await sandbox.run(v2(withFullAadhaar, { outputMode, personalData: 'full' }));
			expect(result.error).toBeUndefined();
			expect(JSON.stringify(result.json(NODE))).not.toContain(aadhaar!);
		}
	});
});

describe('consent record of a credit pull', () => {
	const sandbox = withSandbox({ shape: 'reference' });

	const expectRecord = (
		json: IDataObject,
		operation: string,
		window: { before: number; after: number },
		reference: string | null,
	) => {
		const record = json.consentRecord as IDataObject;
		expect(record).toEqual({
			subjectConsented: true,
			purpose: expect.any(String),
			operation,
			assertedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			consentReference: reference,
			workflowId: 'test-workflow',
			workflowName: expect.any(String),
			executionId: expect.stringMatching(/.+/),
			nodeName: NODE,
		});
		const at = Date.parse(record.assertedAt as string);
		expect(at).toBeGreaterThanOrEqual(window.before);
		expect(at).toBeLessThanOrEqual(window.after);
	};

	test.each(MODES)(
		'Multi-Bureau Report, %s: the record, with the reference from an expression',
		async (outputMode) => {
			const wf = v2(multiBureau, {
				outputMode,
				consentReference: '={{ "CF-" + $json.name.length }}',
			});
			const before = Date.now();
			const result = await sandbox.run(wf);
			const after = Date.now();
			expect(result.error).toBeUndefined();
			const [json] = result.json(NODE);
			expectRecord(json, 'creditReport.getMultiBureauReport', { before, after }, 'CF-12');
			expect((json.consentRecord as IDataObject).workflowName).toBe(wf.name);
			expect((json.consentRecord as IDataObject).purpose).toMatch(/credit/i);
		},
	);

	test('Multi-Bureau Report split into items: every item carries the record', async () => {
		const before = Date.now();
		const result = await sandbox.run(v2(multiBureauSplit, { consentReference: 'APP-1' }));
		const after = Date.now();
		expect(result.error).toBeUndefined();
		const items = result.json(NODE);
		expect(items).toHaveLength(4);
		for (const json of items)
			expectRecord(json, 'creditReport.getMultiBureauReport', { before, after }, 'APP-1');
	});

	test.each(MODES)('Commercial Report and EPFO with Credit Report, %s', async (outputMode) => {
		const before = Date.now();
		const results = await Promise.all([
			sandbox.run(v2(commercial, { outputMode })),
			sandbox.run(v2(epfoCredit, { outputMode, consentReference: '  REF 7 ' })),
		]);
		const after = Date.now();
		for (const r of results) expect(r.error).toBeUndefined();
		expectRecord(
			results[0].json(NODE)[0],
			'creditReport.getCommercialReport',
			{ before, after },
			null,
		);
		expectRecord(
			results[1].json(NODE)[0],
			'employment.getEpfoRecordWithCredit',
			{ before, after },
			'REF 7',
		);
	});

	test('operations that are not credit pulls carry no record', async () => {
		const result = await sandbox.run(v2(fixtures('company')('getByCin')));
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)[0]).not.toHaveProperty('consentRecord');
	});

	test('the reference cannot come from an AI model: refused before anything is sent', async () => {
		const wf = v2(multiBureau, {
			consentReference: "={{ $fromAI('consentReference', 'the consent form', 'string') }}",
		});
		const result = await expectNothingSent(sandbox, 'multi-bureau', () => sandbox.run(wf));
		expect(result.error?.message).toMatch(/^Consent Reference cannot be filled by an AI model/);
	});
});
