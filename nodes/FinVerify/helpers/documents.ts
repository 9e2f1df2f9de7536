import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestPolicy } from '../transport';
import { downloadDocument } from '../transport';
import type { PersonalDataChoice } from './personalData';
import { maskPansInText } from './personalData';
import { assertBinaryPropertyName } from './validation';
import { hasSimplifySwitch } from '../../shared/versions';

/**
 * Files on output items, the one download module: a document link (statement, filed return, company
 * or bureau report) downloaded through the transport, or an HTML report the service returned
 * inline, as n8n binary data; and the download fields' values read the same way for every
 * operation.
 */

/** An HTML report the service returned inline, as a binary file. */
export async function htmlToBinary(
	this: IExecuteFunctions,
	html: string,
	fileName: string,
): Promise<IBinaryData> {
	return await this.helpers.prepareBinaryData(Buffer.from(html, 'utf8'), fileName, 'text/html');
}

/** Extensions of the file types a link may answer (an HTML page or JSON is never the file: the transport). */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
};

/**
 * Downloads a document link as binary data named `<baseName>.<ext>`; the extension follows the
 * answer's content type (PDF unless the service says otherwise). An empty file is an error.
 */
export async function downloadFile(
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

export interface DocumentToDownload {
	url: string;
	/** Binary property to put the file in. */
	property: string;
	fileName: string;
}

/**
 * A file name the node builds, under the item's Personal Data in Output: with Masked, a PAN in it
 * (`ABCDE1234F-cibil-credit-report`, `itr_ABCDE1234F_2024-25_ITR-1.pdf`, or a name the user chose)
 * shows its last 4 characters only, as in the JSON output (`XXXXXX234F-cibil-credit-report`).
 */
export function personalFileName(name: string, choice: PersonalDataChoice): string {
	return choice === 'masked' ? maskPansInText(name) : name;
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
async function downloadDocuments(
	this: IExecuteFunctions,
	documents: DocumentToDownload[],
	itemIndex: number,
	policy: RequestPolicy,
): Promise<IBinaryKeyData> {
	const binary: IBinaryKeyData = {};
	for (const document of documents) {
		// the extension follows the content type, empty files fail
		const baseName = document.fileName.replace(/\.pdf$/, '');
		binary[document.property] = await downloadFile.call(
			this,
			document.url,
			baseName,
			itemIndex,
			policy,
		);
	}
	return binary;
}

/** An output item and the documents to attach to it. */
export interface PlannedItem {
	json: IDataObject;
	documents: DocumentToDownload[];
}

/**
 * Raw output: the response as the one item, still carrying the files of the unsplit simplified
 * item.
 */
export function rawWithDocuments(response: IDataObject, unsplit: PlannedItem[]): PlannedItem[] {
	return [{ json: response, documents: unsplit[0].documents }];
}

/**
 * Turns planned items into output items, downloading each item's documents into its binary data.
 */
export async function withDocuments(
	this: IExecuteFunctions,
	planned: PlannedItem[],
	itemIndex: number,
	policy: RequestPolicy,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (const item of planned) {
		if (item.documents.length === 0) {
			output.push({ json: item.json });
			continue;
		}
		const binary = await downloadDocuments.call(this, item.documents, itemIndex, policy);
		output.push({ json: item.json, binary });
	}
	return output;
}

/**
 * The one document of an output item, in `property`; none when not downloading or there is no link.
 */
export function documentFor(
	url: string | null,
	property: string | undefined,
	fileName: string,
): DocumentToDownload[] {
	return property && url ? [{ url, property, fileName }] : [];
}

/**
 * Several documents on one output item: entry i's file goes to `<property>_<i>`, and each entry
 * gets a `binaryProperty` naming its file (null when it has none or nothing is downloaded).
 */
export function numberedDocuments<T extends IDataObject>(
	entries: T[],
	urlOf: (entry: T) => string | null,
	fileNameOf: (entry: T) => string,
	property: string | undefined,
): { entries: Array<T & { binaryProperty: string | null }>; documents: DocumentToDownload[] } {
	const documents: DocumentToDownload[] = [];
	const marked = entries.map((entry, position) => {
		const url = urlOf(entry);
		if (!property || !url) return { ...entry, binaryProperty: null };
		const name = `${property}_${position}`;
		documents.push({ url, property: name, fileName: fileNameOf(entry) });
		return { ...entry, binaryProperty: name };
	});
	return { entries: marked, documents };
}

/** Where a download switch differs from the default (see `downloadFields`). */
export interface DownloadSwitch {
	/** The switch's name in version 1 (`download` unless an operation named it otherwise). */
	v1Name?: string;
	/** The output field's default from version 2 (version 1: `data`). */
	v2Default?: string;
	/** The output field's display name, for the error message. */
	fieldLabel?: string;
}

/**
 * The binary property to download into (from the download fields), or undefined when not
 * downloading. From version 2 the switch is `download` for every operation; version 1 reads its own
 * name.
 */
export function downloadProperty(
	this: IExecuteFunctions,
	itemIndex: number,
	{ v1Name = 'download', v2Default = 'data', fieldLabel }: DownloadSwitch = {},
): string | undefined {
	const v1 = hasSimplifySwitch(this.getNode().typeVersion);
	if (!(this.getNodeParameter(v1 ? v1Name : 'download', itemIndex, false) as boolean))
		return undefined;
	return assertBinaryPropertyName(
		{ node: this.getNode(), itemIndex },
		this.getNodeParameter('binaryPropertyName', itemIndex, v1 ? 'data' : v2Default),
		fieldLabel,
	);
}
