/**
 * The companies of the KYB example's tests (examples/kyb-decision.json; the engine test kybExample and the
 * real-app test kybApp): found by name in the simulator and sorted by what its registry says of them, read
 * from the simulator's own answers (not through the node), and the outcome a lender's onboarding team
 * expects for each, per layout and Decide On policy (issue 45).
 *
 * | Company | Status, Age and Risk Flags (default) | Status and Age |
 * |---|---|---|
 * | active, clean | approve (sample layout); refer (reference: it states no risk flags) | approve |
 * | struck off | decline | decline |
 * | litigation (pending cases) | refer | refer (sample: the example's own rule on the record's pending cases); approve (reference: the record states none) |
 * | EPF delay not stated (Get by CIN's flag, no fact of the PAN check) | as clean | approve |
 * | unknown (the registry states no status: the simulator's `nostatus` magic) | refer | refer |
 */
import type { IDataObject } from 'n8n-workflow';

import { SANDBOX_KEYS } from '../../harness/sandbox.cjs';

export type Shape = 'sample' | 'reference';
export type Kind = 'clean' | 'struckOff' | 'litigation' | 'epfUnstated' | 'unknown';
export type Outcome = 'approve' | 'decline' | 'refer';
export type Policy = 'all' | 'statusAndAge';
export const KINDS: Kind[] = ['clean', 'epfUnstated', 'litigation', 'struckOff', 'unknown'];

/** The example's three outcome nodes. */
export const OUTCOME_NODES: Record<Outcome, string> = {
	approve: 'Approve',
	decline: 'Decline',
	refer: 'Refer to a person',
};

/** The facts each policy decides on (Get Entity by PAN's Decide On). */
export const DECIDED_ON: Record<Policy, string[]> = {
	all: ['status', 'age', 'bureauDefaults', 'gstFilingDelay', 'tdsDefaults'],
	statusAndAge: ['status', 'age'],
};

export function expected(kind: Kind, shape: Shape, policy: Policy): Outcome {
	if (kind === 'struckOff') return 'decline';
	// the truly unknown: no policy decides without the status
	if (kind === 'unknown') return 'refer';
	// the example refers litigation under every policy (its own rule on the registry record, which
	// only the sample layout states: the reference layout's record has no pending cases)
	if (kind === 'litigation' && shape === 'sample') return 'refer';
	if (policy === 'statusAndAge') return 'approve';
	// the check decides on the PAN lookup's facts: the EPF delay it lacks is none of them, so such a
	// company is as clean as a clean one for this policy; the reference layout states no risk flags
	return shape === 'sample' ? 'approve' : 'refer';
}

export interface Lead {
	leadId: string;
	companyName: string;
	pan: string;
	kind: Kind;
}

async function post(
	sandboxUrl: string,
	path: string,
	body: IDataObject,
	shape: Shape,
): Promise<IDataObject> {
	const response = await fetch(`${sandboxUrl}/api/v1/services/corporate/${path}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-api-key': SANDBOX_KEYS.apiKey,
			'x-api-secret': SANDBOX_KEYS.apiSecret,
			'x-sandbox-shape': shape,
		},
		body: JSON.stringify(body),
	});
	if (response.status !== 200)
		throw new Error(`sandbox ${path}: HTTP ${response.status} ${await response.text()}`);
	return (await response.json()) as IDataObject;
}

/** What the registry says of the first company a name search finds (the simulator's own answers). */
async function kindOf(
	sandboxUrl: string,
	name: string,
): Promise<{ kind: Kind; pan: string } | undefined> {
	const found = (
		await post(sandboxUrl, 'company-autocomplete', { company_name: name }, 'reference')
	).data as IDataObject[];
	const company = found.find((entry) => entry.entity_type === 'Company');
	if (!company) return undefined;
	const cin = String(company.cin);
	const record = (await post(sandboxUrl, 'cin-lookup', { cin }, 'reference')).data as IDataObject;
	const { status } = record;
	const pan = String(record.pan);
	const entity = ((await post(sandboxUrl, 'pan-lookup', { pan }, 'sample')).data as IDataObject)
		.result as IDataObject;
	const tds = (entity.tds_tcs_compliance as IDataObject).tds_defaults;
	const result = ((await post(sandboxUrl, 'cin-lookup', { cin }, 'sample')).data as IDataObject)
		.result as IDataObject;
	const flags = result.key_indicators as IDataObject;
	const values = [
		flags.pending_cases_filed_against_this_corporate,
		flags.bureau_defaults,
		flags.gst_filing_delay,
		flags.epf_payment_delay,
	];
	// unknown in both layouts: the status is null in the reference record and in the PAN lookup
	if (status === null && entity.status === null) return { kind: 'unknown', pan };
	if (status === 'Struck Off') return { kind: 'struckOff', pan };
	if (status !== 'Active' || tds !== false) return undefined;
	if (values.every((v) => v === false)) return { kind: 'clean', pan };
	if (values[0] === true && values.slice(1).every((v) => v === false))
		return { kind: 'litigation', pan };
	if (values.slice(0, 3).every((v) => v === false) && values[3] === null)
		return { kind: 'epfUnstated', pan };
	return undefined;
}

/** Up to `perKind` companies of each kind, by the names that find them (the same in every run). */
export async function findLeads(sandboxUrl: string, perKind = 2): Promise<Lead[]> {
	const words = [
		'Acme',
		'Shree',
		'Bharat',
		'Globe',
		'Sunrise',
		'Delta',
		'Ganesh',
		'Lotus',
		'Nova',
		'Orbit',
		'Kaveri',
		'Indus',
		'Vista',
		'Apex',
		'Zenith',
		'Royal',
	];
	// the simulator's magic: a name with "nostatus" finds companies whose status the registry does not state
	const names = ['Nostatus Agro', 'Nostatus Tech'].concat(
		words.flatMap((a) => ['Agro', 'Tech', 'Steel', 'Foods', 'Motors'].map((b) => `${a} ${b}`)),
	);
	const leads: Lead[] = [];
	const count: Record<Kind, number> = {
		clean: 0,
		struckOff: 0,
		litigation: 0,
		epfUnstated: 0,
		unknown: 0,
	};
	for (const companyName of names) {
		const found = await kindOf(sandboxUrl, companyName);
		if (!found || count[found.kind] >= perKind) continue;
		const { kind, pan } = found;
		count[kind]++;
		leads.push({ leadId: `${kind}-${count[kind]}`, companyName, pan, kind });
	}
	return leads;
}
