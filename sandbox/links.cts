import type { Bureau } from './data/bureau.cjs';

/** Every URL the sandbox hands out, relative to its own base URL. */
export function links(base: string) {
	const expires = () => Math.floor(Date.now() / 1000) + 3600;
	return {
		journeyPage: (clientId: string) => `${base}/journey/${clientId}`,
		hostedSession: (sessionId: string, token: string) =>
			`${base}/collect/${sessionId}?token=${encodeURIComponent(token)}`,
		commercialReport: (pan: string, businessName: string) =>
			`${base}/files/commercial-report/${pan}.html?business_name=${encodeURIComponent(businessName)}`,
		bureauReport: (bureau: Bureau, pan: string) =>
			`${base}/files/credit-report/${bureau}/${pan}.pdf`,
		companyPdf: (cin: string) => `${base}/files/company/${cin}.pdf`,
		itrPdf: (ack: string) => `${base}/files/itr/${ack}.pdf`,
		/** Time-limited links of a journey account's files (the `expires` parameter is informative). */
		journeyFile: (
			clientId: string,
			index: number,
			file: 'analysis.html' | 'analysis.json' | 'statement.pdf' | 'analysis.pdf',
		) => `${base}/files/aa/${clientId}/${index}/${file}?expires=${expires()}`,
	};
}
