/**
 * The router's two passes through the real engine against the sandbox: every item is read (its
 * parameters checked, nothing sent) before the first request of any item, then each read item is
 * sent once. The sandbox's request log counts what left the node.
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow } from '../harness/index.cjs';
import { withSandbox } from './support.cjs';

const PANS = ['ABCDE1234F', 'BCDEF2345G', 'CDEFG3456H', 'ABCDE12345', 'DEFGH4567J'];

const multiBureau = (parameters: IDataObject, onError?: 'continueRegularOutput') =>
	nodeWorkflow({
		items: PANS.map((pan, index) => ({ pan, index })),
		onError,
		parameters: {
			resource: 'creditReport',
			operation: 'getMultiBureauReport',
			pan: '={{ $json.pan }}',
			name: 'Priya Sharma',
			mobileNumber: '9876543210',
			gender: 'female',
			bureaus: ['cibil'],
			consent: true,
			requestOptions: { maxRetries: 0, concurrency: 1 },
			...parameters,
		},
	});

describe('every item is read before any is sent', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	test('a bad PAN in item 3 (one at a time): no report is pulled for items 0-2', async () => {
		const result = await sandbox.run(multiBureau({}));
		expect(result.error?.message).toMatch(/^Invalid PAN in item 3/);
		expect(await sandbox.sent('multi-bureau')).toBe(0);
	});

	test('a bad output file field in item 3: not one report or document is fetched', async () => {
		const result = await sandbox.run(
			multiBureau({
				pan: '={{ $json.pan.replace("12345", "1234E") }}',
				downloadReportPdf: true,
				binaryPropertyName: '={{ $json.index === 3 ? "" : "report" }}',
			}),
		);
		expect(result.error?.message).toMatch(/^Invalid Put Report Files in Field in item 3/);
		expect(await sandbox.sent()).toBe(0);
	});

	test('Get Status waiting for a final status, item 1 with a bad client id: no status request', async () => {
		const result = await sandbox.run(
			nodeWorkflow({
				items: [{ id: 'aa_0123456789abcdef01234567' }, { id: 'not a client id' }],
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'getStatus',
					clientId: '={{ $json.id }}',
					waitForFinalStatus: true,
					waitOptions: { timeLimit: 0 },
					requestOptions: { maxRetries: 0 },
				},
			}),
		);
		expect(result.error?.message).toMatch(/^Invalid Journey Client ID in item 1/);
		expect(await sandbox.sent('aa-bsa-journey')).toBe(0);
	});

	test('Start Journey by polling, item 2 with a bad redirect URL: no journey is started', async () => {
		const result = await sandbox.run(
			nodeWorkflow({
				items: [
					{ url: 'https://example.com/a' },
					{ url: 'https://example.com/b' },
					{ url: 'ftp://x' },
				],
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'start',
					mobileNumber: '9876543210',
					consentType: 'loanUnderwriting',
					waitForCompletion: 'poll',
					additionalFields: { redirectUrl: '={{ $json.url }}' },
					requestOptions: { maxRetries: 0 },
				},
			}),
		);
		expect(result.error?.message).toMatch(/^Invalid Redirect URL in item 2/);
		expect(await sandbox.sent('aa-bsa-journey')).toBe(0);
	});

	test('continuing on error, the valid items are each sent once and the invalid one is an error item in its place', async () => {
		const result = await sandbox.run(multiBureau({}, 'continueRegularOutput'));
		expect(result.error).toBeUndefined();
		const requests = await sandbox.control.requests('multi-bureau');
		expect(requests).toHaveLength(4);
		const output = result.json('FinVerify');
		expect(output).toHaveLength(5);
		expect(String((output[3].error as IDataObject).message)).toMatch(/^Invalid PAN in item 3/);
		expect(output.filter((json) => json.error === undefined)).toHaveLength(4);
	});

	test("each item's parameter expressions are evaluated once", async () => {
		// the expression counts its own evaluations per item in the execution's custom data
		const counted =
			"={{ $execution.customData.set('reads' + $itemIndex, String(Number($execution.customData.get('reads' + $itemIndex) ?? 0) + 1)) ?? $json.pan }}";
		const result = await sandbox.run(
			nodeWorkflow({
				items: PANS.filter((pan) => pan !== 'ABCDE12345').map((pan) => ({ pan })),
				parameters: {
					resource: 'company',
					operation: 'getEntityByPan',
					pan: counted,
					requestOptions: { maxRetries: 0, concurrency: 2 },
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(await sandbox.sent('corporate/pan-lookup')).toBe(4);
		expect(result.run.data.resultData.metadata).toEqual({
			reads0: '1',
			reads1: '1',
			reads2: '1',
			reads3: '1',
		});
	});
});
