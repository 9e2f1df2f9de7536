/**
 * The sandbox's manual clock (`clock: 'manual'`, what the integration tests use): journeys, ITR jobs and session
 * expiry move only when `POST /__sandbox/clock/advance` lets time pass, each step at its own time and in order.
 * The real clock (the default) refuses to be advanced.
 */
import type { RunningSandbox } from '../../sandbox/server.cjs';
import { Clock, Timers } from '../../sandbox/state/timers.cjs';
import { api, call, start } from './helpers.cjs';

const STEP = 50;

describe('Clock and Timers (manual)', () => {
	test('timers fire in order of their due time, each at its own time, only when advanced far enough', () => {
		const clock = new Clock('manual');
		const timers = new Timers(clock);
		const fired: Array<[string, number]> = [];
		timers.after(30, () => fired.push(['b', clock.now()]));
		timers.after(10, () => {
			fired.push(['a', clock.now()]);
			timers.after(5, () => fired.push(['a+5', clock.now()])); // scheduled by a callback, due in time
		});
		const late = timers.after(100, () => fired.push(['late', clock.now()]));
		expect(clock.advance(9)).toBe(0);
		expect(fired).toEqual([]);
		expect(clock.advance(41)).toBe(3);
		expect(fired).toEqual([
			['a', 10],
			['a+5', 15],
			['b', 30],
		]);
		expect(clock.now()).toBe(50);
		timers.cancel(late);
		expect(clock.advance(1000)).toBe(0);
		expect(fired.map(([name]) => name)).not.toContain('late');
	});

	test('clear cancels the pending timers of its owner only', () => {
		const clock = new Clock('manual');
		const mine = new Timers(clock);
		const other = new Timers(clock);
		const fired: string[] = [];
		mine.after(10, () => fired.push('mine'));
		other.after(10, () => fired.push('other'));
		mine.clear();
		clock.advance(10);
		expect(fired).toEqual(['other']);
	});

	test('a real clock is not advanced by hand', () => {
		const clock = new Clock('real');
		expect(clock.advance(1000)).toBe(0);
		expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000);
	});
});

describe('a sandbox with a manual clock', () => {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await start({ clock: 'manual', stepMs: STEP });
	});
	afterAll(() => sandbox.close());

	const journeyStatus = async (clientId: string) =>
		(
			await call(sandbox, 'GET', api(`aa-bsa-journey/status?client_id=${clientId}`), {
				shape: 'reference',
			})
		).json.data.status as string;
	const advance = (body: unknown) =>
		call(sandbox, 'POST', '/__sandbox/clock/advance', { auth: false, body });

	test('an auto-consent journey stays initiated until time passes, then moves one state per step', async () => {
		const init = await call(sandbox, 'POST', api('aa-bsa-journey/init'), {
			shape: 'reference',
			body: { mobile_number: '9876543210', auto_consent: true },
		});
		const clientId = init.json.data.client_id as string;
		await new Promise((resolve) => setTimeout(resolve, 3 * STEP)); // wall-clock time changes nothing
		expect(await journeyStatus(clientId)).toBe('initiated');
		const first = await advance({ ms: STEP });
		expect(first.status).toBe(200);
		expect(first.json).toMatchObject({ mode: 'manual', fired: 1 });
		expect(await journeyStatus(clientId)).toBe('consent_granted');
		await advance({}); // one step by default
		expect(await journeyStatus(clientId)).toBe('data_fetched');
		await advance({ ms: 10 * STEP });
		expect(await journeyStatus(clientId)).toBe('analysis_complete');
	});

	test('an ITR job is processing until two steps have passed', async () => {
		const started = await call(sandbox, 'POST', api('itr-analyzer/analyze'), {
			body: { pan: 'ABCDE1234F', password: 'Portal#Pass1' },
		});
		expect(started.status).toBe(200);
		const jobId = started.json.data.job_id as string;
		const progress = async () =>
			(await call(sandbox, 'POST', api('itr-analyzer/status'), { body: { job_id: jobId } })).json
				.data;
		expect(await progress()).toMatchObject({ status: 'processing', progress: 0 });
		await advance({ ms: STEP });
		expect(await progress()).toMatchObject({ status: 'processing', progress: 50 });
		await advance({ ms: STEP });
		expect(await progress()).toMatchObject({ status: 'completed', progress: 100 });
	});

	test('GET /__sandbox/clock shows the mode and the time; a bad amount is refused', async () => {
		const clock = await call(sandbox, 'GET', '/__sandbox/clock', { auth: false });
		expect(clock.json).toEqual({ mode: 'manual', now_ms: expect.any(Number) });
		expect((await advance({ ms: -1 })).status).toBe(400);
		expect((await advance({ ms: 'soon' })).status).toBe(400);
	});
});

test('a sandbox on the real clock (the default) refuses to be advanced', async () => {
	const sandbox = await start();
	try {
		const reply = await call(sandbox, 'POST', '/__sandbox/clock/advance', {
			auth: false,
			body: { ms: 1000 },
		});
		expect(reply.status).toBe(409);
		expect((await call(sandbox, 'GET', '/__sandbox/clock', { auth: false })).json.mode).toBe(
			'real',
		);
	} finally {
		await sandbox.close();
	}
});
