/**
 * Wait for Completion, the pure rules: time limit, waiting items (the timeout outcome), callback meaning, and
 * what a start node's saved callback URL makes the service call.
 */
import { completionKindOf } from '../../nodes/FinVerify/actions/completionKind';
import type { Operation } from '../../nodes/FinVerify/actions/operation';
import { registry } from '../../nodes/FinVerify/actions/router';
import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import {
	callbackTargetOf,
	startNodeCallbackTarget,
} from '../../nodes/FinVerify/completion/callbackUrl';
import type { StoredItem, WaitingEntry } from '../../nodes/FinVerify/completion/waiting';
import {
	classifyCallback,
	describeDuration,
	idFromOutput,
	readStoredItem,
	startedFacts,
	statusFromOutput,
	waitDurationMs,
	waitedSeconds,
	waitingItemJson,
} from '../../nodes/FinVerify/completion/waiting';

const HOUR = 3_600_000;

describe('waitDurationMs', () => {
	test('default 24 hours; amount × unit; bounded to 1 second … 30 days', () => {
		expect(waitDurationMs(undefined, undefined)).toBe(24 * HOUR);
		expect(waitDurationMs(90, 'minutes')).toBe(90 * 60_000);
		expect(waitDurationMs('2', 'days')).toBe(2 * 24 * HOUR);
		expect(waitDurationMs(0.5, 'hours')).toBe(HOUR / 2);
		expect(waitDurationMs(0, 'seconds')).toBe(1000);
		expect(waitDurationMs(400, 'days')).toBe(30 * 24 * HOUR);
		expect(waitDurationMs(-3, 'hours')).toBe(24 * HOUR);
		expect(waitDurationMs('soon', 'weeks')).toBe(24 * HOUR);
	});

	test('describeDuration', () => {
		expect(describeDuration(24 * HOUR)).toBe('1 day');
		expect(describeDuration(36 * HOUR)).toBe('36 hours');
		expect(describeDuration(HOUR)).toBe('1 hour');
		expect(describeDuration(2 * 24 * HOUR)).toBe('2 days');
		expect(describeDuration(90_000)).toBe('90 seconds');
		expect(describeDuration(120_000)).toBe('2 minutes');
	});
});

describe('start outputs', () => {
	test('id and status, simplified or raw', () => {
		expect(idFromOutput('journey', { clientId: 'aa_1' })).toBe('aa_1');
		expect(idFromOutput('journey', { client_id: 'aa_2' })).toBe('aa_2');
		expect(idFromOutput('journey', { data: { client_id: 'aa_3' } })).toBe('aa_3');
		expect(idFromOutput('session', { data: { session_id: 'cs_1' } })).toBe('cs_1');
		expect(idFromOutput('session', { clientId: 'aa_1' })).toBeNull();
		expect(statusFromOutput({ data: { status: 'created' } })).toBe('created');
		expect(statusFromOutput({})).toBeNull();
	});
});

const entry = (overrides: Partial<WaitingEntry> = {}): WaitingEntry => ({
	kind: 'journey',
	id: 'aa_1',
	status: 'initiated',
	started: { clientId: 'aa_1', journeyUrl: 'https://x/j', status: 'initiated', isFinal: false },
	since: '2026-01-01T00:00:00.000Z',
	until: '2026-01-02T00:00:00.000Z',
	timeLimitMs: 24 * HOUR,
	onTimeout: 'returnLastStatus',
	...overrides,
});

describe('waiting items (what n8n outputs at the time limit)', () => {
	test('Return Last Status: the start output, timedOut, the last known status', () => {
		expect(waitingItemJson(entry())).toEqual({
			clientId: 'aa_1',
			journeyUrl: 'https://x/j',
			status: 'initiated',
			isFinal: false,
			timedOut: true,
			waitingForCallback: true,
			waitingSince: '2026-01-01T00:00:00.000Z',
			timeLimitAt: '2026-01-02T00:00:00.000Z',
		});
	});

	test('Fail: an error item in n8n error-output shape naming the last status', () => {
		const json = waitingItemJson(
			entry({ onTimeout: 'error', kind: 'session', id: 'cs_9', status: 'created' }),
		);
		expect(Object.keys(json)).toEqual(['error', 'message']);
		expect(json.message).toBe(
			'Session cs_9 did not reach a final status within 1 day (last known status: created)',
		);
		expect(json.error).toMatchObject({
			message: json.message,
			code: 'WAIT_TIMED_OUT',
			httpCode: null,
			details: { sessionId: 'cs_9', status: 'created', timedOut: true },
		});
	});

	test('read back from either shape; other items pass through', () => {
		for (const onTimeout of ['error', 'returnLastStatus'] as const) {
			const stored = readStoredItem('journey', waitingItemJson(entry({ onTimeout })));
			expect(stored).toMatchObject({ waiting: true, kind: 'journey', id: 'aa_1' });
		}
		expect(readStoredItem('journey', { clientId: 'aa_1', status: 'initiated' })).toEqual({
			waiting: false,
			json: { clientId: 'aa_1', status: 'initiated' },
		});
		expect(
			readStoredItem('journey', { error: { message: 'boom', details: {} }, message: 'boom' })
				.waiting,
		).toBe(false);
	});

	test('startedFacts drops the waiting bookkeeping; waitedSeconds counts from waitingSince', () => {
		const facts = waitingItemJson(entry());
		expect(startedFacts(facts)).toEqual({ clientId: 'aa_1', journeyUrl: 'https://x/j' });
		expect(waitedSeconds(facts, Date.parse('2026-01-01T00:01:30.000Z'))).toBe(90);
		expect(waitedSeconds({}, Date.now())).toBeNull();
	});
});

describe('classifyCallback', () => {
	const stored: StoredItem[] = [
		{ waiting: true, kind: 'journey', id: 'aa_1', facts: {} },
		{ waiting: false, json: { error: 'x' } },
		{ waiting: true, kind: 'journey', id: 'aa_2', facts: {} },
	];
	test('intermediate keeps waiting, final resumes, others are unrelated', () => {
		expect(classifyCallback({ type: 'journey', id: 'aa_2', isFinal: false }, stored)).toEqual({
			type: 'intermediate',
			index: 2,
		});
		expect(classifyCallback({ type: 'journey', id: 'aa_1', isFinal: true }, stored)).toEqual({
			type: 'final',
			index: 0,
		});
		expect(classifyCallback({ type: 'journey', id: 'aa_3', isFinal: true }, stored)).toEqual({
			type: 'unrelated',
			reason: 'not_waiting',
		});
		expect(classifyCallback({ type: 'session', id: 'aa_1', isFinal: true }, stored)).toEqual({
			type: 'unrelated',
			reason: 'other_subject',
		});
	});
});

describe('node description', () => {
	const description = new FinVerify().description;
	test('one restart webhook (the resume URL), never a registered trigger URL', () => {
		expect(description.webhooks).toEqual([
			expect.objectContaining({
				httpMethod: 'POST',
				path: '',
				restartWebhook: true,
				responseData: 'noData',
			}),
		]);
	});

	test('Wait for Completion defaults to not waiting; callbacks only where the service calls back', () => {
		const fields = description.properties.filter((p) => p.name === 'waitForCompletion');
		const byOperation = Object.fromEntries(
			fields.map((f) => [
				String(f.displayOptions?.show?.operation),
				(f.options as Array<{ value: string }>).map((o) => o.value),
			]),
		);
		expect(byOperation).toEqual({
			start: ['no', 'callback', 'poll'],
			create: ['no', 'callback'],
			startAnalysis: ['no', 'poll'],
		});
		for (const field of fields) expect(field.default).toBe('no');
	});
});

describe('who a start node makes the service call back', () => {
	test('a saved callback URL: none, a fixed address, the resume URL, or an expression not judged', () => {
		for (const none of [undefined, null, '', '   ', '=', '=  '])
			expect(callbackTargetOf(none)).toBe('none');
		expect(callbackTargetOf('https://example.com/hook')).toBe('elsewhere');
		// an expression field holding plain text is that text
		expect(callbackTargetOf('=https://example.com/hook')).toBe('elsewhere');
		expect(callbackTargetOf('={{ $execution.resumeUrl }}')).toBe('resumeUrl');
		expect(callbackTargetOf("={{$execution['resumeUrl']}}")).toBe('resumeUrl');
		expect(callbackTargetOf("={{ $execution.resumeUrl.split('?')[0] }}")).toBe('resumeUrl');
		expect(callbackTargetOf('={{ $json.callbackUrl }}')).toBe('unknown');
		expect(callbackTargetOf('={{ $execution.id }}')).toBe('unknown');
		expect(callbackTargetOf(42)).toBe('unknown');
	});

	test('Start Journey: its Webhook URL, else the resume URL only with Wait for Completion on callbacks', () => {
		const journey = (waitForCompletion: string, additionalFields: object) =>
			startNodeCallbackTarget('journey', { waitForCompletion, additionalFields });
		expect(journey('no', {})).toBe('none');
		expect(journey('poll', {})).toBe('none');
		expect(journey('callback', {})).toBe('resumeUrl');
		expect(journey('callback', { webhookUrl: 'https://example.com/hook' })).toBe('elsewhere');
		expect(journey('no', { webhookUrl: '={{ $execution.resumeUrl }}' })).toBe('resumeUrl');
		expect(startNodeCallbackTarget('journey', undefined)).toBe('unknown');
	});

	test('Create Session: its Callback URL, or the resume URL with Wait for Completion on callbacks', () => {
		expect(startNodeCallbackTarget('session', { callbackUrl: 'https://example.com/cb' })).toBe(
			'elsewhere',
		);
		expect(
			startNodeCallbackTarget('session', {
				waitForCompletion: 'callback',
				callbackUrl: 'https://example.com/cb',
			}),
		).toBe('resumeUrl');
		expect(startNodeCallbackTarget('session', { callbackUrl: '={{ $execution.resumeUrl }}' })).toBe(
			'resumeUrl',
		);
	});
});

describe("what a waiting node waits for, from its operation's own `completion`", () => {
	test('an operation offering callbacks, or always waiting, declares what calls back; no other does', () => {
		const declared: Record<string, string | undefined> = {};
		const offered: string[] = [];
		for (const [resource, operations] of Object.entries(registry))
			for (const [operation, op] of Object.entries(operations as Record<string, Operation>)) {
				const key = `${resource}.${operation}`;
				declared[key] = completionKindOf(resource, operation);
				const waitField = op.description.find((p) => p.name === 'waitForCompletion');
				const modes = ((waitField?.options ?? []) as Array<{ value: string }>).map((o) => o.value);
				if (modes.includes('callback') || op.completion?.alwaysWaits) offered.push(key);
			}
		const waiting = Object.keys(declared).filter((key) => declared[key] !== undefined);
		expect(waiting.sort()).toEqual(offered.sort());
		expect(declared).toMatchObject({
			'bankStatementJourney.start': 'journey',
			'bankStatementJourney.wait': 'journey',
			'collectionSession.create': 'session',
			'collectionSession.wait': 'session',
			'incomeTaxReturn.startAnalysis': undefined,
		});
		expect(completionKindOf('company', 'getByCin')).toBeUndefined();
		expect(completionKindOf('noSuchResource', 'start')).toBeUndefined();
	});
});
