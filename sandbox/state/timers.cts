/** Timers owned by one sandbox, so that reset and close can cancel all of them. */
export class Timers {
	private readonly pending = new Set<NodeJS.Timeout>();

	after(ms: number, fn: () => void): NodeJS.Timeout {
		const t = setTimeout(
			() => {
				this.pending.delete(t);
				fn();
			},
			Math.max(0, ms),
		);
		t.unref();
		this.pending.add(t);
		return t;
	}

	cancel(t: NodeJS.Timeout | undefined): void {
		if (!t) return;
		clearTimeout(t);
		this.pending.delete(t);
	}

	clear(): void {
		for (const t of this.pending) clearTimeout(t);
		this.pending.clear();
	}
}
