import type { AllEntities } from 'n8n-workflow';

/**
 * Every resource and its operations. A resource/operation pair outside this map is a compile error.
 */
type NodeMap = {
	creditReport: 'getMultiBureauReport' | 'getCommercialReport';
	company: 'getByCin' | 'getLlpByLlpin' | 'getEntityByPan' | 'searchByName';
	employment: 'getEpfoRecord' | 'getEpfoRecordWithCredit';
	incomeTaxReturn:
		| 'startAnalysis'
		| 'getAnalysisStatus'
		| 'getData'
		| 'resetPortalPassword'
		| 'confirmPasswordReset';
	bankStatementJourney: 'start' | 'getStatus' | 'getStatementResult' | 'getAnalysis' | 'wait';
	collectionSession: 'create' | 'wait';
	triggerDelivery: 'markProcessed' | 'processOnce';
	apiRequest: 'send';
};

export type FinVerifyType = AllEntities<NodeMap>;
export type FinVerifyResource = keyof NodeMap;
export type FinVerifyOperation<R extends FinVerifyResource> = NodeMap[R];
