import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import { downloadDocument } from '../transport';

/**
 * Report documents as n8n binary data: an HTML string the service returned inline, or a document link
 * (report PDF) downloaded through the transport. Used by the credit report and company operations.
 */

export async function htmlToBinary(
	this: IExecuteFunctions,
	html: string,
	fileName: string,
): Promise<IBinaryData> {
	return await this.helpers.prepareBinaryData(Buffer.from(html, 'utf8'), fileName, 'text/html');
}

const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'text/html': 'html',
	'application/json': 'json',
};

/**
 * Downloads a document link as binary data named `<baseName>.<ext>`; the extension follows the answer's
 * content type (PDF unless the service says otherwise).
 */
export async function downloadReportFile(
	this: IExecuteFunctions,
	url: string,
	baseName: string,
	itemIndex: number,
	policy: RequestPolicy,
): Promise<IBinaryData> {
	const { data, contentType } = await downloadDocument.call(this, url, itemIndex, policy);
	if (data.length === 0) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'Empty document', code: 'EMPTY_DOCUMENT' },
			{ message: 'The document link returned an empty file', itemIndex },
		);
	}
	const mimeType =
		contentType && contentType !== 'application/octet-stream' ? contentType : 'application/pdf';
	const extension = EXTENSIONS[mimeType] ?? 'pdf';
	return await this.helpers.prepareBinaryData(data, `${baseName}.${extension}`, mimeType);
}
