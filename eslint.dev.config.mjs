// Lint for the development code that is never shipped: tests and the engine harness (test/), the service
// simulator (sandbox/), benchmarks (bench/) and the runtime scripts (scripts/).
//
// The shipped code (nodes/, credentials/, package.json) is linted by n8n's own, unmodified config
// (eslint.config.mjs, `n8n-node lint`, strict mode). That config applies n8n's community-node rules to every
// `*.ts` file (no Node built-ins, no timers, no process), which rules out any test or server code. So the
// development TypeScript lives in `.cts` files, which n8n's config does not match, and is linted here with
// typescript-eslint's recommended rules instead.
//
// The shipped code also gets a second pass with the newest eslint-plugin-n8n-nodes-base (n8n-node lint
// bundles an older major of it), with the rules n8n's config turns off for community packages off here too.
import js from '@eslint/js';
import globals from 'globals';
import * as jsoncParser from 'jsonc-eslint-parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const n8nRules = (name) => n8nNodesBase.configs[name].rules;

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**'] },
	{
		files: ['test/**/*.cts', 'sandbox/**/*.cts', 'bench/**/*.cts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nRules('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nRules('credentials'),
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tseslint.parser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nRules('nodes'),
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['scripts/**/*.js', '*.js'],
		extends: [js.configs.recommended],
		languageOptions: { sourceType: 'commonjs', globals: globals.node },
		rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
	},
);
