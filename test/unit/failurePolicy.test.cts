/**
 * The failure policy's pure parts (nodes/FinVerify/actions/failurePolicy.ts): the error item's shape for each
 * place a failed item goes, and the sentence that names what was done and created before the node stopped.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	errorItem,
	firstFailure,
	namingDoneItems,
} from '../../nodes/FinVerify/actions/failurePolicy';

const node: INode = {
	id: 'n',
	name: 'FinVerify',
	type: 'n8n-nodes-finverify.finVerify',
	typeVersion: 3,
	position: [0, 0],
	parameters: {},
};
const notFound = () =>
	new NodeApiError(
		node,
		{ message: 'Company not found', error_code: 'COMPANY_NOT_FOUND' },
		{ httpCode: '404', message: 'No company found with CIN U00000MH0000PTC000404' },
	);

describe('errorItem', () => {
	test('for the error output: exactly error and message (the shape n8n 1.x and 2.x route there)', () => {
		const item = errorItem({ index: 2, error: notFound(), created: [] });
		expect(Object.keys(item.json).sort()).toEqual(['error', 'message']);
		expect(item.json.error).toMatchObject({ message: item.json.message, httpCode: 404 });
		expect(item.pairedItem).toEqual({ item: 2 });
	});

	test("with the input (Failed output, regular output): the input's fields, then error and message win", () => {
		const item = errorItem(
			{ index: 0, error: notFound(), created: ['aa_1'] },
			{ cin: 'U00000MH0000PTC000404', message: 'from the input', error: 'from the input' },
		);
		expect(item.json.cin).toBe('U00000MH0000PTC000404');
		expect(item.json.message).toBe('No company found with CIN U00000MH0000PTC000404');
		expect(item.json.error).toMatchObject({ created: ['aa_1'] });
	});

	test("the node's own failures carry their code, or NODE_ERROR", () => {
		const own = new NodeOperationError(node, 'The answer is incomplete: x');
		own.context.code = 'INCOMPLETE_ANSWER';
		expect(errorItem({ index: 0, error: own, created: [] }).json.error).toMatchObject({
			code: 'INCOMPLETE_ANSWER',
			httpCode: null,
		});
		const plain = new NodeOperationError(node, 'Something');
		expect(errorItem({ index: 0, error: plain, created: [] }).json.error).toMatchObject({
			code: 'NODE_ERROR',
		});
	});
});

describe('namingDoneItems', () => {
	const done = (clientId?: string) => [{ json: clientId ? { clientId } : { name: 'x' } }];

	test("names the done items and what they created, in a sentence after the error's own", () => {
		const error = new NodeOperationError(node, 'Stopped', { description: 'HTTP 404' });
		namingDoneItems(
			error,
			[done('aa_1'), undefined, done('aa_3')],
			[{ index: 1, error: notFound(), created: [] }],
		);
		expect(error.description).toBe(
			'HTTP 404. Done before the node stopped, not in the output: items 1, 3 (created: aa_1, aa_3). ' +
				'Look these up before running those items again, so nothing is created twice.',
		);
	});

	test('items that created nothing: running them again repeats their requests', () => {
		const error = new NodeOperationError(node, 'Stopped');
		namingDoneItems(error, [done()], []);
		expect(error.description).toBe(
			'Done before the node stopped, not in the output: item 1. Running them again repeats their requests.',
		);
	});

	test('ids created for items that then failed are named too', () => {
		const error = new NodeOperationError(node, 'Stopped', { description: 'Polls failed.' });
		namingDoneItems(
			error,
			[undefined, undefined],
			[
				{ index: 0, error: notFound(), created: ['aa_9'] },
				{ index: 1, error: notFound(), created: [] },
			],
		);
		expect(error.description).toBe(
			'Polls failed. Created by the service for items that then failed: aa_9. Look these up before ' +
				'running those items again, so nothing is created twice.',
		);
	});

	test('nothing done, nothing created: the error is left as it is', () => {
		const error = new NodeOperationError(node, 'Stopped', { description: 'As it was' });
		namingDoneItems(error, [undefined], [{ index: 0, error: notFound(), created: [] }]);
		expect(error.description).toBe('As it was');
	});
});

test('the failure of the lowest item index comes first, whatever order they came in', () => {
	const failures = [3, 1, 2].map((index) => ({ index, error: notFound(), created: [] }));
	expect(firstFailure(failures).index).toBe(1);
});
