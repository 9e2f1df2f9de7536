import { randomBytes } from 'node:crypto';
import type { Shape } from '../config.cjs';
import { ApiError } from '../errors.cjs';
import { Clock, Timers, type TimerHandle } from './timers.cjs';

export const JOURNEY_STATES = [
	'initiated',
	'consent_pending',
	'consent_granted',
	'data_fetched',
	'analysis_complete',
	'consent_denied',
	'failed',
	'expired',
] as const;
export type JourneyState = (typeof JOURNEY_STATES)[number];
export const TERMINAL: ReadonlySet<JourneyState> = new Set([
	'analysis_complete',
	'consent_denied',
	'failed',
	'expired',
]);
const HAPPY_PATH: JourneyState[] = [
	'initiated',
	'consent_pending',
	'consent_granted',
	'data_fetched',
	'analysis_complete',
];

/** Mobile number whose journey fails while fetching bank data. */
export const FAILING_MOBILE = '9000000500';

export interface JourneyInput {
	mobile_number: string;
	consent_type?: 'loan_underwriting' | 'loan_monitoring';
	webhook_url?: string;
	redirect_url?: string;
	customer_name?: string;
	customer_email?: string;
	auto_consent?: boolean;
}

export interface Journey {
	clientId: string;
	mobile: string;
	consentType: 'loan_underwriting' | 'loan_monitoring';
	webhookUrl?: string;
	redirectUrl?: string;
	customerName?: string;
	autoConsent: boolean;
	/** Shape of the init request; webhooks carry the journey in this shape. */
	shape: Shape;
	status: JourneyState;
	failedAtStage: string | null;
	errorMessage: string | null;
	createdAt: string;
	updatedAt: string;
	expiresAt: string;
	history: Array<{ status: JourneyState; at: string }>;
	timer?: TimerHandle;
}

export type JourneyListener = (journey: Journey, previous: JourneyState) => void;

/**
 * The consent journey state machine:
 * initiated → consent_pending (page opened) → consent_granted (approve) → data_fetched → analysis_complete,
 * or consent_denied (deny), failed (data fetch failed), expired (no consent before expires_at).
 * After consent, each step takes `stepMs`; `auto_consent` grants consent one step after init.
 */
export class Journeys {
	private readonly journeys = new Map<string, Journey>();
	private readonly timers: Timers;

	constructor(
		private readonly stepMs: number,
		private readonly ttlMs: number,
		private readonly onChange: JourneyListener,
		clock: Clock = new Clock(),
	) {
		this.timers = new Timers(clock);
	}

	create(input: JourneyInput, shape: Shape): Journey {
		const now = new Date();
		const journey: Journey = {
			clientId: `aa_${randomBytes(12).toString('hex')}`,
			mobile: input.mobile_number,
			consentType: input.consent_type ?? 'loan_underwriting',
			webhookUrl: input.webhook_url,
			redirectUrl: input.redirect_url,
			customerName: input.customer_name,
			autoConsent: input.auto_consent === true,
			shape,
			status: 'initiated',
			failedAtStage: null,
			errorMessage: null,
			createdAt: now.toISOString(),
			updatedAt: now.toISOString(),
			expiresAt: new Date(now.getTime() + this.ttlMs).toISOString(),
			history: [{ status: 'initiated', at: now.toISOString() }],
		};
		this.journeys.set(journey.clientId, journey);
		this.schedule(journey);
		this.timers.after(this.ttlMs, () => {
			if (journey.status === 'initiated' || journey.status === 'consent_pending')
				this.set(journey, 'expired');
		});
		return journey;
	}

	get(clientId: string): Journey | undefined {
		return this.journeys.get(clientId);
	}

	/** Every journey, oldest first. */
	list(): Journey[] {
		return [...this.journeys.values()];
	}

	/** The consent page was opened. */
	opened(j: Journey): void {
		if (j.status === 'initiated') this.set(j, 'consent_pending');
	}

	approve(j: Journey): void {
		this.requireConsentable(j);
		this.set(j, 'consent_granted');
	}

	deny(j: Journey): void {
		this.requireConsentable(j);
		this.set(j, 'consent_denied');
	}

	/** Control API: to the next state of the happy path, or straight to `to`. */
	advance(j: Journey, to?: string): void {
		if (to !== undefined) {
			const target = (to === 'completed' ? 'analysis_complete' : to) as JourneyState;
			if (!JOURNEY_STATES.includes(target))
				throw new ApiError(
					400,
					'INVALID_INPUT',
					`Unknown journey state ${to}; one of ${JOURNEY_STATES.join(', ')}`,
				);
			this.set(j, target);
			return;
		}
		if (TERMINAL.has(j.status))
			throw new ApiError(409, 'CONFLICT', `Journey is already ${j.status}`);
		this.step(j);
	}

	clear(): void {
		this.timers.clear();
		this.journeys.clear();
	}

	private requireConsentable(j: Journey): void {
		if (j.status !== 'initiated' && j.status !== 'consent_pending')
			throw new ApiError(
				409,
				'CONFLICT',
				`Consent can no longer be given: the journey is ${j.status}`,
			);
	}

	private step(j: Journey): void {
		if (j.status === 'consent_granted' && j.mobile === FAILING_MOBILE) {
			j.failedAtStage = 'data_fetch';
			j.errorMessage = 'The bank (FIP) did not return account data';
			this.set(j, 'failed');
			return;
		}
		const next = HAPPY_PATH[HAPPY_PATH.indexOf(j.status) + 1];
		if (next) this.set(j, j.status === 'initiated' && j.autoConsent ? 'consent_granted' : next);
	}

	private set(j: Journey, status: JourneyState): void {
		if (j.status === status) return;
		const previous = j.status;
		this.timers.cancel(j.timer);
		j.timer = undefined;
		j.status = status;
		j.updatedAt = new Date().toISOString();
		j.history.push({ status, at: j.updatedAt });
		this.onChange(j, previous);
		this.schedule(j);
	}

	/** Automatic moves: consent on its own with auto_consent, and every step after consent. */
	private schedule(j: Journey): void {
		const automatic =
			j.status === 'consent_granted' ||
			j.status === 'data_fetched' ||
			(j.status === 'initiated' && j.autoConsent);
		if (automatic) j.timer = this.timers.after(this.stepMs, () => this.step(j));
	}
}
