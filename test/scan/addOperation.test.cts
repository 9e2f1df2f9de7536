/**
 * docs/ARCHITECTURE.md's "Adding an operation", followed step by step on a copy of the repository: the Company
 * resource gains *Get Director by DIN* (`POST corporate/din-lookup`), a decision operation (a lender checks a
 * director: the DIN's status, a disqualification under section 164 is adverse), so it takes the steps marked
 * **Decision** too. Each step below writes what the recipe's step of the same number says, in the files it names,
 * and nothing else; then, in the copy, the type check, the whole unit project (which holds every table keyed by
 * operation) and the resource's integration suite run and pass, the version 3 fixture's items leaving on
 * Complete, Incomplete and Failed. Then each **Decision** piece is left out alone and the unit test that must
 * fail names the operation and the piece. A table the recipe does not name, or a step it leaves out, fails here
 * before it bites a contributor: keep the recipe and these steps together.
 *
 * Minutes of tsc and jest in a fresh folder (no transform cache), so it is in the scan step.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

jest.setTimeout(30 * 60_000);

/** The repository's files (tracked and new, not ignored) copied to a fresh folder; node_modules linked. */
function copyRepository(): string {
	const dir = mkdtempSync(path.join(tmpdir(), 'finverify-recipe-'));
	const files = execFileSync(
		'git',
		['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
		{ cwd: REPO, encoding: 'utf8' },
	)
		.split('\0')
		.filter((file) => file && existsSync(path.join(REPO, file)));
	for (const file of files) {
		mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		cpSync(path.join(REPO, file), path.join(dir, file));
	}
	symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	return dir;
}

/** Text edits in the copy that fail loudly when their anchor is not there exactly once. */
class Copy {
	constructor(readonly dir: string) {}

	read(file: string) {
		return readFileSync(path.join(this.dir, file), 'utf8');
	}

	write(file: string, text: string) {
		mkdirSync(path.dirname(path.join(this.dir, file)), { recursive: true });
		writeFileSync(path.join(this.dir, file), text);
	}

	private anchored(file: string, anchor: string, edit: (text: string, at: number) => string) {
		const text = this.read(file);
		const at = text.indexOf(anchor);
		if (at === -1 || text.indexOf(anchor, at + 1) !== -1)
			throw new Error(`${file}: the anchor ${JSON.stringify(anchor)} is not there exactly once`);
		this.write(file, edit(text, at));
	}

	insertBefore(file: string, anchor: string, insert: string) {
		this.anchored(file, anchor, (text, at) => text.slice(0, at) + insert + text.slice(at));
	}

	insertAfter(file: string, anchor: string, insert: string) {
		this.anchored(
			file,
			anchor,
			(text, at) => text.slice(0, at + anchor.length) + insert + text.slice(at + anchor.length),
		);
	}

	replace(file: string, anchor: string, replacement: string) {
		this.anchored(
			file,
			anchor,
			(text, at) => text.slice(0, at) + replacement + text.slice(at + anchor.length),
		);
	}

	append(file: string, text: string) {
		this.write(file, this.read(file) + text);
	}

	/** Runs a command in the copy; resolves with its exit code and output. */
	async run(command: string, args: string[]) {
		const child = spawn(command, args, {
			cwd: this.dir,
			env: { ...process.env, TEST_STEPS: '', FORCE_COLOR: '0' },
		});
		const chunks: Buffer[] = [];
		child.stdout.on('data', (c: Buffer) => chunks.push(c));
		child.stderr.on('data', (c: Buffer) => chunks.push(c));
		const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
		return { code, out: Buffer.concat(chunks).toString('utf8') };
	}
}

const DIN = '00012345';
const DIN_NOT_FOUND = '00000404';
/** The sandbox's magic inputs: an answer without the director's status, a disqualified director. */
const DIN_NO_STATUS = '00012346';
const DIN_DISQUALIFIED = '00012347';

/** The recipe's steps (docs/ARCHITECTURE.md, "Adding an operation"), numbered as there. */
const STEPS: Array<[number, string, (copy: Copy) => void]> = [
	[
		1,
		'the contract: the path, its request and its response in openapi/finverify.openapi.yaml',
		(copy) => {
			const file = 'openapi/finverify.openapi.yaml';
			copy.insertBefore(
				file,
				'  /api/v1/services/corporate/company-autocomplete:\n',
				`  /api/v1/services/corporate/din-lookup:
    post:
      operationId: dinLookup
      tags: [Corporate]
      summary: Director record by DIN
      x-permission: CORPORATE_DIN
      x-error-variant: A
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/DinLookupRequest' }
      responses:
        '200':
          description: Director record.
          content:
            application/json:
              schema: { $ref: '#/components/schemas/DirectorRecord' }
        '400': { $ref: '#/components/responses/ErrorWithErrorCode' }
        '401': { $ref: '#/components/responses/ErrorWithErrorCode' }
        '403': { $ref: '#/components/responses/ErrorWithErrorCode' }
        '404': { $ref: '#/components/responses/ErrorWithErrorCode' }
        default: { $ref: '#/components/responses/ErrorWithErrorCode' }
`,
			);
			copy.insertBefore(
				file,
				'    AutocompleteRequest:\n',
				`    DinLookupRequest:
      type: object
      required: [din]
      properties:
        din: { type: string, pattern: '^[0-9]{8}$', description: 8-digit Director Identification Number. }
`,
			);
			copy.insertBefore(
				file,
				'    SampleEnvelope:\n',
				`    DirectorRecord:
      type: object
      required: [success, message, data]
      properties:
        success: { const: true }
        message: { type: string }
        data:
          type: object
          required: [din, name, designation, date_of_appointment, companies]
          properties:
            din: { type: string }
            name: { type: string }
            designation: { type: string }
            date_of_appointment: { $ref: '#/components/schemas/Date' }
            status:
              type: string
              enum: [Active, Disqualified, Deactivated]
              description: The DIN's status at the registry (MCA).
            disqualified_under:
              type: string
              description: The clause of section 164 of the Companies Act, 2013 a disqualification is under.
            disqualified_until: { $ref: '#/components/schemas/Date' }
            companies:
              type: array
              items:
                type: object
                required: [cin, company_name]
                properties:
                  cin: { type: string }
                  company_name: { type: string }
`,
			);
		},
	],
	[
		2,
		"the sandbox: the permission, the handler, the contract test's inputs",
		(copy) => {
			copy.insertAfter('sandbox/auth.cts', "\t'CORPORATE_PAN',\n", "\t'CORPORATE_DIN',\n");
			copy.insertAfter(
				'sandbox/handlers/corporate.cts',
				'export const corporateHandlers: Handlers = {\n',
				`	dinLookup({ body }: HandlerContext<{ din: string }>) {
		if (body.din === '${DIN_NOT_FOUND}')
			throw new ApiError(404, 'DIN_NOT_FOUND', \`No director found with DIN \${body.din}\`);
		// magic inputs: ${DIN_NO_STATUS} answers without the status, ${DIN_DISQUALIFIED} a disqualified director
		const status =
			body.din === '${DIN_NO_STATUS}'
				? {}
				: body.din === '${DIN_DISQUALIFIED}'
					? {
							status: 'Disqualified',
							disqualified_under: '164(2)(a)',
							disqualified_until: '2027-10-31',
						}
					: { status: 'Active' };
		return {
			success: true,
			message: 'Director details fetched successfully',
			data: {
				din: body.din,
				name: 'ASHA VERMA',
				designation: 'Director',
				date_of_appointment: '2015-04-01',
				...status,
				companies: [{ cin: 'L17110MH1973PLC019786', company_name: 'ACME TEXTILES LIMITED' }],
			},
		};
	},

`,
			);
			const contract = 'test/sandbox/contract.test.cts';
			copy.insertBefore(
				contract,
				'\tpanLookup: [\n',
				`\tdinLookup: [{ din: '${DIN}' }, { din: '${DIN_NO_STATUS}' }, { din: '${DIN_DISQUALIFIED}' }],\n`,
			);
			copy.insertBefore(
				contract,
				"\t['panLookup', { pan: 'ABC' }, 400, 'INVALID_INPUT'],\n",
				`\t['dinLookup', { din: '123' }, 400, 'INVALID_INPUT'],\n` +
					`\t['dinLookup', { din: '${DIN_NOT_FOUND}' }, 404, 'DIN_NOT_FOUND'],\n`,
			);
			copy.replace(
				contract,
				'expect(contract.operations).toHaveLength(18);',
				'expect(contract.operations).toHaveLength(19);',
			);
		},
	],
	[
		3,
		'the operation file: its fields (with the decision fields), views, decider, read and execute',
		(copy) =>
			copy.write(
				'nodes/FinVerify/actions/company/getDirectorByDin.operation.ts',
				`import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DIRECTOR_REQUIRED, normalizeDirector } from '../../helpers/normalize/company';
import type { Decider } from '../../helpers/normalize/decision';
import { DIRECTOR_DECIDER } from '../../helpers/normalize/decision';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { DIRECTOR_DECISION_VIEW, DIRECTOR_VIEW } from '../../helpers/normalize/simplified';
import { isNormalizedOutput } from '../../helpers/outputChoice';
import { assertDin } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { decisionOutputFields } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'DIN',
		name: 'din',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. ${DIN}',
		description: 'Director Identification Number: 8 digits',
	},
	...decisionOutputFields,
];

const displayOptions = { show: { resource: ['company'], operation: ['getDirectorByDin'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = {
	simplified: DIRECTOR_VIEW,
	decision: DIRECTOR_DECISION_VIEW,
};

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = DIRECTOR_DECIDER;

interface DirectorRequest {
	din: string;
	simplify: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): DirectorRequest {
	const ctx = { node: this.getNode(), itemIndex };
	return {
		din: assertDin(ctx, this.getNodeParameter('din', itemIndex, '')),
		simplify: isNormalizedOutput(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	{ din, simplify }: DirectorRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'corporate/din-lookup',
		body: { din },
		requiredField: DIRECTOR_REQUIRED,
		itemIndex,
	});
	return [{ json: simplify ? normalizeDirector(response) : response }];
}
`,
			),
	],
	[
		4,
		"registered: node.type.ts and the resource's index.ts (operations, dropdown option, description)",
		(copy) => {
			copy.replace(
				'nodes/FinVerify/actions/node.type.ts',
				"company: 'getByCin' |",
				"company: 'getByCin' | 'getDirectorByDin' |",
			);
			const index = 'nodes/FinVerify/actions/company/index.ts';
			copy.insertAfter(
				index,
				"import * as getByCin from './getByCin.operation';\n",
				"import * as getDirectorByDin from './getDirectorByDin.operation';\n",
			);
			copy.insertAfter(
				index,
				'\tgetByCin: defineOperation(getByCin),\n',
				'\tgetDirectorByDin: defineOperation(getDirectorByDin),\n',
			);
			copy.insertAfter(
				index,
				"\t\t\t\taction: 'Get company by CIN or LLPIN',\n\t\t\t},\n",
				`			{
				name: 'Get Director by DIN',
				value: 'getDirectorByDin',
				description: 'Get a director and the companies they direct by DIN',
				action: 'Get director by DIN',
			},
`,
			);
			copy.insertAfter(
				index,
				'\t...getByCin.description,\n',
				'\t...getDirectorByDin.description,\n',
			);
		},
	],
	[
		5,
		'the normalizer and the validator; the decider, its adverse facts and the decision view',
		(copy) => {
			copy.append(
				'nodes/FinVerify/helpers/normalize/company.ts',
				`
/** A director (operation dinLookup): the DIN's status first, what a rule branches on, then the role. */
export interface DirectorRecord extends IDataObject {
	shape: Shape;
	status: string | null;
	designation: string | null;
	companyCount: number | null;
	disqualifiedUnder: string | null;
	disqualifiedUntil: string | null;
	din: string | null;
	name: string | null;
	appointedOn: string | null;
	companies: Array<{ cin: string | null; name: string | null }>;
}

export function normalizeDirector(body: unknown): DirectorRecord {
	const data = unwrap(body);
	const companies = asArray(data.companies).map((entry) => {
		const company = asObject(entry);
		return { cin: toUpperText(company.cin), name: toText(company.company_name) };
	});
	return {
		shape: 'reference',
		// unknown is null (docs/output.md): a missing status, or no word (\`200\`: an envelope's code), is
		// unknown to the decider, never Active
		status: toStatusText(data.status),
		designation: toText(data.designation),
		// no list, or an empty one next to a DIN, says nothing
		companyCount: companies.length > 0 ? companies.length : null,
		disqualifiedUnder: toText(data.disqualified_under),
		disqualifiedUntil: toIsoDate(data.disqualified_until),
		din: toText(data.din),
		name: toText(data.name),
		appointedOn: toIsoDate(data.date_of_appointment),
		companies,
	};
}

/** What identifies a director's answer (the transport fails an answer without it). */
export const DIRECTOR_REQUIRED = 'data.din';
`,
			);
			copy.append(
				'nodes/FinVerify/helpers/validation.ts',
				`
/** A DIN (Director Identification Number): 8 digits. */
export function assertDin(ctx: FieldContext, value: unknown, field = 'DIN'): string {
	const din = asText(value);
	if (!/^[0-9]{8}$/.test(din)) throw invalidField(ctx, field, value, '8 digits, e.g. ${DIN}');
	return din;
}
`,
			);
			// Decision: the adverse facts (a kind and a source of their own), the decider, the decision view
			const adverse = 'nodes/FinVerify/helpers/normalize/adverse.ts';
			copy.replace(
				adverse,
				"\t| 'noCurrentEmployer';\n",
				"\t| 'noCurrentEmployer'\n\t| 'directorDisqualified'\n\t| 'dinDeactivated';\n",
			);
			copy.insertAfter(
				adverse,
				"\tbankStatement: 'Bank statement',\n",
				"\tdirector: 'Director',\n",
			);
			copy.append(
				adverse,
				`
// ---- directors ----------------------------------------------------------------------------------

/**
 * Get Director by DIN: a director disqualified under section 164 of the Companies Act, 2013 (may not be
 * appointed or reappointed to any board), or a DIN deactivated (the director's KYC not filed). A status
 * the answer does not state is not adverse: it is in \`incomplete\`.
 */
export function directorAdverse(record: IDataObject): AdverseFact[] {
	const status = toText(record.status);
	const words = status?.trim().toLowerCase();
	if (words === 'disqualified') {
		const clause = toText(record.disqualifiedUnder);
		const until = toText(record.disqualifiedUntil);
		const under = clause ? \`section \${clause}\` : 'section 164';
		return [
			fact(
				'director',
				'directorDisqualified',
				\`disqualified under \${under} of the Companies Act, 2013\${until ? \` until \${dateWords(until)}\` : ''}\`,
				{ date: until, figure: status },
			),
		];
	}
	if (words === 'deactivated')
		return [
			fact('director', 'dinDeactivated', \`DIN deactivated (status '\${status}')\`, {
				figure: status,
			}),
		];
	return [];
}
`,
			);
			const decision = 'nodes/FinVerify/helpers/normalize/decision.ts';
			copy.replace(
				decision,
				'import {\n\tanalysisAdverse,\n',
				'import {\n\tanalysisAdverse,\n\tdirectorAdverse,\n',
			);
			copy.append(
				decision,
				`
/** A DIN's statuses at the registry, in any case. */
const DIN_STATUSES = ['active', 'disqualified', 'deactivated'];

/**
 * Get Director by DIN: the DIN's status (a status outside the registry's words is unknown, like a missing
 * one) and the companies the director is on the board of. \`disqualified\` for a rule: true, false, or
 * null when the status is unknown.
 */
const director: Decide = (record) => {
	const incomplete: string[] = [];
	const words = typeof record.status === 'string' ? record.status.trim().toLowerCase() : null;
	const status = words !== null && DIN_STATUSES.includes(words) ? words : null;
	if (status === null)
		incomplete.push(
			isNull(record.status)
				? 'director status unknown'
				: \`director status unknown ("\${String(record.status)}" is not a DIN status)\`,
		);
	if (isNull(record.companyCount)) incomplete.push('directorships unknown');
	return {
		incomplete,
		aggregates: { disqualified: status === null ? null : status === 'disqualified' },
	};
};

/** Get Director by DIN. */
export const DIRECTOR_DECIDER: Decider = {
	facts: director,
	adverse: (record) => directorAdverse(record),
};
`,
			);
			copy.append(
				'nodes/FinVerify/helpers/normalize/simplified.ts',
				`
/** The Simplified view of \`company.getDirectorByDin\`. */
export const DIRECTOR_VIEW: SimplifiedView = same(
	'status',
	'designation',
	'companyCount',
	'disqualifiedUnder',
	'disqualifiedUntil',
	'din',
	'name',
	'appointedOn',
	'companies',
);

/** Version 3: the Simplified view of \`company.getDirectorByDin\`, the verdict leading. */
export const DIRECTOR_DECISION_VIEW: SimplifiedView = same(
	...VERDICT_ADVERSE,
	'disqualified',
	'status',
	'designation',
	'companyCount',
	'disqualifiedUntil',
	'din',
	'name',
);
`,
			);
		},
	],
	[
		6,
		'the output contract: the response table, the raw-only list, the schemas',
		(copy) => {
			copy.replace(
				'test/contract/responses.cts',
				'\tnormalizeCompany,\n',
				'\tnormalizeCompany,\n\tnormalizeDirector,\n',
			);
			copy.insertBefore(
				'test/contract/responses.cts',
				"\t{\n\t\toperation: 'company.getEntityByPan',\n",
				"\t{\n\t\toperation: 'company.getDirectorByDin',\n\t\tschemas: ['DirectorRecord'],\n\t\tnormalize: normalizeDirector,\n\t},\n",
			);
			copy.insertBefore(
				'test/contract/rawOnly.cts',
				'\tCollectionSession: [\n',
				"\tDirectorRecord: ENVELOPE.filter((e) => e.path === 'success' || e.path === 'message'),\n",
			);
			// the schemas are written by `generateSchemas.cts --only` in the checks below (it runs the copy's code)
		},
	],
	[
		7,
		'the tables of decision fields and of what an AI agent reads; the decision tables',
		(copy) => {
			const order = 'test/unit/simplifiedOrder.test.cts';
			copy.insertBefore(
				order,
				"\t'company.getEntityByPan': ['status', 'entityType', 'dateOfIncorporation'],",
				"\t'company.getDirectorByDin': ['status', 'designation', 'companyCount'],\n",
			);
			const decisions = 'test/unit/drift/decisions.cts';
			copy.replace(
				decisions,
				'\tCOMPANY_REQUIRED,\n',
				'\tCOMPANY_REQUIRED,\n\tDIRECTOR_REQUIRED,\n',
			);
			copy.insertBefore(
				decisions,
				"\t'company.getEntityByPan': {",
				"\t'company.getDirectorByDin': {\n\t\tfields: (n) => pick(n, ['status', 'designation', 'companyCount', 'disqualifiedUntil']),\n\t\trequired: DIRECTOR_REQUIRED,\n\t\tcaseInsensitive: ['status', 'designation'],\n\t},\n",
			);
			copy.insertBefore(
				'test/unit/aiToolView.test.cts',
				"\t'company.getEntityByPan': [",
				"\t'company.getDirectorByDin': [/director/, /\\bDIN\\b/],\n",
			);
			// Decision: the node's outputs, version 3's decision fields, the engine drift's setup, the count
			copy.insertAfter(
				'nodes/FinVerify/FinVerify.node.ts',
				"\t\t'company.getEntityByPan',\n",
				"\t\t'company.getDirectorByDin',\n",
			);
			copy.insertBefore(
				order,
				"\t'employment.getEpfoRecord': [...VERDICT_ADVERSE,",
				"\t'company.getDirectorByDin': [...VERDICT_ADVERSE, 'disqualified', 'status', 'designation'],\n",
			);
			copy.insertBefore(
				'test/integration/drift/engineRun.cts',
				"\t'employment.getEpfoRecord': {\n",
				`	'company.getDirectorByDin': {
		operation: 'company.getDirectorByDin',
		path: 'corporate/din-lookup',
		parameters: { resource: 'company', operation: 'getDirectorByDin', din: '={{ $json.din }}' },
		input: (index) => ({ din: digits(index, 8) }),
		indexOf: (request) => Number(body(request).din),
	},
`,
			);
			copy.replace(
				'test/unit/decision.test.cts',
				'expect(DECISION_OPERATIONS).toHaveLength(8);',
				'expect(DECISION_OPERATIONS).toHaveLength(9);',
			);
		},
	],
	[
		8,
		'the tests: the normalizer and the validator alone, workflow fixtures run through the engine',
		(copy) => {
			copy.write(
				'test/unit/normalize/director.test.cts',
				`import { decide } from '../../../nodes/FinVerify/actions/declarations';
import { normalizeDirector } from '../../../nodes/FinVerify/helpers/normalize/company';

const answer = (data: object) =>
	normalizeDirector({
		success: true,
		message: 'ok',
		data: {
			din: '${DIN}',
			name: 'ASHA VERMA',
			designation: 'Director',
			date_of_appointment: '2015-04-01',
			companies: [{ cin: 'l17110mh1973plc019786', company_name: 'ACME TEXTILES LIMITED' }],
			...data,
		},
	});

test('a director: status, role, companies counted, dates as ISO dates, a missing list empty', () => {
	expect(answer({ status: 'Active' })).toEqual({
		shape: 'reference',
		status: 'Active',
		designation: 'Director',
		companyCount: 1,
		disqualifiedUnder: null,
		disqualifiedUntil: null,
		din: '${DIN}',
		name: 'ASHA VERMA',
		appointedOn: '2015-04-01',
		companies: [{ cin: 'L17110MH1973PLC019786', name: 'ACME TEXTILES LIMITED' }],
	});
	expect(normalizeDirector({ data: {} })).toMatchObject({
		status: null,
		companyCount: null,
		companies: [],
		din: null,
	});
});

test('the decider: ready on a known status and directorships, unknown in words, section 164 adverse', () => {
	expect(decide('company.getDirectorByDin', answer({ status: 'ACTIVE' }))).toEqual({
		decisionReady: true,
		incomplete: [],
		disqualified: false,
		adverse: [],
	});
	expect(decide('company.getDirectorByDin', answer({ companies: [] }))).toMatchObject({
		decisionReady: false,
		incomplete: ['director status unknown', 'directorships unknown'],
		disqualified: null,
	});
	expect(decide('company.getDirectorByDin', answer({ status: 'Struck' }))).toMatchObject({
		incomplete: ['director status unknown ("Struck" is not a DIN status)'],
	});
	const disqualified = answer({
		status: 'Disqualified',
		disqualified_under: '164(2)(a)',
		disqualified_until: '2027-10-31',
	});
	expect(decide('company.getDirectorByDin', disqualified)).toMatchObject({
		decisionReady: true,
		disqualified: true,
		adverse: [
			{
				text: 'Director: disqualified under section 164(2)(a) of the Companies Act, 2013 until 31 October 2027',
				source: 'director',
				kind: 'directorDisqualified',
				date: '2027-10-31',
				figure: 'Disqualified',
			},
		],
	});
	expect(
		decide('company.getDirectorByDin', answer({ status: 'Deactivated' })).adverse,
	).toMatchObject([
		{ kind: 'dinDeactivated', text: "Director: DIN deactivated (status 'Deactivated')" },
	]);
});
`,
			);
			copy.replace(
				'test/unit/validation.test.cts',
				'\tassertCin,\n',
				'\tassertCin,\n\tassertDin,\n',
			);
			copy.append(
				'test/unit/validation.test.cts',
				`
test('assertDin: 8 digits, the field named otherwise', () => {
	expect(assertDin({ node, itemIndex: 0 }, ' ${DIN} ')).toBe('${DIN}');
	expect(() => assertDin({ node, itemIndex: 2 }, '1234')).toThrow('Invalid DIN in item 2 (got "1234")');
});
`,
			);
			const fixture = (name: string, title: string, dins: string[], version = 1) => {
				const wf = JSON.parse(
					copy.read('test/integration/workflows/company/getEntityByPan.workflow.json'),
				) as {
					name: string;
					nodes: Array<{ parameters: Record<string, unknown> }>;
					pinData: object;
				};
				wf.name = title;
				const parameters = wf.nodes[1].parameters;
				delete parameters.pan;
				Object.assign(parameters, { operation: 'getDirectorByDin', din: '={{ $json.din }}' });
				if (version === 3) {
					// Decision: version 3's three outputs (0 Complete, 1 Incomplete, 2 Failed)
					(wf.nodes[1] as { typeVersion?: number }).typeVersion = 3;
					delete parameters.simplify;
					Object.assign(parameters, {
						outputMode: 'simplified',
						incompleteAnswers: 'separateOutput',
						failedItems: 'failedOutput',
					});
				}
				wf.pinData = { Start: dins.map((din) => ({ json: { din } })) };
				copy.write(
					`test/integration/workflows/company/${name}.workflow.json`,
					`${JSON.stringify(wf, null, '\t')}\n`,
				);
			};
			fixture(
				'getDirectorByDin',
				'Director by DIN, version 3',
				[DIN, DIN_NO_STATUS, DIN_DISQUALIFIED, DIN_NOT_FOUND],
				3,
			);
			fixture('getDirectorByDin.invalidDin', 'Director by DIN, invalid DIN', ['1234']);
			fixture('getDirectorByDin.notFound', 'Director by DIN, unknown DIN', [DIN_NOT_FOUND]);
			copy.replace(
				'test/integration/company.test.cts',
				'\tversionThreeWorkflow,\n',
				'\tversionThreeOutputs,\n\tversionThreeWorkflow,\n',
			);
			copy.append(
				'test/integration/company.test.cts',
				`
describe('Get Director by DIN', () => {
	const sandbox = withSandbox();

	test('version 3: a full answer on Complete, one without the status on Incomplete, a failure on Failed', async () => {
		const result = await sandbox.run(fixture('getDirectorByDin'));
		expect(result.error).toBeUndefined();
		const { complete, incomplete, failed } = versionThreeOutputs(result);
		expect(complete).toHaveLength(2);
		// the decision view leads with the verdict
		expect(Object.keys(complete[0]).slice(0, 4)).toEqual([
			'decisionReady',
			'incomplete',
			'adverse',
			'disqualified',
		]);
		expect(complete[0]).toMatchObject({
			decisionReady: true,
			incomplete: [],
			adverse: [],
			disqualified: false,
			status: 'Active',
			din: '${DIN}',
			designation: 'Director',
			companyCount: 1,
		});
		// a disqualified director's answer is complete, and says what is against them
		expect(complete[1]).toMatchObject({
			decisionReady: true,
			disqualified: true,
			din: '${DIN_DISQUALIFIED}',
			adverse: [
				expect.objectContaining({
					kind: 'directorDisqualified',
					source: 'director',
					text: expect.stringMatching(/^Director: disqualified under section 164\\(2\\)\\(a\\)/),
				}),
			],
		});
		expect(incomplete).toEqual([
			expect.objectContaining({
				decisionReady: false,
				incomplete: ['director status unknown'],
				disqualified: null,
				din: '${DIN_NO_STATUS}',
			}),
		]);
		expect(failed).toEqual([expect.objectContaining({ din: '${DIN_NOT_FOUND}' })]);
		expect(JSON.stringify(failed[0].error)).toMatch(/DIN_NOT_FOUND|No director found/);
	});

	test('an invalid DIN names the field; nothing is sent', async () => {
		const result = await expectNothingSent(
			sandbox,
			'din-lookup',
			async () => await sandbox.run(fixture('getDirectorByDin.invalidDin')),
		);
		expect(result.error?.message).toBe('Invalid DIN in item 0 (got "1234")');
	});

	test("an unknown DIN is the service's 404", async () => {
		const result = await sandbox.run(fixture('getDirectorByDin.notFound'));
		expect(result.error?.message).toMatch(/DIN_NOT_FOUND|No director found/);
	});
});
`,
			);
		},
	],
	[
		9,
		"the documentation: the operation's section and row in docs/operations.md, the README's row, its decision facts in docs/output.md",
		(copy) => {
			copy.insertBefore(
				'docs/operations.md',
				'| Company | [Get Entity by PAN](#get-entity-by-pan)',
				'| Company | [Get Director by DIN](#get-director-by-din) | `POST corporate/din-lookup` | director, the companies they direct |\n',
			);
			copy.insertBefore(
				'docs/operations.md',
				'### Get Entity by PAN\n',
				'### Get Director by DIN\n\nResource / operation values: `company` / `getDirectorByDin`.\n\n' +
					'`POST corporate/din-lookup`. **DIN** (8 digits) is checked before sending.\n\n',
			);
			// Decision: its facts, its adverse facts (their kinds and source) and version 3's fields in output.md
			const output = 'docs/output.md';
			copy.insertBefore(
				output,
				'| Get ITR Data | the returns list',
				"| Get Director by DIN | the DIN's status (Active, Disqualified or Deactivated; another word is unknown), the companies the director is on the board of | `disqualified`: true, false, null (status unknown) |\n",
			);
			copy.insertBefore(
				output,
				'| Get ITR Data | each outstanding demand',
				'| Get Director by DIN | a director disqualified under section 164 of the Companies Act, 2013 (its clause and end date where stated); a deactivated DIN | `Director: disqualified under section 164(2)(a) of the Companies Act, 2013 until 31 October 2027` |\n',
			);
			copy.replace(
				output,
				'`entity`, `itr`, `bankStatement` |',
				'`entity`, `director`, `itr`, `bankStatement` |',
			);
			copy.replace(
				output,
				'`taxDemand`, `noCurrentEmployer` |',
				'`taxDemand`, `noCurrentEmployer`, `directorDisqualified`, `dinDeactivated` |',
			);
			copy.insertBefore(
				output,
				'| employment.getEpfoRecord | `decisionReady`',
				'| company.getDirectorByDin | `decisionReady`, `incomplete`, `adverse`, `disqualified`, `status`, `designation`, `companyCount`, `disqualifiedUntil`, `din`, `name` |\n',
			);
			copy.insertBefore(
				'README.md',
				' · [Get Entity by PAN](',
				' · [Get Director by DIN](https://github.com/n8n-nodes-finverify/n8n-nodes-finverify/blob/main/docs/operations.md#get-director-by-din): a director and their companies',
			);
		},
	],
];

const OPERATION_FILE = 'nodes/FinVerify/actions/company/getDirectorByDin.operation.ts';
const DECLARATIONS_TEST = 'test/unit/operationDeclarations.test.cts';

/**
 * The recipe's **Decision** pieces, each left out alone (edits undoing what the steps wrote), the unit test
 * that must then fail, and the words its failure must say: the operation and the missing piece.
 */
const LEFT_OUT: Array<{
	piece: string;
	edits: Array<[file: string, from: string, to: string]>;
	test: string;
	says: RegExp;
}> = [
	{
		piece: 'the decider export',
		edits: [[OPERATION_FILE, 'export const decider: Decider = DIRECTOR_DECIDER;\n', '']],
		test: DECLARATIONS_TEST,
		says: /company\.getDirectorByDin offers Incomplete Answers but declares no decider: export `decider`/,
	},
	{
		piece: "the entry in configuredOutputs's list",
		edits: [['nodes/FinVerify/FinVerify.node.ts', "\t\t'company.getDirectorByDin',\n", '']],
		test: DECLARATIONS_TEST,
		says: /company\.getDirectorByDin declares a decider but the node's outputs do not list it: add 'company\.getDirectorByDin' to `configuredOutputs`/,
	},
	{
		piece: 'the decision view',
		edits: [
			[
				OPERATION_FILE,
				'\tsimplified: DIRECTOR_VIEW,\n\tdecision: DIRECTOR_DECISION_VIEW,\n',
				'\tsimplified: DIRECTOR_VIEW,\n',
			],
		],
		test: DECLARATIONS_TEST,
		says: /company\.getDirectorByDin declares a decider but no version 3 decision view: add `views\.decision`/,
	},
	{
		piece: 'the decision fields (Output without Incomplete Answers)',
		edits: [
			[
				OPERATION_FILE,
				"import { decisionOutputFields } from '../common.descriptions';",
				"import { outputModeFields } from '../common.descriptions';",
			],
			[OPERATION_FILE, '\t...decisionOutputFields,\n', '\t...outputModeFields,\n'],
		],
		test: DECLARATIONS_TEST,
		says: /company\.getDirectorByDin declares a decider but does not offer Incomplete Answers: add `decisionOutputFields`/,
	},
	{
		piece: 'the entry in V3_DECISION_FIELDS',
		edits: [
			[
				'test/unit/simplifiedOrder.test.cts',
				"\t'company.getDirectorByDin': [...VERDICT_ADVERSE, 'disqualified', 'status', 'designation'],\n",
				'',
			],
		],
		test: 'test/unit/simplifiedOrder.test.cts',
		says: /company\.getDirectorByDin declares a decider but has no entry in V3_DECISION_FIELDS/,
	},
];

describe('adding an operation by the recipe (docs/ARCHITECTURE.md)', () => {
	let copy: Copy;
	beforeAll(() => {
		copy = new Copy(copyRepository());
	});
	// FINVERIFY_RECIPE_KEEP=1 keeps the copy to look into (its path is printed)
	afterAll(() => {
		if (process.env.FINVERIFY_RECIPE_KEEP === '1') console.log(`recipe copy kept: ${copy.dir}`);
		else rmSync(copy.dir, { recursive: true, force: true });
	});

	test('the recipe lists these steps, in this order', () => {
		const recipe = readFileSync(path.join(REPO, 'docs', 'ARCHITECTURE.md'), 'utf8');
		const section = recipe.slice(recipe.indexOf('## Adding an operation'));
		const numbered = [...section.matchAll(/^(\d+)\. \*\*/gm)].map((m) => Number(m[1]));
		expect(numbered).toEqual(STEPS.map(([n]) => n));
	});

	test('each step applies to the files it names', () => {
		for (const [n, what, apply] of STEPS) {
			try {
				apply(copy);
			} catch (error) {
				throw new Error(`step ${n} (${what}): ${(error as Error).message}`);
			}
		}
	});

	test('the output schemas of the new operation are generated', async () => {
		const generated = await copy.run(process.execPath, [
			'--require',
			'tsx/cjs',
			'test/contract/generateSchemas.cts',
			'--only',
			'company.getDirectorByDin',
		]);
		expect({ code: generated.code, out: generated.out }).toEqual({
			code: 0,
			// Normalized (v1.0.0), Simplified of version 2 (v2.0.0) and of version 3 (v3.0.0)
			out: expect.stringContaining('3 schema files'),
		});
	});

	test('then the type check passes', async () => {
		const typecheck = await copy.run(process.execPath, [
			'node_modules/typescript/bin/tsc',
			'-p',
			'tsconfig.test.json',
			'--noEmit',
		]);
		expect({ code: typecheck.code, out: typecheck.out }).toEqual({ code: 0, out: '' });
	});

	test('and every unit test, and the resource integration suite, pass', async () => {
		const tests = await copy.run(process.execPath, [
			'node_modules/jest/bin/jest.js',
			'--selectProjects',
			'unit',
			'integration',
			'--testPathPattern',
			'test/(unit|sandbox)/|test/integration/company\\.test\\.cts',
			'--maxWorkers=2',
			'--ci',
			'--verbose',
		]);
		const summary = /^Tests:.*$/m.exec(tests.out)?.[0];
		// the figure a report quotes: how many tests ran in the copy
		console.log(`recipe copy: ${summary ?? 'no summary'}`);
		const failed = [...tests.out.matchAll(/^\s+● (.*)$/gm)].map((m) => m[1]);
		expect({ code: tests.code, summary, failed }).toEqual({
			code: 0,
			summary: expect.stringMatching(/^Tests: +\d+ passed, \d+ total$/),
			failed: [],
		});
		expect(tests.out).toMatch(/Get Director by DIN/);
	});

	test.each(LEFT_OUT.map((c) => [c.piece, c] as const))(
		'without %s, its check fails naming the operation and the piece',
		async (_, { edits, test: file, says }) => {
			const before = new Map(edits.map(([edited]) => [edited, copy.read(edited)]));
			try {
				for (const [edited, from, to] of edits) copy.replace(edited, from, to);
				const run = await copy.run(process.execPath, [
					'node_modules/jest/bin/jest.js',
					file,
					'--maxWorkers=1',
					'--ci',
				]);
				expect(run.code).toBe(1);
				expect(run.out).toMatch(says);
			} finally {
				for (const [edited, text] of before) copy.write(edited, text);
			}
		},
	);
});
