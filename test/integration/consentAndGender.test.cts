/**
 * Consent and gender through n8n-core's real engine against the sandbox: every credit pull (multi-bureau,
 * commercial, EPFO with credit) needs the workflow's consent before any request; neither consent nor
 * gender may come from an AI model ($fromAI); gender has no default and accepts what CRMs write.
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow } from '../harness/index.cjs';
import { expectNothingSent, NODE, NOTHING_SENT, withSandbox } from './support.cjs';

const MULTI = 'multi-bureau/fetch';
const COMMERCIAL = 'credit-report-commercial/fetch';
const EPFO_CREDIT = 'epfo-crif-combined/fetch';

const person = { pan: 'ABCDE1234F', name: 'Priya Sharma', mobile: '9876543210' };

const multiBureau = (parameters: IDataObject, items: IDataObject[] = [person]) =>
	nodeWorkflow({
		parameters: {
			resource: 'creditReport',
			operation: 'getMultiBureauReport',
			pan: '={{ $json.pan }}',
			name: '={{ $json.name }}',
			mobileNumber: '={{ $json.mobile }}',
			bureaus: ['cibil'],
			requestOptions: { maxRetries: 0 },
			...parameters,
		},
		items,
	});

const commercial = (parameters: IDataObject) =>
	nodeWorkflow({
		parameters: {
			resource: 'creditReport',
			operation: 'getCommercialReport',
			businessName: 'Acme Traders Private Limited',
			pan: 'AAACA1234F',
			output: 'json',
			requestOptions: { maxRetries: 0 },
			...parameters,
		},
	});

const epfoWithCredit = (parameters: IDataObject) =>
	nodeWorkflow({
		parameters: {
			resource: 'employment',
			operation: 'getEpfoRecordWithCredit',
			mobileNumber: '9876543210',
			requestOptions: { maxRetries: 0 },
			...parameters,
		},
	});

const FROM_AI = "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('consent', '', 'boolean') }}";

describe('consent and gender', () => {
	const sandbox = withSandbox();

	test.each([
		['Multi-Bureau Report', MULTI, () => multiBureau({ gender: 'female' })],
		['Commercial Report', COMMERCIAL, () => commercial({})],
		['EPFO with Credit Report', EPFO_CREDIT, () => epfoWithCredit({})],
	])('%s: no consent, no request', async (_name, path, workflow) => {
		const result = await expectNothingSent(
			sandbox,
			path,
			async () => await sandbox.run(workflow()),
		);
		expect(result.error?.message).toBe('Subject Has Consented is required in item 0');
		expect(result.error?.description).toContain(NOTHING_SENT);
	});

	test.each([
		['Multi-Bureau Report', MULTI, () => multiBureau({ gender: 'female', consent: FROM_AI })],
		['Commercial Report', COMMERCIAL, () => commercial({ consent: FROM_AI })],
		['EPFO with Credit Report', EPFO_CREDIT, () => epfoWithCredit({ consent: FROM_AI })],
	])(
		'%s: consent from an AI model ($fromAI) is refused before any request',
		async (_n, path, wf) => {
			const result = await expectNothingSent(sandbox, path, async () => await sandbox.run(wf()));
			expect(result.error?.message).toBe(
				'Subject Has Consented cannot be filled by an AI model (item 0)',
			);
		},
	);

	test('EPFO with Credit Report runs once consent is Yes, and sends no consent field', async () => {
		const before = (await sandbox.control.requests(EPFO_CREDIT)).length;
		const result = await sandbox.run(epfoWithCredit({ consent: true }));
		expect(result.error).toBeUndefined();
		const log = (await sandbox.control.requests(EPFO_CREDIT)).slice(before);
		expect(log).toHaveLength(1);
		expect(log[0].body).toEqual({ mobile_number: '9876543210' });
	});

	test('consent taken from the record (an expression) works', async () => {
		const result = await sandbox.run(
			multiBureau({ gender: 'female', consent: '={{ $json.consentGiven }}' }, [
				{ ...person, consentGiven: true },
			]),
		);
		expect(result.error).toBeUndefined();
	});

	test('Gender has no default: left unchosen, n8n itself refuses to run the node', async () => {
		const before = await sandbox.sent(MULTI);
		await expect(sandbox.run(multiBureau({ consent: true }))).rejects.toThrow(
			'Parameter "Gender" is required',
		);
		expect(await sandbox.sent(MULTI)).toBe(before);
	});

	test('Gender mapped from a record without one: the run stops before any request, asking for a choice', async () => {
		const result = await expectNothingSent(
			sandbox,
			MULTI,
			async () => await sandbox.run(multiBureau({ consent: true, gender: '={{ $json.gender }}' })),
		);
		expect(result.error?.message).toBe('Gender is required in item 0');
		expect(result.error?.description).toContain('choose Female or Male');
		expect(result.error?.description).toContain(NOTHING_SENT);
	});

	test('Gender from a CRM: M, F, Male, FEMALE are accepted and sent as the service wants', async () => {
		const crm = ['M', 'f', 'Male', 'FEMALE'];
		const before = (await sandbox.control.requests(MULTI)).length;
		const result = await sandbox.run(
			multiBureau(
				{ consent: true, gender: '={{ $json.gender }}' },
				crm.map((gender) => ({ ...person, gender })),
			),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toHaveLength(4);
		const sent = (await sandbox.control.requests(MULTI)).slice(before);
		expect(sent.map((r) => (r.body as IDataObject).gender).sort()).toEqual([
			'female',
			'female',
			'male',
			'male',
		]);
	});

	test('Gender written by a CRM into the field itself (F) or through an expression (Woman) runs', async () => {
		const before = (await sandbox.control.requests(MULTI)).length;
		const fixed = await sandbox.run(multiBureau({ consent: true, gender: 'F' }));
		const mapped = await sandbox.run(
			multiBureau({ consent: true, gender: '={{ $json.sex }}' }, [{ ...person, sex: 'Woman' }]),
		);
		expect(fixed.error).toBeUndefined();
		expect(mapped.error).toBeUndefined();
		const sent = (await sandbox.control.requests(MULTI)).slice(before);
		expect(sent.map((r) => (r.body as IDataObject).gender)).toEqual(['female', 'female']);
	});

	test('Gender "Other" is refused naming the accepted values', async () => {
		const result = await expectNothingSent(
			sandbox,
			MULTI,
			async () =>
				await sandbox.run(
					multiBureau({ consent: true, gender: '={{ $json.gender }}' }, [
						{ ...person, gender: 'Other' },
					]),
				),
		);
		expect(result.error?.message).toBe('Invalid Gender in item 0 (got "Other")');
		expect(result.error?.description).toContain('"female" or "male"');
	});

	test('Gender from an AI model ($fromAI) is refused', async () => {
		const result = await expectNothingSent(
			sandbox,
			MULTI,
			async () =>
				await sandbox.run(
					multiBureau({ consent: true, gender: "={{ $fromAI('gender', '', 'string') }}" }),
				),
		);
		expect(result.error?.message).toBe('Gender cannot be filled by an AI model (item 0)');
	});
});
