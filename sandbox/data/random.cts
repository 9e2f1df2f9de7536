import { createHash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';

/**
 * faker 10 ships as ES modules only. Jest's CommonJS module runtime cannot load it, so it is loaded with
 * Node's own `require` (which loads ES modules since Node 20.19), fetched from the real `module` builtin.
 * Only the en_IN locale build is loaded (it falls back to en and base), which keeps start-up fast.
 */
function loadFaker(): Faker {
	try {
		const nodeModule = process.getBuiltinModule('module') as typeof import('node:module');
		const nativeRequire = nodeModule.createRequire(__filename);
		return (nativeRequire('@faker-js/faker/locale/en_IN') as { faker: Faker }).faker;
	} catch (error) {
		throw new Error(
			`The sandbox needs Node.js >= 20.19 (require of ES modules) to load @faker-js/faker: ${(error as Error).message}`,
		);
	}
}

const faker = loadFaker();

/** A 32-bit seed from the SHA-256 of the given parts; the same input always gives the same seed. */
export function seedOf(...parts: Array<string | number>): number {
	return createHash('sha256').update(parts.join('\u0000')).digest().readUInt32BE(0);
}

/** Short lowercase hex digest of the parts, for deterministic record ids (`doc_id`, `request_id`...). */
export function hexOf(length: number, ...parts: Array<string | number>): string {
	return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, length);
}

/**
 * Runs a generator with the shared faker seeded from `parts`. Generation is synchronous, so reseeding the
 * one instance is safe and makes every generator a pure function of its input.
 */
export function seeded<T>(parts: Array<string | number>, generate: (f: Faker) => T): T {
	faker.seed(seedOf(...parts));
	return generate(faker);
}

export type { Faker };
