import type { RunningSandbox } from '../../sandbox/server.cjs';
import { api, call, start } from './helpers.cjs';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await start();
});
afterAll(() => sandbox.close());

const MB = {
	pan: 'ABCPE1234F',
	name: 'Ravi Kumar',
	mobile_number: '9876543210',
	consent: 'Y',
	gender: 'male',
};
/** Drops what may differ between calls and instances: request ids, timestamps, the sandbox's own port. */
const stable = (body: unknown) =>
	JSON.parse(
		JSON.stringify(body, (k, v) =>
			['request_id', 'timestamp', 'generated_at'].includes(k) ? undefined : v,
		).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'BASE'),
	);

describe('deterministic synthetic data', () => {
	it('the same input gives the same data, a different input different data, across sandbox instances', async () => {
		const other = await start();
		try {
			for (const shape of ['sample', 'reference'] as const) {
				for (const [path, body] of [
					['multi-bureau/fetch', { ...MB, bureaus: ['equifax', 'cibil'] }],
					['corporate/cin-lookup', { cin: 'U72200KA2005PTC036245' }],
					['corporate/pan-lookup', { pan: 'AAACR5055K' }],
					['epfo-crif-combined/fetch', { mobile_number: '9876543210' }],
					['itr-analyzer/data', { job_id: 'itr_demo' }],
				] as const) {
					const a = await call(sandbox, 'POST', api(path), { shape, body });
					const b = await call(other, 'POST', api(path), { shape, body });
					expect(stable(a.json)).toEqual(stable(b.json));
				}
			}
			const c1 = await call(sandbox, 'POST', api('corporate/cin-lookup'), {
				body: { cin: 'U72200KA2005PTC036245' },
				shape: 'reference',
			});
			const c2 = await call(sandbox, 'POST', api('corporate/cin-lookup'), {
				body: { cin: 'U72200KA2005PTC036246' },
				shape: 'reference',
			});
			expect(c1.json.data.company_name).not.toBe(c2.json.data.company_name);
			expect(c1.json.data).toEqual(
				expect.objectContaining({
					state: 'Karnataka',
					roc_code: 'RoC-Bangalore',
					date_of_incorporation: expect.stringMatching(/^2005-/),
				}),
			);
		} finally {
			await other.close();
		}
	});

	it('generates valid-format Indian identifiers and balanced company financials', async () => {
		const company = (
			await call(sandbox, 'POST', api('corporate/cin-lookup'), {
				body: { cin: 'L17110MH1973PLC019786' },
			})
		).json.data.result;
		for (const year of company.financials) {
			expect(year.bs.assets.given_assets_total).toBe(year.bs.liabilities.given_liabilities_total);
			const p = year.pnl.lineItems;
			expect(p.profit_after_tax).toBe(p.profit_before_tax - p.income_tax);
		}
		expect(company.authorized_signatories[0].din).toMatch(/^\d{8}$/);
		const llp = (
			await call(sandbox, 'POST', api('corporate/llpin-lookup'), { body: { llpin: 'aab-1234' } })
		).json.data;
		expect(llp.llpin).toBe('AAB-1234');
		expect(llp.result.company).toEqual(
			expect.objectContaining({
				llpin: 'AAB-1234',
				authorised_capital: null,
				paid_up_capital: null,
			}),
		);
		for (const g of llp.result.gst_details)
			expect(g.gstin).toMatch(/^\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]Z[0-9A-Z]$/);
		const entity = (
			await call(sandbox, 'POST', api('corporate/pan-lookup'), {
				body: { pan: 'aaacr5055k' },
				shape: 'reference',
			})
		).json.data;
		expect(entity).toEqual(
			expect.objectContaining({
				pan: 'AAACR5055K',
				entity_type: 'Company',
				llpin: null,
				cin: expect.stringMatching(/^[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}$/),
			}),
		);
	});
});

describe('multi-bureau', () => {
	it('returns only the requested bureaus: string scores in the sample shape, integer scores in the reference shape', async () => {
		const sample = (
			await call(sandbox, 'POST', api('multi-bureau/fetch'), {
				body: { ...MB, bureaus: ['experian', 'crif'] },
			})
		).json;
		expect(Object.keys(sample.results).sort()).toEqual(['crif', 'experian']);
		expect(sample.results.experian.data.credit_score).toMatch(/^\d{3}$/);
		expect(sample.results.experian.data.credit_report).toEqual(
			expect.objectContaining({
				CreditProfileHeader: expect.any(Object),
				CAIS_Account: expect.any(Object),
			}),
		);
		const reference = (
			await call(sandbox, 'POST', api('multi-bureau/fetch'), {
				shape: 'reference',
				body: { ...MB, bureaus: ['cibil'] },
			})
		).json;
		expect(Object.keys(reference.data)).toEqual(['cibil']);
		expect(Number.isInteger(reference.data.cibil.score)).toBe(true);
	});

	it('equifax carries id_number, id_type and gender; the report link serves a PDF', async () => {
		const { equifax } = (
			await call(sandbox, 'POST', api('multi-bureau/fetch'), {
				body: { ...MB, bureaus: ['equifax'] },
			})
		).json.results;
		expect(equifax.data).toEqual(
			expect.objectContaining({ id_number: MB.pan, id_type: 'pan', gender: 'male' }),
		);
		expect(
			equifax.data.credit_report.CCRResponse.CIRReportDataLst[0].CIRReportData.ScoreDetails[0]
				.Value,
		).toBe(equifax.data.credit_score);
		const pdf = await fetch(equifax.credit_report_link);
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
		expect(bytes.startsWith('%PDF-1.4')).toBe(true);
		expect(bytes.trimEnd().endsWith('%%EOF')).toBe(true);
		const xref = Number(/startxref\n(\d+)/.exec(bytes)?.[1]);
		expect(bytes.slice(xref, xref + 4)).toBe('xref');
	});

	it('a name containing "nohit" gives every requested bureau a "no record" outcome', async () => {
		const body = { ...MB, name: 'Nohit Person', bureaus: ['equifax', 'crif'] };
		const sample = (await call(sandbox, 'POST', api('multi-bureau/fetch'), { body })).json;
		expect(Object.values(sample.results).map((r) => (r as { success: boolean }).success)).toEqual([
			false,
			false,
		]);
		const reference = (
			await call(sandbox, 'POST', api('multi-bureau/fetch'), { body, shape: 'reference' })
		).json;
		expect(reference.data.crif).toEqual(expect.objectContaining({ score: null, report: null }));
	});
});

it('commercial report: an HTML document naming the business, also served at report_url', async () => {
	const body = { business_name: 'Shree Ganesh <Traders>', pan: 'AAFFS1234Q' };
	const { data } = (await call(sandbox, 'POST', api('credit-report-commercial/fetch'), { body }))
		.json;
	expect(data.report).toMatch(/^<!DOCTYPE html>/);
	expect(data.report).toContain('Shree Ganesh &lt;Traders&gt;');
	const served = await fetch(data.report_url);
	expect(served.headers.get('content-type')).toMatch(/text\/html/);
	expect(await served.text()).toBe(data.report);
});

it('autocomplete returns companies and LLPs containing the query whose ids look up to the same names', async () => {
	const sample = (
		await call(sandbox, 'POST', api('corporate/company-autocomplete'), {
			body: { company_name: 'infra' },
		})
	).json;
	expect(sample.company_name).toBe('INFRA');
	expect(sample.result.length).toBeGreaterThanOrEqual(4);
	expect(new Set(sample.result.map((r: { category: string }) => r.category))).toEqual(
		new Set(['ltd', 'llp']),
	);
	for (const r of sample.result) {
		expect(r.company_name).toContain('INFRA');
		if (r.category === 'ltd') {
			const company = await call(sandbox, 'POST', api('corporate/cin-lookup'), {
				body: { cin: r.cin },
				shape: 'reference',
			});
			expect(company.json.data.company_name).toBe(r.company_name);
		} else {
			const llp = await call(sandbox, 'POST', api('corporate/llpin-lookup'), {
				body: { llpin: r.cin },
				shape: 'reference',
			});
			expect(llp.json.data.llp_name).toBe(r.company_name);
		}
	}
	const reference = (
		await call(sandbox, 'POST', api('corporate/company-autocomplete'), {
			body: { company_name: 'infra' },
			shape: 'reference',
		})
	).json;
	expect(reference.total_results).toBe(sample.result.length);
	expect(reference.data.map((d: { entity_name: string }) => d.entity_name)).toEqual(
		sample.result.map((r: { company_name: string }) => r.company_name),
	);
});

describe('ITR', () => {
	it('analyze → processing → completed after 2 steps; data answers JOB_INCOMPLETE until then', async () => {
		// a manual clock: the job is surely still processing at the first data request, however loaded the machine
		const sandbox = await start({ clock: 'manual' });
		try {
			const started = await call(sandbox, 'POST', api('itr-analyzer/analyze'), {
				body: {
					pan: 'ABCPE1234F',
					password: 'Portal@123',
					assessment_years: ['2024-25', '2023-24'],
				},
			});
			const jobId = started.json.data.job_id;
			expect(jobId).toMatch(/^itr_[0-9a-f]{24}$/);
			const early = await call(sandbox, 'POST', api('itr-analyzer/data'), {
				body: { job_id: jobId },
			});
			expect([early.status, early.json.error_code]).toEqual([409, 'JOB_INCOMPLETE']);
			await call(sandbox, 'POST', '/__sandbox/clock/advance', {
				auth: false,
				body: { ms: 2 * 50 },
			});
			expect(
				(await call(sandbox, 'POST', api('itr-analyzer/status'), { body: { job_id: jobId } })).json
					.data.status,
			).toBe('completed');
			const data = (
				await call(sandbox, 'POST', api('itr-analyzer/data'), {
					body: { job_id: jobId },
					shape: 'reference',
				})
			).json.data;
			expect(data.pan).toBe('ABCPE1234F');
			expect(data.itr_records.map((r: { assessment_year: string }) => r.assessment_year)).toEqual([
				'2024-25',
				'2023-24',
			]);
			const sample = (
				await call(sandbox, 'POST', api('itr-analyzer/data'), { body: { job_id: jobId } })
			).json.data;
			expect(sample.filings[0].parsed_data.ITR).toHaveProperty(
				sample.filings[0].itr_form.replace('-', ''),
			);
		} finally {
			await sandbox.close();
		}
	});

	it('password reset: forget-password → otp_sent; submit-otp 123456 → password_reset; the password is never logged', async () => {
		const reset = await call(sandbox, 'POST', api('itr-analyzer/forget-password'), {
			body: { client_id: 'client_777', password: 'Sup3r$ecret!' },
		});
		expect(reset.json.data.status).toBe('otp_sent');
		const confirm = await call(sandbox, 'POST', api('itr-analyzer/forget-password/submit-otp'), {
			body: { client_id: 'client_777', otp: '123456' },
		});
		expect(confirm.json.data.status).toBe('password_reset');
		const log = JSON.stringify(
			(await call(sandbox, 'GET', '/__sandbox/requests?path=forget-password', { auth: false }))
				.json,
		);
		expect(log).not.toContain('Sup3r$ecret!');
		expect(log).not.toContain('123456');
	});
});

describe('request log', () => {
	it('redacts the API secret, refresh token, passwords and session tokens; filters by path', async () => {
		await call(sandbox, 'POST', api('collection/session/create'), {
			headers: { cookie: 'refresh_token=sandbox-refresh-token; theme=dark' },
			body: {
				flow: 'itr',
				redirect_url: 'https://x.example/',
				callback_url: 'https://x.example/cb',
				recipient_email: 'a@example.com',
			},
		});
		await call(sandbox, 'POST', api('itr-analyzer/analyze'), {
			body: { pan: 'ABCPE1234F', password: 'Portal@Secret1' },
		});
		const all = await call(sandbox, 'GET', '/__sandbox/requests', { auth: false });
		const text = JSON.stringify(all.json);
		for (const secret of [
			'sandbox-key',
			'sandbox-secret',
			'sandbox-refresh-token',
			'Portal@Secret1',
		])
			expect(text).not.toContain(secret);
		const session = (
			await call(sandbox, 'GET', '/__sandbox/requests?path=collection/session', { auth: false })
		).json.requests;
		expect(session).toHaveLength(1);
		expect(session[0]).toEqual(
			expect.objectContaining({
				method: 'POST',
				status: 200,
				headers: expect.objectContaining({
					// the key too: the log is readable without authentication
					'x-api-key': '[REDACTED]',
					'x-api-secret': '[REDACTED]',
					cookie: 'refresh_token=[REDACTED]; theme=dark',
				}),
			}),
		);
		expect(
			(await call(sandbox, 'GET', '/__sandbox/requests?path=never-called', { auth: false })).json
				.requests,
		).toEqual([]);
	});
});

describe('keys', () => {
	it('POST /__sandbox/keys and SANDBOX_KEYS add keys with narrower permissions', async () => {
		await call(sandbox, 'POST', '/__sandbox/keys', {
			auth: false,
			body: [{ key: 'epfo-key', secret: 'epfo-secret', permissions: ['EPFO_COMBINED'] }],
		});
		const headers = { 'x-api-key': 'epfo-key', 'x-api-secret': 'epfo-secret' };
		expect(
			(
				await call(sandbox, 'POST', api('epfo-combined/fetch'), {
					auth: false,
					headers,
					body: { mobile_number: '9876543210' },
				})
			).status,
		).toBe(200);
		expect(
			(
				await call(sandbox, 'POST', api('epfo-crif-combined/fetch'), {
					auth: false,
					headers,
					body: { mobile_number: '9876543210' },
				})
			).status,
		).toBe(403);
		expect(
			(await call(sandbox, 'POST', '/__sandbox/keys', { auth: false, body: { key: 'x' } })).status,
		).toBe(400);

		process.env.SANDBOX_KEYS = JSON.stringify([
			{ key: 'env-key', secret: 'env-secret', permissions: ['CORPORATE_PAN'] },
		]);
		const fromEnv = await start();
		delete process.env.SANDBOX_KEYS;
		try {
			const reply = await call(fromEnv, 'POST', api('corporate/pan-lookup'), {
				auth: false,
				headers: { 'x-api-key': 'env-key', 'x-api-secret': 'env-secret' },
				body: { pan: 'AAACR5055K' },
			});
			expect(reply.status).toBe(200);
		} finally {
			await fromEnv.close();
		}
	});
});

it('the default shape comes from the option, overridable per request', async () => {
	const reference = await start({ shape: 'reference' });
	try {
		const byDefault = await call(reference, 'POST', api('corporate/pan-lookup'), {
			body: { pan: 'AAACR5055K' },
		});
		expect(byDefault.json.data).toHaveProperty('entity_name');
		const overridden = await call(reference, 'POST', api('corporate/pan-lookup'), {
			body: { pan: 'AAACR5055K' },
			shape: 'sample',
		});
		expect(overridden.json.data).toHaveProperty('result');
		expect((await call(reference, 'GET', '/__sandbox/health', { auth: false })).json).toEqual(
			expect.objectContaining({ status: 'ok', shape: 'reference', step_ms: 50 }),
		);
	} finally {
		await reference.close();
	}
});
