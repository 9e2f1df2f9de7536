/**
 * The KYB chain a user builds first: Search by Name (companies and LLPs) → Get by CIN with the search
 * result's identifier. Through n8n-core's real engine against the simulator: companies go to the CIN
 * lookup, LLPs to the LLPIN lookup, every item gets its record; the same company named by several items
 * is looked up once.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { CREDENTIAL_REF, nodeWorkflow } from '../harness/index.cjs';
import type { WorkflowJson } from '../harness/index.cjs';
import { NODE, withSandbox } from './support.cjs';

const FINVERIFY = 'n8n-nodes-finverify.finVerify';

function chain(identifier = '={{ $json.identifier }}'): WorkflowJson {
	const search: INode = {
		id: 'search',
		name: 'Search by Name',
		type: FINVERIFY,
		typeVersion: 1,
		position: [200, 0],
		parameters: { resource: 'company', operation: 'searchByName', companyName: 'acme' },
		credentials: CREDENTIAL_REF,
	};
	const get: INode = {
		id: 'get',
		name: 'Get by CIN',
		type: FINVERIFY,
		typeVersion: 1,
		position: [400, 0],
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: identifier },
		},
		credentials: CREDENTIAL_REF,
	};
	return {
		name: 'KYB chain',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			search,
			get,
		],
		connections: {
			Start: { main: [[{ node: search.name, type: 'main', index: 0 }]] },
			[search.name]: { main: [[{ node: get.name, type: 'main', index: 0 }]] },
		},
		pinData: { Start: [{ json: {} }] },
	};
}

describe('KYB chain: Search by Name → Get by CIN', () => {
	const sandbox = withSandbox();

	test('companies and LLPs found by name all get their registry record', async () => {
		const cinBefore = await sandbox.sent('cin-lookup');
		const llpinBefore = await sandbox.sent('llpin-lookup');
		const result = await sandbox.run(chain());
		expect(result.error).toBeUndefined();
		const found = result.json('Search by Name');
		const records = result.json('Get by CIN');
		const llps = found.filter((f) => f.entityType === 'LLP');
		const companies = found.filter((f) => f.entityType === 'Company');
		expect(llps.length).toBeGreaterThan(0);
		expect(companies.length).toBeGreaterThan(0);
		expect(records).toHaveLength(found.length);
		records.forEach((record, i) => {
			const match = found[i];
			if (match.entityType === 'LLP') expect(record.llpin).toBe(match.llpin);
			else expect(record.cin).toBe(match.cin);
		});
		expect((await sandbox.sent('cin-lookup')) - cinBefore).toBe(companies.length);
		expect((await sandbox.sent('llpin-lookup')) - llpinBefore).toBe(llps.length);
	});

	test('one CIN named by four items is one paid lookup; every item gets the record', async () => {
		const cin = 'L17110MH1973PLC019786';
		const workflow = nodeWorkflow({
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'list', value: cin },
			},
			items: [{}, {}, {}, {}],
		});
		const before = await sandbox.sent('cin-lookup');
		const result = await sandbox.run(workflow);
		expect(result.error).toBeUndefined();
		const items = result.output(NODE);
		expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(items.map((i) => (i.json as IDataObject).cin)).toEqual([cin, cin, cin, cin]);
		expect((await sandbox.sent('cin-lookup')) - before).toBe(1);
	});

	test('mapping the CIN of an LLP (empty) stops before any lookup, pointing at the identifier field', async () => {
		const before = await sandbox.sent('cin-lookup');
		const result = await sandbox.run(chain('={{ $json.cin }}'));
		expect(result.error?.message).toMatch(/^Invalid Company \(CIN or LLPIN\) in item \d+/);
		expect(result.error?.description).toContain('map its identifier field');
		expect(await sandbox.sent('cin-lookup')).toBe(before);
	});
});
