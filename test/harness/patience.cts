/**
 * How long a test waits for something that must happen (an execution, a delivery, a request) before it fails
 * naming what it waited for. Long on purpose: on a machine whose cores are all busy the same events take many
 * times longer, and a short deadline fails a correct test (CONTRIBUTING.md, "Tests on a busy machine"). Jest's
 * limit per test (jest.config.js) stays the outer bound.
 */
export const PATIENCE_MS = 50_000;
