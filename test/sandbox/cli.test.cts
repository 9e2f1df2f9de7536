/**
 * Where the sandbox listens and which links it hands out: the command line (`--host`, `--port`,
 * `--public-url`) wins over SANDBOX_HOST / SANDBOX_PORT / SANDBOX_PUBLIC_URL, which win over the contract's
 * defaults (127.0.0.1:4010); another loopback address really is listened on; and the public URL is the base
 * of the links in answers while the API stays at the listening address.
 */
import { resolveConfig } from '../../sandbox/config.cjs';
import { parseArgs, startMessage } from '../../sandbox/main.cjs';
import { call, start } from './helpers.cjs';

test('defaults: 127.0.0.1:4010, links at the listening address', () => {
	const config = resolveConfig({}, {});
	expect([config.host, config.port, config.publicUrl]).toEqual(['127.0.0.1', 4010, '']);
});

test('SANDBOX_HOST and SANDBOX_PUBLIC_URL; options win over them', () => {
	const env = { SANDBOX_HOST: '0.0.0.0', SANDBOX_PUBLIC_URL: 'http://host.docker.internal:4010/' };
	expect(resolveConfig({}, env)).toMatchObject({
		host: '0.0.0.0',
		publicUrl: 'http://host.docker.internal:4010',
	});
	expect(resolveConfig({ host: '127.0.0.2', publicUrl: '' }, env)).toMatchObject({
		host: '127.0.0.2',
		publicUrl: '',
	});
});

test('the command line: --host, --port, --public-url (also as --flag=value), --help', () => {
	expect(parseArgs(['--host', '0.0.0.0', '--port=0', '--public-url', 'http://h:1'])).toEqual({
		host: '0.0.0.0',
		port: 0,
		publicUrl: 'http://h:1',
	});
	expect(parseArgs(['--help'])).toEqual({ help: true });
	expect(() => parseArgs(['--port', '70000'])).toThrow(/--port must be a port number/);
	expect(() => parseArgs(['--host'])).toThrow(/--host needs a value/);
	expect(() => parseArgs(['--hots', 'x'])).toThrow(/unknown option --hots/);
});

test('listens on another loopback address; links use the public URL', async () => {
	const sandbox = await start({ host: '127.0.0.2', publicUrl: 'http://host.docker.internal:4999' });
	try {
		expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
		const r = await call(sandbox, 'POST', '/api/v1/services/corporate/cin-lookup', {
			body: { cin: 'L17110MH1973PLC019786' },
		});
		expect(r.status).toBe(200);
		expect(r.json.data.pdf_url).toBe(
			'http://host.docker.internal:4999/files/company/L17110MH1973PLC019786.pdf',
		);
	} finally {
		await sandbox.close();
	}
});

test('the start message gives the credential to enter in n8n, with the Simulator URL of the port it was given', () => {
	const config = resolveConfig({ port: 4020 }, {});
	const text = startMessage('http://127.0.0.1:4020', config).join('\n');
	expect(text).toContain('Simulator URL http://127.0.0.1:4020,');
	expect(text).toContain('API Key sandbox-key, API Secret sandbox-secret');
	// every field the examples need, the waiting ones included (README quick start)
	expect(text).toContain('Refresh Token sandbox-refresh-token (Collection Session operations)');
	expect(text).toMatch(
		/Webhook Signing Secret sandbox-webhook-secret \(Wait for Journey, Wait for Session,/,
	);
	expect(text).not.toContain('4010');
	// n8n in Docker: the credential needs the public address
	const docker = resolveConfig(
		{ host: '0.0.0.0', publicUrl: 'http://host.docker.internal:4010' },
		{},
	);
	const dockerText = startMessage('http://0.0.0.0:4010', docker).join('\n');
	expect(dockerText).toContain('Simulator URL http://host.docker.internal:4010,');
	expect(dockerText).toContain('WARNING');
	// a signing secret of one's own is not printed
	const own = resolveConfig(
		{ webhookSecret: 'my-own-signing-secret', refreshToken: 'my-own-refresh-token' },
		{},
	);
	const ownText = startMessage('http://127.0.0.1:4010', own).join('\n');
	expect(ownText).not.toContain('my-own-signing-secret');
	expect(ownText).toContain('the value of SANDBOX_WEBHOOK_SECRET');
	expect(ownText).not.toContain('my-own-refresh-token');
	expect(ownText).toContain('Refresh Token the one it was started with');
});
