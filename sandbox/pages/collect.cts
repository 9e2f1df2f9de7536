import type { Session } from '../state/sessions.cjs';
import { html, page } from './html.cjs';

export interface FormProblem {
	message: string;
	values: Record<string, string>;
}

/** Form fields per flow; `pan` (ITR) or `gstin` (GST) identifies the recipient. */
export const FLOW_FIELDS = {
	itr: [
		{
			name: 'pan',
			label: 'PAN',
			placeholder: 'ABCDE1234F',
			pattern: '[A-Za-z]{5}[0-9]{4}[A-Za-z]',
		},
		{ name: 'date_of_birth', label: 'Date of birth', type: 'date' },
		{
			name: 'assessment_year',
			label: 'Latest assessment year',
			placeholder: '2024-25',
			pattern: '[0-9]{4}-[0-9]{2}',
		},
	],
	gst: [
		{
			name: 'gstin',
			label: 'GSTIN',
			placeholder: '27ABCDE1234F1Z5',
			pattern: '[0-9]{2}[A-Za-z]{5}[0-9]{4}[A-Za-z][0-9A-Za-z][Zz][0-9A-Za-z]',
		},
		{ name: 'gst_username', label: 'GST portal username' },
	],
} as const;

type Field = { name: string; label: string; placeholder?: string; pattern?: string; type?: string };

/** The hosted interface of a collection session (`hosted_url`). */
export function hostedPage(s: Session, problem?: FormProblem): string {
	const title =
		s.flow === 'itr' ? 'Share your income-tax return details' : 'Share your GST details';
	const fields = (FLOW_FIELDS[s.flow] as readonly Field[]).map(
		(f) =>
			html`<label for="${f.name}">${f.label}</label>
				<input
					id="${f.name}"
					name="${f.name}"
					type="${f.type ?? 'text'}"
					required
					placeholder="${f.placeholder ?? ''}"
					${f.pattern ? html`pattern="${f.pattern}"` : ''}
					value="${problem?.values[f.name] ?? ''}"
				/>`,
	);
	return page(
		title,
		html`<h1>${title}</h1>
			<p>
				${s.recipientName ? `Hello ${s.recipientName}. ` : ''}${s.requesterName ??
				'A FinVerify customer'}
				asks you to share these details.
			</p>
			${problem ? html`<p class="error" id="error">${problem.message}</p>` : ''}
			<div class="card">
				<form method="post" action="/collect/${s.sessionId}/submit">
					<input type="hidden" name="token" value="${s.token}" />
					${fields}
					<button class="primary" type="submit" id="submit">Submit</button>
				</form>
				<form method="post" action="/collect/${s.sessionId}/leave">
					<input type="hidden" name="token" value="${s.token}" />
					<button type="submit" id="leave">I'll do this later</button>
				</form>
			</div>
			<p class="muted">This link expires at ${s.expiresAt}.</p>`,
	);
}

export function sessionClosedPage(s: Session): string {
	const text: Record<Session['status'], string> = {
		created: 'This session is open.',
		completed: 'Your details were already submitted. Thank you.',
		abandoned: 'You left this session. Ask the requester for a new link.',
		expired: 'This link has expired. Ask the requester for a new link.',
	};
	return page(
		'Session closed',
		html`<h1>Session ${s.status}</h1>
			<div class="card"><p id="status" data-status="${s.status}">${text[s.status]}</p></div>`,
	);
}

export const messagePage = (title: string, message: string): string =>
	page(
		title,
		html`<h1>${title}</h1>
			<div class="card"><p>${message}</p></div>`,
	);
