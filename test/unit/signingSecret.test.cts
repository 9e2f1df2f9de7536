import {
	forgetSecrets,
	rememberedSecret,
	rememberSecret,
	SECRET_REUSE_MS,
} from '../../nodes/shared/signingSecret';

describe('the signing secret kept between deliveries', () => {
	test('reused for less than SECRET_REUSE_MS after it was read, then read again', () => {
		const scope = `wf:${Math.random()}:node:cred`;
		expect(rememberedSecret(scope, 1_000)).toBeUndefined();
		rememberSecret(scope, 'secret-1', 1_000);
		expect(rememberedSecret(scope, 1_000 + SECRET_REUSE_MS - 1)).toBe('secret-1');
		expect(rememberedSecret(scope, 1_000 + SECRET_REUSE_MS)).toBeUndefined();
		// gone for good once expired
		expect(rememberedSecret(scope, 1_000)).toBeUndefined();
	});

	test('a clock that went back does not extend it', () => {
		const scope = `wf:${Math.random()}:node:cred`;
		rememberSecret(scope, 'secret-1', 10_000);
		expect(rememberedSecret(scope, 9_999)).toBeUndefined();
	});

	test('a new read replaces it; unpublishing forgets every secret of the trigger', () => {
		const prefix = `wf:${Math.random()}:node:`;
		rememberSecret(`${prefix}cred-a`, 'old', 0);
		rememberSecret(`${prefix}cred-a`, 'new', 1);
		rememberSecret(`${prefix}cred-b`, 'other', 1);
		rememberSecret('another-trigger', 'kept', 1);
		expect(rememberedSecret(`${prefix}cred-a`, 2)).toBe('new');
		forgetSecrets(prefix);
		expect(rememberedSecret(`${prefix}cred-a`, 2)).toBeUndefined();
		expect(rememberedSecret(`${prefix}cred-b`, 2)).toBeUndefined();
		expect(rememberedSecret('another-trigger', 2)).toBe('kept');
	});
});
