/**
 * n8n's own nodes that users put after FinVerify (IF, Switch, Set, No Operation, and sticky notes), loaded into the test
 * engine from the n8n app the e2e suites run (the cached runtime, scripts/runtime.js: the same
 * n8n-nodes-base 2.41.1 the real app ships). Workflow tests then prove what a builder's workflow does
 * with the node's output: n8n's real IF and Switch, with their real comparison rules (an empty value
 * compared like 0), not a stand-in.
 *
 * The runtime is installed by `npm test` before its e2e step; these tests live in the e2e project.
 */
import path from 'node:path';
import type { INodeType, IVersionedNodeType } from 'n8n-workflow';

import type { NodeRegistry } from './registry.cjs';

// scripts/ is plain CommonJS without types
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../../scripts/runtime') as {
	runtimePaths(): { n8nModules: string; n8nVersion: string };
	isRuntimeComplete(): boolean;
};

/** Type name (after `n8n-nodes-base.`) → file under n8n-nodes-base/dist/nodes. */
const BASE_NODES: Record<string, string> = {
	if: 'If/If.node.js',
	switch: 'Switch/Switch.node.js',
	set: 'Set/Set.node.js',
	noOp: 'NoOp/NoOp.node.js',
	splitOut: 'Transform/SplitOut/SplitOut.node.js',
	stickyNote: 'StickyNote/StickyNote.node.js',
};

/** Adds n8n's IF, Switch, Set, Split Out and No Operation nodes to a test engine's registry. */
export function loadBaseNodes(registry: NodeRegistry): string {
	if (!runtime.isRuntimeComplete())
		throw new Error(
			'the n8n runtime is not installed: `npm test` installs it before the e2e step (or run `node -e "require(\'./scripts/runtime\').ensureRuntime()"`)',
		);
	const { n8nModules, n8nVersion } = runtime.runtimePaths();
	const dist = path.join(n8nModules, 'n8n-nodes-base', 'dist', 'nodes');
	for (const [name, file] of Object.entries(BASE_NODES)) {
		const sourcePath = path.join(dist, file);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const exported = require(sourcePath) as Record<
			string,
			new () => INodeType | IVersionedNodeType
		>;
		const NodeClass = Object.values(exported).find((value) => typeof value === 'function');
		if (!NodeClass) throw new Error(`no node class in ${sourcePath}`);
		registry.nodes.set(`n8n-nodes-base.${name}`, { type: new NodeClass(), sourcePath });
	}
	return n8nVersion;
}
