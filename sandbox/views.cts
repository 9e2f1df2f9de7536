import type { Shape } from './config.cjs';
import { bankAccounts, bsaClientId } from './data/statements.cjs';
import { maskMobile } from './data/ids.cjs';
import type { Journey } from './state/journeys.cjs';
import type { Session } from './state/sessions.cjs';

/** The journey status body (operation journeyStatus) in a shape. */
export function journeyStatusBody(j: Journey, shape: Shape) {
	if (shape === 'reference') {
		return {
			success: true,
			message: 'Journey status fetched successfully',
			data: journeyReferenceData(j),
		};
	}
	return journeySample(j);
}

const journeyReferenceData = (j: Journey) => ({
	client_id: j.clientId,
	status: j.status,
	consent_type: j.consentType,
	mobile_number: maskMobile(j.mobile),
	updated_at: j.updatedAt,
});

const BSA_STATUS: Partial<Record<Journey['status'], string>> = {
	consent_granted: 'pending',
	data_fetched: 'processing',
	analysis_complete: 'completed',
	failed: 'failed',
};

function journeySample(j: Journey) {
	const bsaStatus = BSA_STATUS[j.status];
	const accounts = bsaStatus
		? bankAccounts(j.mobile).map((a) => ({
				account_index: a.index,
				bank_name: a.bankName,
				account_number: a.masked,
				bsa_status: bsaStatus,
				bsa_client_id: bsaClientId(j.clientId, a),
				error_message: bsaStatus === 'failed' ? j.errorMessage : null,
			}))
		: [];
	return {
		client_id: j.clientId,
		status: j.status === 'analysis_complete' ? 'completed' : j.status,
		failed_at_stage: j.failedAtStage,
		total_accounts: accounts.length,
		completed_accounts: accounts.filter((a) => a.bsa_status === 'completed').length,
		failed_accounts: accounts.filter((a) => a.bsa_status === 'failed').length,
		accounts,
		error_message: j.errorMessage,
		created_at: j.createdAt,
		updated_at: j.updatedAt,
	};
}

/** Webhook body of a journey status change; `data` is the status in the shape of the init request. */
export function journeyEvent(j: Journey, previous: string) {
	return {
		event: 'aa_bsa_journey.status_changed',
		client_id: j.clientId,
		status: j.status,
		previous_status: previous,
		updated_at: j.updatedAt,
		data: j.shape === 'reference' ? journeyReferenceData(j) : journeySample(j),
	};
}

/** A session without its bearer token (what webhooks carry). */
export const sessionView = (s: Session) => ({
	session_id: s.sessionId,
	flow: s.flow,
	status: s.status,
	recipient_email: s.recipientEmail,
	recipient_name: s.recipientName,
	requester_name: s.requesterName,
	pan: s.pan,
	gstin: s.gstin,
	metadata: s.metadata,
	submitted_data: s.submittedData,
	expires_at: s.expiresAt,
	created_at: s.createdAt,
	updated_at: s.updatedAt,
});

export function sessionEvent(s: Session, previous: string) {
	return {
		event: 'collection_session.status_changed',
		session_id: s.sessionId,
		flow: s.flow,
		status: s.status,
		previous_status: previous,
		updated_at: s.updatedAt,
		data: sessionView(s),
	};
}
