import type { BankAccount } from '../data/statements.cjs';
import type { Journey } from '../state/journeys.cjs';
import { html, page } from './html.cjs';

const PURPOSE = {
	loan_underwriting: 'assess a loan application',
	loan_monitoring: 'monitor an existing loan',
};

/** The account-aggregator consent page at `journey_url`. */
export function consentPage(j: Journey, accounts: BankAccount[]): string {
	const open = j.status === 'initiated' || j.status === 'consent_pending';
	const body = open
		? html`<h1>Share your bank statements</h1>
				<div class="card">
					<p>
						${j.customerName ? `Hello ${j.customerName}, a` : 'A'} lender asks for your consent to
						fetch the last 3 months of statements of these accounts, linked to mobile
						<strong>XXXXXX${j.mobile.slice(-4)}</strong>, to ${PURPOSE[j.consentType]}:
					</p>
					<ul>
						${accounts.map(
							(a) =>
								html`<li>${a.bankName}, ${a.accountType.toLowerCase()} account ${a.masked}</li>`,
						)}
					</ul>
					<p class="muted">Consent id ${j.clientId}. This request expires at ${j.expiresAt}.</p>
					<form method="post" action="/journey/${j.clientId}/approve" style="display:inline">
						<button class="primary" type="submit" id="approve">Approve</button>
					</form>
					<form method="post" action="/journey/${j.clientId}/deny" style="display:inline">
						<button type="submit" id="deny">Deny</button>
					</form>
				</div>`
		: html`<h1>Consent request ${j.status === 'consent_denied' ? 'declined' : 'closed'}</h1>
				<div class="card">
					<p>This consent request is <strong id="status">${j.status}</strong>.</p>
				</div>`;
	return page('Account aggregator consent', body);
}

export function journeyResultPage(j: Journey): string {
	const granted = j.status !== 'consent_denied';
	return page(
		'Account aggregator consent',
		html`<h1>${granted ? 'Thank you, consent given' : 'Consent declined'}</h1>
			<div class="card">
				<p>
					${granted
						? 'Your statements are being fetched. You can close this page.'
						: 'No data will be shared.'}
				</p>
				<p class="muted">Journey ${j.clientId}: <strong id="status">${j.status}</strong></p>
			</div>`,
	);
}
