import { ApiError } from '../errors.cjs';
import { links } from '../links.cjs';
import { MAGIC } from '../magic.cjs';
import type { SessionInput } from '../state/sessions.cjs';
import type { HandlerContext, Handlers } from './types.cjs';

export const collectionHandlers: Handlers = {
	collectionSessionCreate({ body, sandbox }: HandlerContext<SessionInput>) {
		const email = body.recipient_email.toLowerCase();
		if (email === MAGIC.sessionUndeliverable)
			throw new ApiError(
				422,
				'UNPROCESSABLE_ENTITY',
				'The session link cannot be emailed to this recipient',
			);
		if (email === MAGIC.sessionServerError)
			throw new ApiError(
				500,
				'INTERNAL_ERROR',
				'The session could not be created, please retry later',
			);
		const session = sandbox.sessions.create(body);
		const hostedUrl = links(sandbox.baseUrl).hostedSession(session.sessionId, session.token);
		const what = session.flow === 'itr' ? 'income-tax return' : 'GST';
		sandbox.outbox.send({
			to: session.recipientEmail,
			subject: `${session.requesterName ?? 'FinVerify'} requests your ${what} details`,
			text: [
				`Hello ${session.recipientName ?? ''}`.trim() + ',',
				'',
				`${session.requesterName ?? 'A FinVerify customer'} asks you to share your ${what} details through a secure page:`,
				hostedUrl,
				'',
				`The link expires at ${session.expiresAt}.`,
			].join('\n'),
			link: hostedUrl,
			session_id: session.sessionId,
		});
		return {
			success: true,
			status_code: 200,
			message: `Session created and the link was emailed to ${session.recipientEmail}`,
			data: {
				session_id: session.sessionId,
				flow: session.flow,
				hosted_url: hostedUrl,
				token: session.token,
				expires_at: session.expiresAt,
				status: session.status,
				recipient_email: session.recipientEmail,
				pan: session.pan,
			},
		};
	},
};
