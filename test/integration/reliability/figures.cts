/**
 * Figures of the reliability suite: each test file records rows and prints one table when it ends, so a
 * run of `npm test` shows the measured numbers (docs/reliability.md quotes them).
 */
export interface Figure {
	measure: string;
	value: number | string;
	expected: number | string;
}

export class Figures {
	private readonly rows: Figure[] = [];

	constructor(private readonly title: string) {}

	add(measure: string, value: number | string, expected: number | string): void {
		this.rows.push({ measure, value, expected });
	}

	table(): string {
		const width = Math.max(7, ...this.rows.map((r) => r.measure.length));
		const line = (a: string, b: string, c: string) =>
			`| ${a.padEnd(width)} | ${b.padStart(9)} | ${c.padStart(9)} |`;
		return [
			`${this.title}`,
			line('measure', 'measured', 'expected'),
			`|${'-'.repeat(width + 2)}|${'-'.repeat(11)}|${'-'.repeat(11)}|`,
			...this.rows.map((r) => line(r.measure, String(r.value), String(r.expected))),
		].join('\n');
	}

	print(): void {
		if (this.rows.length > 0) process.stdout.write(`\n${this.table()}\n`);
	}
}
