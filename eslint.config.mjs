// Lint with the two rule sets n8n applies to community packages: eslint-plugin-n8n-nodes-base (the
// classic node, credential and package.json rules) and @n8n/eslint-plugin-community-nodes (the rules of
// n8n's own verification). Both run on nodes/, credentials/ and package.json.
import tsParser from '@typescript-eslint/parser';
import * as jsoncParser from 'jsonc-eslint-parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const legacy = (name) => n8nNodesBase.configs[name].rules;

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'sandbox/**', 'test/**', 'bench/**', 'scripts/**', '.cache/**', '.runtime/**'] },
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacy('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...legacy('credentials'),
			// as in n8n's own community-node lint config (@n8n/node-cli): not valid for community nodes, and
			// @n8n/community-nodes/credential-password-field checks passwords more accurately
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...legacy('nodes'),
			// as in n8n's own community-node lint config (@n8n/node-cli): inputs and outputs use the
			// NodeConnectionTypes enum (required by @n8n/community-nodes/node-connection-type-literal), and a
			// documented API maximum is a valid maxValue
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
];
