import './env.cjs';

import { PackageDirectoryLoader } from 'n8n-core';
import type {
	ICredentialType,
	ICredentialTypes,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	ITriggerFunctions,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

/** Stand-in for n8n-nodes-base.manualTrigger (same behaviour), so n8n-nodes-base is not needed. */
export class ManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger', 'input'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		maxNodes: 1,
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions) {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

interface NodeEntry {
	type: INodeType | IVersionedNodeType;
	sourcePath: string;
}

/** Node and credential types, loaded with n8n-core's own PackageDirectoryLoader. */
export class NodeRegistry implements INodeTypes {
	readonly nodes = new Map<string, NodeEntry>();
	readonly credentials = new Map<string, ICredentialType>();

	constructor() {
		this.nodes.set('n8n-nodes-base.manualTrigger', { type: new ManualTrigger(), sourcePath: '' });
	}

	/**
	 * Loads every node and credential listed in <dir>/package.json "n8n". With `fromSource`, the dist/*.js
	 * paths are mapped to the TypeScript sources (loaded by ts-jest), as n8n's own test loader does.
	 */
	async loadPackage(dir: string, { fromSource = true } = {}) {
		const loader = new PackageDirectoryLoader(dir);
		if (fromSource) {
			const toSource = (p: string) => p.replace(/^dist\//, '').replace(/\.js$/, '.ts');
			const { nodes = [], credentials = [] } = loader.packageJson.n8n ?? {};
			for (const c of credentials) loader.loadCredentialFromFile(toSource(c));
			for (const n of nodes) loader.loadNodeFromFile(toSource(n), loader.packageJson.version);
		} else {
			await loader.loadAll();
		}
		for (const [name, entry] of Object.entries(loader.nodeTypes)) {
			// the published package's type names, and the CUSTOM.* names n8n gives N8N_CUSTOM_EXTENSIONS
			this.nodes.set(`${loader.packageName}.${name}`, entry);
			this.nodes.set(`CUSTOM.${name}`, entry);
		}
		for (const entry of Object.values(loader.credentialTypes))
			this.credentials.set(entry.type.name, entry.type);
		return loader;
	}

	getByName(nodeType: string) {
		const entry = this.nodes.get(nodeType);
		if (!entry)
			throw new Error(
				`Unknown node type "${nodeType}" (loaded: ${[...this.nodes.keys()].join(', ')})`,
			);
		return entry.type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return Object.fromEntries(
			[...this.nodes].map(([k, v]) => [
				k,
				{ className: v.type.constructor.name, sourcePath: v.sourcePath },
			]),
		);
	}
}

export class CredentialTypeRegistry implements ICredentialTypes {
	constructor(private readonly registry: NodeRegistry) {}

	recognizes(type: string) {
		return this.registry.credentials.has(type);
	}

	getByName(type: string) {
		const credentialType = this.registry.credentials.get(type);
		if (!credentialType) throw new Error(`Unknown credential type "${type}"`);
		return credentialType;
	}

	getSupportedNodes(type: string) {
		return this.registry.credentials.get(type)?.supportedNodes ?? [];
	}

	getParentTypes(type: string): string[] {
		return this.registry.credentials.get(type)?.extends ?? [];
	}
}
