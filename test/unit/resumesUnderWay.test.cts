import {
	markResumed,
	MAX_RESUMED_MARKS,
	RESUMED_MARK_MS,
	resumedMarkCount,
	waitKey,
	wasResumed,
	recordResume,
	RESUME_RECORD_MS,
	resumesAtCapacity,
	resumeUnderWay,
} from '../../nodes/FinVerify/completion/resumesUnderWay';

describe('resumes under way (one queued resume per waiting execution)', () => {
	test('a recorded resume blocks its execution until it is ended, and no other execution', () => {
		const end = recordResume('e1', 1_000);
		expect(resumeUnderWay('e1', 1_001)).toBe(true);
		expect(resumeUnderWay('e2', 1_001)).toBe(false);
		end();
		expect(resumeUnderWay('e1', 1_002)).toBe(false);
	});

	test('a record whose answer never went out ends after RESUME_RECORD_MS', () => {
		recordResume('e3', 0);
		expect(resumeUnderWay('e3', RESUME_RECORD_MS - 1)).toBe(true);
		expect(resumeUnderWay('e3', RESUME_RECORD_MS)).toBe(false);
	});

	test('ending an old record leaves a newer record of the same execution in place', () => {
		const endOld = recordResume('e4', 0);
		recordResume('e4', RESUME_RECORD_MS + 1); // the old one expired; a later callback resumes again
		endOld();
		expect(resumeUnderWay('e4', RESUME_RECORD_MS + 2)).toBe(true);
	});

	test('at capacity while as many resumes are under way; ended and expired ones free their place', () => {
		const now = 10 * RESUME_RECORD_MS;
		const ends = ['c1', 'c2', 'c3'].map((id) => recordResume(id, now));
		expect(resumesAtCapacity(now, 3)).toBe(true);
		ends[0]();
		expect(resumesAtCapacity(now, 3)).toBe(false);
		recordResume('c4', now);
		expect(resumesAtCapacity(now, 3)).toBe(true);
		expect(resumesAtCapacity(now + RESUME_RECORD_MS, 3)).toBe(false); // all expired
	});

	test('a resume answered ends the records of the resumes recorded before it (the queue of n8n is first in, first out)', () => {
		const now = 20 * RESUME_RECORD_MS;
		recordResume('f1', now); // its caller gone: never ended by its own answer
		recordResume('f2', now);
		const end3 = recordResume('f3', now);
		recordResume('f4', now);
		end3();
		expect(['f1', 'f2', 'f3', 'f4'].map((id) => resumeUnderWay(id, now))).toEqual([
			false,
			false,
			false,
			true,
		]);
	});
});

describe('resumed waits (one resume per wait, also where n8n answers the callback at once: n8n 1.x)', () => {
	test('a wait marked resumed stays so for RESUMED_MARK_MS; other waits are not', () => {
		const key = waitKey('r1', 'Start journey and wait', ['aa_1 2026-11-29T10:00:00.000Z']);
		expect(wasResumed(key, 0)).toBe(false);
		markResumed(key, 0);
		expect(wasResumed(key, 1)).toBe(true);
		expect(wasResumed(key, RESUMED_MARK_MS - 1)).toBe(true);
		expect(
			wasResumed(waitKey('r2', 'Start journey and wait', ['aa_1 2026-11-29T10:00:00.000Z']), 1),
		).toBe(false);
		expect(wasResumed(key, RESUMED_MARK_MS)).toBe(false);
	});

	test('a wait is its execution, node and ids with their start, in any order', () => {
		const a = waitKey('e', 'n', ['x 1', 'y 1']);
		expect(waitKey('e', 'n', ['y 1', 'x 1'])).toBe(a);
		expect(
			new Set([
				a,
				waitKey('e', 'm', ['x 1', 'y 1']),
				waitKey('e', 'n', ['x 1']),
				waitKey('e', 'n', ['x 2', 'y 1']),
				waitKey('f', 'n', ['x 1', 'y 1']),
			]).size,
		).toBe(5);
		// no run-together of parts
		expect(waitKey('e', 'n x', [])).not.toBe(waitKey('e', 'n', ['x']));
	});

	test(`bounded: at most ${MAX_RESUMED_MARKS.toLocaleString('en')} marks, the oldest forgotten first`, () => {
		const start = 100 * RESUMED_MARK_MS;
		for (let i = 0; i < 1_000; i++) markResumed(`bound-${i}`, start + i, 500);
		expect(resumedMarkCount()).toBeLessThanOrEqual(500);
		expect(wasResumed('bound-999', start + 1_000)).toBe(true);
		expect(wasResumed('bound-0', start + 1_000)).toBe(false);
	});
});
