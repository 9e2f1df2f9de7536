import { itrReference, itrSample } from '../data/itr.cjs';
import { ApiError } from '../errors.cjs';
import { links } from '../links.cjs';
import { VALID_OTP } from '../state/itr.cjs';
import type { HandlerContext, Handlers } from './types.cjs';

type JobBody = HandlerContext<{ job_id: string }>;

export const itrHandlers: Handlers = {
	itrAnalyze({
		body,
		sandbox,
	}: HandlerContext<{ pan: string; password: string; assessment_years?: string[] }>) {
		const job = sandbox.itr.create(body.pan, body.assessment_years);
		return {
			success: true,
			message: 'ITR analysis started',
			data: { job_id: job.jobId, status: 'processing' },
		};
	},

	itrStatus({ body, sandbox }: JobBody) {
		return {
			success: true,
			message: 'Job status fetched',
			data: { job_id: body.job_id, ...sandbox.itr.progress(body.job_id) },
		};
	},

	itrData({ body, shape, sandbox }: JobBody) {
		const progress = sandbox.itr.progress(body.job_id);
		if (progress.status !== 'completed')
			throw new ApiError(
				409,
				'JOB_INCOMPLETE',
				`The analysis job is still processing (${progress.progress}%), try again later`,
			);
		const job = sandbox.itr.get(body.job_id);
		const input = { jobId: body.job_id, pan: job?.pan, assessmentYears: job?.assessmentYears };
		return shape === 'reference'
			? itrReference(input)
			: itrSample(input, (ack) => links(sandbox.baseUrl).itrPdf(ack));
	},

	itrForgetPassword({ body, sandbox }: HandlerContext<{ client_id: string; password: string }>) {
		sandbox.itr.requestReset(body.client_id);
		return {
			success: true,
			message: 'OTP sent',
			data: {
				client_id: body.client_id,
				status: 'otp_sent',
				message: 'An OTP was sent to the mobile number registered on the income-tax portal',
			},
		};
	},

	itrSubmitOtp({ body, sandbox }: HandlerContext<{ client_id: string; otp: string }>) {
		if (body.otp !== VALID_OTP) throw new ApiError(400, 'INVALID_OTP', 'The OTP is incorrect');
		sandbox.itr.confirmReset(body.client_id);
		return {
			success: true,
			message: 'Password reset',
			data: {
				client_id: body.client_id,
				status: 'password_reset',
				message: 'The portal password was changed',
			},
		};
	},
};
