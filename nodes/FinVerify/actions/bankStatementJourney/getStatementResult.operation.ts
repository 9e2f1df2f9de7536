import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { PlannedItem } from '../../helpers/documents';
import {
	documentFor,
	downloadProperty,
	numberedDocuments,
	rawWithDocuments,
	safeFileName,
	withDocuments,
} from '../../helpers/documents';
import { normalizeStatementResult, transactionItems } from '../../helpers/normalize/journey';
import { STATEMENT_FACTS } from '../../helpers/answerFacts';
import type { StatementAccount, StatementResult } from '../../helpers/normalize/journey';
import type { TransactionOutput } from '../../helpers/transactionFiles';
import {
	statementSummary,
	TRANSACTION_OUTPUTS,
	transactionsFile,
} from '../../helpers/transactionFiles';
import { assertBinaryPropertyName, assertOneOf } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	downloadFields,
	journeyClientIdField,
	outputModeFields,
	normalizedOutputOnly,
} from '../common.descriptions';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { readClientId } from './shared';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { STATEMENT_RESULT_VIEW } from '../../helpers/normalize/simplified';

const SPLIT_MODES = ['none', 'accounts', 'transactions'] as const;
type SplitMode = (typeof SPLIT_MODES)[number];

const properties: INodeProperties[] = [
	journeyClientIdField,
	...outputModeFields,
	...downloadFields(
		'Download Statement PDFs',
		"Whether to download each account's statement analysis PDF (the time-limited " +
			'analysis_pdf_s3_url link) as binary data',
		{
			hint:
				"Files go to this name plus _0, _1… per account. Split: this field, on each account's " +
				'(first) item.',
		},
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: normalizedOutputOnly,
		options: [
			{
				displayName: 'Split Into Items',
				name: 'splitInto',
				type: 'options',
				default: 'none',
				options: [
					{
						name: 'No (One Item)',
						value: 'none',
						description: 'One item holding every account and its transactions',
					},
					{
						name: 'One Item per Account',
						value: 'accounts',
						description: 'Each account with its transactions',
					},
					{
						name: 'One Item per Transaction',
						value: 'transactions',
						description: 'Each transaction, carrying the account it belongs to',
					},
				],
				description:
					'Whether to output the statement as one item, one item per account, or one item per ' +
					'transaction. Only applies when Transactions As is Items.',
			},
			{
				displayName: 'Transactions As',
				name: 'transactionsAs',
				type: 'options',
				default: 'items',
				options: [
					{
						name: 'CSV File',
						value: 'csvFile',
						description:
							'One item with the statement summary; all transactions in one CSV file (binary data)',
					},
					{
						name: 'Items',
						value: 'items',
						description: 'Transactions in the JSON output, shaped by Split Into Items',
					},
					{
						name: 'JSON Lines File',
						value: 'jsonLinesFile',
						description:
							'One item with the statement summary; all transactions in one JSON Lines file (binary ' +
							'data), one transaction per line',
					},
				],
				description:
					'Whether transactions are output as JSON or written to a file. A file suits long ' +
					"statements: with n8n's filesystem or S3 binary data mode it stays out of the execution " +
					'data.',
			},
			{
				displayName: 'Transactions File Field',
				name: 'transactionsBinaryProperty',
				type: 'string',
				default: 'transactions',
				placeholder: 'e.g. transactions',
				description:
					'Name of the binary field the transactions file is put in (CSV File and JSON Lines File only)',
			},
		],
	},
];

const displayOptions = {
	show: { resource: ['bankStatementJourney'], operation: ['getStatementResult'] },
};

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = { simplified: STATEMENT_RESULT_VIEW };

/** Which item each account's PDF lands on, and under which binary property. Pure. */
export function planStatementItems(
	result: StatementResult,
	splitInto: SplitMode,
	binaryProperty: string | undefined,
): PlannedItem[] {
	const fileName = (a: StatementAccount) =>
		safeFileName('statement', result.clientId, a.accountIndex);
	if (splitInto === 'accounts') {
		return result.accounts.map((account) => {
			const documents = documentFor(account.pdfUrl, binaryProperty, fileName(account));
			return {
				json: {
					clientId: result.clientId,
					journeyStatus: result.status,
					...account,
					binaryProperty: documents[0]?.property ?? null,
				},
				documents,
			};
		});
	}
	if (splitInto === 'transactions') {
		return result.accounts.flatMap((account) =>
			transactionItems(result, account).map((json, position) => ({
				json,
				documents:
					position === 0 ? documentFor(account.pdfUrl, binaryProperty, fileName(account)) : [],
			})),
		);
	}
	const { entries, documents } = numberedDocuments(
		result.accounts,
		(a) => a.pdfUrl,
		fileName,
		binaryProperty,
	);
	return [{ json: { ...result, accounts: entries }, documents }];
}

interface StatementRequest {
	clientId: string;
	simplify: boolean;
	/** Where the statement PDFs go; absent when not downloading. */
	binaryProperty?: string;
	splitInto: SplitMode;
	transactionsAs: TransactionOutput;
	/** The transactions file's field (CSV File and JSON Lines File only). */
	fileProperty?: string;
}

export function read(this: IExecuteFunctions, itemIndex: number): StatementRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const clientId = readClientId(ctx, this.getNodeParameter('clientId', itemIndex, ''));
	const simplify = isNormalizedOutput(this, itemIndex);
	const binaryProperty = downloadProperty.call(this, itemIndex);
	const options = simplify ? (this.getNodeParameter('options', itemIndex, {}) as IDataObject) : {};
	const splitInto = assertOneOf(ctx, options.splitInto ?? 'none', 'Split Into Items', SPLIT_MODES);

	const transactionsAs = assertOneOf(
		ctx,
		options.transactionsAs ?? 'items',
		'Transactions As',
		TRANSACTION_OUTPUTS,
	);
	const fileProperty =
		transactionsAs === 'items'
			? undefined
			: assertBinaryPropertyName(
					ctx,
					options.transactionsBinaryProperty ?? 'transactions',
					'Transactions File Field',
				);
	return { clientId, simplify, binaryProperty, splitInto, transactionsAs, fileProperty };
}

export async function execute(
	this: IExecuteFunctions,
	{ clientId, simplify, binaryProperty, splitInto, transactionsAs, fileProperty }: StatementRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'GET',
		path: 'aa-bsa-journey/statement-result',
		qs: { client_id: clientId },
		requiredField: STATEMENT_FACTS,
		itemIndex,
	});
	const result = normalizeStatementResult(response);
	if (fileProperty && transactionsAs !== 'items') {
		const { binary, info } = await transactionsFile.call(this, result, transactionsAs);
		const [unsplit] = planStatementItems(result, 'none', binaryProperty);
		if (unsplit.documents.some((d) => d.property === fileProperty)) {
			throw new NodeOperationError(
				this.getNode(),
				`The Transactions File Field "${fileProperty}" is also used for a statement PDF`,
				{
					itemIndex,
					description: 'Choose another name for Transactions File Field, such as transactions',
				},
			);
		}
		const summary = statementSummary({
			...result,
			accounts: unsplit.json.accounts as StatementAccount[],
		});
		const [item] = await withDocuments.call(
			this,
			[
				{
					json: { ...summary, transactionsFile: { ...info, binaryProperty: fileProperty } },
					documents: unsplit.documents,
				},
			],
			itemIndex,
			policy,
		);
		return [{ ...item, binary: { ...(item.binary ?? {}), [fileProperty]: binary } }];
	}
	const planned = simplify
		? planStatementItems(result, splitInto, binaryProperty)
		: rawWithDocuments(response, planStatementItems(result, 'none', binaryProperty));
	return await withDocuments.call(this, planned, itemIndex, policy);
}
