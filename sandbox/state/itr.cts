import { randomBytes } from 'node:crypto';

import { Clock } from './timers.cjs';

/** Job id that always answers JOB_INCOMPLETE. */
export const INCOMPLETE_JOB_ID = 'job_incomplete';
/** Steps an analysis job takes to complete. */
export const ITR_STEPS = 2;
/** The OTP that confirms a password reset. */
export const VALID_OTP = '123456';

export interface ItrJob {
	jobId: string;
	pan: string;
	assessmentYears?: string[];
	createdAt: number;
}

export interface JobProgress {
	status: 'processing' | 'completed';
	progress: number;
}

/**
 * ITR analysis jobs: `processing` for 2 steps after creation, then `completed` (derived from the sandbox's clock).
 * Jobs the sandbox did not create are `completed`, except `job_incomplete`, which never completes.
 */
export class ItrJobs {
	private readonly jobs = new Map<string, ItrJob>();
	private readonly resets = new Map<string, 'otp_sent' | 'password_reset'>();

	constructor(
		private readonly stepMs: number,
		private readonly clock: Clock = new Clock(),
	) {}

	create(pan: string, assessmentYears?: string[]): ItrJob {
		const job = {
			jobId: `itr_${randomBytes(12).toString('hex')}`,
			pan,
			assessmentYears,
			createdAt: this.clock.now(),
		};
		this.jobs.set(job.jobId, job);
		return job;
	}

	get(jobId: string): ItrJob | undefined {
		return this.jobs.get(jobId);
	}

	progress(jobId: string): JobProgress {
		if (jobId === INCOMPLETE_JOB_ID) return { status: 'processing', progress: 10 };
		const job = this.jobs.get(jobId);
		if (!job) return { status: 'completed', progress: 100 };
		const steps = Math.min(ITR_STEPS, Math.floor((this.clock.now() - job.createdAt) / this.stepMs));
		return steps >= ITR_STEPS
			? { status: 'completed', progress: 100 }
			: { status: 'processing', progress: Math.round((steps / ITR_STEPS) * 100) };
	}

	requestReset(clientId: string): void {
		this.resets.set(clientId, 'otp_sent');
	}

	confirmReset(clientId: string): void {
		this.resets.set(clientId, 'password_reset');
	}

	resetStatus(clientId: string): 'otp_sent' | 'password_reset' | undefined {
		return this.resets.get(clientId);
	}

	clear(): void {
		this.jobs.clear();
		this.resets.clear();
	}
}
