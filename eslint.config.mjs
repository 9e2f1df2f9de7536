// Lint with the two rule sets n8n applies to community packages: eslint-plugin-n8n-nodes-base (the
// classic node, credential and package.json rules) and @n8n/eslint-plugin-community-nodes (the rules of
// n8n's own verification). Both run on nodes/, credentials/ and package.json.
import tsParser from '@typescript-eslint/parser';
import jsoncParser from 'jsonc-eslint-parser';
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
		rules: legacy('credentials'),
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...legacy('nodes'),
			// The v2 layout keeps each resource's operation list in actions/<resource>/index.ts, which this
			// rule cannot see through; the order is alphabetical by review instead.
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
];
