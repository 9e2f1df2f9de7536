/**
 * What counts as present in a successful answer (the transport's `isFact` and `missingField`, the
 * operations' extra checks in helpers/answerFacts.ts) and what is an HTML page (`isHtmlPage`). Pure.
 */
import {
	ANALYSIS_FACTS,
	ITR_DATA_FACTS,
	MULTI_BUREAU_FACTS,
	STATEMENT_FACTS,
} from '../../nodes/FinVerify/helpers/answerFacts';
import { isFact, isHtmlPage, missingField } from '../../nodes/FinVerify/transport';

describe('isFact', () => {
	test.each([
		['', false],
		['   ', false],
		['\u200b\u200b', false],
		['\u3164', false],
		['200', false],
		[' 404 ', false],
		['OK', false],
		['success', false],
		['null', false],
		['NaN', false],
		['undefined', false],
		['n/a', false],
		[200, false],
		[NaN, false],
		[true, false],
		[false, false],
		[null, false],
		[undefined, false],
		[[], false],
		[[''], false],
		[[{}], false],
		[{}, false],
		[{ status: 'success', message: 'OK', status_code: 200, request_id: 'r1' }, false],
		[{ name: '' }, false],
		[{ status: 200 }, false],
		[{ code: '404', success: false }, false],
		[{ message: 'No record found at cibil for this PAN', score: null }, true],
		[{ score: 550 }, true],
		['ABCDE1234F', true],
		['Acme Traders', true],
		['2000', true],
		['99', true],
		[100123456789, true],
		[0, true],
		[['x'], true],
		[{ name: 'Priya' }, true],
		[{ status: 'Active', name: 'Priya' }, true],
		[[{ score: 550 }], true],
	])('%j → %s', (value, expected) => expect(isFact(value)).toBe(expected));

	test('an HTTP code counts inside a record (a score of 550), not as the value asked for', () => {
		expect(isFact(550)).toBe(false);
		expect(isFact(550, false)).toBe(true);
	});
});

describe('missingField', () => {
	test('a status counts only as a word', () => {
		for (const status of ['200', 200, 'OK', 'success', '', ' ', null, '42', true])
			expect(missingField({ data: { status } }, 'data.status')).toBe('data.status');
		for (const status of ['processing', 'otp_sent', 'password_reset', 'failed', 'Completed'])
			expect(missingField({ data: { status } }, 'data.status')).toBeUndefined();
	});
	test('alternatives: one fact is enough, blanks in all of them are not', () => {
		const required = 'data.cin|data.company_name';
		expect(missingField({ data: { cin: ' ', company_name: [] } }, required)).toBe(
			'data.cin or data.company_name',
		);
		expect(missingField({ data: { cin: ' ', company_name: 'ACME' } }, required)).toBeUndefined();
	});
	test('a list of checks: every one must hold, the first that fails is named', () => {
		const first = () => undefined;
		expect(missingField({ a: 'x' }, [first, 'a', 'b|c'])).toBe('b or c');
		expect(missingField({ a: 'x', c: 'y' }, [first, 'a', 'b|c'])).toBeUndefined();
		expect(missingField({}, [() => 'the first', 'a'])).toBe('the first');
	});
});

describe('the operations’ extra checks', () => {
	const statement = (accounts: unknown) =>
		missingField({ success: true, data: { client_id: 'aa_1', accounts } }, STATEMENT_FACTS);
	test('statement: an account with something besides its index', () => {
		for (const accounts of [[], [''], [{}], [{ account_index: 0 }], [{ bank_name: '  ' }], null])
			expect(statement(accounts)).toMatch(/account/);
		expect(statement([{ account_index: 0, account_number: 'XX12' }])).toBeUndefined();
		expect(statement([{}, { transactions: [{ amount: 1 }] }])).toBeUndefined();
	});
	test('analysis: a summary, flags (false counts) or an account', () => {
		const analysis = (data: unknown) => missingField({ success: true, data }, ANALYSIS_FACTS);
		expect(analysis({ summary: {} })).toMatch(/the analysis/);
		expect(analysis({ accounts: [{}] })).toMatch(/the analysis/);
		expect(analysis({ flags: { any_bounce: false } })).toBeUndefined();
		expect(analysis({ summary: { total_credits: 0 } })).toBeUndefined();
		expect(analysis({ accounts: [{ account_index: 1, bank_name: 'HDFC Bank' }] })).toBeUndefined();
	});
	test('multi-bureau: a bureau result; the PAN alone is the request echoed', () => {
		expect(missingField({ pan: 'ABCDE1234F', results: [] }, MULTI_BUREAU_FACTS)).toMatch(
			/^results or data\.equifax/,
		);
		expect(missingField({ pan: 'ABCDE1234F', results: { cibil: {} } }, MULTI_BUREAU_FACTS)).toMatch(
			/^results/,
		);
		expect(
			missingField({ results: { cibil: { data: { score: 750 } } } }, MULTI_BUREAU_FACTS),
		).toBeUndefined();
		expect(
			missingField({ data: { experian: { score: 712 } } }, MULTI_BUREAU_FACTS),
		).toBeUndefined();
	});
	test('ITR data: the taxpayer or a return; the job id alone is the request echoed', () => {
		expect(missingField({ data: { job_id: 'itr_1', itr_records: [] } }, ITR_DATA_FACTS)).toMatch(
			/a PAN, name, profile or return/,
		);
		expect(missingField({ data: { job_id: 'itr_1', pan: 'ABCDE1234F' } }, ITR_DATA_FACTS)).toBe(
			undefined,
		);
		expect(
			missingField({ data: { filings: [{ itr_form: 'ITR-1' }] } }, ITR_DATA_FACTS),
		).toBeUndefined();
	});
});

describe('isHtmlPage', () => {
	test('by content type', () => {
		expect(isHtmlPage(Buffer.from('%PDF-1.4'), 'text/html; charset=utf-8')).toBe(true);
		expect(isHtmlPage('', 'application/xhtml+xml')).toBe(true);
	});
	test('by its first bytes, whatever the type says', () => {
		for (const page of [
			'<!DOCTYPE html><html><head><title>502</title></head></html>',
			'\ufeff\n  <html lang="en"><body>Sign in</body></html>',
			'<HEAD><TITLE>x</TITLE></HEAD>',
		]) {
			expect(isHtmlPage(Buffer.from(page), 'application/pdf')).toBe(true);
			expect(isHtmlPage(page)).toBe(true);
		}
	});
	test('a PDF, JSON or text is no page', () => {
		expect(isHtmlPage(Buffer.from('%PDF-1.7\n<html>'), 'application/pdf')).toBe(false);
		expect(isHtmlPage('{"html":"<html>"}', 'application/json')).toBe(false);
		expect(isHtmlPage('plain text', undefined)).toBe(false);
	});
});
