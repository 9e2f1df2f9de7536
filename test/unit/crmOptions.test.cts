/**
 * Options a CRM feeds (gender, bureaus, consent type, session flow): the spellings the run accepts are
 * not marked "not supported" by the editor. n8n's editor (2.41.1 ParameterInput, the same in 1.123) skips
 * its "The value … is not supported!" check for an options or multiOptions parameter with
 * `allowArbitraryValues`; the run still checks every value (test/unit/validation.test.cts).
 */
import type { INodeProperties } from 'n8n-workflow';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import { consentTypeOf } from '../../nodes/FinVerify/actions/bankStatementJourney/start.operation';
import { flowOf } from '../../nodes/FinVerify/actions/collectionSession/create.operation';
import {
	assertBureaus,
	assertGender,
	GENDER_SPELLINGS,
} from '../../nodes/FinVerify/helpers/validation';
import { node } from './support.cjs';

const ctx = { node, itemIndex: 0 };
const { properties } = new FinVerify().description;
const field = (name: string): INodeProperties[] => properties.filter((p) => p.name === name);

test.each(['gender', 'bureaus', 'consentType', 'flow'])(
	'%s keeps its options and parameter name, and lets an expression give another accepted spelling',
	(name) => {
		const fields = field(name);
		expect(fields.length).toBeGreaterThan(0);
		for (const p of fields) {
			expect(['options', 'multiOptions']).toContain(p.type);
			expect(p.allowArbitraryValues).toBe(true);
		}
	},
);

test('Gender: every documented spelling is accepted, in any case, and the description lists them all', () => {
	expect(GENDER_SPELLINGS).toEqual(['Female', 'F', 'Woman', 'Male', 'M', 'Man']);
	const description = field('gender')[0].description ?? '';
	for (const spelling of GENDER_SPELLINGS) {
		expect(description).toContain(spelling);
		const expected = ['Female', 'F', 'Woman'].includes(spelling) ? 'female' : 'male';
		for (const written of [
			spelling,
			spelling.toLowerCase(),
			spelling.toUpperCase(),
			` ${spelling} `,
		])
			expect(assertGender(ctx, written)).toBe(expected);
	}
	for (const refused of ['Other', 'X', 'fem', 'mal', '0', '1'])
		expect(() => assertGender(ctx, refused)).toThrow('Invalid Gender in item 0');
});

test('Flow: itr / gst in any case; anything else refused naming the values', () => {
	for (const [written, expected] of [
		['ITR', 'itr'],
		[' Gst ', 'gst'],
		['itr', 'itr'],
	])
		expect(flowOf(ctx, written)).toBe(expected);
	expect(() => flowOf(ctx, 'pdf')).toThrow('Invalid Flow in item 0 (got "pdf")');
});

test('Consent Type: the option values and the service spelling', () => {
	expect(consentTypeOf(ctx, 'loanMonitoring')).toBe('loan_monitoring');
	expect(consentTypeOf(ctx, 'loan_underwriting')).toBe('loan_underwriting');
	expect(() => consentTypeOf(ctx, 'mortgage')).toThrow('Invalid Consent Type in item 0');
});

test('Bureaus: a comma-separated text in any case, from an expression', () => {
	expect(assertBureaus(ctx, 'CIBIL, Experian')).toEqual(['cibil', 'experian']);
	expect(() => assertBureaus(ctx, 'cibil, acme')).toThrow('Invalid Bureaus in item 0');
});
