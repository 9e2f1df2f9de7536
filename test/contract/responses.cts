/**
 * Which normalizer reads which response schema of the OpenAPI contract, per node operation: the table the
 * output-contract tests (coverage, same facts, schemas) walk.
 */
import type { IDataObject } from 'n8n-workflow';

import { normalizeCollectionSession } from '../../nodes/FinVerify/helpers/normalize/collectionSession';
import {
	normalizeAutocomplete,
	normalizeCompany,
	normalizeEntity,
	normalizeLlp,
} from '../../nodes/FinVerify/helpers/normalize/company';
import {
	commercialReportHtml,
	normalizeCommercialReport,
	normalizeMultiBureau,
} from '../../nodes/FinVerify/helpers/normalize/creditReport';
import {
	normalizeEpfo,
	normalizeEpfoCredit,
} from '../../nodes/FinVerify/helpers/normalize/employment';
import {
	normalizeAnalysisJob,
	normalizeItrData,
	normalizePasswordReset,
} from '../../nodes/FinVerify/helpers/normalize/incomeTax';
import {
	normalizeAnalysis,
	normalizeJourneyStart,
	normalizeJourneyStatus,
	normalizeStatementResult,
} from '../../nodes/FinVerify/helpers/normalize/journey';

/**
 * The registry's answers with a status of its vocabulary (the OpenAPI examples' placeholder text is no
 * status: unknown), one active and one struck off, so the schemas see a status, its category and the
 * adverse facts of a declinable answer (issue 45).
 */
function registryStatuses(body: IDataObject): IDataObject[] {
	return ['Active', 'Struck Off'].map((status) => {
		const copy = structuredClone(body);
		const data = copy.data as IDataObject;
		const result = data.result as IDataObject | undefined;
		if (result) {
			result.status = status;
			const company = result.company as IDataObject | undefined;
			if (company) company.status = status;
		} else data.status = status;
		return copy;
	});
}

export interface ResponseContract {
	/** `<resource>.<operation>` of the node. */
	operation: string;
	/** OpenAPI component schemas of the response, one per documented shape. */
	schemas: string[];
	/** The normalizer the operation's Normalized output comes from. */
	normalize: (body: unknown) => unknown;
	/**
	 * Further versions of a generated example that reach the normalizer's other branches (an LLP entry,
	 * an answer without the partial marker); the coverage test counts what any version reads.
	 */
	variants?: (body: IDataObject) => IDataObject[];
}

const without =
	(...keys: string[]) =>
	(body: IDataObject): IDataObject[] => {
		const copy = structuredClone(body);
		for (const key of keys) delete copy[key];
		return [copy];
	};

export const RESPONSES: ResponseContract[] = [
	{
		operation: 'creditReport.getMultiBureauReport',
		schemas: ['MultiBureauReference', 'MultiBureauSample'],
		normalize: (body) => normalizeMultiBureau(body, ['cibil', 'crif', 'equifax', 'experian']),
	},
	{
		operation: 'creditReport.getCommercialReport',
		schemas: ['CommercialReport'],
		// the JSON-only output (Report As: JSON Only) carries the HTML as reportHtml
		normalize: (body) => ({
			...normalizeCommercialReport(body),
			reportHtml: commercialReportHtml(body),
		}),
	},
	{
		operation: 'company.getByCin',
		schemas: ['CompanyReference', 'CompanySample'],
		normalize: normalizeCompany,
		variants: registryStatuses,
	},
	{
		operation: 'company.getLlpByLlpin',
		schemas: ['LlpReference', 'LlpSample'],
		normalize: normalizeLlp,
		variants: registryStatuses,
	},
	{
		operation: 'company.getEntityByPan',
		schemas: ['PanEntityReference', 'PanEntitySample'],
		normalize: normalizeEntity,
		variants: registryStatuses,
	},
	{
		operation: 'company.searchByName',
		schemas: ['AutocompleteReference', 'AutocompleteSample'],
		normalize: normalizeAutocomplete,
		variants: (body) => {
			const copy = structuredClone(body);
			for (const entry of Array.isArray(copy.data) ? (copy.data as IDataObject[]) : [])
				entry.entity_type = 'LLP';
			return [copy];
		},
	},
	{ operation: 'employment.getEpfoRecord', schemas: ['EpfoRecord'], normalize: normalizeEpfo },
	{
		operation: 'employment.getEpfoRecordWithCredit',
		schemas: ['EpfoCrifReference', 'EpfoCrifSample'],
		normalize: normalizeEpfoCredit,
		variants: without('partial', 'missing'),
	},
	{
		operation: 'incomeTaxReturn.startAnalysis',
		schemas: ['ItrJobStarted'],
		normalize: normalizeAnalysisJob,
	},
	{
		operation: 'incomeTaxReturn.getAnalysisStatus',
		schemas: ['ItrJobStatus'],
		normalize: normalizeAnalysisJob,
	},
	{
		operation: 'incomeTaxReturn.getData',
		schemas: ['ItrDataReference', 'ItrDataSample'],
		normalize: normalizeItrData,
	},
	{
		operation: 'incomeTaxReturn.resetPortalPassword',
		schemas: ['PasswordResetState'],
		normalize: normalizePasswordReset,
	},
	{
		operation: 'bankStatementJourney.start',
		schemas: ['JourneyCreated'],
		normalize: normalizeJourneyStart,
	},
	{
		operation: 'bankStatementJourney.getStatus',
		schemas: ['JourneyStatusReference', 'JourneyStatusSample'],
		normalize: normalizeJourneyStatus,
	},
	{
		operation: 'bankStatementJourney.getStatementResult',
		schemas: ['StatementReference', 'StatementSample'],
		normalize: normalizeStatementResult,
	},
	{
		operation: 'bankStatementJourney.getAnalysis',
		schemas: ['AnalysisReference', 'AnalysisSample'],
		normalize: normalizeAnalysis,
	},
	{
		operation: 'collectionSession.create',
		schemas: ['CollectionSession'],
		normalize: normalizeCollectionSession,
	},
];
