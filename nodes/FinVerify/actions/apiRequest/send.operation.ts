import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FieldContext } from '../../helpers/validation';
import { assertOneOf, invalidField, parseJsonObject } from '../../helpers/validation';
import type { RequestPolicy } from '../../transport';
import { apiRequest } from '../../transport';
import { normalizeServicePath } from './servicePath';

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT'] as const;

const properties: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		default: 'POST',
		options: METHODS.map((m) => ({ name: m, value: m })),
		description: 'HTTP method of the request',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. corporate/cin-lookup',
		hint:
			"Relative to /api/v1/services/; the credential adds the service's address and your API key " +
			'and secret',
		description:
			'Path of the operation, e.g. corporate/cin-lookup or aa-bsa-journey/status. Full URLs and .. ' +
			'are not accepted.',
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Parameter',
		default: {},
		options: [
			{
				displayName: 'Parameter',
				name: 'parameters',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. client_id',
						description: 'Name of the query parameter',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. aa_5f2c0b7e9a1d4c3b8e6f0a2d',
						description: 'Value of the query parameter',
					},
				],
			},
		],
	},
	{
		displayName: 'Body (JSON)',
		name: 'jsonBody',
		type: 'json',
		default: '{}',
		displayOptions: { hide: { method: ['GET', 'DELETE'] } },
		description: 'Request body as a JSON object, e.g. {"cin": "L17110MH1973PLC019786"}',
	},
	{
		displayName: 'Send Refresh Token',
		name: 'sendRefreshToken',
		type: 'boolean',
		default: false,
		description:
			"Whether to send the credential's refresh token as the refresh_token cookie (needed by " +
			'collection session endpoints)',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Safe to Retry',
				name: 'safeToRetry',
				type: 'boolean',
				default: false,
				description:
					'Whether the request may be sent again after a timeout or server error. Leave off for ' +
					'requests that create something or are charged; GET requests are always retried.',
			},
		],
	},
];

const displayOptions = { show: { resource: ['apiRequest'], operation: ['send'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** Query parameters from the fixed collection; names must be non-empty. */
export function readQuery(ctx: FieldContext, value: unknown): IDataObject {
	const rows = ((value as IDataObject)?.parameters ?? []) as IDataObject[];
	const qs: IDataObject = {};
	for (const row of Array.isArray(rows) ? rows : []) {
		const name = typeof row.name === 'string' ? row.name.trim() : '';
		if (!name) throw invalidField(ctx, 'Query Parameters', row.name, 'a non-empty parameter name');
		const v = row.value;
		qs[name] = v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
	}
	return qs;
}

interface SendRequest {
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	idempotent: boolean;
	sendRefreshToken: boolean;
}

export function read(this: IExecuteFunctions, itemIndex: number): SendRequest {
	const ctx = { node: this.getNode(), itemIndex };
	const method = assertOneOf(
		ctx,
		this.getNodeParameter('method', itemIndex, 'POST'),
		'Method',
		METHODS,
	);
	const rawPath = this.getNodeParameter('path', itemIndex, '');
	const checked = normalizeServicePath(rawPath);
	if ('error' in checked) throw invalidField(ctx, 'Path', rawPath, checked.error);
	const qs = readQuery(ctx, this.getNodeParameter('queryParameters', itemIndex, {}));
	const body =
		method === 'GET' || method === 'DELETE'
			? undefined
			: (parseJsonObject(
					ctx,
					this.getNodeParameter('jsonBody', itemIndex, '{}'),
					'Body (JSON)',
				) as IDataObject);
	const sendRefreshToken = this.getNodeParameter('sendRefreshToken', itemIndex, false) as boolean;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		method: method as IHttpRequestMethods,
		path: checked.path,
		qs: Object.keys(qs).length ? qs : undefined,
		body,
		idempotent: method === 'GET' || options.safeToRetry === true,
		sendRefreshToken,
	};
}

export async function execute(
	this: IExecuteFunctions,
	request: SendRequest,
	policy: RequestPolicy,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, { ...policy, ...request, itemIndex });
	return [{ json: response }];
}
