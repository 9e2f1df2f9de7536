export { Engine, PACKAGE_DIR } from './engine';
export type { RunResult, WebhookServer, WorkflowJson } from './engine';
export { CREDENTIAL_REF, FINVERIFY_NODE, FINVERIFY_TRIGGER_NODE, loadWorkflow, nodeWorkflow, withParameters } from './workflows';
export type { SingleNodeOptions } from './workflows';
export { SANDBOX_KEYS, SandboxControl, sandboxCredentials, startTestSandbox } from './sandbox';
export type { LoggedRequest, Shape } from './sandbox';
export { startStubServer } from './stub-server';
export type { StubServer, StubRequest } from './stub-server';
