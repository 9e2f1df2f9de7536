import type { FastifyInstance } from 'fastify';

/** Markers the body parsers leave instead of failing, so each operation answers in its own error variant. */
export const MALFORMED_BODY = Symbol('malformed JSON body');
export const NOT_JSON_BODY = Symbol('body that is not JSON');

export function registerBodyParsers(app: FastifyInstance): void {
	const parseJson = app.getDefaultJsonParser('error', 'error');
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
		if (String(body).trim() === '') return done(null, undefined);
		parseJson(request, String(body), (error, value) => done(null, error ? MALFORMED_BODY : value));
	});
	// Anything else except forms (handled by @fastify/formbody for the hosted pages) is read and flagged.
	app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) =>
		done(null, NOT_JSON_BODY),
	);
}
