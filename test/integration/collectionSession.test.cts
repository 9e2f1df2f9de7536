/**
 * Collection Session (operation collectionSessionCreate) through n8n-core's real engine against the
 * sandbox: the session is created with the refresh-token cookie and the hosted link is e-mailed
 * (sandbox outbox); simplified and raw output; every field checked before sending; a wrong refresh
 * token surfaces the API's 401.
 */

import { withParameters } from '../harness/index.cjs';
import {
	expectApiError,
	expectInvalidInput,
	fixtures,
	NODE,
	SHAPES,
	withSandbox,
} from './support.cjs';

const fixture = fixtures('collectionSession');
const SESSION_PATH = 'collection/session';

describe.each(SHAPES)('Collection Session, %s shape', (shape) => {
	const sandbox = withSandbox({ shape, resetBeforeEach: true });
	const { run, sent } = sandbox;

	test('create: simplified session, all fields sent, link e-mailed to the recipient', async () => {
		const started = Date.now();
		const result = await run(fixture('create'));
		expect(result.error).toBeUndefined();
		const [json] = result.json(NODE);
		expect(json).toEqual({
			sessionId: expect.any(String),
			flow: 'gst',
			status: 'created',
			isFinal: false,
			hostedUrl: expect.stringMatching(/^https?:\/\//),
			expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
			recipientEmail: 'priya@example.com',
			pan: null,
			message: expect.any(String),
		});
		// expires_in 3600 → about an hour from now
		const expiresIn = Date.parse(json.expiresAt as string) - started;
		expect(expiresIn).toBeGreaterThan(3590_000);
		expect(expiresIn).toBeLessThan(3620_000);

		const [request] = await sandbox.control.requests('collection/session/create');
		expect(request.body).toEqual({
			flow: 'gst',
			redirect_url: 'https://example.com/thank-you',
			callback_url: 'https://n8n.example.com/webhook/finverify',
			recipient_email: 'priya@example.com',
			recipient_name: 'Priya Sharma',
			requester_name: 'Acme Finance',
			expires_in: 3600,
			metadata: { crm_id: '123' },
		});

		const mail = (await sandbox.control.outbox()).find((m) =>
			JSON.stringify(m).includes('priya@example.com'),
		);
		expect(mail).toBeDefined();
		expect(JSON.stringify(mail)).toContain(json.hostedUrl as string);
	});

	test('raw: the response as sent (token included)', async () => {
		const [json] = (await run(withParameters(fixture('create'), NODE, { simplify: false }))).json(
			NODE,
		);
		expect(json).toMatchObject({
			success: true,
			data: {
				session_id: expect.any(String),
				token: expect.any(String),
				flow: 'gst',
				status: 'created',
			},
		});
	});

	test('Flow from a CRM in capitals (ITR, through an expression) is sent as the service wants', async () => {
		const result = await run(withParameters(fixture('create'), NODE, { flow: "={{ 'ITR' }}" }));
		expect(result.error).toBeUndefined();
		const [request] = await sandbox.control.requests('collection/session/create');
		expect((request.body as Record<string, unknown>).flow).toBe('itr');
	});

	test('wrong refresh token: 401 with message_code unauthorized', async () => {
		const result = await run(fixture('create'), { refreshToken: 'not-the-token' });
		expectApiError(result, 'unauthorized', '401');
		expect(JSON.stringify(result.error)).not.toContain('not-the-token');
		expect(await sandbox.control.outbox()).toHaveLength(0);
	});

	test('no refresh token in the credential: stopped before sending', async () => {
		const result = await run(fixture('create'), { refreshToken: '' });
		expect(result.error?.message).toBe('The FinVerify credential has no Refresh Token');
		expect(await sent(SESSION_PATH)).toBe(0);
	});

	test.each([
		['create.invalidEmail', 'Recipient Email'],
		['create.invalidRedirectUrl', 'Redirect URL'],
		['create.invalidCallbackUrl', 'Callback URL'],
		['create.invalidExpiresIn', 'Expires In (Seconds)'],
		['create.invalidMetadata', 'Metadata (JSON)'],
		['create.invalidFlow', 'Flow'],
		['create.invalidRecipientName', 'Recipient Name'],
		['create.invalidRequesterName', 'Requester Name'],
	])('%s: rejected before sending, naming %s', async (name, field) => {
		expectInvalidInput(await run(fixture(name)), field);
		expect(await sent(SESSION_PATH)).toBe(0);
		expect(await sandbox.control.outbox()).toHaveLength(0);
	});
});
