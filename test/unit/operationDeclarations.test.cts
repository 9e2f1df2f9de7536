/**
 * An operation declares itself: what its Simplified item picks (`views`) and what its decision rests on
 * (`decider`) are in its own module (actions/operation.ts), and the tables are derived from them
 * (actions/declarations.ts). Held both ways: an operation that offers *Incomplete Answers* has a
 * decider and a version 3 decision view, and one with a decider offers it. A failure names the
 * operation and the missing piece.
 */
import type { INodeProperties } from 'n8n-workflow';

import {
	DECISION_OPERATIONS,
	OPERATIONS,
	SIMPLIFIED_OPERATIONS,
	V3_SIMPLIFIED_OPERATIONS,
} from '../../nodes/FinVerify/actions/declarations';
import type { Operation } from '../../nodes/FinVerify/actions/operation';
import { configuredOutputs } from '../../nodes/FinVerify/FinVerify.node';

interface Declared {
	description: INodeProperties[];
	decider?: unknown;
	views?: { simplified?: unknown; decision?: unknown };
}

const offers = (module: Declared, name: string) => module.description.some((p) => p.name === name);

/** What each operation lacks for its declarations to agree, in words naming it and the piece. */
function declarationGaps(operations: ReadonlyArray<readonly [string, Declared]>): string[] {
	return operations.flatMap(([key, module]) => {
		const gaps: string[] = [];
		const incompleteAnswers = offers(module, 'incompleteAnswers');
		if (incompleteAnswers && !module.decider)
			gaps.push(
				`${key} offers Incomplete Answers but declares no decider: export \`decider\` from its operation file (helpers/normalize/decision.ts)`,
			);
		if (module.decider && !incompleteAnswers)
			gaps.push(
				`${key} declares a decider but does not offer Incomplete Answers: add \`decisionOutputFields\` (actions/common.descriptions.ts) to its properties`,
			);
		if (module.decider && !module.views?.decision)
			gaps.push(
				`${key} declares a decider but no version 3 decision view: add \`views.decision\`, the verdict leading (helpers/normalize/simplified.ts)`,
			);
		if (module.views?.decision && !module.decider)
			gaps.push(`${key} declares a decision view but no decider: export \`decider\``);
		if (module.views && !offers(module, 'outputMode'))
			gaps.push(`${key} declares views but offers no Output choice (\`outputModeFields\`)`);
		return gaps;
	});
}

/**
 * The node's outputs are a self-contained expression (FinVerify.node.ts's `configuredOutputs`, run by n8n
 * from its source), so it names the decision operations itself: what disagrees with the deciders, in words
 * naming the operation and the list.
 */
function outputGaps(operations: ReadonlyArray<readonly [string, Declared]>): string[] {
	return operations.flatMap(([key, module]) => {
		const [resource, operation] = key.split('.');
		const outputs = configuredOutputs({
			resource,
			operation,
			incompleteAnswers: 'separateOutput',
			failedItems: 'failedOutput',
		});
		const incompleteOutput = outputs.some(
			(o) => (o as { displayName?: string }).displayName === 'Incomplete',
		);
		if (module.decider && !incompleteOutput)
			return [
				`${key} declares a decider but the node's outputs do not list it: add '${key}' to \`configuredOutputs\`'s decision operations (FinVerify.node.ts)`,
			];
		if (!module.decider && incompleteOutput)
			return [
				`${key} is in \`configuredOutputs\`'s decision operations (FinVerify.node.ts) but declares no decider`,
			];
		return [];
	});
}

const field = (name: string): INodeProperties => ({
	displayName: name,
	name,
	type: 'string',
	default: '',
});

describe('an operation declares itself', () => {
	test('the check names the operation and the missing piece (the negative cases)', () => {
		const decider = { facts: () => ({}), adverse: () => [] };
		const view = {};
		expect(
			declarationGaps([
				// modelled on Get Entity by PAN, without the decider
				[
					'company.getDirectorByDin',
					{
						description: [field('outputMode'), field('incompleteAnswers')],
						views: { simplified: view, decision: view },
					},
				],
				// a decider, but the Output fields without Incomplete Answers, and no decision view
				[
					'company.getCharges',
					{ description: [field('outputMode')], decider, views: { simplified: view } },
				],
				// declared whole: no gap
				[
					'company.getByCin',
					{
						description: [field('outputMode'), field('incompleteAnswers')],
						decider,
						views: { simplified: view, decision: view },
					},
				],
			]),
		).toEqual([
			expect.stringMatching(
				/^company\.getDirectorByDin offers Incomplete Answers but declares no decider/,
			),
			expect.stringMatching(/^company\.getDirectorByDin declares a decision view but no decider/),
			expect.stringMatching(
				/^company\.getCharges declares a decider but does not offer Incomplete Answers/,
			),
			expect.stringMatching(
				/^company\.getCharges declares a decider but no version 3 decision view/,
			),
		]);
	});

	test('every operation: Incomplete Answers if and only if a decider, with its decision view', () => {
		expect(OPERATIONS.length).toBeGreaterThanOrEqual(22);
		expect(declarationGaps(OPERATIONS as ReadonlyArray<readonly [string, Operation]>)).toEqual([]);
	});

	test('the tables are derived from the declarations', () => {
		// the operations a lender's rule decides on, each named by its own decider
		expect(DECISION_OPERATIONS.length).toBeGreaterThanOrEqual(8);
		expect(DECISION_OPERATIONS).toEqual(
			expect.arrayContaining([
				'creditReport.getMultiBureauReport',
				'company.getEntityByPan',
				'bankStatementJourney.getAnalysis',
			]),
		);
		expect(DECISION_OPERATIONS).not.toContain('company.searchByName');
		expect(V3_SIMPLIFIED_OPERATIONS).toEqual(DECISION_OPERATIONS);
		expect(SIMPLIFIED_OPERATIONS.length).toBeGreaterThanOrEqual(18);
		// the operations that only wait, send nothing or return any answer keep no view
		for (const key of [
			'bankStatementJourney.wait',
			'collectionSession.wait',
			'triggerDelivery.processOnce',
			'triggerDelivery.markProcessed',
			'apiRequest.send',
		])
			expect(SIMPLIFIED_OPERATIONS).not.toContain(key);
	});

	test("the outputs' check names the operation and the list (the negative cases)", () => {
		const decider = { facts: () => ({}), adverse: () => [] };
		const declared = { description: [field('outputMode'), field('incompleteAnswers')] };
		expect(
			outputGaps([
				// a decider the node's outputs do not list (an operation the node does not have)
				['company.getCharges', { ...declared, decider }],
				// listed, without a decider
				['company.getByCin', declared],
				// listed with its decider, and neither: no gap
				['company.getEntityByPan', { ...declared, decider }],
				['company.searchByName', { description: [field('outputMode')] }],
			]),
		).toEqual([
			"company.getCharges declares a decider but the node's outputs do not list it: add 'company.getCharges' to `configuredOutputs`'s decision operations (FinVerify.node.ts)",
			"company.getByCin is in `configuredOutputs`'s decision operations (FinVerify.node.ts) but declares no decider",
		]);
	});

	test("the node's outputs (a self-contained expression) list exactly the operations with a decider", () => {
		expect(outputGaps(OPERATIONS as ReadonlyArray<readonly [string, Operation]>)).toEqual([]);
		expect(DECISION_OPERATIONS.length).toBeGreaterThanOrEqual(8);
	});
});
