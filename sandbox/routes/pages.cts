import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Sandbox } from '../context.cjs';
import { BUREAUS, commercialReportHtml, type Bureau } from '../data/bureau.cjs';
import { analysisJson, bankAccounts } from '../data/statements.cjs';
import { ApiError } from '../errors.cjs';
import { page, html } from '../pages/html.cjs';
import { consentPage, journeyResultPage } from '../pages/journey.cjs';
import { FLOW_FIELDS, hostedPage, messagePage, sessionClosedPage } from '../pages/collect.cjs';
import { outboxPage } from '../pages/outbox.cjs';
import { pdfDocument } from '../pages/pdf.cjs';
import type { Journey } from '../state/journeys.cjs';
import type { Session } from '../state/sessions.cjs';

type Params<K extends string> = { Params: Record<K, string> };
type Form = Record<string, string | undefined>;

const sendHtml = (reply: FastifyReply, status: number, body: string) =>
	reply.code(status).type('text/html; charset=utf-8').send(body);
const sendPdf = (reply: FastifyReply, name: string, title: string, lines: string[]) =>
	reply
		.type('application/pdf')
		.header('content-disposition', `inline; filename="${name}"`)
		.send(pdfDocument(title, lines));

/** `redirect_url` with the outcome appended as query parameters. */
function withQuery(url: string, params: Record<string, string>): string {
	const u = new URL(url);
	for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
	return u.toString();
}

/** Browser-facing pages: the consent page, the hosted collection page, the outbox page. */
export function registerPages(app: FastifyInstance, sandbox: Sandbox): void {
	const journeyOr404 = (clientId: string, reply: FastifyReply): Journey | undefined => {
		const j = sandbox.journeys.get(clientId);
		if (!j)
			void sendHtml(reply, 404, messagePage('Not found', 'This consent request does not exist.'));
		return j;
	};

	app.get<Params<'clientId'>>('/journey/:clientId', async (request, reply) => {
		const j = journeyOr404(request.params.clientId, reply);
		if (!j) return reply;
		sandbox.journeys.opened(j);
		return sendHtml(
			reply,
			j.status === 'expired' ? 410 : 200,
			consentPage(j, bankAccounts(j.mobile)),
		);
	});

	for (const action of ['approve', 'deny'] as const) {
		app.post<Params<'clientId'>>(`/journey/:clientId/${action}`, async (request, reply) => {
			const j = journeyOr404(request.params.clientId, reply);
			if (!j) return reply;
			try {
				sandbox.journeys[action](j);
			} catch (error) {
				if (error instanceof ApiError)
					return sendHtml(
						reply,
						error.status,
						messagePage('Consent request closed', error.message),
					);
				throw error;
			}
			if (j.redirectUrl)
				return reply.redirect(
					withQuery(j.redirectUrl, { client_id: j.clientId, status: j.status }),
					303,
				);
			return sendHtml(reply, 200, journeyResultPage(j));
		});
	}

	const sessionFor = (
		sessionId: string,
		token: string | undefined,
		reply: FastifyReply,
	): Session | undefined => {
		const s = sandbox.sessions.authorizedByToken(sessionId, token);
		if (!s)
			void sendHtml(
				reply,
				403,
				messagePage('Link not valid', 'This link is not valid. Use the link from your email.'),
			);
		else if (s.status !== 'created')
			void sendHtml(reply, s.status === 'expired' ? 410 : 409, sessionClosedPage(s));
		return s?.status === 'created' ? s : undefined;
	};

	app.get<Params<'sessionId'> & { Querystring: { token?: string } }>(
		'/collect/:sessionId',
		async (request, reply) => {
			const s = sessionFor(request.params.sessionId, request.query.token, reply);
			return s ? sendHtml(reply, 200, hostedPage(s)) : reply;
		},
	);

	app.post<Params<'sessionId'> & { Body: Form }>(
		'/collect/:sessionId/submit',
		async (request, reply) => {
			const form = formOf(request.body);
			const s = sessionFor(request.params.sessionId, form.token, reply);
			if (!s) return reply;
			const result = readSubmission(s.flow, form);
			if ('problem' in result)
				return sendHtml(
					reply,
					400,
					hostedPage(s, { message: result.problem, values: form as Record<string, string> }),
				);
			sandbox.sessions.complete(s, result);
			return reply.redirect(
				withQuery(s.redirectUrl, { session_id: s.sessionId, status: s.status }),
				303,
			);
		},
	);

	app.post<Params<'sessionId'> & { Body: Form }>(
		'/collect/:sessionId/leave',
		async (request, reply) => {
			const s = sessionFor(request.params.sessionId, formOf(request.body).token, reply);
			if (!s) return reply;
			sandbox.sessions.abandon(s);
			return reply.redirect(
				withQuery(s.redirectUrl, { session_id: s.sessionId, status: s.status }),
				303,
			);
		},
	);

	app.get('/__sandbox/outbox.html', async (_request, reply) =>
		sendHtml(reply, 200, outboxPage(sandbox.outbox.list())),
	);

	registerFiles(app, sandbox);
}

const formOf = (body: unknown): Form => (body && typeof body === 'object' ? (body as Form) : {});

const PATTERNS: Record<string, RegExp> = {
	pan: /^[A-Z]{5}[0-9]{4}[A-Z]$/,
	gstin: /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][0-9A-Z]Z[0-9A-Z]$/,
	assessment_year: /^[0-9]{4}-[0-9]{2}$/,
	date_of_birth: /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/,
};

/** Validates the hosted form; the PAN of a GST submission is read from the GSTIN. */
function readSubmission(
	flow: Session['flow'],
	form: Form,
): { pan: string; gstin?: string; fields: Record<string, string> } | { problem: string } {
	const fields: Record<string, string> = {};
	for (const f of FLOW_FIELDS[flow]) {
		const value = (form[f.name] ?? '').trim();
		const normalized = f.name === 'pan' || f.name === 'gstin' ? value.toUpperCase() : value;
		if (!normalized) return { problem: `${f.label} is required.` };
		if (PATTERNS[f.name] && !PATTERNS[f.name].test(normalized))
			return { problem: `${f.label} is not valid.` };
		fields[f.name] = normalized;
	}
	return flow === 'itr'
		? { pan: fields.pan, fields }
		: { pan: fields.gstin.slice(2, 12), gstin: fields.gstin, fields };
}

/** Files behind the links in responses: reports (HTML, PDF) and journey account files. */
function registerFiles(app: FastifyInstance, sandbox: Sandbox): void {
	app.get<Params<'file'> & { Querystring: { business_name?: string } }>(
		'/files/commercial-report/:file',
		async (request, reply) => {
			const pan = request.params.file.replace(/\.html$/, '');
			return sendHtml(
				reply,
				200,
				commercialReportHtml(request.query.business_name ?? 'Unnamed business', pan),
			);
		},
	);

	app.get<Params<'bureau' | 'file'>>(
		'/files/credit-report/:bureau/:file',
		async (request, reply) => {
			const bureau = request.params.bureau as Bureau;
			if (!BUREAUS.includes(bureau)) return reply.code(404).send({ error: 'unknown bureau' });
			const pan = request.params.file.replace(/\.pdf$/, '');
			return sendPdf(reply, `${bureau}-${pan}.pdf`, `${bureau.toUpperCase()} credit report`, [
				`PAN: ${pan}`,
				'Synthetic report generated by the FinVerify sandbox.',
			]);
		},
	);

	app.get<Params<'file'>>('/files/company/:file', async (request, reply) => {
		const cin = request.params.file.replace(/\.pdf$/, '');
		return sendPdf(reply, `${cin}.pdf`, 'Company master data', [
			`CIN: ${cin}`,
			'Synthetic document generated by the FinVerify sandbox.',
		]);
	});

	app.get<Params<'file'>>('/files/itr/:file', async (request, reply) => {
		const ack = request.params.file.replace(/\.pdf$/, '');
		return sendPdf(reply, `ITR-V-${ack}.pdf`, 'ITR-V acknowledgement', [
			`Acknowledgement number: ${ack}`,
			'Synthetic document generated by the FinVerify sandbox.',
		]);
	});

	app.get<Params<'clientId' | 'index' | 'file'>>(
		'/files/aa/:clientId/:index/:file',
		async (request, reply) => {
			const j = sandbox.journeys.get(request.params.clientId);
			const account =
				j?.status === 'analysis_complete'
					? bankAccounts(j.mobile)[Number(request.params.index)]
					: undefined;
			if (!j || !account)
				return reply
					.code(404)
					.send({ error: 'no such file (unknown journey or account, or analysis not complete)' });
			switch (request.params.file) {
				case 'analysis.json':
					return reply.send(analysisJson(account));
				case 'analysis.html': {
					const a = analysisJson(account);
					return sendHtml(
						reply,
						200,
						page(
							'Statement analysis',
							html`<h1>Statement analysis</h1>
								<div class="card">
									<p>
										${a.summary_card.customer_name}, ${a.summary_card.bank_name}
										${a.summary_card.account_number}
									</p>
									<p>
										Health score <strong>${a.health_score.score}</strong> (${a.health_score.rating})
									</p>
								</div>`,
						),
					);
				}
				case 'statement.pdf':
					return sendPdf(
						reply,
						'statement.pdf',
						`${account.bankName} statement`,
						account.transactions
							.slice(0, 45)
							.map(
								(t) =>
									`${t.date}  ${t.type === 'CREDIT' ? 'CR' : 'DR'} ${t.amount.toFixed(2).padStart(12)}  ${t.balance.toFixed(2).padStart(12)}  ${t.description.slice(0, 60)}`,
							),
					);
				case 'analysis.pdf':
					return sendPdf(reply, 'analysis.pdf', 'Statement analysis', [
						`Account ${account.masked} at ${account.bankName}`,
						`Opening ${account.opening}, closing ${account.closing}`,
					]);
				default:
					return reply.code(404).send({ error: 'no such file' });
			}
		},
	);
}
