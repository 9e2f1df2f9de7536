/**
 * Failing the way operators need, through n8n-core's real engine against the sandbox, asserted by
 * the sandbox's request log: a rejected credential (confirmed by the credential check) stops the
 * node at its first answer, a key lacking one permission fails item by item, an outage opens the
 * circuit after a few requests, a 429 storm is waited out by all items together, items done before
 * a failure are named, and the node fails when too many items failed if asked to. One record's own
 * failures: recordFailures.test.cts. Times are printed (not asserted).
 */
import type { IDataObject } from 'n8n-workflow';

import { nodeWorkflow } from '../../harness/index.cjs';
import type { RunResult } from '../../harness/index.cjs';
import { NODE, withSandbox } from '../support.cjs';

const CIN = 'L17110MH1973PLC019786';
/**
 * Distinct valid CINs: the node sends identical lookups of one execution once, so request counts
 * need one CIN per item.
 */
const cinOf = (i: number) => `L17110MH1973PLC0${String(19000 + i).padStart(5, '0')}`;
const NOT_FOUND_CIN = 'U00000MH0000PTC000404';
const LOOKUP = 'cin-lookup';

type OnError = 'continueRegularOutput' | 'continueErrorOutput' | undefined;

const lookups = (count: number, onError?: OnError, requestOptions: IDataObject = {}) =>
	nodeWorkflow({
		items: Array.from({ length: count }, (_, i) => ({ cin: cinOf(i) })),
		onError,
		parameters: {
			resource: 'company',
			operation: 'getByCin',
			company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
			requestOptions,
		},
	});

/**
 * What stopped the node. Under On Error → Stop Workflow the execution fails with it. Under a Continue
 * setting the node never throws (n8n would pass the input items on to the success branch): every item
 * not done is an error item carrying the stop's message, the execution succeeds, and a hint in the
 * output panel says why it is not red.
 */
function stopOf(result: RunResult, onError: OnError, failedItems: number) {
	if (onError === undefined) return result.error as { message?: string; description?: string };
	expect(result.error).toBeUndefined();
	const failed = result.json(NODE, onError === 'continueErrorOutput' ? 1 : 0);
	expect(failed).toHaveLength(failedItems);
	const errors = failed.map((json) => json.error as IDataObject);
	const hints = result.run.data.resultData.runData[NODE][0].hints ?? [];
	expect(hints.map((h) => h.message).join(' ')).toContain(
		'On Error is set to a Continue setting, so n8n ends this execution as succeeded',
	);
	// the items never sent carry the stop; an item in flight when it came may carry its own failure
	const count = new Map<unknown, number>();
	for (const e of errors) count.set(e.message, (count.get(e.message) ?? 0) + 1);
	const [stopMessage] = [...count.entries()].sort((a, b) => b[1] - a[1])[0];
	return errors.find((e) => e.message === stopMessage) as {
		message?: string;
		description?: string;
	};
}

/**
 * The requests an execution sends before its first answer stops it: the probe alone when that answer is read
 * within the probe's grace (0.5 s, transport/gate.ts), as on an idle machine; when a busy machine reads it later,
 * also the items the grace let go meanwhile (Items in Parallel, the probe among them), and never a request after
 * that. The rule itself, on a clock, is test/unit/reliability/gate.test.cts; the figures printed are this run's.
 */
const firstRound = (itemsInParallel: number) => itemsInParallel;
/** Items in Parallel when Request Options leave it unset. */
const DEFAULT_IN_PARALLEL = 3;

const figures: string[] = [];
afterAll(() => {
	if (figures.length > 0) console.log(`fail fast, measured:\n${figures.join('\n')}`);
});

describe('fail fast', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	describe.each<[string, OnError]>([
		['stop', undefined],
		['continue (regular output)', 'continueRegularOutput'],
		['continue (error output)', 'continueErrorOutput'],
	])('a wrong API secret, On Error: %s', (_label, onError) => {
		test('50 items: the first answer stops the node (1 request), naming the credential, no secret shown', async () => {
			const started = Date.now();
			const result = await sandbox.run(lookups(50, onError, { concurrency: 10 }), {
				apiSecret: 'wrong-secret-value',
			});
			figures.push(`wrong secret, ${onError ?? 'stop'}: ${Date.now() - started} ms`);
			expect(await sandbox.sent(LOOKUP)).toBe(1);
			const stop = stopOf(result, onError, 50);
			expect(stop.message).toBe(
				'The FinVerify API credential "FinVerify sandbox" was rejected by the service ' +
					'(HTTP 401 UNAUTHORIZED: Invalid API key or secret)',
			);
			expect(stop.description).toContain('Nothing more was sent');
			expect(JSON.stringify(result.run)).not.toContain('wrong-secret-value');
		});
	});

	test('a key without the permission (403), Continue on: the credential check says the key works, each item fails on its own', async () => {
		const result = await sandbox.run(
			nodeWorkflow({
				items: Array.from({ length: 5 }, () => ({})),
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'creditReport',
					operation: 'getCommercialReport',
					businessName: 'Acme Traders',
					pan: 'AAACA1234B',
					consent: true,
				},
			}),
			{ apiKey: 'corporate-only-key', apiSecret: 'corporate-only-secret' },
		);
		// a refused answer is free; one credential check for the execution
		expect(await sandbox.sent('commercial')).toBe(5);
		expect(await sandbox.sent('aa-bsa-journey/status')).toBe(1);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toHaveLength(0);
		const failed = result.output(NODE, 1);
		expect(failed).toHaveLength(5);
		for (const item of failed) {
			expect(item.json.error).toMatchObject({ code: 'PERMISSION_DENIED', httpCode: 403 });
			expect(String((item.json.error as IDataObject).description)).toContain(
				'is accepted (HTTP 403 PERMISSION_DENIED): the service refused this request alone',
			);
		}
	});

	test.each<[string, IDataObject]>([
		['HTTP 503', { status: 503 }],
		['dropped connections', { drop: true }],
	])(
		'an outage (%s), 50 items, Continue on: 4 failed rounds, a few requests, the node stops',
		async (_label, fault) => {
			await sandbox.control.fault({ path: LOOKUP, ...fault });
			const started = Date.now();
			const result = await sandbox.run(lookups(50, 'continueErrorOutput'));
			const sent = await sandbox.sent(LOOKUP);
			figures.push(`outage (${_label}), 50 items: ${Date.now() - started} ms, ${sent} requests`);
			expect(sent).toBeLessThanOrEqual(5);
			const stop = stopOf(result, 'continueErrorOutput', 50);
			expect(stop.message).toMatch(
				/^The FinVerify service is unavailable: 4 attempts in a row failed/,
			);
			expect(stop.description).toContain('the items not yet done were not sent');
		},
	);

	test('an outage without Continue: the first item reports its own failure, nothing more is sent', async () => {
		await sandbox.control.fault({ path: LOOKUP, status: 503 });
		const result = await sandbox.run(lookups(50));
		const sent = await sandbox.sent(LOOKUP);
		figures.push(`outage without Continue, 50 items: ${sent} requests`);
		// the first round, then one probe for each further round (idle: 1 + 3)
		expect(sent).toBeGreaterThanOrEqual(4);
		expect(sent).toBeLessThanOrEqual(firstRound(DEFAULT_IN_PARALLEL) + 3);
		expect(result.error?.message).toMatch(/^Upstream|unavailable/i);
	});

	test('one failing item with Continue does not open the circuit', async () => {
		const items = [CIN, NOT_FOUND_CIN, CIN, NOT_FOUND_CIN, CIN].map((cin) => ({ cin }));
		const result = await sandbox.run(
			nodeWorkflow({
				items,
				onError: 'continueErrorOutput',
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toHaveLength(3);
		expect(result.output(NODE, 1)).toHaveLength(2);
	});
});

describe('a 429 storm, shared by all items', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	test('concurrency 50, a storm of 3 answers: every item waits it out together', async () => {
		// the sandbox ends the storm itself after 3 answers 429 (`times`): its length is counted in answers,
		// not in time, and nothing races the node's next request to end it
		await sandbox.control.fault({ path: LOOKUP, status: 429, retryAfter: 1, times: 3 });
		const started = Date.now();
		const result = await sandbox.run(lookups(50, undefined, { concurrency: 50 }));
		figures.push(`429 storm of 3 rounds, 50 items at 50 in flight: ${Date.now() - started} ms`);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)).toHaveLength(50);
		const requests = await sandbox.control.requests(LOOKUP);
		const limited = requests.filter((r) => r.status === 429).length;
		figures.push(
			`  requests: ${requests.length} (${limited} answered 429); items × attempts = 200`,
		);
		// 50 answers and the storm's 3: after a 429, the others waited for one request at a time
		expect(limited).toBe(3);
		expect(requests.length).toBe(50 + 3);
	});

	test('a storm in the middle of the run: 49 items in flight get 429, then wait it out together', async () => {
		// the storm is on for the wave and two more answers (the sandbox ends it itself: `times`), but the
		// first lookup (the probe, sent alone) gets the newest fault: an answer after 2 s, longer than the
		// gate's grace (a later timer of the same process, however busy); so the 49 lookups the grace
		// releases all meet the storm
		await sandbox.control.fault({ path: LOOKUP, status: 429, retryAfter: 1, times: 49 + 2 });
		await sandbox.control.fault({ path: LOOKUP, latencyMs: 2000, times: 1 });
		const started = Date.now();
		const result = await sandbox.run(lookups(50, undefined, { concurrency: 50 }));
		const requests = await sandbox.control.requests(LOOKUP);
		const limited = requests.filter((r) => r.status === 429).length;
		figures.push(
			`429 storm mid-run (wave + 2 rounds), 50 items at 50 in flight: ${Date.now() - started} ms, ` +
				`${requests.length} requests (${limited} answered 429); items × attempts = 200`,
		);
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)).toHaveLength(50);
		// one wave, then one request per round: 49 + 2 answers 429, 1 + 49 + 2 + 49 requests
		expect(limited).toBe(49 + 2);
		expect(requests.length).toBe(1 + 49 + 2 + 49);
	});

	test('a storm that outlasts one item’s retries stops the node after 4 rounds (4 requests)', async () => {
		await sandbox.control.fault({ path: LOOKUP, status: 429, retryAfter: 0 });
		const result = await sandbox.run(
			lookups(50, 'continueErrorOutput', { concurrency: 50, maxRetries: 3 }),
		);
		expect(await sandbox.sent(LOOKUP)).toBe(4);
		expect(stopOf(result, 'continueErrorOutput', 50).message).toMatch(
			/kept rate limiting this execution: 4 rounds of HTTP 429/,
		);
	});
});

describe('Items in Parallel up to 100', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });

	test('100 lookups at 2 s service latency, 50 in flight: the sandbox sees 50 at once', async () => {
		await sandbox.control.fault({ path: LOOKUP, latencyMs: 2000 });
		const started = Date.now();
		const result = await sandbox.run(lookups(100, undefined, { concurrency: 50 }));
		const took = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.json(NODE)).toHaveLength(100);
		const requests = await sandbox.control.requests(LOOKUP);
		expect(requests).toHaveLength(100);
		// most requests in flight at one moment, from the sandbox's own arrival times and durations
		const edges = requests.flatMap((r) => {
			const at = Date.parse(String(r.at));
			return [
				{ t: at, d: 1 },
				{ t: at + Number(r.ms), d: -1 },
			];
		});
		edges.sort((a, b) => a.t - b.t || a.d - b.d);
		let inFlight = 0;
		let most = 0;
		for (const edge of edges) most = Math.max(most, (inFlight += edge.d));
		expect(most).toBe(50);
		// the others waited for an answer that proves the credential (transport/gate.ts): the probe's,
		// or the credential check's, sent once the probe was unanswered for half a second; so a wrong key
		// costs one lookup at any latency. The log has whole milliseconds: 1 ms of slack
		const [probe, second] = [...requests].sort(
			(a, b) => Date.parse(String(a.at)) - Date.parse(String(b.at)),
		);
		const checks = await sandbox.control.requests('aa-bsa-journey/status');
		expect(checks).toHaveLength(1);
		const answeredAt = (r: IDataObject) => Date.parse(String(r.at)) + Number(r.ms);
		const released = Math.min(answeredAt(probe), answeredAt(checks[0]));
		expect(Date.parse(String(second.at))).toBeGreaterThanOrEqual(released - 1);
		figures.push(
			`100 lookups, 2 s latency, 50 in flight: ${took} ms (the probe's grace, the check, then 2 ` +
				`rounds of 50: ideal 500 + 2 × 2000 ms), at most ${most} in flight, the others released ` +
				`${answeredAt(checks[0]) < answeredAt(probe) ? 'by the check' : 'by the probe'} ` +
				`${released - Date.parse(String(probe.at))} ms after the probe was sent`,
		);
	});
});

describe('items done before a failure (Items in Parallel)', () => {
	const sandbox = withSandbox({ resetBeforeEach: true });
	const sessions = (onError?: OnError) =>
		nodeWorkflow({
			items: ['a', 'b', 'server-error', 'd', 'e'].map((name) => ({
				email: name === 'server-error' ? 'server-error@example.com' : `${name}@example.com`,
			})),
			onError,
			parameters: {
				resource: 'collectionSession',
				operation: 'create',
				flow: 'gst',
				recipientEmail: '={{ $json.email }}',
				redirectUrl: 'https://example.com/thank-you',
				callbackUrl: 'https://n8n.example.com/webhook/finverify',
				requestOptions: { maxRetries: 0, concurrency: 5 },
			},
		});

	test('a 500 on item 2 of 5 stops the node; the error names every session created', async () => {
		const result = await sandbox.run(sessions());
		expect(result.error?.message).toBeDefined();
		const created = (await sandbox.control.outbox()).map((mail) => String(mail.session_id));
		expect(created).toHaveLength(4);
		for (const id of created) expect(result.error?.description).toContain(id);
		expect(result.error?.description).toContain('items 1, 2, 4, 5');
		// its own sentence, after the error's, and what to do about what was created
		expect(result.error?.description).toMatch(
			/[.!?] Done before the node stopped, not in the output: items 1, 2, 4, 5 \(created: [^)]+\)\. Look these up before running those items again, so nothing is created twice\.$/,
		);
	});

	test('read-only lookups done before a failure: named, with no lookup to do before running them again', async () => {
		const result = await sandbox.run(
			nodeWorkflow({
				items: [cinOf(0), cinOf(1), NOT_FOUND_CIN, cinOf(3), cinOf(4)].map((cin) => ({ cin })),
				parameters: {
					resource: 'company',
					operation: 'getByCin',
					company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
					requestOptions: { maxRetries: 0, concurrency: 5 },
				},
			}),
		);
		const description = String(result.error?.description);
		expect(result.error?.message).toMatch(/No company found/);
		expect(description).toMatch(
			new RegExp(
				`[.!?] Done before the node stopped, not in the output: items ${[0, 1, 3, 4]
					.map((i) => `${i + 1} \\(CIN ${cinOf(i)}\\)`)
					.join(', ')}\\. Running them again repeats their requests\\.$`,
			),
		);
		expect(description).not.toMatch(/[A-Za-z0-9] Done before/);
		expect(description).not.toContain('created');
		expect(description).not.toMatch(/look (them|these) up/i);
	});

	test('with the error output: the 4 sessions are output, item 2 is an error item', async () => {
		const result = await sandbox.run(sessions('continueErrorOutput'));
		expect(result.error).toBeUndefined();
		const created = (await sandbox.control.outbox()).map((mail) => String(mail.session_id));
		expect(result.json(NODE, 0).map((json) => json.sessionId)).toEqual(
			expect.arrayContaining(created),
		);
		expect(result.output(NODE, 0).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 3 },
			{ item: 4 },
		]);
		const [failed] = result.output(NODE, 1);
		expect(failed.pairedItem).toEqual({ item: 2 });
		expect(failed.json.error).toMatchObject({ httpCode: 500 });
	});
});

describe('Fail the Node When Items Fail', () => {
	const sandbox = withSandbox();
	const mixed = (
		failing: number,
		of: number,
		options: IDataObject,
		onError: OnError | null = 'continueErrorOutput',
		typeVersion = 1,
	) => {
		const workflow = nodeWorkflow({
			items: Array.from({ length: of }, (_, i) => ({
				cin: i < failing ? NOT_FOUND_CIN : cinOf(i),
			})),
			onError: onError ?? undefined,
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				incompleteAnswers: 'keep',
				requestOptions: { maxRetries: 0, ...options },
			},
		});
		for (const node of workflow.nodes) if (node.name === NODE) node.typeVersion = typeVersion;
		return workflow;
	};

	test('Never (versions 1 and 2 default): every item failed, the execution succeeds (n8n’s Continue)', async () => {
		const result = await sandbox.run(mixed(3, 3, {}));
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 1)).toHaveLength(3);
	});

	test('When All Items Fail under Continue: n8n cannot end it red; no item reaches the success output, a hint says why', async () => {
		const result = await sandbox.run(mixed(3, 3, { failNodeWhen: 'allItems' }));
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toHaveLength(0);
		expect(result.output(NODE, 1)).toHaveLength(3);
		const hints = result.run.data.resultData.runData[NODE][0].hints ?? [];
		expect(hints.map((h) => h.message).join(' ')).toContain(
			'3 of 3 items failed (Fail the Node When Items Fail: all items failed)',
		);
	});

	test('version 3, Failed output, On Error at Stop Workflow (the defaults): every item failed, the execution fails', async () => {
		const result = await sandbox.run(mixed(3, 3, {}, null, 3));
		expect(result.error?.message).toBe(
			'3 of 3 items failed (Fail the Node When Items Fail: all items failed)',
		);
		// named 1-based, by the item's own CIN
		expect(result.error?.description).toContain(
			`First failure, item 1 (CIN ${NOT_FOUND_CIN}): No company found with CIN`,
		);
	});

	test('version 3 defaults: one item succeeded, the execution succeeds, failed items on the Failed output with their input', async () => {
		const result = await sandbox.run(mixed(2, 3, {}, null, 3));
		expect(result.error).toBeUndefined();
		expect(result.json(NODE, 0).map((json) => json.cin)).toEqual([cinOf(2)]);
		// a decision operation's outputs are fixed: Complete (Success with Keep) 0, Incomplete 1, Failed 2
		const failed = result.json(NODE, 2);
		expect(failed).toHaveLength(2);
		for (const json of failed) {
			expect(json.cin).toBe(NOT_FOUND_CIN);
			expect(json.error).toMatchObject({ code: 'COMPANY_NOT_FOUND', httpCode: 404 });
		}
	});

	test('an input refused by the checks counts as a failed item', async () => {
		const workflow = nodeWorkflow({
			items: [{ cin: 'not-a-cin' }, { cin: NOT_FOUND_CIN }],
			parameters: {
				resource: 'company',
				operation: 'getByCin',
				company: { __rl: true, mode: 'cin', value: '={{ $json.cin }}' },
				incompleteAnswers: 'keep',
			},
		});
		for (const node of workflow.nodes) if (node.name === NODE) node.typeVersion = 3;
		const result = await sandbox.run(workflow);
		expect(result.error?.message).toMatch(/^2 of 2 items failed/);
	});

	test.each([
		[1, 4, undefined],
		[2, 4, undefined],
		[3, 4, '3 of 4 items failed (Fail the Node When Items Fail: more than 50% failed)'],
	])(
		'version 3, When More Than a Share Fail (50%%): %i of %i failed',
		async (failing, of, expected) => {
			const result = await sandbox.run(
				mixed(failing, of, { failNodeWhen: 'share', failedSharePercent: 50 }, null, 3),
			);
			expect(result.error?.message).toBe(expected);
		},
	);
});
