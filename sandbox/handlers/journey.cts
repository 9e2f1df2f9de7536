import {
	analysisReference,
	analysisSample,
	bankAccounts,
	statementReference,
	statementSample,
	type JourneyView,
} from '../data/statements.cjs';
import { ApiError } from '../errors.cjs';
import { links } from '../links.cjs';
import type { Journey, JourneyInput } from '../state/journeys.cjs';
import { journeyStatusBody } from '../views.cjs';
import type { HandlerContext, Handlers } from './types.cjs';

type ClientQuery = HandlerContext<unknown>;

function findJourney({ sandbox, query }: ClientQuery): Journey {
	const journey = sandbox.journeys.get(query.client_id);
	if (!journey)
		throw new ApiError(404, 'NOT_FOUND', `No journey found with client_id ${query.client_id}`);
	return journey;
}

/** Statement result and analysis exist only once the analysis is complete. */
function finishedJourney(ctx: ClientQuery): Journey {
	const journey = findJourney(ctx);
	if (journey.status !== 'analysis_complete')
		throw new ApiError(
			409,
			'JOURNEY_INCOMPLETE',
			`The journey is ${journey.status}; results are available once it is analysis_complete`,
		);
	return journey;
}

const view = (j: Journey): JourneyView => ({
	clientId: j.clientId,
	status: 'completed',
	failedAtStage: j.failedAtStage,
	errorMessage: j.errorMessage,
	createdAt: j.createdAt,
	updatedAt: j.updatedAt,
});

export const journeyHandlers: Handlers = {
	journeyInit({ body, shape, sandbox }: HandlerContext<JourneyInput>) {
		const journey = sandbox.journeys.create(body, shape);
		return {
			success: true,
			message: 'Journey initiated; send the customer to journey_url',
			data: {
				client_id: journey.clientId,
				journey_url: links(sandbox.baseUrl).journeyPage(journey.clientId),
				status: journey.status,
				expires_at: journey.expiresAt,
			},
		};
	},

	journeyStatus(ctx: ClientQuery) {
		return journeyStatusBody(findJourney(ctx), ctx.shape);
	},

	journeyStatementResult(ctx: ClientQuery) {
		const j = finishedJourney(ctx);
		const accounts = bankAccounts(j.mobile);
		const l = links(ctx.sandbox.baseUrl);
		return ctx.shape === 'reference'
			? statementReference(j.clientId, accounts)
			: statementSample(view(j), accounts, (a) => ({
					analysisHtml: l.journeyFile(j.clientId, a.index, 'analysis.html'),
					analysisJson: l.journeyFile(j.clientId, a.index, 'analysis.json'),
					statementPdf: l.journeyFile(j.clientId, a.index, 'statement.pdf'),
					analysisPdf: l.journeyFile(j.clientId, a.index, 'analysis.pdf'),
				}));
	},

	journeyAnalysisJson(ctx: ClientQuery) {
		const j = finishedJourney(ctx);
		const accounts = bankAccounts(j.mobile);
		return ctx.shape === 'reference'
			? analysisReference(j.clientId, accounts)
			: analysisSample(view(j), accounts);
	},
};
