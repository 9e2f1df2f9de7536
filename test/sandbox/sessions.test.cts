import type { RunningSandbox } from '../../sandbox/server.cjs';
import {
	api,
	call,
	eventually,
	expectContract,
	expectSchema,
	receiver,
	REFRESH_COOKIE,
	start,
	verifySignature,
	WEBHOOK_SECRET,
} from './helpers.cjs';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await start();
});
afterAll(() => sandbox.close());

const create = (body: Record<string, unknown>) =>
	call(sandbox, 'POST', api('collection/session/create'), {
		headers: REFRESH_COOKIE,
		body: {
			flow: 'itr',
			redirect_url: 'https://lender.example/done',
			recipient_email: 'asha@example.com',
			recipient_name: 'Asha',
			requester_name: 'Acme Finance',
			...body,
		},
	});

const form = (fields: Record<string, string>) => ({
	method: 'POST',
	redirect: 'manual' as const,
	headers: { 'content-type': 'application/x-www-form-urlencoded' },
	body: new URLSearchParams(fields).toString(),
});
const hiddenToken = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';

describe('hosted collection sessions', () => {
	it('ITR: create → email in the outbox → submit the hosted form → completed, signed callback, redirect', async () => {
		const hooks = await receiver();
		try {
			const created = await create({ callback_url: hooks.url, metadata: { application: 'APP-9' } });
			expectContract('collectionSessionCreate', created);
			const {
				session_id: sessionId,
				hosted_url: hostedUrl,
				token,
				status,
				pan,
			} = created.json.data;
			expect({ status, pan }).toEqual({ status: 'created', pan: null });
			expect(hostedUrl).toContain(token);

			const outbox = await call(sandbox, 'GET', '/__sandbox/outbox', { auth: false });
			const mail = outbox.json.messages.find(
				(m: { session_id: string }) => m.session_id === sessionId,
			);
			expect(mail).toEqual(expect.objectContaining({ to: 'asha@example.com', link: hostedUrl }));
			expect(mail.text).toContain(hostedUrl);
			const outboxPage = await (await fetch(`${sandbox.url}/__sandbox/outbox.html`)).text();
			expect(outboxPage).toContain(hostedUrl.replace(/&/g, '&amp;'));

			const page = await fetch(hostedUrl);
			const html = await page.text();
			expect(page.status).toBe(200);
			expect(html).toMatch(/name="pan"/);
			expect(html).toContain('Acme Finance');

			const bad = await fetch(
				`${sandbox.url}/collect/${sessionId}/submit`,
				form({
					token: hiddenToken(html),
					pan: 'NOTAPAN',
					date_of_birth: '1990-01-01',
					assessment_year: '2024-25',
				}),
			);
			expect(bad.status).toBe(400);
			expect(await bad.text()).toMatch(/PAN is not valid/);

			const submit = await fetch(
				`${sandbox.url}/collect/${sessionId}/submit`,
				form({
					token: hiddenToken(html),
					pan: 'abcpe1234f',
					date_of_birth: '1990-01-01',
					assessment_year: '2024-25',
				}),
			);
			expect(submit.status).toBe(303);
			expect(submit.headers.get('location')).toBe(
				`https://lender.example/done?session_id=${sessionId}&status=completed`,
			);

			const [hook] = await hooks.waitFor(1);
			expectSchema('SessionEvent', hook.body);
			expect(verifySignature(WEBHOOK_SECRET, hook.headers, hook.raw)).toBe(true);
			expect(hook.headers['x-webhook-event']).toBe('collection_session.status_changed');
			expect(hook.body.id).toBe(hook.headers['x-webhook-id']);
			expect(hook.body).toEqual({
				id: expect.stringMatching(/^wh_/),
				event: 'collection_session.status_changed',
				session_id: sessionId,
				flow: 'itr',
				status: 'completed',
				previous_status: 'created',
				updated_at: expect.any(String),
				data: expect.objectContaining({
					session_id: sessionId,
					status: 'completed',
					pan: 'ABCPE1234F',
					metadata: { application: 'APP-9' },
					submitted_data: {
						pan: 'ABCPE1234F',
						date_of_birth: '1990-01-01',
						assessment_year: '2024-25',
					},
				}),
			});
			expect(hook.raw).not.toContain(token);

			const reopened = await fetch(hostedUrl);
			expect(reopened.status).toBe(409);
			expect(await reopened.text()).toMatch(/already submitted/);
		} finally {
			await hooks.close();
		}
	});

	it('GST: the PAN is taken from the submitted GSTIN', async () => {
		const hooks = await receiver();
		try {
			const created = await create({ flow: 'gst', callback_url: hooks.url });
			const { session_id: sessionId, hosted_url: hostedUrl } = created.json.data;
			const html = await (await fetch(hostedUrl)).text();
			expect(html).toMatch(/name="gstin"/);
			const submit = await fetch(
				`${sandbox.url}/collect/${sessionId}/submit`,
				form({ token: hiddenToken(html), gstin: '27AAACA1234B1Z5', gst_username: 'acme_gst' }),
			);
			expect(submit.status).toBe(303);
			const [hook] = await hooks.waitFor(1);
			expect(hook.body.data).toEqual(
				expect.objectContaining({
					flow: 'gst',
					status: 'completed',
					pan: 'AAACA1234B',
					gstin: '27AAACA1234B1Z5',
				}),
			);
		} finally {
			await hooks.close();
		}
	});

	it('"I\'ll do this later" abandons the session and redirects', async () => {
		const hooks = await receiver();
		try {
			const created = await create({ callback_url: hooks.url });
			const { session_id: sessionId, hosted_url: hostedUrl } = created.json.data;
			const html = await (await fetch(hostedUrl)).text();
			expect(html).toMatch(/I'll do this later/);
			const leave = await fetch(
				`${sandbox.url}/collect/${sessionId}/leave`,
				form({ token: hiddenToken(html) }),
			);
			expect(leave.status).toBe(303);
			expect(leave.headers.get('location')).toContain('status=abandoned');
			const [hook] = await hooks.waitFor(1);
			expect([hook.body.previous_status, hook.body.status]).toEqual(['created', 'abandoned']);
		} finally {
			await hooks.close();
		}
	});

	it('a wrong token gets no page and changes nothing', async () => {
		const created = await create({ callback_url: 'http://127.0.0.1:9/unused' });
		const { session_id: sessionId } = created.json.data;
		expect((await fetch(`${sandbox.url}/collect/${sessionId}?token=wrong`)).status).toBe(403);
		expect(
			(
				await fetch(
					`${sandbox.url}/collect/${sessionId}/submit`,
					form({ token: 'wrong', pan: 'ABCPE1234F' }),
				)
			).status,
		).toBe(403);
		expect(sandbox.state.sessions.get(sessionId)?.status).toBe('created');
	});

	it('expires after expires_in seconds and then calls back with expired', async () => {
		const hooks = await receiver();
		try {
			const created = await create({ callback_url: hooks.url, expires_in: 1 });
			const [hook] = await hooks.waitFor(1);
			expect([hook.body.session_id, hook.body.status]).toEqual([
				created.json.data.session_id,
				'expired',
			]);
			expect((await fetch(created.json.data.hosted_url)).status).toBe(410);
		} finally {
			await hooks.close();
		}
	});

	it('the control API sets a session status (and rejects unknown ones)', async () => {
		const hooks = await receiver();
		try {
			const created = await create({ callback_url: hooks.url });
			const id = created.json.data.session_id;
			const set = (status: string) =>
				call(sandbox, 'POST', `/__sandbox/sessions/${id}/status`, {
					auth: false,
					body: { status },
				});
			expect((await set('completed')).json).toEqual({ session_id: id, status: 'completed' });
			expect((await set('bogus')).status).toBe(400);
			await hooks.waitFor(1);
			await eventually(async () => hooks.received.length === 1);
		} finally {
			await hooks.close();
		}
	});
});
