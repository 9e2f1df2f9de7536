import { normalizeCollectionSession } from '../../../nodes/FinVerify/helpers/normalize/collectionSession';

// Hand-written after the contract's CollectionSession (openapi/finverify.openapi.yaml)
const created = {
	success: true,
	status_code: 200,
	message: 'Session created and email sent',
	data: {
		session_id: 'cs_123',
		flow: 'ITR',
		hosted_url: 'https://collect.example.com/s/tok_abc',
		token: 'tok_abc',
		expires_at: '2025-04-01T10:00:00+05:30',
		status: 'created',
		recipient_email: 'priya@example.com',
		pan: null,
	},
};

describe('normalizeCollectionSession', () => {
	it('reads the documented shape and leaves the bare token out', () => {
		const s = normalizeCollectionSession(created);
		expect(s).toEqual({
			sessionId: 'cs_123',
			flow: 'itr',
			status: 'created',
			isFinal: false,
			hostedUrl: 'https://collect.example.com/s/tok_abc',
			expiresAt: '2025-04-01T04:30:00.000Z',
			recipientEmail: 'priya@example.com',
			pan: null,
			message: 'Session created and email sent',
		});
		expect(JSON.stringify(s)).not.toContain('"token"');
	});
	it.each(['completed', 'expired', 'abandoned'])('%s is final', (status) => {
		expect(
			normalizeCollectionSession({ data: { ...created.data, status, pan: 'abcde1234f' } }),
		).toMatchObject({ status, isFinal: true, pan: 'ABCDE1234F' });
	});
	it('tolerates partial input', () => {
		for (const body of [undefined, null, {}, { data: null }, []]) {
			expect(normalizeCollectionSession(body)).toMatchObject({
				sessionId: null,
				status: null,
				isFinal: false,
				hostedUrl: null,
			});
		}
	});
});
