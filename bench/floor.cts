/**
 * The "floor" node: the least a node can do on n8n's request path. It reads the CIN through the same expression
 * parameter the FinVerify node gets (`={{ $json.cin }}`), sends it with `httpRequestWithAuthentication` and the
 * FinVerify credential, 10 requests in flight, and returns the parsed body: no validation, no normalizing, no
 * retries. Written at run time as a package of its own (plain JavaScript, as n8n loads a built package), so the
 * engine and the real app load it the same way; nothing of it ships.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';

export const FLOOR_PACKAGE = 'n8n-nodes-finverify-bench';
export const FLOOR_NODE = `${FLOOR_PACKAGE}.benchFloor`;

const SOURCE = `"use strict";
class BenchFloor {
	constructor() {
		this.description = {
			displayName: 'Bench Floor',
			name: 'benchFloor',
			group: ['transform'],
			version: 1,
			description: 'Benchmark floor: one httpRequestWithAuthentication per item',
			defaults: { name: 'Bench Floor' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'finVerifyApi', required: true }],
			properties: [
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'CIN', name: 'cin', type: 'string', default: '' },
				{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 10 },
			],
		};
	}
	async execute() {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0);
		const concurrency = this.getNodeParameter('concurrency', 0);
		const out = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const cin = this.getNodeParameter('cin', i);
				const body = await this.helpers.httpRequestWithAuthentication.call(this, 'finVerifyApi', {
					method: 'POST',
					url,
					body: { cin },
					json: true,
				});
				out[i] = { json: body, pairedItem: { item: i } };
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [out];
	}
}
module.exports = { BenchFloor };
`;

/** Writes the floor package (package.json + dist/) into a temporary folder; returns the folder. */
export function writeFloorPackage(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finverify-bench-floor-'));
	fs.mkdirSync(path.join(dir, 'dist'));
	fs.writeFileSync(path.join(dir, 'dist', 'BenchFloor.node.js'), SOURCE);
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: FLOOR_PACKAGE,
				version: '0.0.0',
				private: true,
				main: 'index.js',
				n8n: { n8nNodesApiVersion: 1, nodes: ['dist/BenchFloor.node.js'], credentials: [] },
			},
			null,
			2,
		),
	);
	return dir;
}
