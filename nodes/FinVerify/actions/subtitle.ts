import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The node's canvas subtitle, "Company · Get by CIN": the names the Resource and Operation dropdowns
 * show, derived from the node's own properties, so an operation added to a resource's dropdown has
 * its subtitle without another list to keep. An n8n expression over the node's parameters; an
 * unknown pair shows the operation's value.
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const names: Record<string, string> = {};
	const resources = properties.find((field) => field.name === 'resource');
	for (const resource of (resources?.options ?? []) as INodePropertyOptions[]) {
		const dropdown = properties.find(
			(field) =>
				field.name === 'operation' &&
				field.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of (dropdown?.options ?? []) as INodePropertyOptions[])
			names[`${String(resource.value)}.${String(operation.value)}`] =
				`${resource.name} · ${operation.name}`;
	}
	return (
		`={{ (${JSON.stringify(names)})[$parameter["resource"] + "." + $parameter["operation"]] ` +
		'|| $parameter["operation"] }}'
	);
}
