export function escapeHtml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);
}

/** Tagged template that HTML-escapes every interpolated value except `raw()` fragments. */
export class Raw {
	constructor(readonly html: string) {}
}
export const raw = (html: string): Raw => new Raw(html);

export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
	let out = strings[0];
	values.forEach((value, i) => {
		const render = (v: unknown): string =>
			v instanceof Raw
				? v.html
				: Array.isArray(v)
					? v.map(render).join('')
					: escapeHtml(String(v ?? ''));
		out += render(value) + strings[i + 1];
	});
	return raw(out);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:640px;margin:2rem auto;padding:0 1rem;color:#1f2937}
h1{font-size:1.4rem}.card{border:1px solid #d1d5db;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}input{width:100%;padding:.5rem;box-sizing:border-box}
button{padding:.6rem 1.2rem;margin:.75rem .5rem 0 0;border-radius:6px;border:1px solid #374151;cursor:pointer}
button.primary{background:#2563eb;color:#fff;border-color:#2563eb}.error{color:#b91c1c}.muted{color:#6b7280;font-size:.9rem}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #e5e7eb;padding:.35rem .5rem;text-align:left}`;

/** A complete HTML document with the sandbox banner. */
export function page(title: string, body: Raw): string {
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><p class="muted">FinVerify sandbox: synthetic data, nothing here is real.</p>
${body.html}
</body></html>`;
}
