/**
 * The undrifted bodies the drift suite starts from, per operation: the OpenAPI example of every response
 * schema (both shapes, every property filled; test/contract/openapiExamples.cts) and bodies of the
 * sandbox's generators (realistic and self-consistent: a loan with 30 days past due, employers with
 * dates, accounts with transactions), a few subjects each.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	multiBureauReference,
	multiBureauSample,
	type Bureau,
} from '../../../sandbox/data/bureau.cjs';
import {
	NameRegistry,
	companyReference,
	companySample,
	llpReference,
	llpSample,
	panReference,
	panSample,
} from '../../../sandbox/data/corporate.cjs';
import { epfoCrifReference, epfoCrifSample, epfoRecord } from '../../../sandbox/data/epfo.cjs';
import { itrReference, itrSample } from '../../../sandbox/data/itr.cjs';
import {
	analysisReference,
	analysisSample,
	bankAccounts,
	statementReference,
	statementSample,
	type JourneyView,
} from '../../../sandbox/data/statements.cjs';
import { example } from '../../contract/openapiExamples.cjs';
import { RESPONSES } from '../../contract/responses.cjs';

export interface Seed {
	operation: string;
	/** Where the body comes from: `openapi:<Schema>` or `sandbox:<generator>(<subject>)`. */
	label: string;
	body: IDataObject;
}

const BUREAUS: Bureau[] = ['cibil', 'crif', 'equifax', 'experian'];
const PANS = ['ABCPS1234K', 'BXZPM7788Q', 'CQWPK4521L'];
const MOBILES = ['9876543210', '9123456780', '8012345678'];
const NAMES = ['Priya Sharma', 'Rahul Mehta', 'Anita Rao'];

const link = (what: string) => `http://127.0.0.1:4010/files/${what}`;

function sandboxSeeds(): Seed[] {
	const seeds: Seed[] = [];
	const add = (operation: string, label: string, body: unknown) =>
		seeds.push({ operation, label: `sandbox:${label}`, body: body as IDataObject });

	PANS.forEach((pan, i) => {
		const input = {
			pan,
			name: NAMES[i],
			mobile_number: MOBILES[i],
			gender: (i % 2 ? 'male' : 'female') as 'male' | 'female',
			bureaus: BUREAUS,
		};
		add(
			'creditReport.getMultiBureauReport',
			`multiBureauReference(${pan})`,
			multiBureauReference(input, `req_${i}`),
		);
		add(
			'creditReport.getMultiBureauReport',
			`multiBureauSample(${pan})`,
			multiBureauSample(input, (bureau) => link(`${bureau}-${pan}`)),
		);
	});
	for (const mobile of MOBILES) {
		add('employment.getEpfoRecord', `epfoRecord(${mobile})`, epfoRecord(mobile));
		add(
			'employment.getEpfoRecordWithCredit',
			`epfoCrifReference(${mobile})`,
			epfoCrifReference(mobile),
		);
		add('employment.getEpfoRecordWithCredit', `epfoCrifSample(${mobile})`, epfoCrifSample(mobile));
	}

	const registry = new NameRegistry();
	const cin = 'U72200KA2015PTC081234';
	const llpin = 'AAB-1234';
	add('company.getByCin', `companyReference(${cin})`, companyReference(cin, registry));
	add('company.getByCin', `companySample(${cin})`, companySample(cin, registry, link('company')));
	add('company.getLlpByLlpin', `llpReference(${llpin})`, llpReference(llpin, registry));
	add('company.getLlpByLlpin', `llpSample(${llpin})`, llpSample(llpin, registry));
	add('company.getEntityByPan', 'panReference(AABCA1234F)', panReference('AABCA1234F', registry));
	add('company.getEntityByPan', 'panSample(AABCA1234F)', panSample('AABCA1234F', registry));

	const job = { jobId: 'job_drift_1', pan: 'ABCPS1234K' };
	add('incomeTaxReturn.getData', 'itrReference(ABCPS1234K)', itrReference(job));
	add(
		'incomeTaxReturn.getData',
		'itrSample(ABCPS1234K)',
		itrSample(job, (ack) => link(ack)),
	);

	const clientId = 'aa_5f2c0b7e9a1d4c3b8e6f0a2d';
	const accounts = bankAccounts(MOBILES[0]);
	const journey: JourneyView = {
		clientId,
		status: 'completed',
		failedAtStage: null,
		errorMessage: null,
		createdAt: '2025-03-01T10:00:00.000Z',
		updatedAt: '2025-03-01T10:05:00.000Z',
	};
	const files = () => ({
		analysisHtml: link('analysis.html'),
		analysisJson: link('analysis.json'),
		statementPdf: link('statement.pdf'),
		analysisPdf: link('analysis.pdf'),
	});
	add(
		'bankStatementJourney.getStatementResult',
		'statementReference',
		statementReference(clientId, accounts),
	);
	add(
		'bankStatementJourney.getStatementResult',
		'statementSample',
		statementSample(journey, accounts, files),
	);
	add(
		'bankStatementJourney.getAnalysis',
		'analysisReference',
		analysisReference(clientId, accounts),
	);
	add('bankStatementJourney.getAnalysis', 'analysisSample', analysisSample(journey, accounts));
	return seeds;
}

/** Every seed body, OpenAPI examples first. */
export function seeds(): Seed[] {
	const fromOpenapi: Seed[] = RESPONSES.flatMap((contract) =>
		contract.schemas.map((schema) => ({
			operation: contract.operation,
			label: `openapi:${schema}`,
			body: example({ $ref: `#/components/schemas/${schema}` }) as IDataObject,
		})),
	);
	return [...fromOpenapi, ...sandboxSeeds()];
}
