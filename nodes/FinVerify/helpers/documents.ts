import type { IBinaryKeyData, IExecuteFunctions } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import { downloadDocument } from '../transport';

export interface DocumentToDownload {
	url: string;
	/** Binary property to put the file in. */
	property: string;
	fileName: string;
}

/** A file name made of safe characters only, e.g. `statement_aa_123_0.pdf`. */
export function safeFileName(...parts: Array<string | number | null | undefined>): string {
	const base = parts
		.filter((p) => p !== null && p !== undefined && p !== '')
		.map((p) => String(p).replace(/[^A-Za-z0-9_-]+/g, '-'))
		.join('_');
	return `${base || 'document'}.pdf`;
}

/** Downloads each document (one at a time, in order) into binary properties of one item. */
export async function downloadDocuments(
	this: IExecuteFunctions,
	documents: DocumentToDownload[],
	itemIndex: number,
	policy: RequestPolicy,
): Promise<IBinaryKeyData> {
	const binary: IBinaryKeyData = {};
	for (const document of documents) {
		const { data, contentType } = await downloadDocument.call(this, document.url, itemIndex, policy);
		binary[document.property] = await this.helpers.prepareBinaryData(
			data,
			document.fileName,
			contentType ?? 'application/pdf',
		);
	}
	return binary;
}
