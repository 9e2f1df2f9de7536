import { epfoCrifReference, epfoCrifSample, epfoRecord, type Missing } from '../data/epfo.cjs';
import { ApiError } from '../errors.cjs';
import { MAGIC } from '../magic.cjs';
import type { HandlerContext, Handlers } from './types.cjs';

type MobileBody = HandlerContext<{ mobile_number: string }>;

export const epfoHandlers: Handlers = {
	epfoFetch({ body }: MobileBody) {
		switch (body.mobile_number) {
			case MAGIC.epfoNotFound:
				throw new ApiError(
					404,
					'EPFO_RECORD_NOT_FOUND',
					'This mobile number is not linked to any EPFO member profile',
				);
			case MAGIC.epfoRateLimited:
				throw new ApiError(
					429,
					'RATE_LIMITED',
					'Too many requests to the EPFO source, retry after 1 second',
					{ headers: { 'retry-after': '1' } },
				);
			case MAGIC.epfoUnavailable:
				throw new ApiError(
					503,
					'UPSTREAM_UNAVAILABLE',
					'The EPFO source is temporarily unavailable',
				);
			default:
				return epfoRecord(body.mobile_number);
		}
	},

	epfoCrifFetch({ body, shape }: MobileBody) {
		const missing: Missing | undefined =
			body.mobile_number === MAGIC.epfoCrifNoEpfo
				? 'epfo'
				: body.mobile_number === MAGIC.epfoCrifNoCredit
					? 'credit'
					: undefined;
		return shape === 'reference'
			? epfoCrifReference(body.mobile_number, missing)
			: epfoCrifSample(body.mobile_number, missing);
	},
};
