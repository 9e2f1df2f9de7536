import type { FieldContext } from '../../helpers/validation';
import { assertIdentifier } from '../../helpers/validation';

/** The journey client_id every read operation takes, checked before any request. */
export function readClientId(ctx: FieldContext, value: unknown): string {
	return assertIdentifier(ctx, value, 'Journey Client ID', 'aa_5f2c0b7e9a1d4c3b8e6f0a2d');
}
