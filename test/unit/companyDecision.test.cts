/**
 * Issue 45, the pure parts: the registry's grammar (statuses, risk flags, dates of incorporation,
 * capital), *Decide On* (decisionReady over exactly the chosen facts, never fewer), a known adverse
 * status that declines on its own (`declinable`), and the routing rule that sends a declinable answer
 * to Complete.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { decide, withDecision } from '../../nodes/FinVerify/actions/declarations';
import {
	normalizeAutocomplete,
	normalizeCompany,
	normalizeEntity,
	normalizeLlp,
	registryDate,
	registryFlag,
	registryStatus,
} from '../../nodes/FinVerify/helpers/normalize/company';
import { REGISTRY_FACTS, statusCategory } from '../../nodes/FinVerify/helpers/normalize/decision';
import { isIncomplete } from '../../nodes/FinVerify/actions/incompleteAnswers';

const CIN = 'company.getByCin';
const LLP = 'company.getLlpByLlpin';
const PAN = 'company.getEntityByPan';

describe("the registry's grammar", () => {
	test.each([
		['Active', 'Active', 'active'],
		['ACTIVE', 'Active', 'active'],
		['STRIKE OFF', 'Strike Off', 'struckOff'],
		['Struck Off', 'Struck Off', 'struckOff'],
		['Under Process of Striking Off', 'Under Process of Striking Off', 'struckOff'],
		['Defunct', 'Defunct', 'struckOff'],
		['dissolved', 'Dissolved', 'liquidation'],
		['Under CIRP', 'Under CIRP', 'liquidation'],
		['Under Liquidation', 'Under Liquidation', 'liquidation'],
		['Amalgamated', 'Amalgamated', 'amalgamated'],
		['Active in Progress', 'Active in Progress', 'other'],
		['Dormant under section 455', 'Dormant Under Section 455', 'dormant'],
		// outside the grammar: unknown
		['Approved', null, null],
		['Y', null, null],
		['200', null, null],
		[200, null, null],
		['', null, null],
		[true, null, null],
		[null, null, null],
	])('status %j reads as %j (%j)', (raw, status, category) => {
		expect(registryStatus(raw)).toBe(status);
		expect(statusCategory(registryStatus(raw))).toBe(category);
	});

	test.each([
		[true, true],
		[false, false],
		['Y', true],
		['n', false],
		['Yes', true],
		['NO', false],
		['true', true],
		[' False ', false],
		[1, null],
		[0, null],
		['1', null],
		['maybe', null],
		['', null],
		[null, null],
		[undefined, null],
	])('risk flag %j reads as %j', (raw, flag) => expect(registryFlag(raw)).toBe(flag));

	const today = new Date('2026-06-15T10:00:00Z');
	test.each([
		['2015-04-01', '2015-04-01'],
		['01-04-2015', '2015-04-01'],
		['2026-06-15', '2026-06-15'],
		['2026-06-16', null], // in the future
		['2030-01-01', null],
		['2019-02-30', null], // no such day
		['2019-13-01', null],
		['yesterday', null],
		[20150401, null],
	])('date of incorporation %j reads as %j', (raw, date) =>
		expect(registryDate(raw, today)).toBe(date),
	);

	test('statuses, flags, dates and capital outside the grammar are unknown in every lookup', () => {
		const company = normalizeCompany({
			data: {
				cin: 'U12345MH2015PTC123456',
				status: 'Approved',
				date_of_incorporation: '2999-01-01',
				authorised_capital: -5,
				paid_up_capital: 1e21,
			},
		});
		expect(company).toMatchObject({
			status: null,
			dateOfIncorporation: null,
			authorisedCapital: null,
			paidUpCapital: null,
		});
		const sample = normalizeCompany({
			data: {
				result: {
					company: { cin: 'U12345MH2015PTC123456', paid_up_capital: '1,00,000' },
					key_indicators: {
						pending_cases_filed_against_this_corporate: 'Y',
						bureau_defaults: 'No',
						gst_filing_delay: 1,
						epf_payment_delay: 'unknown',
					},
				},
			},
		});
		expect(sample.paidUpCapital).toBe(100000);
		expect(sample.riskFlags).toEqual({
			pendingCases: true,
			bureauDefaults: false,
			gstFilingDelay: null,
			epfPaymentDelay: null,
		});
		expect(normalizeLlp({ data: { llpin: 'AAB-1234', status: 'STRIKE OFF' } }).status).toBe(
			'Strike Off',
		);
		expect(
			normalizeEntity({
				data: {
					result: { pan: 'AAACA1234A', status: 'x', tds_tcs_compliance: { tds_defaults: 'N' } },
				},
			}),
		).toMatchObject({ status: null, tdsDefaults: false });
		expect(
			normalizeAutocomplete({ data: [{ entity_name: 'A', cin: 'A', status: '?' }] })[0].status,
		).toBeNull();
	});
});

const clean = (facts: IDataObject = {}): IDataObject => ({
	status: 'Active',
	dateOfIncorporation: '2015-01-01',
	riskFlags: {
		pendingCases: false,
		bureauDefaults: false,
		gstFilingDelay: false,
		epfPaymentDelay: false,
	},
	...facts,
});
/** The reference layout: status and date, no risk flags. */
const reference = (facts: IDataObject = {}) =>
	clean({
		riskFlags: {
			pendingCases: null,
			bureauDefaults: null,
			gstFilingDelay: null,
			epfPaymentDelay: null,
		},
		...facts,
	});

describe('Decide On: decisionReady over exactly the chosen facts', () => {
	test('the default is the full set, and the answer says which facts it was decided on', () => {
		expect(decide(CIN, clean())).toMatchObject({
			decisionReady: true,
			declinable: false,
			adverse: [],
			decidedOn: REGISTRY_FACTS[CIN],
		});
		expect(decide(CIN, reference())).toMatchObject({
			decisionReady: false,
			incomplete: [
				'risk flags unknown: pending cases, bureau defaults, GST filing delay, EPF payment delay',
			],
			adverse: null,
		});
	});

	test('status and age: the reference layout is ready, and a risk flag it lacks is not asked', () => {
		const statusAndAge = { decideOn: ['status', 'age'] };
		expect(decide(CIN, reference(), statusAndAge)).toMatchObject({
			decisionReady: true,
			incomplete: [],
			adverse: [],
			decidedOn: ['status', 'age'],
		});
		expect(decide(CIN, reference({ dateOfIncorporation: null }), statusAndAge)).toMatchObject({
			decisionReady: false,
			incomplete: ['date of incorporation unknown'],
		});
	});

	test('never fewer facts than chosen: each chosen fact, unknown, makes the answer incomplete', () => {
		for (const operation of [CIN, LLP]) {
			for (const fact of REGISTRY_FACTS[operation]) {
				const record =
					fact === 'status'
						? clean({ status: null })
						: fact === 'age'
							? clean({ dateOfIncorporation: null })
							: clean({ riskFlags: { ...(clean().riskFlags as IDataObject), [fact]: null } });
				expect(decide(operation, record, { decideOn: [fact] }).decisionReady).toBe(false);
				expect(decide(operation, record).decisionReady).toBe(false);
				// a policy that leaves the fact out is ready
				const others = REGISTRY_FACTS[operation].filter((f) => f !== fact);
				expect(decide(operation, record, { decideOn: others })).toMatchObject({
					decisionReady: true,
					decidedOn: others,
				});
			}
		}
	});

	test('an empty or foreign choice is the full set, never none', () => {
		expect(decide(CIN, reference(), { decideOn: [] }).decidedOn).toEqual(REGISTRY_FACTS[CIN]);
		expect(decide(CIN, reference(), { decideOn: ['tdsDefaults'] }).decisionReady).toBe(false);
	});

	test('Get Entity by PAN: its flags are top-level; TDS defaults count, EPF delays do not', () => {
		const entity = {
			status: 'Active',
			dateOfIncorporation: '2015-01-01',
			bureauDefaults: false,
			gstFilingDelay: false,
			tdsDefaults: null,
		};
		expect(decide(PAN, entity)).toMatchObject({
			decisionReady: false,
			incomplete: ['risk flags unknown: TDS defaults'],
		});
		expect(
			decide(PAN, entity, { decideOn: ['status', 'age', 'bureauDefaults', 'gstFilingDelay'] }),
		).toMatchObject({ decisionReady: true, adverse: [] });
		expect(decide(PAN, { ...entity, tdsDefaults: true })).toMatchObject({
			decisionReady: true,
			adverse: [
				expect.objectContaining({
					kind: 'tdsDefault',
					source: 'entity',
					text: 'Entity: TDS defaults',
				}),
			],
		});
	});

	test('other operations keep deciding with their one set (decide(operation, record))', () => {
		const verdict = decide('employment.getEpfoRecord', {
			employerCount: 0,
			totalTenureMonths: null,
			employers: [],
		});
		expect(verdict).toMatchObject({ decisionReady: true });
		expect(verdict).not.toHaveProperty('decidedOn');
	});
});

describe('a known adverse status declines on its own', () => {
	test.each([
		'Strike Off',
		'Struck Off',
		'Under Process of Striking Off',
		'Defunct',
		'Dissolved',
		'Under Liquidation',
		'Under CIRP',
	])('%s: declinable, even with every risk flag unknown', (status) => {
		const verdict = decide(CIN, reference({ status, dateOfIncorporation: null }));
		expect(verdict).toMatchObject({
			decisionReady: false,
			declinable: true,
			adverse: [
				expect.objectContaining({
					figure: status,
					source: 'company',
					text: expect.stringContaining(`(status '${status}')`) as unknown,
				}),
			],
		});
		expect(verdict.incomplete).toHaveLength(2);
	});

	test.each(['Active', 'Amalgamated', 'Dormant', 'Active in Progress'])(
		'%s is not declinable on its own',
		(status) => expect(decide(CIN, reference({ status })).declinable).toBe(false),
	);

	test('unknown is never declinable, and a policy without the status never declines on it', () => {
		expect(decide(CIN, reference({ status: null })).declinable).toBeNull();
		expect(decide(CIN, reference({ status: 'Struck Off' }), { decideOn: ['age'] })).toMatchObject({
			decisionReady: true,
			declinable: false,
			adverse: [],
		});
	});

	test('adverse facts are named (litigation, defaults), and only when the answer is ready or declinable', () => {
		const litigation = clean({
			riskFlags: {
				...(clean().riskFlags as IDataObject),
				pendingCases: true,
				bureauDefaults: true,
			},
		});
		expect(decide(CIN, litigation)).toMatchObject({
			decisionReady: true,
			declinable: false,
			adverse: [
				expect.objectContaining({
					kind: 'litigation',
					text: 'Company: pending cases (litigation)',
				}),
				expect.objectContaining({
					kind: 'bureauDefault',
					text: 'Company: defaults reported to a credit bureau',
				}),
			],
		});
		expect(decide(CIN, { ...litigation, status: null }).adverse).toBeNull();
	});

	const item = (json: IDataObject): INodeExecutionData => ({ json });
	test('routing: a declinable answer leaves on Complete; an incomplete one on Incomplete', () => {
		const declinable = withDecision(CIN, reference({ status: 'Struck Off' }));
		expect(declinable).toMatchObject({ decisionReady: false, declinable: true });
		expect(isIncomplete(item(declinable))).toBe(false);
		expect(isIncomplete(item(withDecision(CIN, reference())))).toBe(true);
		expect(isIncomplete(item(withDecision(CIN, clean())))).toBe(false);
		// the policy reaches the verdict through withDecision
		expect(withDecision(CIN, reference(), { decideOn: ['status', 'age'] })).toMatchObject({
			decisionReady: true,
			decidedOn: ['status', 'age'],
		});
	});
});

describe('directors, one by one', () => {
	test('each signatory with DIN, designation, dates and whether current', () => {
		const out = normalizeCompany({
			data: {
				result: {
					company: { cin: 'U12345MH2015PTC123456' },
					authorized_signatories: [
						{
							name: 'A',
							din: '01234567',
							designation: 'Director',
							date_of_appointment_for_current_designation: '2016-01-01',
							date_of_cessation: null,
						},
						{
							name: 'B',
							din: '07654321',
							designation: 'Director',
							date_of_appointment_for_current_designation: '2016-01-01',
							date_of_cessation: '2020-03-31',
						},
						{ name: 'C', din: '01111111', designation: 'Director' },
					],
				},
			},
		});
		expect(out.directors?.map((d) => [d.din, d.current, d.ceasedOn])).toEqual([
			['01234567', true, null],
			['07654321', false, '2020-03-31'],
			['01111111', null, null],
		]);
		expect(normalizeCompany({ data: { cin: 'U12345MH2015PTC123456' } }).directors).toBeNull();
	});
});
