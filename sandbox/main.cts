#!/usr/bin/env node
import { DEFAULT_CREDENTIALS } from './auth.cjs';
import type { SandboxConfig } from './config.cjs';
import { startSandbox, type SandboxOptions } from './server.cjs';

const USAGE = `Usage: npx n8n-nodes-finverify-sandbox [--host <address>] [--port <port>] [--public-url <url>]

A local simulator of the FinVerify service for the n8n-nodes-finverify package (synthetic data).

  --host <address>    address to listen on (env SANDBOX_HOST, default 127.0.0.1: this machine only).
                      0.0.0.0 lets n8n in Docker reach it at http://host.docker.internal:<port>, and
                      also anyone else who can reach this machine.
  --port <port>       port (env SANDBOX_PORT, default 4010; 0 = a free port)
  --public-url <url>  base of the links it hands out, e.g. http://host.docker.internal:4010
                      (env SANDBOX_PUBLIC_URL, default the address it listens on)
  --help             this text

Other settings (response shape, timing, extra keys) are environment variables: see docs/sandbox.md.
`;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/** The command line's options (they win over the SANDBOX_* environment variables). */
export function parseArgs(argv: string[]): SandboxOptions & { help?: boolean } {
	const options: SandboxOptions & { help?: boolean } = {};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = () => {
			const v = inline ?? argv[++i];
			if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
			return v;
		};
		if (flag === '--help' || flag === '-h') options.help = true;
		else if (flag === '--host') options.host = value();
		else if (flag === '--public-url') options.publicUrl = value();
		else if (flag === '--port') {
			const port = Number(value());
			if (!Number.isInteger(port) || port < 0 || port > 65535)
				throw new Error(`--port must be a port number (0-65535), got ${argv[i]}`);
			options.port = port;
		} else throw new Error(`unknown option ${argv[i]}\n\n${USAGE}`);
	}
	return options;
}

/**
 * What the simulator prints when it has started: where it listens, and what to enter in n8n's FinVerify API
 * credential, with the Simulator URL of the port (and public URL) it was given.
 */
export function startMessage(
	url: string,
	config: Pick<
		SandboxConfig,
		'host' | 'publicUrl' | 'shape' | 'stepMs' | 'webhookSecret' | 'refreshToken'
	>,
): string[] {
	const webhookSecret =
		config.webhookSecret === DEFAULT_CREDENTIALS.webhookSecret
			? DEFAULT_CREDENTIALS.webhookSecret
			: 'the value of SANDBOX_WEBHOOK_SECRET';
	const refreshToken =
		config.refreshToken === DEFAULT_CREDENTIALS.refreshToken
			? DEFAULT_CREDENTIALS.refreshToken
			: 'the one it was started with';
	const lines = [
		`FinVerify sandbox listening on ${url}`,
		`  n8n:      FinVerify API credential, Environment "Local Simulator", Simulator URL ${config.publicUrl || url},`,
		'            API Key sandbox-key, API Secret sandbox-secret,',
		`            Refresh Token ${refreshToken} (Collection Session operations),`,
		`            Webhook Signing Secret ${webhookSecret} (Wait for Journey, Wait for Session,`,
		'            Wait for Completion until the service calls back, FinVerify Trigger)',
		`  API:      ${url}/api/v1/services/...  (X-API-KEY: sandbox-key, X-API-SECRET: sandbox-secret)`,
		`  shape:    ${config.shape} (per request: X-Sandbox-Shape), step: ${config.stepMs} ms`,
		`  control:  ${url}/__sandbox/health, /__sandbox/outbox.html, /__sandbox/requests`,
	];
	if (config.publicUrl) lines.push(`  links:    ${config.publicUrl}/...`);
	if (!LOOPBACK.test(config.host))
		lines.push(
			`  WARNING:  listening on ${config.host}, not only this machine: anyone who can reach it can use`,
			'            the simulator with its well-known keys. Use it on a trusted network only.',
		);
	return lines;
}

async function main(): Promise<void> {
	const { help, ...options } = parseArgs(process.argv.slice(2));
	if (help) {
		process.stdout.write(USAGE);
		return;
	}
	const sandbox = await startSandbox(options);
	process.stdout.write(`${startMessage(sandbox.url, sandbox.state.config).join('\n')}\n\n`);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(`FinVerify sandbox failed to start: ${(error as Error).message}`);
		process.exit(1);
	});
}
