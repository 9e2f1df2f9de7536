export { Engine, PACKAGE_DIR } from './engine.cjs';
export type { RunResult, WebhookServer, WorkflowJson } from './engine.cjs';
export {
	CREDENTIAL_REF,
	FINVERIFY_NODE,
	FINVERIFY_TRIGGER_NODE,
	loadWorkflow,
	nodeWorkflow,
	withParameters,
} from './workflows.cjs';
export type { SingleNodeOptions } from './workflows.cjs';
export { SANDBOX_KEYS, SandboxControl, sandboxCredentials, startTestSandbox } from './sandbox.cjs';
export type { LoggedRequest, Shape, WebhookDelivery } from './sandbox.cjs';
export { PATIENCE_MS } from './patience.cjs';
export { startStubServer } from './stub-server.cjs';
export type { StubRequest, StubResponse, StubServer } from './stub-server.cjs';
export { WaitingExecutions } from './waiting.cjs';
export type { WaitingCall, WaitingStatus } from './waiting.cjs';
export { runCredentialTest } from './credentialTest.cjs';
export type { CredentialTestResult } from './credentialTest.cjs';
