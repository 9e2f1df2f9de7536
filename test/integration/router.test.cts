/**
 * The router through the real engine: bounded concurrency keeps output order and pairing; Continue On
 * Fail and "Continue (using error output)" produce error items n8n routes to the right branch.
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow } from '../harness/index.cjs';
import { withStubService } from './support.cjs';

const PATH = '/api/v1/services/corporate/cin-lookup';
const cins = [
	'L17110MH1973PLC019786',
	'U72200KA2001PTC028939',
	'L22210MH1995PLC084781',
	'U74999DL2015PTC279146',
	'L65910MH1992PLC067532',
];
const ok = (cin: string) => ({
	body: { success: true, message: 'ok', data: { cin, company_name: `COMPANY ${cin.slice(-4)}` } },
});

const service = withStubService();

const lookupEach = (
	items: IDataObject[],
	extra: IDataObject = {},
	onError?: 'continueRegularOutput' | 'continueErrorOutput',
) =>
	nodeWorkflow({
		items,
		onError,
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
			requestOptions: { maxRetries: 0, ...extra },
		},
	});

beforeEach(() => service.stub.requests.splice(0));

/**
 * The lookups the node sent, oldest first. On a busy machine the execution's first request can stay unanswered
 * past the gate's grace, and the node then sends the credential check (a bodiless GET) for the others: it is
 * not one of the items' requests.
 */
const lookups = () => service.stub.requests.filter((r) => r.path === PATH);

test('with 3 items in parallel, slow early answers still come out in input order, each paired to its input', async () => {
	// answers in arrival order: the first (the execution's probe, sent alone) at once; the second only once
	// a fourth request has arrived (so it is still unanswered while the node sends more), the third late,
	// the rest at once
	service.stub.respond(
		PATH,
		ok('X'),
		{ ...ok('X'), holdUntil: 4 },
		{ ...ok('X'), delayMs: 300 },
		ok('X'),
	);
	const result = await service.run(
		lookupEach(
			cins.map((cin) => ({ cin })),
			{ concurrency: 3 },
		),
	);
	expect(result.error).toBeUndefined();
	const items = result.output('FinVerify');
	expect(items).toHaveLength(cins.length);
	// the request bodies tell which input each answer belongs to; the sent CINs are in input order per item
	expect(
		lookups()
			.map((r) => (r.body as { cin: string }).cin)
			.sort(),
	).toEqual([...cins].sort());
	expect(items.map((i) => i.pairedItem)).toEqual(cins.map((_, index) => ({ item: index })));
	// parallel once the probe was answered: the second request was answered only after the fourth arrived
	// (a node sending one at a time would leave it held until the stub gives up, then answer it after 2)
	expect(lookups()[1].answeredAfter).toBeGreaterThanOrEqual(4);
});

test('concurrency 1 sends one request at a time', async () => {
	service.stub.respond(PATH, { ...ok('X'), delayMs: 150 });
	const result = await service.run(
		lookupEach(
			cins.slice(0, 3).map((cin) => ({ cin })),
			{ concurrency: 1 },
		),
	);
	expect(result.error).toBeUndefined();
	const sent = lookups();
	const gaps = sent.slice(1).map((r, i) => r.at - sent[i].at);
	for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(140);
	expect(sent.map((r) => (r.body as { cin: string }).cin)).toEqual(cins.slice(0, 3));
});

test('without Continue On Fail, the first failing item stops the run with its item index', async () => {
	const result = await service.run(
		lookupEach([{ cin: cins[0] }, { cin: 'bad' }, { cin: cins[1] }]),
	);
	expect(result.error?.message).toBe('Invalid Company (CIN or LLPIN) in item 1 (got "bad")');
	expect(result.error?.description).toContain('21 letters and digits');
});

test('Continue On Fail (regular output): error items keep their place, pairing and input fields', async () => {
	service.stub.respond(PATH, ok('X'));
	const result = await service.run(
		lookupEach([{ cin: cins[0] }, { cin: 'bad' }, { cin: cins[1] }], {}, 'continueRegularOutput'),
	);
	expect(result.error).toBeUndefined();
	const items = result.output('FinVerify');
	expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	// the failed record keeps what identifies it, so a node after it cannot write it up as a result
	expect(items[1].json).toEqual({
		cin: 'bad',
		error: {
			message: 'Invalid Company (CIN or LLPIN) in item 1 (got "bad")',
			code: 'INVALID_INPUT',
			httpCode: null,
			description: expect.stringContaining('21 letters and digits'),
		},
		message: 'Invalid Company (CIN or LLPIN) in item 1 (got "bad")',
	});
	expect(items[0].json.cin).toBeDefined();
	expect(lookups()).toHaveLength(2);
});

test('Continue (using error output): API failures go to the error branch, successes to the main branch', async () => {
	service.stub.respond(
		PATH,
		ok('X'),
		{
			status: 404,
			body: { success: false, message: 'Company not found', error_code: 'COMPANY_NOT_FOUND' },
		},
		ok('X'),
	);
	const result = await service.run(
		lookupEach(
			[{ cin: cins[0] }, { cin: cins[1] }, { cin: cins[2] }],
			{ concurrency: 1 },
			'continueErrorOutput',
		),
	);
	expect(result.error).toBeUndefined();
	const success = result.output('FinVerify', 0);
	const failed = result.output('FinVerify', 1);
	expect(success.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
	expect(failed).toHaveLength(1);
	expect(failed[0].pairedItem).toEqual({ item: 1 });
	expect(failed[0].json).toMatchObject({
		cin: cins[1], // n8n merges the input item into error-output items
		message: 'Company not found',
		error: { message: 'Company not found', code: 'COMPANY_NOT_FOUND', httpCode: 404 },
	});
});
