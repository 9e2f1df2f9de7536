import type { Email } from '../outbox.cjs';
import { html, page } from './html.cjs';

export function outboxPage(messages: Email[]): string {
	const rows = messages
		.slice()
		.reverse()
		.map(
			(m) =>
				html`<tr>
					<td>${m.sent_at}</td>
					<td>${m.to}</td>
					<td>${m.subject}</td>
					<td><a href="${m.link}">open link</a></td>
				</tr>`,
		);
	return page(
		'Sandbox outbox',
		html`<h1>Outbox</h1>
			<p>Emails the sandbox "sent" (newest first).</p>
			${messages.length
				? html`<table>
						<thead>
							<tr>
								<th>Sent</th>
								<th>To</th>
								<th>Subject</th>
								<th>Link</th>
							</tr>
						</thead>
						<tbody>
							${rows}
						</tbody>
					</table>`
				: html`<p class="muted">No emails yet.</p>`}`,
	);
}
