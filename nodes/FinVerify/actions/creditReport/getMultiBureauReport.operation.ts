import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	bureauReport,
	bureauReportLayout,
	MULTI_BUREAU_REQUIRED,
	normalizeMultiBureau,
} from '../../helpers/normalize/creditReport';
import type { BureauOutcome } from '../../helpers/normalize/creditReport';
import { MULTI_BUREAU_FACTS } from '../../helpers/answerFacts';
import type { DownloadSwitch } from '../../helpers/documents';
import { downloadFile, downloadProperty, personalFileName } from '../../helpers/documents';
import type { PersonalDataChoice } from '../../helpers/personalData';
import type { Bureau } from '../../helpers/validation';
import {
	assertBureaus,
	assertMobile,
	assertPan,
	BUREAUS,
	requireText,
} from '../../helpers/validation';
import type { DecideOptions, Decider } from '../../helpers/normalize/decision';
import {
	MULTI_BUREAU_DECIDER,
	splitWithVerdict,
	withDecisionBy,
} from '../../helpers/normalize/decision';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import {
	beforeRunningNotice,
	downloadFields,
	bureausField,
	consentField,
	consentReferenceField,
	fullNameField,
	genderField,
	mobileNumberField,
	decisionOutputFields,
	panField,
	readConsent,
	readGender,
	normalizedOutputOnly,
} from '../common.descriptions';
import { outputMode, personalDataChoice } from '../../helpers/outputChoice';
import { addsVerdict, FROM_VERSION_3 } from '../../../shared/versions';
import type { SimplifiedViews } from '../../helpers/normalize/simplified';
import { MULTI_BUREAU_DECISION_VIEW, MULTI_BUREAU_VIEW } from '../../helpers/normalize/simplified';

const BUREAU_NAMES: Record<string, string> = {
	cibil: 'CIBIL',
	crif: 'CRIF High Mark',
	equifax: 'Equifax',
	experian: 'Experian',
};

const FILE_FIELD_LABEL = 'Put Report Files in Field';
/** Version 1 named the switch downloadReportPdf. */
const DOWNLOAD: DownloadSwitch = { v1Name: 'downloadReportPdf' };

const properties: INodeProperties[] = [
	beforeRunningNotice(
		"the subject's PAN, full name, 10-digit mobile number and gender (female or male), and " +
			'Subject Has Consented set to Yes',
	),
	panField,
	fullNameField,
	mobileNumberField,
	genderField,
	bureausField,
	consentField,
	consentReferenceField,
	...decisionOutputFields,
	...decideOnFields(),
	...downloadFields(
		'Download Report PDFs',
		"Whether to download each bureau's report document (the response's report link) as a binary " +
			'file. Bureaus without a link get no file.',
		{
			displayName: FILE_FIELD_LABEL,
			hint:
				'Without splitting, each bureau gets its own field: this name, an underscore and the bureau, ' +
				'e.g. data_cibil',
		},
		DOWNLOAD,
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Full Bureau Reports',
				name: 'includeFullReports',
				type: 'boolean',
				default: false,
				displayOptions: normalizedOutputOnly,
				description:
					"Whether to add each bureau's complete report (accounts, enquiries, payment history) to the output, in a report field",
				hint: "reportLayout names the report's layout: reference, or the bureau's own",
			},
			{
				displayName: 'Split Into One Item per Bureau',
				name: 'splitIntoItems',
				type: 'boolean',
				default: false,
				description:
					'Whether to output one item per requested bureau instead of one item with a list of ' +
					'bureaus. Each item keeps the PAN and request ID.',
			},
		],
	},
];

const displayOptions = {
	show: { resource: ['creditReport'], operation: ['getMultiBureauReport'] },
};

/**
 * The policy's facts (version 3, Simplified and Normalized): which bureaus must answer and whether
 * their payment history is required; decisionReady is computed over exactly these (never fewer) and
 * each answer names them in decidedOn (helpers/normalize/decision.ts, docs/output.md).
 */
function decideOnFields(): INodeProperties[] {
	const shown = {
		show: FROM_VERSION_3,
		hide: { '/outputMode': ['raw'] },
	} satisfies INodeProperties['displayOptions'];
	return [
		{
			displayName: 'Bureaus That Must Answer',
			name: 'bureausMustAnswer',
			type: 'options',
			noDataExpression: true,
			default: 'all',
			options: [
				{
					name: 'All Requested (Safe Choice)',
					value: 'all',
					description:
						'Ready only when every requested bureau sent a report with a usable score (and payment history)',
				},
				{
					name: 'At Least One',
					value: 'atLeastOne',
					description:
						'Ready when one bureau answered in full; the others may have failed or have no record',
				},
				{
					name: 'Named Bureaus',
					value: 'named',
					description: 'Ready when each bureau picked below answered in full',
				},
			],
			description:
				'The bureaus your lending policy decides on: decisionReady is true only when they answered in full',
			hint: 'Known figures of the other bureaus still count: a known low score or delinquency is never hidden',
			displayOptions: shown,
		},
		{
			displayName: 'Must Answer',
			name: 'mustAnswerBureaus',
			type: 'multiOptions',
			noDataExpression: true,
			default: [],
			options: BUREAUS.map((b) => ({ name: BUREAU_NAMES[b], value: b })),
			description: 'The bureaus that must answer in full (at least one, among the requested ones)',
			displayOptions: {
				show: { ...shown.show, bureausMustAnswer: ['named'] },
				hide: shown.hide,
			},
		},
		{
			displayName: 'Payment History Required',
			name: 'paymentHistoryRequired',
			type: 'boolean',
			noDataExpression: true,
			default: true,
			description:
				"Whether a bureau's payment history (days past due) must be known for the answer to be ready. Off: a known score is enough, and maxDaysPastDue may be null on a ready answer.",
			displayOptions: shown,
		},
	];
}

/** An item's policy (version 3, Simplified and Normalized). */
function readPolicy(
	context: IExecuteFunctions,
	itemIndex: number,
	requested: readonly string[],
): DecideOptions {
	const choice = context.getNodeParameter('bureausMustAnswer', itemIndex, 'all');
	const paymentHistory =
		context.getNodeParameter('paymentHistoryRequired', itemIndex, true) !== false;
	if (choice === 'atLeastOne') return { bureaus: 'atLeastOne', paymentHistory };
	if (choice !== 'named') return { bureaus: 'all', paymentHistory };
	const picked = context.getNodeParameter('mustAnswerBureaus', itemIndex, []);
	const named = BUREAUS.filter((b) => Array.isArray(picked) && picked.includes(b));
	const notRequested = named.filter((b) => !requested.includes(b));
	if (named.length === 0 || notRequested.length > 0)
		throw new NodeOperationError(
			context.getNode(),
			named.length === 0
				? 'Bureaus That Must Answer: no bureau named'
				: `Bureaus That Must Answer names ${notRequested.map((b) => BUREAU_NAMES[b]).join(', ')}, which Bureaus does not request`,
			{
				itemIndex,
				description: `Pick under Must Answer one or more of the requested bureaus (${requested.map((b) => BUREAU_NAMES[b] ?? b).join(', ')}), or choose All Requested.`,
			},
		);
	return { bureaus: named, paymentHistory };
}

export const description = updateDisplayOptions(displayOptions, properties);

/** Its Simplified item: what it picks from the Normalized record (helpers/normalize/simplified.ts). */
export const views: SimplifiedViews = {
	simplified: MULTI_BUREAU_VIEW,
	decision: MULTI_BUREAU_DECISION_VIEW,
};

/** What its decision rests on (helpers/normalize/decision.ts): it offers Incomplete Answers. */
export const decider: Decider = MULTI_BUREAU_DECIDER;

/** What the subject consented to, for the output's consent record. */
export const consentPurpose =
	'Credit reports and scores of a person from the chosen credit bureaus';

type FullReports = Map<string, { layout: string; report: IDataObject | null }>;

/**
 * The "Include Full Bureau Reports" fields of one bureau: the report as the service sent it and
 * `reportLayout`, which says whose layout it is ("reference", or the bureau's own in the sample
 * shape).
 */
function fullReport(reports: FullReports, bureau: string): IDataObject {
	const entry = reports.get(bureau);
	return entry ? { report: entry.report, reportLayout: entry.layout } : {};
}

/**
 * One output item per bureau: the shared request facts plus that bureau's outcome (or raw entry).
 */
function splitItems(
	response: IDataObject,
	outcomes: BureauOutcome[],
	simplify: boolean,
	common: IDataObject,
	reports: FullReports,
): IDataObject[] {
	if (simplify) {
		return outcomes.map((outcome) => ({
			...common,
			...outcome,
			...fullReport(reports, outcome.bureau),
		}));
	}
	const entries = (
		typeof response.results === 'object' && response.results !== null
			? response.results
			: response.data
	) as IDataObject | undefined;
	return outcomes.map((outcome) => ({
		bureau: outcome.bureau,
		...((entries?.[outcome.bureau] as IDataObject | undefined) ?? {}),
	}));
}

interface MultiBureauRequest {
	body: IDataObject & { pan: string };
	bureaus: Bureau[];
	simplify: boolean;
	/** Where the report files go; '' when not downloading. */
	binaryProperty: string;
	split: boolean;
	includeFullReports: boolean;
	/** Version 3: split items carry the verdict of the whole answer. */
	withVerdict: boolean;
	/** Personal Data in Output: the file names follow it. */
	personalData: PersonalDataChoice;
	/** Version 3: the bureaus and facts the verdict rests on. */
	decideOn?: DecideOptions;
}

export function read(this: IExecuteFunctions, itemIndex: number): MultiBureauRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const pan = assertPan(ctx, this.getNodeParameter('pan', itemIndex, ''));
	const name = requireText(ctx, 'Full Name', this.getNodeParameter('name', itemIndex, ''), {
		minLength: 2,
		maxLength: 200,
		expected: 'the full legal name of the subject, at least 2 characters, e.g. Priya Sharma',
	});
	const mobile = assertMobile(ctx, this.getNodeParameter('mobileNumber', itemIndex, ''));
	const gender = readGender(ctx, this.getNodeParameter('gender', itemIndex, ''));
	const bureaus = assertBureaus(ctx, this.getNodeParameter('bureaus', itemIndex, []));
	const consent = readConsent(ctx, this.getNodeParameter('consent', itemIndex, false));
	const mode = outputMode(this, itemIndex);
	const simplify = mode !== 'raw';
	const withVerdict = addsVerdict(this.getNode().typeVersion, mode);
	const binaryProperty =
		downloadProperty.call(this, itemIndex, { ...DOWNLOAD, fieldLabel: FILE_FIELD_LABEL }) ?? '';
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		body: { pan, name, mobile_number: mobile, consent, gender, bureaus },
		bureaus,
		simplify,
		binaryProperty,
		split: options.splitIntoItems === true,
		includeFullReports: options.includeFullReports === true,
		withVerdict,
		personalData: personalDataChoice(this, itemIndex),
		decideOn: withVerdict ? readPolicy(this, itemIndex, bureaus) : undefined,
	};
}

export async function execute(
	this: IExecuteFunctions,
	{
		body,
		bureaus,
		simplify,
		binaryProperty,
		split,
		includeFullReports,
		withVerdict,
		personalData,
		decideOn,
	}: MultiBureauRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const download = binaryProperty !== '';
	const { pan } = body;
	const response = await apiRequest.call(this, {
		...policy,
		method: 'POST',
		path: 'multi-bureau/fetch',
		// a billed bureau pull: never re-sent after an answer that may mean it was generated (timeout,
		// 500, reset)
		idempotent: false,
		body,
		// an answer without any bureau's result is about no one (the PAN alone is the request's echo)
		requiredField: [MULTI_BUREAU_REQUIRED, MULTI_BUREAU_FACTS],
		itemIndex,
	});

	const summary = normalizeMultiBureau(response, bureaus);
	const reports: FullReports = new Map();
	if (simplify && includeFullReports) {
		for (const outcome of summary.bureaus)
			reports.set(outcome.bureau, {
				layout: bureauReportLayout(response, outcome.bureau),
				report: bureauReport(response, outcome.bureau),
			});
	}

	// report documents, one per bureau that sent a link
	const files = new Map<string, IBinaryData>();
	if (download) {
		for (const outcome of summary.bureaus) {
			if (!outcome.reportLink) continue;
			// the PAN as the registry writes it (uppercase), masked under Masked
			const baseName = personalFileName(
				`${outcome.pan ?? pan}-${outcome.bureau}-credit-report`,
				personalData,
			);
			files.set(
				outcome.bureau,
				await downloadFile.call(this, outcome.reportLink, baseName, itemIndex, policy),
			);
		}
	}
	const fileKey = (bureau: string) => (split ? binaryProperty : `${binaryProperty}_${bureau}`);

	if (split) {
		const common: IDataObject = {
			pan: summary.pan,
			requestId: summary.requestId,
			shape: summary.shape,
		};
		const perBureau = splitItems(response, summary.bureaus, simplify, common, reports);
		const items = withVerdict ? splitWithVerdict(decider, summary, perBureau, decideOn) : perBureau;
		return items.map((json, index) => {
			const bureau = summary.bureaus[index].bureau;
			const file = files.get(bureau);
			if (simplify && download) json.reportFile = file ? binaryProperty : null;
			return file ? { json, binary: { [binaryProperty]: file } } : { json };
		});
	}

	let json: IDataObject = response;
	if (simplify) {
		json = {
			...summary,
			bureaus: summary.bureaus.map((outcome) => ({
				...outcome,
				...fullReport(reports, outcome.bureau),
				...(download
					? { reportFile: files.has(outcome.bureau) ? fileKey(outcome.bureau) : null }
					: {}),
			})),
		};
	}
	// the verdict under the item's policy (the item output keeps a record that has one)
	if (withVerdict) json = withDecisionBy(decider, json, decideOn);
	if (files.size === 0) return [{ json }];
	const binary: Record<string, IBinaryData> = {};
	for (const [bureau, file] of files) binary[fileKey(bureau)] = file;
	return [{ json, binary }];
}
