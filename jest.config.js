/** @type {import('jest').Config} */
// Development code (tests, harness, sandbox, bench) is TypeScript in `.cts` files: the shipped code in
// nodes/ and credentials/ is `.ts`, which is exactly what n8n's default lint config (`n8n-node lint`) covers.
// Imports between `.cts` files name the emitted `.cjs` file, as TypeScript requires; jest maps them back.
const transform = { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };
const common = {
	testEnvironment: 'node',
	transform,
	rootDir: __dirname,
	moduleFileExtensions: ['ts', 'cts', 'js', 'cjs', 'json'],
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.cjs$': ['$1.cts', '$1.cjs'] },
	modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.cache/'],
};

module.exports = {
	projects: [
		{
			...common,
			displayName: 'unit',
			testMatch: ['<rootDir>/test/unit/**/*.test.cts', '<rootDir>/test/sandbox/**/*.test.cts'],
		},
		{
			...common,
			displayName: 'integration',
			testMatch: ['<rootDir>/test/integration/**/*.test.cts'],
		},
		// The slow tool runs (n8n's package scanner over the packed tarball, actionlint): their own step of `npm test`.
		{ ...common, displayName: 'scan', testMatch: ['<rootDir>/test/scan/**/*.test.cts'] },
		// requests to the real n8n app: a GET on a connection n8n had closed is sent again (test/harness/staleConnection.cts)
		{
			...common,
			displayName: 'e2e',
			testMatch: ['<rootDir>/test/e2e/**/*.test.cts'],
			setupFiles: ['<rootDir>/test/harness/staleConnection.cts'],
		},
		// the real n8n app under load (1,000 waiting executions, SQLite and queue mode): its own step of `npm test`
		{
			...common,
			displayName: 'scale',
			testMatch: ['<rootDir>/test/scale/**/*.test.cts'],
			testPathIgnorePatterns: [
				'<rootDir>/test/scale/defaults/',
				'<rootDir>/test/scale/reconcile-flush.test.cts',
				'<rootDir>/test/scale/queue-flush.test.cts',
			],
			setupFiles: ['<rootDir>/test/harness/staleConnection.cts'],
		},
		// bursts of final callbacks, then the reconciler: on n8n's own defaults one file per sender, and the 2,000-callback
		// flush on `npm start`'s settings, the four at the same time (each n8n loaded by the others): the burst step
		{
			...common,
			displayName: 'burst',
			testMatch: [
				'<rootDir>/test/scale/defaults/*.test.cts',
				'<rootDir>/test/scale/reconcile-flush.test.cts',
			],
			setupFiles: ['<rootDir>/test/harness/staleConnection.cts'],
		},
		// the same flush, then the reconciler, in queue mode (PostgreSQL, Redis, main, webhook processor, 2 workers): in
		// no step of `npm test`, run by hand (`npx jest --selectProjects queue-flush`)
		{
			...common,
			displayName: 'queue-flush',
			testMatch: ['<rootDir>/test/scale/queue-flush.test.cts'],
			setupFiles: ['<rootDir>/test/harness/staleConnection.cts'],
		},
	],
	testTimeout: 60000,
	// Under CI a leaked handle (e.g. a server left open by a failing test) must not hang the run after the
	// results are in; locally jest's "did not exit" warning stays visible so leaks get fixed.
	forceExit: process.env.CI === 'true',
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
};
