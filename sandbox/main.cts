import { startSandbox } from './server.cjs';

async function main(): Promise<void> {
	const sandbox = await startSandbox();
	const { config } = sandbox.state;
	process.stdout.write(
		[
			`FinVerify sandbox listening on ${sandbox.url}`,
			`  API:      ${sandbox.url}/api/v1/services/...  (X-API-KEY: sandbox-key, X-API-SECRET: sandbox-secret)`,
			`  shape:    ${config.shape} (per request: X-Sandbox-Shape), step: ${config.stepMs} ms`,
			`  control:  ${sandbox.url}/__sandbox/health, /__sandbox/outbox.html, /__sandbox/requests`,
			'',
		].join('\n'),
	);
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		void sandbox.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
	console.error(`FinVerify sandbox failed to start: ${(error as Error).message}`);
	process.exit(1);
});
