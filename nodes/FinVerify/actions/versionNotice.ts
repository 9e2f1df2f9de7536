import type { INodeProperties } from 'n8n-workflow';
import { ON_OLDER_VERSIONS } from '../../shared/versions';

/**
 * Shown on nodes saved at version 1 or 2: version 3 exists and is safer for decisions. n8n keeps a
 * saved node at its version (only its grey "newer version" line says otherwise), so the node says it.
 */
export const versionNotice: INodeProperties = {
	displayName:
		'A newer version of this node decides more safely: decisionReady and incomplete on every answer a rule decides on, and Complete, Incomplete and Failed outputs. Add a new FinVerify node and rewire it as the upgrade guide shows: https://github.com/n8n-nodes-finverify/n8n-nodes-finverify/blob/main/docs/upgrading.md',
	name: 'versionNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: ON_OLDER_VERSIONS },
};
