/**
 * Get Statement Result → Options → Transactions As = CSV File / JSON Lines File, through n8n-core's real
 * engine. The file holds exactly the transactions the item mode gives (checked against "One Item per Transaction"
 * on the sandbox, in both response shapes), CSV cells are quoted per RFC 4180 (checked on a scripted statement
 * whose descriptions hold commas, quotes and line breaks), and the item keeps the statement without transactions.
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CSV_COLUMNS } from '../../nodes/FinVerify/helpers/transactionFiles';
import {
	Engine,
	nodeWorkflow,
	SANDBOX_KEYS,
	startStubServer,
	withParameters,
} from '../harness/index.cjs';
import type { StubServer, WorkflowJson } from '../harness/index.cjs';
import { fixtures, NODE, SHAPES, withSandbox } from './support.cjs';
import type { TestSandbox } from './support.cjs';

const fixture = fixtures('bankStatementJourney');

const statementResult = (clientId: string, options: IDataObject) =>
	withParameters(fixture('getStatementResult'), NODE, {
		clientId,
		options,
	}) as WorkflowJson;

const fileOf = (item: INodeExecutionData, property = 'transactions'): IBinaryData => {
	const file = item.binary?.[property];
	if (!file) throw new Error(`no binary "${property}" on the item`);
	return file;
};
const textOf = (file: IBinaryData) => Buffer.from(file.data, 'base64').toString('utf8');

/** A small RFC 4180 reader (quoted cells, doubled quotes, line breaks inside quotes). */
function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				cell += '"';
				i++;
			} else if (c === '"') quoted = false;
			else cell += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(cell);
			cell = '';
		} else if (c === '\n') {
			row.push(cell);
			rows.push(row);
			row = [];
			cell = '';
		} else cell += c;
	}
	if (cell !== '' || row.length > 0) rows.push([...row, cell]);
	return rows;
}

/** The CSV row an item of "One Item per Transaction" should become. */
const csvRowOf = (json: IDataObject): string[] => {
	const account = json.account as IDataObject;
	const values: Record<string, unknown> = { ...account, ...json };
	return CSV_COLUMNS.map((column) => {
		const value = values[column];
		return value === null || value === undefined ? '' : String(value);
	});
};

async function journeyWithStatement(sandbox: TestSandbox): Promise<string> {
	const response = await fetch(`${sandbox.url}/api/v1/services/aa-bsa-journey/init`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': SANDBOX_KEYS.apiKey,
			'x-api-secret': SANDBOX_KEYS.apiSecret,
		},
		body: JSON.stringify({ mobile_number: '9876543210' }),
	});
	const { data } = (await response.json()) as { data: { client_id: string } };
	await sandbox.control.advanceJourney(data.client_id, 'analysis_complete');
	return data.client_id;
}

describe.each(SHAPES)('Transactions As a file, %s shape', (shape) => {
	const sandbox = withSandbox({ shape, resetBeforeEach: true });

	test('JSON Lines: one line per transaction, each the json of a "One Item per Transaction" item, in order', async () => {
		const clientId = await journeyWithStatement(sandbox);
		const perTransaction = (
			await sandbox.run(statementResult(clientId, { splitInto: 'transactions' }))
		).json(NODE);
		expect(perTransaction.length).toBeGreaterThan(0);

		const result = await sandbox.run(
			statementResult(clientId, { transactionsAs: 'jsonLinesFile' }),
		);
		expect(result.error).toBeUndefined();
		const items = result.output(NODE);
		expect(items).toHaveLength(1);
		const file = fileOf(items[0]);
		expect(file.mimeType).toBe('application/x-ndjson');
		expect(file.fileName).toBe(`transactions_${clientId}.jsonl`);
		const text = textOf(file);
		expect(text.endsWith('\n')).toBe(true);
		const lines = text.slice(0, -1).split('\n');
		expect(lines.map((line) => JSON.parse(line))).toEqual(perTransaction);

		// the item: the statement without transactions, and what the file is
		const json = items[0].json;
		expect(json).toMatchObject({
			clientId,
			totalTransactions: perTransaction.length,
			transactionsFile: {
				format: 'jsonLines',
				fileName: `transactions_${clientId}.jsonl`,
				rows: perTransaction.length,
				bytes: Buffer.byteLength(text),
				binaryProperty: 'transactions',
			},
		});
		for (const account of json.accounts as IDataObject[]) {
			expect(account).not.toHaveProperty('transactions');
			expect(account.transactionCount).toEqual(expect.any(Number));
		}
		expect(JSON.stringify(json).length).toBeLessThan(JSON.stringify(perTransaction).length);
	});

	test('CSV: a header row, then one row per transaction with the same values as the items', async () => {
		const clientId = await journeyWithStatement(sandbox);
		const perTransaction = (
			await sandbox.run(statementResult(clientId, { splitInto: 'transactions' }))
		).json(NODE);
		const result = await sandbox.run(
			statementResult(clientId, {
				transactionsAs: 'csvFile',
				transactionsBinaryProperty: 'bankCsv',
				// Split Into Items only applies to the item mode: a file always comes on one item
				splitInto: 'transactions',
			}),
		);
		expect(result.error).toBeUndefined();
		const items = result.output(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].json.transactionsFile).toMatchObject({
			format: 'csv',
			binaryProperty: 'bankCsv',
		});
		const file = fileOf(items[0], 'bankCsv');
		expect(file.mimeType).toBe('text/csv');
		expect(file.fileName).toBe(`transactions_${clientId}.csv`);
		const [header, ...rows] = parseCsv(textOf(file));
		expect(header).toEqual([...CSV_COLUMNS]);
		expect(rows).toEqual(perTransaction.map(csvRowOf));
	});
});

describe('Transactions As a file, scripted statement', () => {
	let engine: Engine;
	let stub: StubServer;
	const PATH = '/api/v1/services/aa-bsa-journey/statement-result';
	const CLIENT_ID = 'aa_0123456789abcdef01234567';
	const descriptions = [
		'UPI/CR/1/MERCHANT, PAYMENT',
		'He said "hello"',
		'line one\nline two',
		'plain',
		'=SUM(A1:A2)',
		'',
	];
	const transactions = Array.from({ length: 3000 }, (_, i) => ({
		sr_no: i + 1,
		txn_date: '01-04-24',
		value_date: '01-04-24',
		reference_no: `UTR${100000 + i}`,
		description: descriptions[i % descriptions.length],
		txn_type: i % 2 ? 'Dr.' : 'Cr.',
		credit: i % 2 ? '' : 100,
		debit: i % 2 ? 50 : '',
		balance: 1000 + i * 25,
	}));

	beforeAll(async () => {
		engine = await Engine.create();
		stub = await startStubServer();
		engine.setCredentials({
			finVerifyApi: {
				environment: 'custom',
				baseUrl: stub.url,
				apiKey: 'k',
				apiSecret: 's',
			},
		});
		stub.respond(PATH, {
			body: {
				status_code: 200,
				success: true,
				data: {
					client_id: CLIENT_ID,
					status: 'analysis_complete',
					total_accounts: 1,
					accounts: [
						{
							account_index: 0,
							bank_name: 'Bank, "The" Ltd',
							account_number: 'XX12',
							transactions,
						},
					],
				},
			},
		});
	});
	afterAll(async () => await stub.close());

	const run = async (options: IDataObject) =>
		await engine.run(
			nodeWorkflow({
				parameters: {
					resource: 'bankStatementJourney',
					operation: 'getStatementResult',
					clientId: CLIENT_ID,
					simplify: true,
					options,
					requestOptions: { maxRetries: 0 },
				},
			}),
		);

	test('commas, quotes and line breaks are quoted (RFC 4180) and read back unchanged; text is not altered', async () => {
		const result = await run({ transactionsAs: 'csvFile' });
		expect(result.error).toBeUndefined();
		const text = textOf(fileOf(result.output(NODE)[0]));
		expect(text).toContain('"He said ""hello"""');
		expect(text).toContain('"line one\nline two"');
		const [header, ...rows] = parseCsv(text);
		expect(rows).toHaveLength(3000);
		const column = (name: string) => header.indexOf(name);
		expect(rows.map((r) => r[column('description')])).toEqual(
			transactions.map((t) => t.description),
		);
		expect(rows.every((r) => r[column('bankName')] === 'Bank, "The" Ltd')).toBe(true);
		expect(rows[0][column('type')]).toBe('CREDIT');
		expect(rows[1][column('type')]).toBe('DEBIT');
		expect(rows[1][column('amount')]).toBe('50');
		expect(rows[0][column('date')]).toBe('2024-04-01');
		expect(rows.every((r) => r.length === CSV_COLUMNS.length)).toBe(true);
	});

	test('an empty Transactions File Field is refused, naming the field', async () => {
		const result = await run({ transactionsAs: 'jsonLinesFile', transactionsBinaryProperty: '' });
		expect(result.error?.message).toMatch(/Transactions File Field/);
	});

	test('an unknown Transactions As value is refused before anything is sent', async () => {
		const before = stub.requests.length;
		const result = await run({ transactionsAs: 'xml' });
		expect(result.error?.message).toMatch(/Transactions As/);
		expect(stub.requests.length).toBe(before);
	});
});
