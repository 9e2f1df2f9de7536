/**
 * The node as an AI Agent tool: which fields of each operation the editor offers to "let the model define"
 * ($fromAI). n8n's editor (editor-ui `fromAIOverride.utils`, `canBeContentOverride`) offers it for a
 * parameter of a tool node unless the parameter has `noDataExpression`, its type is `options` or
 * `credentialsSelect`, or its path is one of the tool's own name/description fields. `modelFillable`
 * reproduces that rule. The subject's consent and gender, and the choice of resource and operation, must
 * never be model-definable; the identifiers a model is there to fill (PAN, mobile, CIN…) must stay so.
 */
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';

const NOT_OFFERED_TYPES = ['options', 'credentialsSelect', 'notice'];
const DENIED_PATHS = ['name', 'toolName', 'description', 'toolDescription'];

function modelFillable(properties: INodeProperties[], prefix = ''): string[] {
	const names: string[] = [];
	for (const p of properties) {
		if (p.type === 'collection') {
			names.push(...modelFillable(p.options as INodeProperties[], `${prefix}${p.name}.`));
		} else if (p.type === 'fixedCollection') {
			for (const group of p.options as Array<{ name: string; values: INodeProperties[] }>)
				names.push(...modelFillable(group.values, `${prefix}${p.name}.${group.name}.`));
		} else if (
			!NOT_OFFERED_TYPES.includes(p.type) &&
			!p.noDataExpression &&
			!(prefix === '' && DENIED_PATHS.includes(p.name))
		) {
			names.push(`${prefix}${p.name}`);
		}
	}
	return names;
}

const finVerify = new FinVerify();
const { properties } = finVerify.description;

const shownFor = (resource: string, operation: string) =>
	properties.filter((p) => {
		const show = p.displayOptions?.show;
		if (!show) return true;
		if (show.resource && !show.resource.includes(resource)) return false;
		if (show.operation && !show.operation.includes(operation)) return false;
		return true;
	});

const operations = properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.options as Array<{ value: string }>)
			.filter((o) => o.value !== '__CUSTOM_API_CALL__')
			.map((o) => [p.displayOptions?.show?.resource?.[0] as string, o.value] as const),
	);

/** Fields a model must never fill: legal facts about the subject and the node's own set-up. */
const BUILDER_ONLY = ['consent', 'gender', 'resource', 'operation'];

/**
 * Fields a model is there to fill, where the operation has them. (Full Name's parameter is called `name`,
 * a path the editor keeps for the tool's own name, so a model is not offered it; it keeps that name so
 * saved workflows keep their value.)
 */
const MODEL_INPUTS = ['pan', 'mobileNumber', 'businessName', 'companyName', 'jobId'];

describe('AI Agent tool view: fields a model may fill', () => {
	test('every operation is listed', () => {
		expect(operations.length).toBeGreaterThanOrEqual(19);
	});

	test.each(operations)('%s · %s', (resource, operation) => {
		const shown = shownFor(resource, operation);
		const fillable = modelFillable(shown);
		for (const name of BUILDER_ONLY) expect(fillable).not.toContain(name);
		for (const name of MODEL_INPUTS)
			if (shown.some((p) => p.name === name && p.type === 'string'))
				expect(fillable).toContain(name);
	});

	test('the credit operations show consent, and a model is offered none of it', () => {
		const credit = [
			['creditReport', 'getMultiBureauReport'],
			['creditReport', 'getCommercialReport'],
			['employment', 'getEpfoRecordWithCredit'],
		];
		for (const [resource, operation] of credit) {
			const shown = shownFor(resource, operation);
			expect(shown.map((p) => p.name)).toContain('consent');
			expect(modelFillable(shown)).not.toContain('consent');
		}
		expect(modelFillable(shownFor('creditReport', 'getMultiBureauReport'))).toEqual(
			expect.arrayContaining(['pan', 'mobileNumber']),
		);
	});
});

/**
 * What the model reads about a tool when its Tool Description is "Set Automatically" (n8n's default):
 * n8n's own `getToolDescriptionForNode`, i.e. the operation's action + " in FinVerify". It must say what the
 * tool gets and by which identifier, so a model picks the right operation and knows what to pass.
 */
const TOOL_TEXT: Record<string, RegExp[]> = {
	'bankStatementJourney.getAnalysis': [/analysis/, /journey/],
	'bankStatementJourney.getStatementResult': [/statement/, /journey/],
	'bankStatementJourney.getStatus': [/status/, /journey/],
	'bankStatementJourney.start': [/^Start/, /bank statement journey/],
	'bankStatementJourney.wait': [/^Wait/, /journey/],
	'collectionSession.create': [/^Create/, /collection session/],
	'collectionSession.wait': [/^Wait/, /session/],
	'company.getByCin': [/company/, /\bCIN\b/, /\bLLPIN\b/],
	'company.getEntityByPan': [/entity/, /\bPAN\b/],
	'company.getLlpByLlpin': [/\bLLP\b/, /\bLLPIN\b/],
	'company.searchByName': [/^Search/, /companies/, /by name/],
	'creditReport.getCommercialReport': [/commercial report/, /\bPAN\b/],
	'creditReport.getMultiBureauReport': [/bureau/, /credit reports/],
	'employment.getEpfoRecord': [/EPFO record/, /mobile/],
	'employment.getEpfoRecordWithCredit': [/EPFO/, /credit/, /mobile/],
	'incomeTaxReturn.confirmPasswordReset': [/^Confirm/, /password reset/],
	'incomeTaxReturn.getAnalysisStatus': [/status/, /ITR analysis/],
	'incomeTaxReturn.getData': [/ITR data/],
	'incomeTaxReturn.resetPortalPassword': [/^Reset/, /portal password/],
	'incomeTaxReturn.startAnalysis': [/^Start/, /ITR analysis/],
	'triggerDelivery.markProcessed': [/^Mark/, /processed/],
	'triggerDelivery.processOnce': [/new deliveries/],
	'apiRequest.send': [/any endpoint/],
};

describe('AI Agent tool view: the description a model reads', () => {
	const toolText = (resource: string, operation: string) =>
		NodeHelpers.getToolDescriptionForNode(
			{ parameters: { resource, operation } } as unknown as INode,
			finVerify,
		);

	test('every operation has its expectations here', () => {
		expect(Object.keys(TOOL_TEXT).sort()).toEqual(operations.map(([r, o]) => `${r}.${o}`).sort());
	});

	test.each(Object.entries(TOOL_TEXT))('%s', (key, expected) => {
		const [resource, operation] = key.split('.');
		const text = toolText(resource, operation);
		expect(text).toMatch(/ in FinVerify$/);
		for (const words of expected) expect(text).toMatch(words);
		expect(text.length).toBeLessThanOrEqual(90);
	});

	test('no two operations read the same', () => {
		const texts = Object.keys(TOOL_TEXT).map((k) =>
			toolText(...(k.split('.') as [string, string])),
		);
		expect(new Set(texts).size).toBe(texts.length);
	});
});
