import type { IDataObject } from 'n8n-workflow';

import { asObject, first, toLowerText, toStatusWord, toUpperText, unwrap } from './common';
import { toIsoTimestamp, toText } from '../../../shared/values';

export interface CollectionSession extends IDataObject {
	sessionId: string | null;
	flow: string | null;
	status: string | null;
	isFinal: boolean;
	/** Shareable link of the hosted interface (it embeds the session's token). */
	hostedUrl: string | null;
	expiresAt: string | null;
	recipientEmail: string | null;
	pan: string | null;
	message: string | null;
}

/**
 * Create (operation collectionSessionCreate):
 * `{success, status_code, message, data:{session_id, flow, hosted_url, token, expires_at, status,
 * recipient_email, pan}}`.
 * The bare token is left out of the simplified output (it is part of hostedUrl already); the raw
 * output keeps it. Pure and tolerant.
 */
export function normalizeCollectionSession(body: unknown): CollectionSession {
	const outer = asObject(body);
	const data = unwrap(body);
	const status = toStatusWord(data.status);
	return {
		sessionId: toText(first(data.session_id, data.id)),
		flow: toLowerText(data.flow),
		status,
		isFinal: status !== null && status !== 'created',
		hostedUrl: toText(first(data.hosted_url, data.url)),
		expiresAt: toIsoTimestamp(data.expires_at),
		recipientEmail: toText(data.recipient_email),
		pan: toUpperText(data.pan),
		message: toText(outer.message),
	};
}
