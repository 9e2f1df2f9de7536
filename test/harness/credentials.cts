import './env.cjs';

import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression } from 'n8n-workflow';

import type { CredentialTypeRegistry } from './registry.cjs';

/**
 * Credentials from a plain map { credentialType: decrypted data } instead of n8n's database.
 * `authenticate` does what the n8n CLI's credentials helper does: a function is called; a declarative
 * `{ type: 'generic' }` block has its expressions resolved against $credentials and merged into the request.
 */
export class MapCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: CredentialTypeRegistry,
		public data: Record<string, ICredentialDataDecryptedObject> = {},
	) {
		super();
	}

	isCredentialUsableByNode() {
		return true;
	}

	getParentTypes(name: string) {
		return this.types.getParentTypes(name);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const request = incoming as IHttpRequestOptions;
		const { authenticate } = this.types.getByName(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, request);
		if (authenticate?.type !== 'generic') return request;
		const resolve = (value: string) =>
			isExpression(value)
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						) ?? '',
					)
				: value;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			const target = ((request as unknown as Record<string, Record<string, unknown>>)[section] ??=
				{});
			for (const [key, value] of Object.entries(entries as Record<string, string>))
				target[resolve(key)] = resolve(value);
		}
		return request;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_expired: boolean,
	) {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(details: INodeCredentialsDetails, type: string) {
		return new Credentials({ id: details.id ?? null, name: details.name }, type, '');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_details: INodeCredentialsDetails,
		type: string,
	) {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials for type "${type}"`);
		return structuredClone(data);
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.types.getByName(type).properties;
	}
}
