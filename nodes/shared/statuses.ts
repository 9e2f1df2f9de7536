/**
 * The statuses of journeys and collection sessions, and which of them are final: what the action
 * node's normalizers, its Wait for Completion and the trigger's event filter all go by.
 */

/**
 * The journey states (JourneyState in openapi/finverify.openapi.yaml), in the order a successful
 * journey passes them.
 */
export const JOURNEY_STATUSES = [
	'initiated',
	'consent_pending',
	'consent_granted',
	'data_fetched',
	'analysis_complete',
	'consent_denied',
	'failed',
	'expired',
] as const;
export type JourneyStatus = (typeof JOURNEY_STATUSES)[number];

/** The states a journey ends in (successfully or not). */
export const JOURNEY_FINAL_STATUSES: readonly JourneyStatus[] = [
	'analysis_complete',
	'consent_denied',
	'failed',
	'expired',
];

/**
 * The sample shape reports a finished journey as `completed`; the reference shape and the webhooks
 * say `analysis_complete` (JourneyStatusSample and JourneyState in openapi/finverify.openapi.yaml).
 * The only alias: any other status the service sends passes through as it is (lowercased), so a
 * status the documents do not name yet reaches the workflow instead of failing it.
 */
export const JOURNEY_COMPLETED_ALIASES: Readonly<Record<string, JourneyStatus>> = {
	completed: 'analysis_complete',
};

export const SESSION_STATUSES = ['created', 'completed', 'expired', 'abandoned'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
/** The states a session ends in. */
export const SESSION_FINAL_STATUSES: readonly SessionStatus[] = [
	'completed',
	'expired',
	'abandoned',
];
