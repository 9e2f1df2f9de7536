import { KeyStore } from './auth.cjs';
import type { SandboxConfig, Shape } from './config.cjs';
import { NameRegistry } from './data/corporate.cjs';
import { Faults } from './faults.cjs';
import { loadContract, type Contract } from './openapi.cjs';
import { Outbox } from './outbox.cjs';
import { RequestLog } from './requestLog.cjs';
import { ItrJobs } from './state/itr.cjs';
import { Journeys } from './state/journeys.cjs';
import { Sessions } from './state/sessions.cjs';
import { Clock } from './state/timers.cjs';
import { journeyEvent, sessionEvent } from './views.cjs';
import { Webhooks } from './webhooks.cjs';

/** Everything one running sandbox holds; handlers, pages and the control API share it. */
export class Sandbox {
	readonly contract: Contract = loadContract();
	readonly keys: KeyStore;
	readonly faults = new Faults();
	readonly requests = new RequestLog();
	readonly outbox = new Outbox();
	readonly webhooks: Webhooks;
	readonly journeys: Journeys;
	readonly sessions: Sessions;
	readonly itr: ItrJobs;
	/** The wall clock, or a manual one the tests advance (`clock: 'manual'`). */
	readonly clock: Clock;
	/** Ids handed out by autocomplete; kept across resets (generation is a pure function of the input). */
	readonly registry = new NameRegistry();
	/** `http://127.0.0.1:<port>`, known once listening. */
	baseUrl = '';

	constructor(readonly config: SandboxConfig) {
		this.keys = new KeyStore(config.keys, config.refreshToken);
		this.webhooks = new Webhooks(config.webhookSecret, {
			backoffMs: config.webhookBackoffMs,
			maxBackoffMs: config.webhookMaxBackoffMs,
			// at least one attempt
			maxAttempts: Math.max(1, config.webhookMaxAttempts),
			timeoutMs: config.webhookTimeoutMs,
		});
		this.clock = new Clock(config.clock);
		this.journeys = new Journeys(
			config.stepMs,
			config.journeyTtlMs,
			(j, previous) => {
				if (j.webhookUrl)
					this.webhooks.send(
						j.clientId,
						j.webhookUrl,
						'aa_bsa_journey.status_changed',
						journeyEvent(j, previous),
					);
			},
			this.clock,
		);
		this.sessions = new Sessions((s, previous) => {
			this.webhooks.send(
				s.sessionId,
				s.callbackUrl,
				'collection_session.status_changed',
				sessionEvent(s, previous),
			);
		}, this.clock);
		this.itr = new ItrJobs(config.stepMs, this.clock);
	}

	shapeOf(header: string | string[] | undefined): Shape {
		const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
		return value === 'sample' || value === 'reference' ? value : this.config.shape;
	}

	/** Clears state, logs, deliveries, outbox and faults; keys go back to the start-up set. */
	reset(): void {
		this.journeys.clear();
		this.sessions.clear();
		this.itr.clear();
		this.webhooks.clear();
		this.outbox.clear();
		this.requests.clear();
		this.faults.clear();
		this.keys.reset();
	}

	close(): void {
		this.journeys.clear();
		this.sessions.clear();
		this.webhooks.clear();
	}
}
