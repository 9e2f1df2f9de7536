import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { StatementResult } from './normalize/journey';
import { transactionItems } from './normalize/journey';

/** How Get Statement Result outputs transactions ("Transactions As"). */
export const TRANSACTION_OUTPUTS = ['items', 'csvFile', 'jsonLinesFile'] as const;
export type TransactionOutput = (typeof TRANSACTION_OUTPUTS)[number];

/** Columns of the CSV file, in order: the account each row belongs to, then the transaction. */
export const CSV_COLUMNS = [
	'clientId',
	'accountIndex',
	'accountId',
	'bankName',
	'accountNumber',
	'ifsc',
	'holderName',
	'serialNumber',
	'date',
	'valueDate',
	'type',
	'amount',
	'balance',
	'mode',
	'reference',
	'description',
] as const;

const FORMATS = {
	csvFile: { extension: 'csv', mimeType: 'text/csv', format: 'csv' },
	jsonLinesFile: { extension: 'jsonl', mimeType: 'application/x-ndjson', format: 'jsonLines' },
} as const;

/** RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled; null is empty. */
function csvCell(value: unknown): string {
	if (value === null || value === undefined) return '';
	const text = typeof value === 'string' ? value : String(value);
	return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Lines are turned into bytes in blocks, so no single string of the whole file is ever built. */
const BLOCK_ROWS = 2000;

function encodeLines(lines: Iterable<string>): Buffer {
	const blocks: Buffer[] = [];
	let block: string[] = [];
	for (const line of lines) {
		block.push(line);
		if (block.length === BLOCK_ROWS) {
			blocks.push(Buffer.from(`${block.join('\n')}\n`, 'utf8'));
			block = [];
		}
	}
	if (block.length > 0) blocks.push(Buffer.from(`${block.join('\n')}\n`, 'utf8'));
	return Buffer.concat(blocks);
}

function* csvLines(result: StatementResult): Generator<string> {
	yield CSV_COLUMNS.join(',');
	for (const account of result.accounts) {
		const prefix = [
			result.clientId,
			account.accountIndex,
			account.accountId,
			account.bankName,
			account.accountNumber,
			account.ifsc,
			account.holderName,
		]
			.map(csvCell)
			.join(',');
		for (const t of account.transactions) {
			yield `${prefix},${[
				t.serialNumber,
				t.date,
				t.valueDate,
				t.type,
				t.amount,
				t.balance,
				t.mode,
				t.reference,
				t.description,
			]
				.map(csvCell)
				.join(',')}`;
		}
	}
}

/** One JSON object per line, the same object an item of "One Item per Transaction" holds. */
function* jsonLines(result: StatementResult): Generator<string> {
	for (const account of result.accounts) {
		for (const item of transactionItems(result, account)) yield JSON.stringify(item);
	}
}

/** The transactions of a statement as file content (CSV with a header row, or JSON Lines). Pure. */
export function transactionsFileContent(
	result: StatementResult,
	output: Exclude<TransactionOutput, 'items'>,
): Buffer {
	return encodeLines(output === 'csvFile' ? csvLines(result) : jsonLines(result));
}

/** The statement without its transactions: what the item holds next to the file. Pure. */
export function statementSummary(result: StatementResult): IDataObject {
	return {
		...result,
		accounts: result.accounts.map((account) => {
			const copy: IDataObject = { ...account };
			delete copy.transactions;
			return copy;
		}),
	};
}

/**
 * Writes the transactions into one file through n8n's binary data helper: with n8n's filesystem or
 * S3 binary data mode the execution data then holds only a reference to it, not one item per
 * transaction.
 */
export async function transactionsFile(
	this: IExecuteFunctions,
	result: StatementResult,
	output: Exclude<TransactionOutput, 'items'>,
): Promise<{ binary: IBinaryData; info: IDataObject }> {
	const { extension, mimeType, format } = FORMATS[output];
	const base = ['transactions', result.clientId]
		.filter((p) => p !== null && p !== '')
		.map((p) => String(p).replace(/[^A-Za-z0-9_-]+/g, '-'))
		.join('_');
	const fileName = `${base}.${extension}`;
	const content = transactionsFileContent(result, output);
	const binary = await this.helpers.prepareBinaryData(content, fileName, mimeType);
	return {
		binary,
		info: {
			format,
			fileName,
			rows: result.accounts.reduce((n, a) => n + a.transactions.length, 0),
			bytes: content.length,
		},
	};
}
