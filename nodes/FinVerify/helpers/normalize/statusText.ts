import { toText } from '../../../shared/values';

/**
 * Registry and tax statuses in one case whichever case the service sends ("ACTIVE", "active" and
 * "Active" are one status): the words of the specification's examples, capitalised (Active, Struck
 * Off, Under Process of Striking Off, Not Applicable, Converted to LLP). Journey, session and job
 * statuses are machine words instead and stay lowercase (see docs/output.md).
 */

/** Abbreviations that stay in capitals. */
const CAPITALS = new Set(['LLP', 'OPC', 'GST', 'GSTIN', 'ITR', 'TDS', 'TCS', 'CIRP', 'NBFC', 'NA']);
/** Short words that stay lowercase inside a status. */
const SMALL_WORDS = new Set(['of', 'to', 'in', 'for', 'and', 'the', 'by', 'on', 'u/s']);

const capitalise = (word: string) =>
	word
		.split('-')
		.map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
		.join('-');

/**
 * A status in the documented case, e.g. `STRUCK_OFF` → `Struck Off`; null when empty, or when it is
 * no word (`200`, `"200"`: an envelope's code in the place of the record's status).
 */
export function toStatusText(value: unknown): string | null {
	const text = toText(value);
	if (text === null || typeof value !== 'string' || !/\p{L}/u.test(text)) return null;
	return text
		.split(/[\s_]+/)
		.map((word, index) => {
			const upper = word.toUpperCase();
			if (CAPITALS.has(upper)) return upper;
			if (index > 0 && SMALL_WORDS.has(word.toLowerCase())) return word.toLowerCase();
			return capitalise(word);
		})
		.join(' ');
}
