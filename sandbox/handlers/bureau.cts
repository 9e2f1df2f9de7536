import {
	commercialReportHtml,
	multiBureauReference,
	multiBureauSample,
	type MultiBureauInput,
} from '../data/bureau.cjs';
import { ApiError } from '../errors.cjs';
import { links } from '../links.cjs';
import { MAGIC } from '../magic.cjs';
import type { HandlerContext, Handlers } from './types.cjs';

interface CommercialInput {
	business_name: string;
	pan: string;
	consent?: 'Y' | 'N';
}

export const bureauHandlers: Handlers = {
	multiBureauFetch({ body, shape, sandbox, requestId }: HandlerContext<MultiBureauInput>) {
		if (body.pan === MAGIC.multiBureauUnprocessable)
			throw new ApiError(
				422,
				'UNPROCESSABLE_ENTITY',
				'The bureaus could not process this request: identity details could not be matched',
			);
		if (body.pan === MAGIC.multiBureauServerError)
			throw new ApiError(500, 'INTERNAL_ERROR', 'Bureau gateway failure, please retry later');
		const input = { ...body, bureaus: [...new Set(body.bureaus)] };
		return shape === 'reference'
			? multiBureauReference(input, requestId)
			: multiBureauSample(input, (bureau) => links(sandbox.baseUrl).bureauReport(bureau, body.pan));
	},

	commercialReportFetch({ body, sandbox }: HandlerContext<CommercialInput>) {
		if (body.consent === 'N')
			throw new ApiError(
				400,
				'CONSENT_REQUIRED',
				'Consent is required to fetch a commercial credit report',
			);
		if (body.pan === MAGIC.commercialNotFound)
			throw new ApiError(
				404,
				'REPORT_NOT_FOUND',
				'No commercial credit report exists for this PAN',
			);
		return {
			status: 'success',
			message: 'Commercial credit report generated successfully',
			data: {
				business_name: body.business_name,
				pan: body.pan,
				report_type: 'html',
				report: commercialReportHtml(body.business_name, body.pan),
				report_url: links(sandbox.baseUrl).commercialReport(body.pan, body.business_name),
				generated_at: new Date().toISOString(),
			},
		};
	},
};
