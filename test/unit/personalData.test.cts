/**
 * Masking of personal data (helpers/personalData.ts), alone: which keys are personal data at any depth,
 * how each kind is masked, that Aadhaar is masked under Full too, and that nothing else changes.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	kindOfKey,
	maskAllButLast4,
	maskDateOfBirth,
	maskEmail,
	isBusinessPan,
	maskPersonalData,
} from '../../nodes/FinVerify/helpers/personalData';

test.each([
	['pan', 'pan'],
	['PAN', 'pan'],
	['panNumber', 'pan'],
	['pan_number', 'pan'],
	['entityPan', 'pan'],
	['PAN-VARIATIONS', 'pan'],
	['aadhaar', 'aadhaar'],
	['aadhaarNumber', 'aadhaar'],
	['aadhaar_number', 'aadhaar'],
	['maskedAadhaar', 'aadhaar'],
	['UID-VARIATIONS', 'aadhaar'],
	['mobile', 'mobile'],
	['mobileNumber', 'mobile'],
	['mobile_number', 'mobile'],
	['phone_info', 'mobile'],
	['PHONE-VARIATIONS', 'mobile'],
	['accountNumber', 'accountNumber'],
	['maskedAccountNumber', 'accountNumber'],
	['ACCT-NUMBER', 'accountNumber'],
	['account_no', 'accountNumber'],
	['uan', 'accountNumber'],
	['email', 'email'],
	['emailAddress', 'email'],
	['email_id', 'email'],
	['EMAIL-VARIATIONS', 'email'],
	['dob', 'dateOfBirth'],
	['dateOfBirth', 'dateOfBirth'],
	['DATE-OF-BIRTH-VARIATIONS', 'dateOfBirth'],
	['passport_number', 'identityNumber'],
	['voter_id', 'identityNumber'],
	['driving_license', 'identityNumber'],
])('%s is %s', (key, kind) => {
	expect(kindOfKey(key)).toBe(kind);
});

test.each([
	'panStatus',
	'span',
	'timespan',
	'company',
	'companyName',
	'name',
	'creditScore',
	'status',
	'requestId',
	'numberOfAccounts',
	'cin',
	'uanSource',
	'expansion',
])('%s is not personal data', (key) => {
	expect(kindOfKey(key)).toBeUndefined();
});

test('all but the last 4 letters and digits become X; separators stay', () => {
	expect(maskAllButLast4('ABCDE1234F')).toBe('XXXXXX234F');
	expect(maskAllButLast4('9876543210')).toBe('XXXXXX3210');
	expect(maskAllButLast4('+91 98765 43210')).toBe('+XX XXXXX X3210');
	expect(maskAllButLast4('1234 5678 9012')).toBe('XXXX XXXX 9012');
	// already masked by the service, short codes and values without a digit stay as they are
	expect(maskAllButLast4('XXXX XXXX 9012')).toBe('XXXX XXXX 9012');
	expect(maskAllButLast4('01')).toBe('01');
	expect(maskAllButLast4('linked')).toBe('linked');
});

test('e-mail: first letter and domain kept, every address in the text', () => {
	expect(maskEmail('priya.sharma@example.com')).toBe('pXXXXXXXXXXX@example.com');
	expect(maskEmail('a@b.in, ravi@x.org')).toBe('a@b.in, rXXX@x.org');
	expect(maskEmail('not an address')).toBe('not an address');
});

test('Masked: a PAN inside any other text is masked too; Full leaves it', () => {
	const json = { reportLink: 'http://x/files/cibil/ABCDE1234F.pdf', requestId: 'REQABCDE1234FX' };
	expect(maskPersonalData(json, 'masked')).toEqual({
		reportLink: 'http://x/files/cibil/XXXXXX234F.pdf',
		requestId: 'REQABCDE1234FX',
	});
	expect(maskPersonalData(json, 'full')).toEqual(json);
});

test("a business's PAN is passed on unmasked, an individual's is masked (issue 45)", () => {
	const json = {
		pan: 'AAACA1234Q', // a company
		llpPan: 'AAFFS1234C', // a firm or LLP
		trustPan: 'AAATR1234K',
		directorPan: 'ABCPE1234F', // a person
		hufPan: 'AAAHA1234B', // a Hindu undivided family: stays personal
		link: 'http://x/files/AAACA1234Q/ABCPE1234F.pdf',
	};
	expect(maskPersonalData(json, 'masked')).toEqual({
		pan: 'AAACA1234Q',
		llpPan: 'AAFFS1234C',
		trustPan: 'AAATR1234K',
		directorPan: 'XXXXXX234F',
		hufPan: 'XXXXXX234B',
		link: 'http://x/files/AAACA1234Q/XXXXXX234F.pdf',
	});
	expect(isBusinessPan('aaaca1234q')).toBe(true);
	expect(isBusinessPan('ABCPE1234F')).toBe(false);
	expect(isBusinessPan('AAACA12345')).toBe(false);
});

test('date of birth: the year is kept', () => {
	expect(maskDateOfBirth('1990-05-14')).toBe('1990-XX-XX');
	expect(maskDateOfBirth('14/05/1990')).toBe('XX/XX/1990');
	expect(maskDateOfBirth('14-05-90')).toBe('XX-XX-XX');
});

const record = {
	pan: 'ABCDE1234F',
	name: 'Priya Sharma',
	creditScore: 781,
	mobileNumber: 9876543210,
	aadhaarNumber: '1234 5678 9012',
	aadhaar_status: 'linked',
	profile: { dob: '1990-05-14', email: 'priya.sharma@example.com', city: 'Pune' },
	accounts: [
		{ accountNumber: '50100012345678', type: 'savings', balance: 1234567 },
		{ 'ACCT-NUMBER': 'XXXX5678', 'CURRENT-BAL': '120000' },
	],
	'PERSONAL-INFO-VARIATION': {
		'PAN-VARIATIONS': { VARIATION: [{ VALUE: 'ABCDE1234F', 'REPORTED-DATE': '2020-01-31' }] },
		'UID-VARIATIONS': { VARIATION: [{ VALUE: '123456789012', 'REPORTED-DATE': '2021-02-28' }] },
	},
	identity_info: { pan_number: [{ id_number: 'ABCDE1234F' }], passport_number: ['K1234567'] },
	emailVerified: true,
};

test('Masked: every kind of personal data at any depth; other fields, keys and dates unchanged', () => {
	expect(maskPersonalData(record, 'masked')).toEqual({
		pan: 'XXXXXX234F',
		name: 'Priya Sharma',
		creditScore: 781,
		mobileNumber: 'XXXXXX3210',
		aadhaarNumber: 'XXXX XXXX 9012',
		aadhaar_status: 'linked',
		profile: { dob: '1990-XX-XX', email: 'pXXXXXXXXXXX@example.com', city: 'Pune' },
		accounts: [
			{ accountNumber: 'XXXXXXXXXX5678', type: 'savings', balance: 1234567 },
			{ 'ACCT-NUMBER': 'XXXX5678', 'CURRENT-BAL': '120000' },
		],
		'PERSONAL-INFO-VARIATION': {
			'PAN-VARIATIONS': { VARIATION: [{ VALUE: 'XXXXXX234F', 'REPORTED-DATE': '2020-01-31' }] },
			'UID-VARIATIONS': { VARIATION: [{ VALUE: 'XXXXXXXX9012', 'REPORTED-DATE': '2021-02-28' }] },
		},
		identity_info: { pan_number: [{ id_number: 'XXXXXX234F' }], passport_number: ['XXXX4567'] },
		emailVerified: true,
	});
});

test('Full: only Aadhaar is masked', () => {
	const full = maskPersonalData(record, 'full');
	expect(full).toEqual({
		...record,
		aadhaarNumber: 'XXXX XXXX 9012',
		'PERSONAL-INFO-VARIATION': {
			...record['PERSONAL-INFO-VARIATION'],
			'UID-VARIATIONS': { VARIATION: [{ VALUE: 'XXXXXXXX9012', 'REPORTED-DATE': '2021-02-28' }] },
		},
	});
});

test('the input record is not changed', () => {
	const copy = structuredClone(record);
	maskPersonalData(record, 'masked');
	expect(record).toEqual(copy);
});

test('property: no 12-digit Aadhaar and no PAN of a person survives masking, whatever the key spelling and depth', () => {
	const digit = fc.constantFrom(...'0123456789');
	const letter = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
	const aadhaar = fc.array(digit, { minLength: 12, maxLength: 12 }).map((d) => d.join(''));
	const pan = fc
		.tuple(
			fc.array(letter, { minLength: 5, maxLength: 5 }),
			fc.array(digit, { minLength: 4, maxLength: 4 }),
			letter,
		)
		.map(([a, d, l]) => `${a.join('')}${d.join('')}${l}`);
	const aadhaarKey = fc.constantFrom(
		'aadhaar',
		'aadhaarNumber',
		'aadhaar_number',
		'AADHAAR-NO',
		'uid',
	);
	const panKey = fc.constantFrom('pan', 'PAN', 'panNumber', 'pan_number', 'directorPan');
	const path = fc.array(fc.constantFrom('data', 'profile', 'bureaus', 'report', 'x'), {
		maxLength: 4,
	});
	fc.assert(
		fc.property(aadhaar, pan, aadhaarKey, panKey, path, (a, p, ak, pk, keys) => {
			const leaf = { [ak]: a, [pk]: [p] };
			const nested = keys.reduceRight<IDataObject>((inner, key) => ({ [key]: inner }), leaf);
			const text = JSON.stringify(maskPersonalData(nested, 'masked'));
			expect(text).not.toContain(a);
			// a business's PAN (holder type C, F, T, A, B, G, L, J) is no personal data: passed on
			if ('CFTABGLJ'.includes(p[3])) expect(text).toContain(p);
			else expect(text).not.toContain(p);
			expect(JSON.stringify(maskPersonalData(nested, 'full'))).not.toContain(a);
		}),
	);
});
