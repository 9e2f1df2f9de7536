import { pastDate, iso } from './dates.cjs';
import { digits, pan, pinCode, STATES } from './ids.cjs';
import type { Faker } from './random.cjs';

export interface Person {
	firstName: string;
	lastName: string;
	fullName: string;
	gender: 'male' | 'female';
	dob: string;
	pan: string;
	mobile: string;
	email: string;
	address: Address;
}

export interface Address {
	line1: string;
	line2: string;
	city: string;
	state: string;
	stateCode: string;
	pinCode: string;
	full: string;
}

export function address(f: Faker): Address {
	const state = f.helpers.arrayElement(STATES);
	const line1 = f.location.streetAddress();
	const line2 = f.location.secondaryAddress();
	const city = f.location.city();
	const pin = pinCode(f);
	return {
		line1,
		line2,
		city,
		state: state.name,
		stateCode: state.code,
		pinCode: pin,
		full: `${line1}, ${line2}, ${city}, ${state.name} - ${pin}`,
	};
}

/** A synthetic individual; known values (PAN, mobile, name, gender) from the request win over generated ones. */
export function person(
	f: Faker,
	known: Partial<Pick<Person, 'pan' | 'mobile' | 'fullName' | 'gender'>> = {},
): Person {
	const gender = known.gender ?? f.helpers.arrayElement(['male', 'female'] as const);
	let firstName = f.person.firstName(gender);
	let lastName = f.person.lastName();
	if (known.fullName) {
		const parts = known.fullName.trim().split(/\s+/);
		firstName = parts[0];
		lastName = parts.length > 1 ? parts.slice(1).join(' ') : lastName;
	}
	const fullName = known.fullName?.trim() ?? `${firstName} ${lastName}`;
	return {
		firstName,
		lastName,
		fullName,
		gender,
		dob: iso(pastDate(f, 23, 58)),
		pan: known.pan ?? pan(f, 'P', lastName),
		mobile: known.mobile ?? `${f.helpers.arrayElement(['9', '8', '7'])}${digits(f, 9)}`,
		email: f.internet
			.email({
				firstName,
				lastName,
				provider: f.helpers.arrayElement([
					'gmail.com',
					'yahoo.co.in',
					'outlook.com',
					'rediffmail.com',
				]),
			})
			.toLowerCase(),
		address: address(f),
	};
}
