import type { IDataObject } from 'n8n-workflow';

/**
 * Reading unknown values (service answers, webhook bodies, stored items) without throwing: what the
 * normalizers of the action node, its transport and the trigger's event parsing all use.
 */

export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text or null. Numbers become text; empty strings become null. */
export function toText(value: unknown): string | null {
	if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/** A timestamp as ISO 8601 (UTC, milliseconds), or null when it cannot be read. */
export function toIsoTimestamp(value: unknown): string | null {
	const text = toText(value);
	if (!text) return null;
	const time = Date.parse(text);
	if (Number.isNaN(time)) return null;
	return new Date(time).toISOString();
}

/**
 * Characters that show nothing: white space of every script, zero-width and other default-ignorable
 * characters (ZWSP U+200B, word joiner, soft hyphen, BOM, Hangul fillers, variation selectors, tags)
 * and the Braille blank. A name (or an answer's field) made only of them looks empty wherever it is
 * shown.
 */
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** How many characters of a text show something (see INVISIBLE). */
export const visibleLength = (text: string): number => [...text.replace(INVISIBLE, '')].length;

/**
 * What a missing value turns into on its way through an expression, a spreadsheet or a serializer:
 * never an identifier, a name or a status (compared trimmed and lowercased).
 */
const PLACEHOLDER_WORDS = new Set([
	'null',
	'undefined',
	'nan',
	'none',
	'nil',
	'infinity',
	'-infinity',
	'true',
	'false',
]);

/** Whether a text is a placeholder for a missing value ("null", "undefined", "NaN"…). */
export const isPlaceholderWord = (text: string): boolean =>
	PLACEHOLDER_WORDS.has(text.trim().toLowerCase());
