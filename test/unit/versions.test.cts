/**
 * Versions in one place: nodes/shared/versions.ts says what each node version means, and nothing else
 * under nodes/ compares a `typeVersion` or writes an `@version` display condition. Plus what each
 * question answers, version by version.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { FinVerify } from '../../nodes/FinVerify/FinVerify.node';
import {
	addsVerdict,
	downloadFieldDefault,
	failNodeWhenDefault,
	FINVERIFY_DEFAULT_VERSION,
	FINVERIFY_OLDER_VERSIONS,
	FINVERIFY_VERSIONS,
	hasDecisions,
	hasOutputChoice,
	hasSimplifySwitch,
	resumesAreCapped,
	searchFailsOnNothingFound,
	triggerMasksPersonalData,
	triggerAnswersWhenFinished,
	TRIGGER_DEFAULT_VERSION,
	TRIGGER_VERSIONS,
} from '../../nodes/shared/versions';

const REPO = path.join(__dirname, '..', '..');
const VERSIONS_MODULE = 'nodes/shared/versions.ts';

/** Every `.ts` file under nodes/ (relative, `/`-separated). */
function sources(dir: string): string[] {
	return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
		const rel = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return entry.name === '__schema__' ? [] : sources(rel);
		return entry.name.endsWith('.ts') ? [rel] : [];
	});
}

/** A node version compared by hand: `typeVersion < 3`, `3 <= node.typeVersion`, `'@version': [...]`. */
const RAW_VERSION_CHECKS = [
	/typeVersion\s*(?:[<>]=?|[!=]==?)/,
	/(?:[<>]=?|[!=]==?)\s*[\w.()]*typeVersion\b/,
	/['"]@version['"]\s*:/,
];

/** The lines of `source` that compare a version by hand, as `line: text`. */
function rawVersionChecks(source: string): string[] {
	return source
		.split('\n')
		.flatMap((line, index) =>
			RAW_VERSION_CHECKS.some((pattern) => pattern.test(line))
				? [`${index + 1}: ${line.trim()}`]
				: [],
		);
}

describe('no version compared outside nodes/shared/versions.ts', () => {
	test('the search finds each way of comparing a version (the negative case)', () => {
		const source = [
			'if (node.typeVersion < 3) return;',
			'const v1 = this.getNode().typeVersion >= 2;',
			'if (3 <= context.getNode().typeVersion) return;',
			'if (node.typeVersion === 1) return;',
			"displayOptions: { show: { '@version': [1, 2] } },",
			'simplifyOutput(key, json, typeVersion);',
			'const { typeVersion } = node;',
		].join('\n');
		expect(rawVersionChecks(source)).toEqual([
			'1: if (node.typeVersion < 3) return;',
			'2: const v1 = this.getNode().typeVersion >= 2;',
			'3: if (3 <= context.getNode().typeVersion) return;',
			'4: if (node.typeVersion === 1) return;',
			"5: displayOptions: { show: { '@version': [1, 2] } },",
		]);
	});

	test('every file under nodes/ asks the versions module', () => {
		const files = sources('nodes');
		expect(files).toContain(VERSIONS_MODULE);
		const found = files
			.filter((file) => file !== VERSIONS_MODULE)
			.flatMap((file) =>
				rawVersionChecks(readFileSync(path.join(REPO, file), 'utf8')).map(
					(line) => `${file}:${line} (ask nodes/shared/versions.ts instead)`,
				),
			);
		expect(found).toEqual([]);
	});
});

describe('what each version means', () => {
	test('the node declares the versions the module names', () => {
		const { version, defaultVersion } = new FinVerify().description;
		expect(version).toEqual([1, 2, 3]);
		expect(FINVERIFY_VERSIONS).toEqual([1, 2, 3]);
		expect(defaultVersion).toBe(3);
		expect(FINVERIFY_DEFAULT_VERSION).toBe(3);
		// the version notice: every version but the newest
		expect(FINVERIFY_OLDER_VERSIONS).toEqual([1, 2]);
	});

	test('version 1: Simplify, full personal data, the shared download field, no verdict', () => {
		expect(hasSimplifySwitch(1)).toBe(true);
		expect(hasOutputChoice(1)).toBe(false);
		expect(hasDecisions(1)).toBe(false);
		expect(downloadFieldDefault(1, 'report')).toBe('data');
		expect(failNodeWhenDefault(1)).toBe('never');
		expect(searchFailsOnNothingFound(1)).toBe(false);
		// about 9 MB per queued resume: its resumes count against the process's capacity
		expect(resumesAreCapped(1)).toBe(true);
		expect(addsVerdict(1, 'normalized')).toBe(false);
	});

	test('version 2: the Output choice and each download its own field, still no verdict', () => {
		expect(hasSimplifySwitch(2)).toBe(false);
		expect(hasOutputChoice(2)).toBe(true);
		expect(hasDecisions(2)).toBe(false);
		expect(downloadFieldDefault(2, 'report')).toBe('report');
		expect(failNodeWhenDefault(2)).toBe('never');
		expect(searchFailsOnNothingFound(2)).toBe(false);
		expect(resumesAreCapped(2)).toBe(false);
		expect(addsVerdict(2, 'simplified')).toBe(false);
	});

	test('version 3: the verdict unless Raw, and the node fails when all items fail', () => {
		expect(hasOutputChoice(3)).toBe(true);
		expect(hasDecisions(3)).toBe(true);
		expect(addsVerdict(3, 'simplified')).toBe(true);
		expect(addsVerdict(3, 'normalized')).toBe(true);
		expect(addsVerdict(3, 'raw')).toBe(false);
		expect(failNodeWhenDefault(3)).toBe('allItems');
		expect(downloadFieldDefault(3, 'report')).toBe('report');
		// a name nothing matches leaves on Failed, so no lead vanishes
		expect(searchFailsOnNothingFound(3)).toBe(true);
		expect(resumesAreCapped(3)).toBe(false);
	});

	test('the trigger answers when the workflow has finished from its version 1.3, the default', () => {
		expect(TRIGGER_VERSIONS.map(triggerAnswersWhenFinished)).toEqual([false, false, false, true]);
		expect(TRIGGER_DEFAULT_VERSION).toBe(TRIGGER_VERSIONS[TRIGGER_VERSIONS.length - 1]);
	});

	test('the trigger masks personal data from its version 1.2', () => {
		expect(triggerMasksPersonalData(1)).toBe(false);
		expect(triggerMasksPersonalData(1.1)).toBe(false);
		expect(triggerMasksPersonalData(1.2)).toBe(true);
	});
});
