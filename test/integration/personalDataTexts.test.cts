/**
 * Personal data in the texts the node builds, through n8n-core's real engine: with Personal Data in
 * Output on Masked (the default of version 2), the names of the files the node saves (a bureau's report PDF,
 * a filed return, an HTML report named by an expression) and the values input errors show back carry the PAN,
 * mobile number or e-mail masked like the JSON output; Full (and version 1, which has no such field) keeps
 * them. And a credential secret shorter than 4 characters, echoed by the service, is redacted like a longer
 * one.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { Engine, nodeWorkflow, startStubServer } from '../harness/index.cjs';
import type { StubServer, WorkflowJson } from '../harness/index.cjs';
import { fixtures, NODE, withSandbox } from './support.cjs';

/** The fixture's FinVerify node at version 2 (no Simplify), with `parameters`. */
function v2(wf: WorkflowJson, parameters: IDataObject = {}): WorkflowJson {
	return {
		...wf,
		nodes: wf.nodes.map((node) => {
			if (node.name !== NODE) return node;
			const { simplify: _simplify, downloadReportPdf, ...rest } = node.parameters as IDataObject;
			return {
				...node,
				typeVersion: 2,
				parameters: {
					...rest,
					...(downloadReportPdf !== undefined ? { download: downloadReportPdf } : {}),
					...parameters,
				} as INode['parameters'],
			};
		}),
	};
}

const multiBureau = fixtures('creditReport')('getMultiBureauReport.downloadPdf');
const commercial = fixtures('creditReport')('getCommercialReport');
const itrData = fixtures('incomeTaxReturn')('getData.download');

const PAN = 'ABCDE1234F';
/** Any PAN in full (5 letters, 4 digits, 1 letter). */
const FULL_PAN = /(?<![A-Za-z0-9])[A-Z]{5}[0-9]{4}[A-Z](?![A-Za-z0-9])/;

const fileNames = (result: Awaited<ReturnType<ReturnType<typeof withSandbox>['run']>>) =>
	result
		.output(NODE)
		.flatMap((item) => Object.values(item.binary ?? {}).map((file) => String(file.fileName)));

describe('file names follow Personal Data in Output', () => {
	const sandbox = withSandbox({ shape: 'sample' });

	test('bureau report PDFs, Masked (default): the PAN masked in every file name', async () => {
		const result = await sandbox.run(v2(multiBureau, { outputMode: 'normalized' }));
		expect(result.error).toBeUndefined();
		const names = fileNames(result);
		expect(names.sort()).toEqual([
			'XXXXXX234F-cibil-credit-report.pdf',
			'XXXXXX234F-equifax-credit-report.pdf',
		]);
		// nor anywhere in the item (the JSON and the binary's metadata)
		expect(JSON.stringify(result.output(NODE))).not.toContain(PAN);
	});

	test('bureau report PDFs with Raw output: masked too', async () => {
		// Raw has no choice: the default, Masked, names the files (the JSON is the service's answer)
		const raw = await sandbox.run(v2(multiBureau, { outputMode: 'raw' }));
		expect(fileNames(raw).length).toBeGreaterThan(0);
		expect(fileNames(raw).join(' ')).not.toMatch(FULL_PAN);
	});

	test('bureau report PDFs, Full: the PAN as the registry writes it', async () => {
		const result = await sandbox.run(
			v2(multiBureau, { outputMode: 'normalized', personalData: 'full' }),
		);
		expect(fileNames(result).sort()).toEqual([
			'ABCDE1234F-cibil-credit-report.pdf',
			'ABCDE1234F-equifax-credit-report.pdf',
		]);
	});

	test('version 1 (no Personal Data field) keeps its file names', async () => {
		const result = await sandbox.run(multiBureau);
		expect(fileNames(result)).toContain('ABCDE1234F-equifax-credit-report.pdf');
	});

	test('filed returns: itr_<masked PAN>_<year>_<form>.pdf under Masked, the PAN under Full', async () => {
		const masked = await sandbox.run(v2(itrData, { outputMode: 'normalized' }));
		expect(masked.error).toBeUndefined();
		const names = fileNames(masked);
		expect(names.length).toBeGreaterThan(0);
		for (const name of names) expect(name).toMatch(/^itr_X{6}[0-9]{3}[A-Z]_\d{4}-\d{2}_/);
		expect(JSON.stringify(masked.output(NODE))).not.toMatch(FULL_PAN);

		const full = await sandbox.run(v2(itrData, { outputMode: 'normalized', personalData: 'full' }));
		for (const name of fileNames(full)) expect(name).toMatch(/^itr_[A-Z]{5}[0-9]{4}[A-Z]_/);
	});

	test.each([
		// a person's PAN (holder type P in its fourth character) is personal data: masked
		['ABCPS1234K', 'XXXXXX234K-credit-report.html'],
		// a company's PAN (holder type C) identifies the business, not a person: kept for chaining
		['AAACA1234B', 'AAACA1234B-credit-report.html'],
	])(
		'an HTML report named by an expression that carries the PAN %s: %s in the file and the JSON',
		async (pan, expected) => {
			const wf = v2(commercial, {
				outputMode: 'simplified',
				options: { fileName: `={{ "${pan}-credit-report" }}` },
			});
			const result = await sandbox.run(wf);
			expect(result.error).toBeUndefined();
			const [item] = result.output(NODE);
			expect(item.binary?.commercialReport?.fileName ?? item.binary?.data?.fileName).toBe(expected);
			expect(item.json.fileName).toBe(expected);
		},
	);
});

describe('input errors show personal values masked under Masked', () => {
	const sandbox = withSandbox();

	test('a mobile number that is not Indian, in a version 2 node: masked in the error; nothing sent', async () => {
		const before = (await sandbox.control.requests()).length;
		const run = async (personalData?: string) => {
			const wf = nodeWorkflow({
				parameters: {
					resource: 'employment',
					operation: 'getEpfoRecord',
					mobileNumber: '+44 7700 900123',
					...(personalData ? { personalData } : {}),
				},
			});
			return await sandbox.run({
				...wf,
				nodes: wf.nodes.map((n) => (n.name === NODE ? { ...n, typeVersion: 2 } : n)),
			});
		};
		const masked = await run();
		expect(masked.error?.message).toBe('Invalid Mobile Number in item 0 (got "+XX XXXX XX0123")');
		const full = await run('full');
		expect(full.error?.message).toBe('Invalid Mobile Number in item 0 (got "+44 7700 900123")');
		expect(await sandbox.control.requests()).toHaveLength(before);
	});
});

describe('a credential secret shorter than 4 characters is redacted too', () => {
	const CIN = 'L17110MH1973PLC019786';
	const PATH = '/api/v1/services/corporate/cin-lookup';
	const SHORT = { apiKey: 'Q7', apiSecret: 'zq', refreshToken: 'r9x', webhookSecret: 'W' };
	/** A secret standing alone in a text (not inside a longer word). */
	const alone = (secret: string) => new RegExp(`(?<![A-Za-z0-9])${secret}(?![A-Za-z0-9])`);
	let engine: Engine;
	let stub: StubServer;
	beforeAll(async () => {
		engine = await Engine.create();
		stub = await startStubServer();
		engine.setCredentials({ finVerifyApi: { environment: 'custom', baseUrl: stub.url, ...SHORT } });
	});
	afterAll(async () => await stub.close());

	const lookup = (onError?: INode['onError']) =>
		nodeWorkflow({
			onError,
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: CIN },
				requestOptions: { maxRetries: 0 },
			},
		});

	test('in an error the service echoes: message, description and the error JSON', async () => {
		stub.respond(PATH, {
			status: 400,
			body: {
				success: false,
				message: `Key Q7 with secret "zq" (refresh r9x, hook W) is not allowed here`,
				error_code: 'BAD_REQUEST',
			},
		});
		const result = await engine.run(lookup());
		expect(result.error?.message).toBe(
			'Key [redacted] with secret "[redacted]" (refresh [redacted], hook [redacted]) is not allowed here',
		);
		const everything = JSON.stringify([
			result.run.data.resultData,
			{ message: result.error?.message, description: result.error?.description },
		]);
		for (const secret of Object.values(SHORT)) expect(everything).not.toMatch(alone(secret));
	});

	test('in an error item (Continue On Fail) and in a successful answer that echoes them', async () => {
		stub.respond(PATH, {
			status: 400,
			body: { success: false, message: 'bad key Q7', error_code: 'BAD_REQUEST' },
		});
		const failed = await engine.run(lookup('continueRegularOutput'));
		expect(JSON.stringify(failed.json(NODE))).not.toMatch(alone('Q7'));
		expect(String(failed.json(NODE)[0].message)).toBe('bad key [redacted]');

		stub.respond(PATH, {
			body: {
				success: true,
				data: { cin: CIN, company_name: 'ACME LIMITED', note: 'issued to key Q7' },
			},
		});
		const answered = await engine.run(
			nodeWorkflow({
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: CIN },
					simplify: false,
				},
			}),
		);
		expect(answered.error).toBeUndefined();
		const [json] = answered.json(NODE);
		expect((json.data as IDataObject).note).toBe('issued to key [redacted]');
		// the company's own words keep their letters: "ACME", "LIMITED" contain no stand-alone secret
		expect((json.data as IDataObject).company_name).toBe('ACME LIMITED');
	});
});
