/**
 * One company, one set of facts (issue 45): whichever lookup asks (name search, CIN or LLPIN, PAN, in
 * either shape, in either order), the simulator gives the same status, risk flags (bureau defaults
 * included), PAN and directors. Over every company and LLP that a few name searches return, through
 * the sandbox's HTTP routes.
 */
import type { RunningSandbox } from '../../sandbox/server.cjs';
import { api, call, start } from './helpers.cjs';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let sandbox: RunningSandbox;
beforeAll(async () => (sandbox = await start()));
afterAll(async () => await sandbox.close());

const post = async (path: string, body: Json, shape: 'reference' | 'sample'): Promise<Json> => {
	const reply = await call(sandbox, 'POST', api(`corporate/${path}`), { body, shape });
	expect(reply.status).toBe(200);
	return reply.json as Json;
};

interface Facts {
	status: string;
	pan: string;
	flags: Json;
	directors: Array<{ name: string; din: string; designation: string }>;
}

/** What the CIN/LLPIN lookup says of an entity, in both shapes (which must agree with each other). */
async function byId(kind: 'company' | 'llp', id: string): Promise<Facts> {
	const path = kind === 'company' ? 'cin-lookup' : 'llpin-lookup';
	const body = kind === 'company' ? { cin: id } : { llpin: id };
	const reference = (await post(path, body, 'reference')).data;
	const sample = (await post(path, body, 'sample')).data.result;
	expect(sample.company.legal_name).toBe(
		kind === 'company' ? reference.company_name : reference.llp_name,
	);
	const k = sample.key_indicators;
	return {
		status: reference.status,
		pan: reference.pan,
		flags: { bureauDefaults: k.bureau_defaults, gstFilingDelay: k.gst_filing_delay },
		directors: sample.authorized_signatories
			.filter((s: Json) => s.date_of_cessation === null)
			.map((s: Json) => ({ name: s.name, din: s.din, designation: s.designation })),
	};
}

/** What the PAN lookup says, in both shapes. */
async function byPan(pan: string): Promise<Facts & { id: string | null }> {
	const reference = (await post('pan-lookup', { pan }, 'reference')).data;
	const sample = (await post('pan-lookup', { pan }, 'sample')).data.result;
	expect(sample.status).toBe(reference.status);
	expect(sample.legal_name).toBe(reference.entity_name);
	return {
		id: reference.cin ?? reference.llpin,
		status: reference.status,
		pan: reference.pan,
		flags: {
			bureauDefaults: sample.key_indicators.bureau_defaults,
			gstFilingDelay: sample.key_indicators.gst_filing_delay,
		},
		directors: sample.directors,
	};
}

test('name search, CIN/LLPIN and PAN lookups give one company the same facts', async () => {
	let entities = 0;
	const statuses = new Set<string>();
	for (const query of ['acme', 'shree', 'bharat', 'globe', 'sunrise', 'delta']) {
		const matches = (await post('company-autocomplete', { company_name: query }, 'reference'))
			.data as Json[];
		for (const match of matches) {
			const kind = match.entity_type === 'Company' ? 'company' : 'llp';
			const id = match.cin ?? match.llpin;
			const registry = await byId(kind, id);
			const entity = await byPan(registry.pan);
			expect(entity).toEqual({ ...registry, id });
			expect(match.status).toBe(registry.status);
			statuses.add(registry.status);
			entities++;
		}
	}
	expect(entities).toBeGreaterThan(20);
	// the searches meet active and struck-off (or defunct) entities alike
	expect(statuses.has('Active')).toBe(true);
	expect([...statuses].some((s) => s !== 'Active')).toBe(true);
});

test('a PAN looked up first, then its CIN: the same facts both ways', async () => {
	let companies = 0;
	for (const pan of ['AAACP1234Q', 'AABCR5678K', 'AAFCS4321M', 'ABCCT1111A', 'AADCB2222Z']) {
		const entity = await byPan(pan);
		if (!entity.id) continue;
		const registry = await byId(/^[A-Z]{3}-\d{4}$/.test(entity.id) ? 'llp' : 'company', entity.id);
		expect({ ...entity, id: undefined }).toEqual({ ...registry, id: undefined });
		companies++;
	}
	expect(companies).toBeGreaterThan(0);
});
