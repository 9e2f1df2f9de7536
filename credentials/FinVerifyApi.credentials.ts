import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Default address of the local sandbox (`npm run sandbox`). */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:4010';

export class FinVerifyApi implements ICredentialType {
	name = 'finVerifyApi';

	displayName = 'FinVerify API';

	icon: Icon = { light: 'file:../icons/finverify.svg', dark: 'file:../icons/finverify.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-finverify/n8n-nodes-finverify#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			default: 'production',
			options: [
				{
					name: 'Production',
					value: 'production',
					description: 'Live data. Use the base URL the service gave your account.',
				},
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: 'The local sandbox of this package (npm run sandbox); no live bureau data',
				},
				{
					name: 'Custom',
					value: 'custom',
					description: 'Any other deployment, for example a staging host',
				},
			],
			description: 'Sandbox and production credentials are separate and must not be mixed',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description:
				'Address of the service without the /api/v1/services path, as given with your production credentials',
			displayOptions: { show: { environment: ['production', 'custom'] } },
		},
		{
			displayName: 'Sandbox URL',
			name: 'sandboxUrl',
			type: 'string',
			default: SANDBOX_BASE_URL,
			description: 'Address of the sandbox started with npm run sandbox',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as the X-API-KEY header',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as the X-API-SECRET header',
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Only needed for Collection Session operations; sent to those endpoints alone, as the refresh_token cookie',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Used by the FinVerify Trigger to verify the HMAC signature of incoming notifications. Never sent anywhere.',
		},
	];

	// A function, not the declarative { type: 'generic' } block: n8n resolves a declarative block's expressions
	// on every request (two per request here), a function costs one object copy. n8n still lists the credential
	// under the HTTP Request node's Predefined Credential Type (its loader serialises a function as {}).
	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			'X-API-KEY': String(credentials.apiKey ?? ''),
			'X-API-SECRET': String(credentials.apiSecret ?? ''),
		},
	});

	// A status lookup of a journey id that cannot exist costs nothing: NOT_FOUND (404) proves the key and
	// secret were accepted, UNAUTHORIZED (401) that they were not.
	test: ICredentialTestRequest = {
		request: {
			// the same address the node uses (transport resolveBaseUrl): sandbox default, no trailing / or API prefix
			baseURL:
				'={{ String(($credentials.environment === "sandbox" ? ($credentials.sandboxUrl || "' +
				SANDBOX_BASE_URL +
				'") : $credentials.baseUrl) || "").trim().replace(/\\/+$/, "").replace(/\\/api\\/v1\\/services$/, "") }}',
			url: '/api/v1/services/aa-bsa-journey/status',
			method: 'GET',
			qs: { client_id: 'credential_check_no_such_journey' },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				// a journey that cannot exist must be NOT_FOUND; an answer without the service's error_code
				// (an HTML page, another API) means the Base URL points somewhere else
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: undefined,
					message: 'The address answered, but not like the FinVerify service: check the Base URL',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'UNAUTHORIZED',
					message: 'The API key or API secret is wrong, expired or for another environment',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'PERMISSION_DENIED',
					message:
						'The key and secret work, but this account lacks the AA_BSA_JOURNEY permission used for the check',
				},
			},
		],
	};
}
