/**
 * Names and addresses both the credential and the nodes need; one place, so the transport never
 * imports from the credential file.
 */

/** The credential type's `name` (credentials/FinVerifyApi.credentials.ts). */
export const CREDENTIAL_TYPE = 'finVerifyApi';

/** Default address of the local sandbox (`npm run sandbox`). */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:4010';

/**
 * The credential Test's request, which the FinVerify node also sends to confirm a refused answer
 * before it stops every item: the status of a journey that cannot exist, which costs nothing.
 * `NOT_FOUND` (or `PERMISSION_DENIED`: a key without the journey permission) proves the key and
 * secret were accepted; `UNAUTHORIZED` that they were not. The path is below /api/v1/services/.
 */
export const CREDENTIAL_CHECK = {
	path: 'aa-bsa-journey/status',
	clientId: 'credential_check_no_such_journey',
} as const;
