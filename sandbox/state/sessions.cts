import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.cjs';
import { Clock, Timers } from './timers.cjs';

export const SESSION_STATES = ['created', 'completed', 'expired', 'abandoned'] as const;
export type SessionState = (typeof SESSION_STATES)[number];
export const DEFAULT_EXPIRES_IN = 604_800;

export interface SessionInput {
	flow: 'itr' | 'gst';
	redirect_url: string;
	callback_url: string;
	metadata?: Record<string, unknown>;
	expires_in?: number;
	recipient_email: string;
	recipient_name?: string;
	requester_name?: string;
}

export interface Session {
	sessionId: string;
	token: string;
	flow: 'itr' | 'gst';
	redirectUrl: string;
	callbackUrl: string;
	metadata: Record<string, unknown>;
	recipientEmail: string;
	recipientName: string | null;
	requesterName: string | null;
	status: SessionState;
	pan: string | null;
	gstin: string | null;
	submittedData: Record<string, string> | null;
	createdAt: string;
	updatedAt: string;
	expiresAt: string;
}

export type SessionListener = (session: Session, previous: SessionState) => void;

/** Hosted collection sessions: created → completed (data submitted) | abandoned (left) | expired (expires_in). */
export class Sessions {
	private readonly sessions = new Map<string, Session>();
	private readonly timers: Timers;

	constructor(
		private readonly onChange: SessionListener,
		clock: Clock = new Clock(),
	) {
		this.timers = new Timers(clock);
	}

	create(input: SessionInput): Session {
		const now = new Date();
		const expiresIn = input.expires_in ?? DEFAULT_EXPIRES_IN;
		const session: Session = {
			sessionId: `cs_${randomBytes(12).toString('hex')}`,
			token: randomBytes(24).toString('base64url'),
			flow: input.flow,
			redirectUrl: input.redirect_url,
			callbackUrl: input.callback_url,
			metadata: input.metadata ?? {},
			recipientEmail: input.recipient_email,
			recipientName: input.recipient_name ?? null,
			requesterName: input.requester_name ?? null,
			status: 'created',
			pan: null,
			gstin: null,
			submittedData: null,
			createdAt: now.toISOString(),
			updatedAt: now.toISOString(),
			expiresAt: new Date(now.getTime() + expiresIn * 1000).toISOString(),
		};
		this.sessions.set(session.sessionId, session);
		this.timers.after(expiresIn * 1000, () => {
			if (session.status === 'created') this.set(session, 'expired');
		});
		return session;
	}

	get(sessionId: string): Session | undefined {
		return this.sessions.get(sessionId);
	}

	/** The session when `token` is its token (constant-time comparison). */
	authorizedByToken(sessionId: string, token: string | undefined): Session | undefined {
		const s = this.sessions.get(sessionId);
		if (!s || !token) return undefined;
		const a = Buffer.from(s.token);
		const b = Buffer.from(token);
		return a.length === b.length && timingSafeEqual(a, b) ? s : undefined;
	}

	/** The recipient submitted the form. */
	complete(
		s: Session,
		data: { pan: string; gstin?: string; fields: Record<string, string> },
	): void {
		this.requireOpen(s);
		s.pan = data.pan;
		s.gstin = data.gstin ?? null;
		s.submittedData = data.fields;
		this.set(s, 'completed');
	}

	abandon(s: Session): void {
		this.requireOpen(s);
		this.set(s, 'abandoned');
	}

	/** Control API: force a status. */
	force(s: Session, status: string): void {
		if (!SESSION_STATES.includes(status as SessionState))
			throw new ApiError(
				400,
				'INVALID_INPUT',
				`Unknown session status ${status}; one of ${SESSION_STATES.join(', ')}`,
			);
		this.set(s, status as SessionState);
	}

	clear(): void {
		this.timers.clear();
		this.sessions.clear();
	}

	private requireOpen(s: Session): void {
		if (s.status !== 'created') throw new ApiError(409, 'CONFLICT', `The session is ${s.status}`);
	}

	private set(s: Session, status: SessionState): void {
		if (s.status === status) return;
		const previous = s.status;
		s.status = status;
		s.updatedAt = new Date().toISOString();
		this.onChange(s, previous);
	}
}
