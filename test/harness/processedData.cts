/**
 * n8n's deduplication store for the test engine: what `this.helpers.checkProcessedAndRecord` (n8n-core's
 * `getDeduplicationHelperFunctions`) reaches in the app, where n8n 2.41.1 and 1.123.81 back it with
 * `DeduplicationHelper` (`dist/deduplication/deduplication-helper.js` of the n8n package) over the
 * `processed_data` table. n8n-core's real `DataDeduplicationService` is initialised with this store, so node
 * code runs through n8n-core's own helper exactly as in the app; only the table is in memory.
 *
 * It does what n8n's helper does, step by step, in mode `entries` (the one mode Process Once and
 * Remove Duplicates' "previous executions" use): one row per workflow and context (`n:<node id>` for scope
 * `node`); it reads the row, and with none inserts one (a second insert of the same row fails like the unique
 * index: `SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context`);
 * otherwise it adds the MD5 hashes of the new values in memory, cuts the list to `maxEntries` (oldest first)
 * and writes the whole row back, with no transaction and no lock. Each database step yields to the event
 * loop as the app's database driver does, so concurrent calls interleave the way they can in the app: two
 * calls that read the same row both write, and the later write loses the other's keys.
 */
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

interface Row {
	mode: string;
	data: string[];
}

const databaseStep = async () => await new Promise<void>((resolve) => setImmediate(resolve));

const contextOf = (scope: DeduplicationScope, contextData: ICheckProcessedContextData) => {
	if (scope !== 'node') return '';
	if (!contextData.node)
		throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `n:${contextData.node.id}`;
};

/** n8n's hash of a recorded value (MD5, base64). */
export const hash = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

/**
 * n8n's record in mode `entries` meeting new values: each hashed value already in `row` is processed, the others
 * are new and appended; the row then keeps its newest `maxEntries`. Changes `row` in place.
 */
export function recordEntries(
	row: { data: string[] },
	items: DeduplicationItemTypes[],
	hashed: string[],
	maxEntries?: number,
): IDeduplicationOutput {
	const seen = new Set(row.data);
	const output: IDeduplicationOutput = { new: [], processed: [] };
	hashed.forEach((value, index) => {
		if (seen.has(value)) output.processed.push(items[index]);
		else {
			output.new.push(items[index]);
			row.data.push(value);
		}
	});
	if (maxEntries) row.data.splice(0, row.data.length - maxEntries);
	return output;
}

export class ProcessedDataStore implements IDataDeduplicator {
	/** workflowId + "\n" + context → the stored row (a copy is read, as from a database). */
	readonly rows = new Map<string, Row>();
	/** Calls made, and inserts refused by the unique index. */
	calls = 0;
	uniqueViolations = 0;

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.calls++;
		if (options.mode !== 'entries') throw new Error(`mode ${options.mode} is not modelled here`);
		const rowKey = `${contextData.workflow.id}\n${contextOf(scope, contextData)}`;
		await databaseStep(); // SELECT
		const stored = this.rows.get(rowKey);
		const row = stored ? { mode: stored.mode, data: [...stored.data] } : undefined;
		const hashed = items.map(hash);
		if (!row) {
			if (options.maxEntries) hashed.splice(0, hashed.length - options.maxEntries);
			await databaseStep(); // INSERT
			if (this.rows.has(rowKey)) {
				this.uniqueViolations++;
				throw new Error(
					'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context',
				);
			}
			this.rows.set(rowKey, { mode: options.mode, data: hashed });
			return { new: items, processed: [] };
		}
		const output = recordEntries(row, items, hashed, options.maxEntries);
		await databaseStep(); // UPDATE
		this.rows.set(rowKey, row);
		return output;
	}

	/** n8n's removal in mode `entries`: reads the row (none: nothing to do), drops each value's hash, writes it back. */
	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.calls++;
		if (options.mode !== 'entries') throw new Error(`mode ${options.mode} is not modelled here`);
		const rowKey = `${contextData.workflow.id}\n${contextOf(scope, contextData)}`;
		await databaseStep(); // SELECT
		const stored = this.rows.get(rowKey);
		if (!stored) return;
		const row = { mode: stored.mode, data: [...stored.data] };
		for (const value of items.map(hash)) {
			const index = row.data.indexOf(value);
			if (index !== -1) row.data.splice(index, 1);
		}
		await databaseStep(); // UPDATE
		this.rows.set(rowKey, row);
	}

	async clearAllProcessedItems(): Promise<void> {
		this.rows.clear();
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return (
			this.rows.get(`${contextData.workflow.id}\n${contextOf(scope, contextData)}`)?.data.length ??
			0
		);
	}
}

let installed: ProcessedDataStore | undefined;

/**
 * Initialises n8n-core's DataDeduplicationService (once per test file: n8n-core allows one) with a store of
 * n8n's behaviour, and returns it, emptied.
 */
export async function processedDataStore(): Promise<ProcessedDataStore> {
	if (!installed) {
		installed = new ProcessedDataStore();
		await DataDeduplicationService.init(installed);
	}
	installed.rows.clear();
	installed.calls = 0;
	installed.uniqueViolations = 0;
	return installed;
}
