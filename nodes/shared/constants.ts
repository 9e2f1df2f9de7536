/**
 * Names and addresses both the credential and the nodes need; one place, so the transport never
 * imports from the credential file.
 */

/** The credential type's `name` (credentials/FinVerifyApi.credentials.ts). */
export const CREDENTIAL_TYPE = 'finVerifyApi';

/** Default address of the local sandbox (`npm run sandbox`). */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:4010';
