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
