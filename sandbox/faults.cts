/** Injected failures for chosen paths (`POST /__sandbox/faults`). */
export interface Fault {
	id: string;
	/** `/exact/path`, `/prefix/*`, or a bare suffix such as `cin-lookup`. */
	path: string;
	method?: string;
	status?: number;
	retryAfter?: number;
	latencyMs?: number;
	/** Applies to this many requests, then clears itself; unlimited when absent. */
	times?: number;
	body?: unknown;
	malformed?: boolean;
	html?: boolean;
	drop?: boolean;
	timeout?: boolean;
}

export type FaultInput = Omit<Fault, 'id'>;

const BOOLEAN_FIELDS = ['malformed', 'html', 'drop', 'timeout'] as const;
const NUMBER_FIELDS = ['status', 'retryAfter', 'latencyMs', 'times'] as const;

/** Validates a fault from the control API; returns an error message or the fault. */
export function parseFault(input: unknown): FaultInput | string {
	if (!input || typeof input !== 'object' || Array.isArray(input))
		return 'a fault must be a JSON object';
	const f = input as Record<string, unknown>;
	if (typeof f.path !== 'string' || f.path.trim() === '')
		return 'path is required (e.g. "/api/v1/services/corporate/cin-lookup")';
	if (f.method !== undefined && typeof f.method !== 'string') return 'method must be a string';
	for (const k of NUMBER_FIELDS)
		if (
			f[k] !== undefined &&
			(typeof f[k] !== 'number' || !Number.isInteger(f[k]) || (f[k] as number) < 0)
		)
			return `${k} must be a non-negative integer`;
	for (const k of BOOLEAN_FIELDS)
		if (f[k] !== undefined && typeof f[k] !== 'boolean') return `${k} must be a boolean`;
	if (f.status !== undefined && ((f.status as number) < 100 || (f.status as number) > 599))
		return 'status must be an HTTP status (100-599)';
	if (f.times === 0) return 'times must be at least 1';
	const kinds = BOOLEAN_FIELDS.filter((k) => f[k] === true);
	if (kinds.length > 1) return `choose one of ${BOOLEAN_FIELDS.join(', ')}`;
	if (
		f.status === undefined &&
		f.latencyMs === undefined &&
		f.body === undefined &&
		kinds.length === 0
	)
		return 'a fault needs at least one of status, latencyMs, body, malformed, html, drop, timeout';
	return {
		...(f as unknown as FaultInput),
		method: f.method ? String(f.method).toUpperCase() : undefined,
	};
}

export class Faults {
	private faults: Fault[] = [];
	private nextId = 1;

	add(input: FaultInput): Fault {
		const fault = { ...input, id: `fault_${this.nextId++}` };
		this.faults.push(fault);
		return fault;
	}

	clear(): void {
		this.faults = [];
	}

	list(): Fault[] {
		return [...this.faults];
	}

	/** The newest fault matching the request; consumes one of its `times`. */
	take(method: string, path: string): Fault | undefined {
		for (let i = this.faults.length - 1; i >= 0; i--) {
			const fault = this.faults[i];
			if ((fault.method && fault.method !== method) || !pathMatches(fault.path, path)) continue;
			if (fault.times !== undefined) {
				fault.times -= 1;
				if (fault.times <= 0) this.faults.splice(i, 1);
			}
			return fault;
		}
		return undefined;
	}
}

function pathMatches(pattern: string, path: string): boolean {
	if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
	if (pattern.startsWith('/')) return path === pattern || path === `${pattern}/`;
	return path.endsWith(`/${pattern}`);
}
