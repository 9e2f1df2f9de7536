import {
	autocomplete,
	companyReference,
	companySample,
	llpReference,
	llpSample,
	panReference,
	panSample,
} from '../data/corporate.cjs';
import { hexOf } from '../data/random.cjs';
import { ApiError } from '../errors.cjs';
import { links } from '../links.cjs';
import { MAGIC } from '../magic.cjs';
import type { HandlerContext, Handlers } from './types.cjs';

export const corporateHandlers: Handlers = {
	cinLookup({ body, shape, sandbox }: HandlerContext<{ cin: string }>) {
		const cin = body.cin.toUpperCase();
		if (cin === MAGIC.cinNotFound)
			throw new ApiError(404, 'COMPANY_NOT_FOUND', `No company found with CIN ${cin}`);
		return shape === 'reference'
			? companyReference(cin, sandbox.registry)
			: companySample(cin, sandbox.registry, links(sandbox.baseUrl).companyPdf(cin));
	},

	llpinLookup({ body, shape, sandbox }: HandlerContext<{ llpin: string }>) {
		const llpin = body.llpin.toUpperCase();
		if (llpin === MAGIC.llpinNotFound)
			throw new ApiError(404, 'LLPIN_NOT_FOUND', `No LLP found with LLPIN ${llpin}`);
		return shape === 'reference'
			? llpReference(llpin, sandbox.registry)
			: llpSample(llpin, sandbox.registry);
	},

	panLookup({ body, shape, sandbox }: HandlerContext<{ pan: string }>) {
		const pan = body.pan.toUpperCase();
		if (pan === MAGIC.panNotFound)
			throw new ApiError(404, 'PAN_NOT_FOUND', `No entity found with PAN ${pan}`);
		return shape === 'reference'
			? panReference(pan, sandbox.registry)
			: panSample(pan, sandbox.registry);
	},

	companyAutocomplete({ body, shape, sandbox }: HandlerContext<{ company_name: string }>) {
		const query = body.company_name.trim().toUpperCase();
		if (MAGIC.autocompleteNoResults.test(query))
			throw new ApiError(404, 'NO_RESULTS', `No companies or LLPs match "${body.company_name}"`);
		const matches = autocomplete(query, sandbox.registry);
		if (shape === 'reference') {
			return {
				success: true,
				message: 'Results fetched successfully',
				total_results: matches.length,
				data: matches.map((m) => ({
					entity_name: m.name,
					entity_type: m.kind === 'company' ? 'Company' : 'LLP',
					cin: m.kind === 'company' ? m.id : null,
					llpin: m.kind === 'llp' ? m.id : null,
					status: m.status,
					state: m.state,
				})),
			};
		}
		return {
			success: true,
			status_code: 200,
			message: 'Success',
			doc_id: `doc_${hexOf(20, 'autocomplete', query)}`,
			company_name: query,
			result: matches.map((m) => ({
				company_name: m.name,
				cin: m.id,
				category: m.kind === 'company' ? 'ltd' : 'llp',
			})),
		};
	},
};
