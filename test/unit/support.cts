import type { INode } from 'n8n-workflow';

/** The FinVerify node as validation helpers and errors see it (name, type, no parameters). */
export const node: INode = {
	id: '1',
	name: 'FinVerify',
	type: 'n8n-nodes-finverify.finVerify',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
