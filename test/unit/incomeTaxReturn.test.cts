import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { planItrItems } from '../../nodes/FinVerify/actions/incomeTaxReturn/getData.operation';
import {
	readAssessmentYears,
	readJobId,
	readPassword,
	readPortalClientId,
	redactPasswordFromError,
	withPasswordRedacted,
} from '../../nodes/FinVerify/actions/incomeTaxReturn/shared';
import { normalizeItrData } from '../../nodes/FinVerify/helpers/normalize/incomeTax';
import { node } from './support.cjs';

const ctx = { node, itemIndex: 1 };

describe('identifiers', () => {
	it('accept service ids', () => {
		expect(readJobId(ctx, 'itr_0123456789abcdef01234567')).toBe('itr_0123456789abcdef01234567');
		expect(readPortalClientId(ctx, ' client-123456 ')).toBe('client-123456');
	});
	it('reject bad ones naming the field and item', () => {
		expect(() => readJobId(ctx, '')).toThrow('Invalid Job ID in item 1');
		expect(() => readJobId(ctx, 'a b')).toThrow('Invalid Job ID in item 1');
		expect(() => readPortalClientId(ctx, 'x/y')).toThrow('Invalid Portal Client ID in item 1');
	});
});

describe('readPassword', () => {
	it('keeps the password exactly (spaces included)', () => {
		expect(readPassword(ctx, ' Secr3t! pass ', 'New Password')).toBe(' Secr3t! pass ');
	});
	it.each([
		'',
		'   ',
		undefined,
		null,
		12345678,
		'x'.repeat(129),
		'Secr3t\u0000pass',
		'\u0000',
		'Secr3t\npass',
		'\u200b\u200b',
	])('rejects %p without showing it', (value) => {
		let error: NodeOperationError | undefined;
		try {
			readPassword(ctx, value, 'New Password');
		} catch (e) {
			error = e as NodeOperationError;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error?.message).toBe('Invalid New Password in item 1');
		expect(error?.description).toMatch(
			/password of at most 128 characters, not only spaces, without control characters/,
		);
		if (typeof value === 'string' && value.trim()) {
			expect(`${error?.message} ${error?.description}`).not.toContain(value);
		}
	});
});

describe('readAssessmentYears', () => {
	it('parses a comma-separated list and drops duplicates', () => {
		expect(readAssessmentYears(ctx, '2024-25, 2023-24,2024-25, ')).toEqual(['2024-25', '2023-24']);
		expect(readAssessmentYears(ctx, '')).toEqual([]);
		expect(readAssessmentYears(ctx, undefined)).toEqual([]);
		expect(readAssessmentYears(ctx, ['1999-00'])).toEqual(['1999-00']);
	});
	it.each(['2024', '2024-26', '24-25', '2024/25', 'abc'])('rejects %p', (value) => {
		expect(() => readAssessmentYears(ctx, value)).toThrow('Invalid Assessment Years in item 1');
	});
});

describe('password redaction in errors', () => {
	const password = 'Hunter2!secret';
	it('removes the password from a NodeApiError message, description and body', () => {
		const error = new NodeApiError(
			node,
			{
				message: `bad password ${password}`,
				error: { code: 'WEAK_PASSWORD', message: `x ${password}` },
			},
			{
				message: `Password ${password} is weak`,
				description: `Code: WEAK_PASSWORD (${password})`,
				httpCode: '422',
			},
		);
		const redacted = redactPasswordFromError(node, error, password);
		expect(redacted).toBe(error);
		expect(
			JSON.stringify({
				m: redacted.message,
				d: redacted.description,
				r: redacted.errorResponse,
				ms: redacted.messages,
			}),
		).not.toContain(password);
		expect(redacted.message).toContain('[redacted]');
		expect((redacted as NodeApiError).httpCode).toBe('422');
	});
	it('wraps anything else into a NodeApiError without the password', () => {
		const redacted = redactPasswordFromError(node, new Error(`boom ${password}`), password);
		expect(redacted).toBeInstanceOf(NodeApiError);
		expect(redacted.message).toBe('boom [redacted]');
	});
	it('withPasswordRedacted passes results through and redacts thrown errors', async () => {
		await expect(withPasswordRedacted(node, password, async () => 7)).resolves.toBe(7);
		await expect(
			withPasswordRedacted(node, password, async () => {
				throw new NodeOperationError(node, `no ${password}`);
			}),
		).rejects.toThrow('no [redacted]');
	});
});

describe('planItrItems', () => {
	const data = normalizeItrData({
		data: {
			job_id: 'itr_1',
			pan: 'ABCDE1234F',
			profile: { name: 'P' },
			filings: [
				{
					filing_year: '2023-24',
					itr_form: 'ITR-1',
					download_link: 'https://files.example.com/2023.pdf',
				},
				{
					filing_year: '2024-25',
					itr_form: 'ITR-2',
					download_link: 'https://files.example.com/2024.pdf',
				},
				{ filing_year: '2022-23', itr_form: 'ITR-1' },
			],
		},
	});
	it('one item: files go to <name>_<position> in filing order (newest first)', () => {
		const [item] = planItrItems(data, false, 'data', 'full');
		expect(item.documents).toEqual([
			{
				url: 'https://files.example.com/2024.pdf',
				property: 'data_0',
				fileName: 'itr_ABCDE1234F_2024-25_ITR-2.pdf',
			},
			{
				url: 'https://files.example.com/2023.pdf',
				property: 'data_1',
				fileName: 'itr_ABCDE1234F_2023-24_ITR-1.pdf',
			},
		]);
		const filings = item.json.filings as Array<{ binaryProperty: string | null }>;
		expect(filings.map((f) => f.binaryProperty)).toEqual(['data_0', 'data_1', null]);
		expect((item.json.latestFiling as { binaryProperty: string }).binaryProperty).toBe('data_0');
	});
	it('split: one item per filing, each file in <name>', () => {
		const items = planItrItems(data, true, 'doc', 'full');
		expect(items).toHaveLength(3);
		expect(items.map((i) => i.documents.map((d) => d.property))).toEqual([['doc'], ['doc'], []]);
		expect(items[0].json).toMatchObject({
			jobId: 'itr_1',
			pan: 'ABCDE1234F',
			assessmentYear: '2024-25',
			binaryProperty: 'doc',
		});
	});
	it('Masked (issue 33): the PAN in the file names shows its last 4 characters only', () => {
		const [item] = planItrItems(data, false, 'data', 'masked');
		expect(item.documents.map((d) => d.fileName)).toEqual([
			'itr_XXXXXX234F_2024-25_ITR-2.pdf',
			'itr_XXXXXX234F_2023-24_ITR-1.pdf',
		]);
		expect(
			JSON.stringify(planItrItems(data, true, 'doc', 'masked').map((i) => i.documents)),
		).not.toContain('ABCDE1234F');
	});
	it("the item's latest return is the reader's: null when the newest cannot be read, never the first listed", () => {
		const unreadable = normalizeItrData({
			data: {
				job_id: 'itr_2',
				pan: 'ABCDE1234F',
				itr_records: [
					{ assessment_year: '2023-24', acknowledgement_number: '1', gross_total_income: 900000 },
					{ assessment_year: '2024/26', acknowledgement_number: '2', gross_total_income: 1e21 },
				],
			},
		});
		expect(unreadable.latestFiling).toBeNull();
		const [item] = planItrItems(unreadable, false, undefined, 'full', true);
		expect(item.json.latestFiling).toBeNull();
		expect(item.json.filingCount).toBe(2);
		// split items carry the whole answer's verdict: not ready, and no item puts a figure back
		const split = planItrItems(unreadable, true, undefined, 'full', true).map((i) => i.json);
		expect(split.map((j) => j.decisionReady)).toEqual([false, false]);
		expect(split.map((j) => j.grossTotalIncome)).toEqual([900000, null]);
		expect(split[0].incomplete).toContain('latest return unknown');
	});
	it("the item's latest return carries its file (the reader's latest, found among the numbered entries)", () => {
		const [item] = planItrItems(data, false, 'data', 'full');
		expect(item.json.latestFiling).toMatchObject({
			assessmentYear: data.latestFiling?.assessmentYear,
			binaryProperty: 'data_0',
		});
	});
	it('without download no documents are planned', () => {
		expect(
			planItrItems(data, true, undefined, 'masked').every((i) => i.documents.length === 0),
		).toBe(true);
	});
});
