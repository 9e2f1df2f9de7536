/** @type {import('jest').Config} */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }] };
const common = { testEnvironment: 'node', transform, rootDir: __dirname };

module.exports = {
	projects: [
		{ ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/sandbox/**/*.test.ts'] },
		{ ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
		{ ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
	],
	testTimeout: 60000,
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
};
