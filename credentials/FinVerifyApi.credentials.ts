import type {
	IAuthenticate,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { BASE_URL_TEST_EXPRESSION } from '../nodes/shared/baseUrl';
import { CREDENTIAL_CHECK, SANDBOX_BASE_URL } from '../nodes/shared/constants';

export class FinVerifyApi implements ICredentialType {
	name = 'finVerifyApi';

	displayName = 'FinVerify API';

	icon: Icon = { light: 'file:../icons/finverify.svg', dark: 'file:../icons/finverify.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-finverify/n8n-nodes-finverify/blob/main/docs/credentials.md';

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
					description:
						'Live data, at the address your account was given; certificates are always checked',
				},
				{
					name: 'Local Simulator',
					value: 'sandbox',
					description:
						'Synthetic data from the simulator on your machine: start it with npx ' +
						'n8n-nodes-finverify-sandbox (it prints the values to enter here, the Refresh Token and ' +
						'Webhook Signing Secret included)',
				},
				{
					name: 'Custom',
					value: 'custom',
					description:
						'A staging or self-hosted deployment: http allowed, and certificate checks can be relaxed',
				},
			],
			description:
				'Where the service runs. Keys of the live service and of a test deployment are separate and ' +
				'must not be mixed.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description:
				'The service address given with your API key, without /api/v1/services (https:// when no scheme is given)',
			hint: 'A user name or password (user:pass@), a query (?…), a fragment (#…), spaces or line breaks are refused',
			displayOptions: { show: { environment: ['production', 'custom'] } },
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description:
				'Whether to accept a self-signed or otherwise invalid certificate, e.g. on a staging host. ' +
				'Never for live data.',
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			displayName: 'Simulator URL',
			name: 'sandboxUrl',
			type: 'string',
			default: SANDBOX_BASE_URL,
			description:
				'Address the simulator prints when it starts (npx n8n-nodes-finverify-sandbox). n8n in ' +
				'Docker: start it with --host 0.0.0.0 and use http://host.docker.internal:4010.',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The API key issued for your account, together with the API secret. For the local simulator, ' +
				'use its default key (see the sandbox page in the package documentation).',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The secret issued with the API key. For the local simulator, use its default secret (see ' +
				'the sandbox page in the package documentation).',
		},
		{
			displayName: 'Refresh Token',
			name: 'refreshToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Only for Collection Session operations: the refresh token of your account's sign-in with " +
				'the service. Sent to those calls alone. For the local simulator, the one it prints when ' +
				'it starts.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'The secret the service signs its status notifications with; never sent anywhere. For the local simulator, the one it prints when it starts.',
			hint: 'The trigger and every wait for a callback check signatures with it, and refuse to start without it',
		},
		{
			displayName:
				'Test looks up a journey that cannot exist, which costs nothing. A key without the bank ' +
				'statement journey permission still passes: the service accepted it. ECONNREFUSED, ENOTFOUND ' +
				'or ETIMEDOUT mean n8n could not reach the Base URL: check it and that the service runs. ' +
				'ERR_INVALID_URL means the Base URL was refused before anything was sent; n8n shows only the ' +
				'code, and a FinVerify node run with this credential names the reason.',
			name: 'testNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['production', 'custom'] } },
		},
		{
			displayName:
				'Test looks up a journey that cannot exist in the simulator. ECONNREFUSED means nothing ' +
				'listens at the Simulator URL: start the simulator (npx n8n-nodes-finverify-sandbox) and ' +
				'enter the address it prints. ERR_INVALID_URL means the Simulator URL was refused before ' +
				'anything was sent; n8n shows only the code, and a FinVerify node run with this credential ' +
				'names the reason.',
			name: 'simulatorTestNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { environment: ['sandbox'] } },
		},
	];

	// A function, not the declarative { type: 'generic' } block: n8n resolves a declarative block's
	// expressions on every request (two per request here), a function costs one object copy. n8n still
	// lists the credential under the HTTP Request node's Predefined Credential Type (its loader
	// serialises a function as {}).
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

	// A status lookup of a journey id that cannot exist costs nothing: NOT_FOUND (404) proves the key
	// and secret were accepted, UNAUTHORIZED (401) that they were not. PERMISSION_DENIED (a key
	// without the AA_BSA_JOURNEY permission) also proves they were accepted, so it passes (the notice
	// above says so).
	test: ICredentialTestRequest = {
		request: {
			// the address the node uses, checked by the same rules (nodes/shared/baseUrl.ts); a Base URL
			// the node would refuse gives an empty address, so nothing is sent
			baseURL: BASE_URL_TEST_EXPRESSION,
			skipSslCertificateValidation:
				'={{ $credentials.environment === "custom" && $credentials.ignoreSslIssues === true }}',
			// the same request the FinVerify node sends to confirm a refused answer (transport/index.ts)
			url: `/api/v1/services/${CREDENTIAL_CHECK.path}`,
			method: 'GET',
			qs: { client_id: CREDENTIAL_CHECK.clientId },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				// a journey that cannot exist must be NOT_FOUND; an answer without the service's error_code
				// (an HTML page, another API) means the address points somewhere else
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: undefined,
					message:
						'The address answered, but not like the FinVerify service: check the Base URL (the ' +
						'Simulator URL for the Local Simulator)',
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
			// answers that check nothing: the service did not get as far as the key and secret
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'error_code',
					value: 'RATE_LIMITED',
					message:
						'The service answered "too many requests" (RATE_LIMITED) before checking the key and ' +
						'secret: run Test again in a minute',
				},
			},
			...['INTERNAL_ERROR', 'BAD_GATEWAY', 'UPSTREAM_UNAVAILABLE', 'GATEWAY_TIMEOUT'].map(
				(code): IAuthenticateRuleResponseSuccessBody => ({
					type: 'responseSuccessBody',
					properties: {
						key: 'error_code',
						value: code,
						message:
							`The service failed on its side (${code}), so the key and secret were not checked: ` +
							'run Test again later',
					},
				}),
			),
		],
	};
}
