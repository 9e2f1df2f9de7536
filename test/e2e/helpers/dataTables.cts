/**
 * n8n Data Tables in the real app, on both n8n lines, the way docs/reliability.md tells a 1.x user to set them up.
 *
 * The shipped examples use the Data Table node at version 1.1 (n8n 2.x): tables named by name, and a first node
 * that creates the table (*Reuse Existing Tables*). n8n 1.123.81's Data Table node is version 1 only: it picks a
 * table from the list or by ID and cannot create one. So on 1.x a user creates the table in *Data tables* and
 * picks it in each Data Table node; `forN8n1` makes that edit (the create node removed, its input wired to what
 * came after it, every row node at version 1 with the table's ID), and `createTable` is the *Data tables* page
 * (n8n's REST API the editor calls).
 */
import type { N8nStack, Workflow } from './stack.cjs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const N8N1 = process.env.FINVERIFY_N8N_LINE === '1';
const DATA_TABLE = 'n8n-nodes-base.dataTable';

export interface Column {
	name: string;
	type: 'string' | 'number' | 'boolean' | 'date';
}

/** Creates a Data Table in the owner's personal project (the editor's *Data tables → Create*); its id. */
export async function createTable(
	stack: N8nStack,
	name: string,
	columns: Column[],
): Promise<{ projectId: string; tableId: string }> {
	const project = await stack.rest<{ data: { id: string } }>('GET', '/rest/projects/personal');
	const created = await stack.rest<{ data: { id: string } }>(
		'POST',
		`/rest/projects/${project.data.id}/data-tables`,
		{ name, columns },
	);
	return { projectId: project.data.id, tableId: created.data.id };
}

/** The columns a workflow's table-creating Data Table node declares, by table name. */
export function declaredTables(wf: Workflow): Map<string, Column[]> {
	const tables = new Map<string, Column[]>();
	for (const node of wf.nodes)
		if (node.type === DATA_TABLE && node.parameters.resource === 'table')
			tables.set(
				String(node.parameters.tableName),
				(node.parameters.columns?.column ?? []) as Column[],
			);
	return tables;
}

/**
 * The workflow as a 1.x user sets it up: table-creating nodes removed (their input wired to their output), every
 * Data Table node at version 1 with the table picked by ID (`ids`: table name → id). Throws when a node names a
 * table `ids` does not hold, so a renamed table in an example fails here, not as an empty table later.
 */
export function forN8n1(wf: Workflow, ids: Record<string, string>): Workflow {
	const copy = JSON.parse(JSON.stringify(wf)) as Workflow;
	for (const node of copy.nodes.filter(
		(n) => n.type === DATA_TABLE && n.parameters.resource === 'table',
	)) {
		const after = (copy.connections[node.name]?.main?.[0] ?? []) as Json[];
		for (const outputs of Object.values(copy.connections) as Json[])
			for (const output of outputs.main ?? [])
				for (let i = (output ?? []).length - 1; i >= 0; i--)
					if (output[i].node === node.name) output.splice(i, 1, ...after);
		delete copy.connections[node.name];
		copy.nodes = copy.nodes.filter((n) => n !== node);
	}
	for (const node of copy.nodes.filter((n) => n.type === DATA_TABLE)) {
		const name = String(node.parameters.dataTableId?.value ?? '');
		if (!(name in ids)) throw new Error(`${wf.name}: node "${node.name}" uses table "${name}"`);
		node.typeVersion = 1;
		node.parameters.dataTableId = { __rl: true, mode: 'id', value: ids[name] };
	}
	return copy;
}

/** Saves a changed workflow through n8n's REST API, as the editor's Save does. */
export async function saveWorkflow(stack: N8nStack, wf: Workflow): Promise<void> {
	const current = await stack.rest<{ data: Json }>('GET', `/rest/workflows/${wf.id}`);
	await stack.rest('PATCH', `/rest/workflows/${wf.id}`, {
		nodes: wf.nodes,
		connections: wf.connections,
		name: wf.name,
		versionId: current.data.versionId,
	});
}
