/** @type {import('jest').Config} */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };
const common = { testEnvironment: 'node', transform, rootDir: __dirname };

module.exports = {
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/sandbox/**/*.test.ts'] },
		{ ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
		{ ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
	],
	testTimeout: 60000,
	// Under CI a leaked handle (e.g. a server left open by a failing test) must not hang the run after the
	// results are in; locally jest's "did not exit" warning stays visible so leaks get fixed.
	forceExit: process.env.CI === 'true',
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
};
