/**
 * Error items (On Error: Continue (using error output)) are `{ error: { message, code, httpCode,
 * description }, message }`: the one shape n8n 1.x and 2.x both route to the error output (1.x takes
 * only `error` and `message` as keys). The same `error` keys for every failure, so a Switch on
 * `error.code` sees every case: the service's code and HTTP status (a number) for its answers,
 * INVALID_INPUT and no status for input the node refused before sending.
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow } from '../harness/index.cjs';
import { NODE, withSandbox } from './support.cjs';

describe('error items', () => {
	const sandbox = withSandbox();

	test('a service error and an input error have the same keys, on the error output', async () => {
		const result = await sandbox.run(
			nodeWorkflow({
				items: [
					{ cin: 'U00000MH0000PTC000404' },
					{ cin: 'not-a-cin' },
					{ cin: 'L17110MH1973PLC019786' },
				],
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
					requestOptions: { maxRetries: 0 },
				},
			}),
		);
		expect(result.error).toBeUndefined();
		const failed = result.output(NODE, 1);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// only `error` and `message` (n8n merges in the paired input item's fields: `cin`)
		for (const item of failed)
			expect(Object.keys(item.json).sort()).toEqual(['cin', 'error', 'message']);
		const [notFound, invalid] = failed.map((i) => i.json.error as IDataObject);
		expect(Object.keys(notFound).sort()).toEqual(['code', 'description', 'httpCode', 'message']);
		expect(failed.map((i) => i.json.message)).toEqual([notFound.message, invalid.message]);
		expect(Object.keys(invalid).sort()).toEqual(Object.keys(notFound).sort());
		expect(notFound).toMatchObject({ code: 'COMPANY_NOT_FOUND', httpCode: 404 });
		expect(invalid).toMatchObject({ code: 'INVALID_INPUT', httpCode: null });
		expect(String(invalid.description)).toContain('Nothing was sent to the service');
		expect(result.output(NODE, 0)).toHaveLength(1);
	});

	test('a missing consent is an input error too', async () => {
		const result = await sandbox.run(
			nodeWorkflow({
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'employment',
					operation: 'getEpfoRecordWithCredit',
					mobileNumber: '9876543210',
				},
			}),
		);
		expect(result.output(NODE, 1)[0].json.error).toEqual({
			message: expect.stringContaining('Subject Has Consented'),
			code: 'INVALID_INPUT',
			httpCode: null,
			description: expect.stringContaining('Subject Has Consented'),
		});
	});
});
