/**
 * The Simulator URL of a new FinVerify API credential follows the simulator `npm start` or start:queue started:
 * n8nEnv() (scripts/lib/n8n-process.js) gives n8n a credential overwrite with that simulator's address when it
 * is not the credential's default. In the real app, test/e2e/server.test.cts checks that n8n applies it.
 */
import path from 'node:path';

import { SANDBOX_BASE_URL } from '../../nodes/shared/constants';

const REPO = path.join(__dirname, '..', '..');

/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts without types */
const { CREDENTIAL_SIMULATOR_URL, n8nEnv, simulatorUrlOverwrite } = require(
	path.join(REPO, 'scripts', 'lib', 'n8n-process.js'),
) as {
	CREDENTIAL_SIMULATOR_URL: string;
	n8nEnv(o: { userFolder: string; sandboxUrl?: string }): Record<string, string>;
	simulatorUrlOverwrite(url: string | undefined, existing?: string): Record<string, string>;
};
const places = require(path.join(REPO, 'scripts', 'lib', 'places.js')) as {
	startPlaces(env: Record<string, string>): { sandboxUrl: string };
	queuePlaces(env: Record<string, string>): { sandboxUrl: string };
};
/* eslint-enable @typescript-eslint/no-require-imports */

const overwriteOf = (env: Record<string, string>) =>
	env.CREDENTIALS_OVERWRITE_DATA === undefined
		? undefined
		: (JSON.parse(env.CREDENTIALS_OVERWRITE_DATA) as Record<string, Record<string, string>>);

test("the scripts know the credential's default Simulator URL", () => {
	expect(CREDENTIAL_SIMULATOR_URL).toBe(SANDBOX_BASE_URL);
});

test('npm start on the default port: no overwrite, the form shows the default', () => {
	const { sandboxUrl } = places.startPlaces({});
	expect(sandboxUrl).toBe(SANDBOX_BASE_URL);
	expect(overwriteOf(n8nEnv({ userFolder: '/tmp/x', sandboxUrl }))).toBeUndefined();
});

test.each([
	['npm start with SANDBOX_PORT=4020', places.startPlaces({ SANDBOX_PORT: '4020' }).sandboxUrl],
	['npm run start:queue (4011)', places.queuePlaces({}).sandboxUrl],
])('%s: a new credential reaches that simulator', (_label, sandboxUrl) => {
	expect(sandboxUrl).not.toBe(SANDBOX_BASE_URL);
	expect(overwriteOf(n8nEnv({ userFolder: '/tmp/x', sandboxUrl }))).toEqual({
		finVerifyApi: { sandboxUrl },
	});
});

test('without a simulator (the e2e CLI runs, the tests): nothing', () => {
	expect(overwriteOf(n8nEnv({ userFolder: '/tmp/x' }))).toBeUndefined();
});

test("the caller's own overwrites are kept, and win for the same field", () => {
	const theirs = JSON.stringify({ slackApi: { accessToken: 'x' } });
	expect(
		JSON.parse(simulatorUrlOverwrite('http://127.0.0.1:4011/', theirs).CREDENTIALS_OVERWRITE_DATA),
	).toEqual({
		slackApi: { accessToken: 'x' },
		finVerifyApi: { sandboxUrl: 'http://127.0.0.1:4011' },
	});
	const own = JSON.stringify({ finVerifyApi: { sandboxUrl: 'http://host.docker.internal:4011' } });
	expect(
		JSON.parse(simulatorUrlOverwrite('http://127.0.0.1:4011', own).CREDENTIALS_OVERWRITE_DATA),
	).toEqual({ finVerifyApi: { sandboxUrl: 'http://host.docker.internal:4011' } });
	expect(simulatorUrlOverwrite('http://127.0.0.1:4011', 'not json')).toEqual({});
});
