/**
 * Magic inputs (like a payment provider's test cards). Every one is listed in sandbox/README.md.
 * Journey, ITR and session magic values live next to their state machines and are re-exported here.
 */
export { FAILING_MOBILE as JOURNEY_FAILING_MOBILE } from './state/journeys.cjs';
export { INCOMPLETE_JOB_ID, VALID_OTP } from './state/itr.cjs';
export { EXPIRED_REFRESH_TOKEN } from './auth.cjs';
export { FULL_AADHAAR_MOBILE as EPFO_CRIF_FULL_AADHAAR_MOBILE } from './data/epfo.cjs';

export const MAGIC = {
	cinNotFound: 'U00000MH0000PTC000404',
	llpinNotFound: 'ZZZ-0404',
	panNotFound: 'ZZZZZ0404Z',
	autocompleteNoResults: /nomatch/i,
	epfoNotFound: '9000000404',
	epfoRateLimited: '9000000429',
	epfoUnavailable: '9000000503',
	epfoCrifNoEpfo: '9000000206',
	epfoCrifNoCredit: '9000000207',
	multiBureauUnprocessable: 'ZZZZZ0422Z',
	multiBureauServerError: 'ZZZZZ0500Z',
	/** Case-insensitive; every requested bureau answers "no record". */
	multiBureauNoHit: /nohit/i,
	/** Commercial report with this PAN: 404 E `REPORT_NOT_FOUND`. */
	commercialNotFound: 'ZZZZZ0404Z',
	/** Collection session recipients that fail: 422 D and 500 D. */
	sessionUndeliverable: 'undeliverable@example.com',
	sessionServerError: 'server-error@example.com',
} as const;
