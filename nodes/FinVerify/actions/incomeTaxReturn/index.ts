import type { INodeProperties } from 'n8n-workflow';

import { previewNotice } from '../common.descriptions';

import * as confirmPasswordReset from './confirmPasswordReset.operation';
import * as getAnalysisStatus from './getAnalysisStatus.operation';
import * as getData from './getData.operation';
import * as resetPortalPassword from './resetPortalPassword.operation';
import * as startAnalysis from './startAnalysis.operation';
import { defineOperation } from '../operation';

export const operations = {
	startAnalysis: defineOperation(startAnalysis),
	getAnalysisStatus: defineOperation(getAnalysisStatus),
	getData: defineOperation(getData),
	resetPortalPassword: defineOperation(resetPortalPassword),
	confirmPasswordReset: defineOperation(confirmPasswordReset),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['incomeTaxReturn'] } },
		options: [
			{
				name: 'Confirm Password Reset with OTP',
				value: 'confirmPasswordReset',
				description:
					'Confirm a pending portal password reset with the OTP the taxpayer received (preview)',
				action: 'Confirm ITR password reset',
			},
			{
				name: 'Get Analysis Status',
				value: 'getAnalysisStatus',
				description:
					'Get the status of an ITR analysis job, optionally waiting until it completes (preview)',
				action: 'Get ITR analysis status',
			},
			{
				name: 'Get Data',
				value: 'getData',
				description: 'Get the taxpayer profile and filed returns from a completed analysis job',
				action: 'Get ITR data',
			},
			{
				name: 'Reset Portal Password',
				value: 'resetPortalPassword',
				description: 'Request a taxpayer portal password reset; an OTP is sent to the taxpayer',
				action: 'Reset ITR portal password',
			},
			{
				name: 'Start Analysis',
				value: 'startAnalysis',
				description: "Start reading a taxpayer's returns from the income-tax portal (preview)",
				action: 'Start ITR analysis',
			},
		],
		default: 'getData',
	},
	previewNotice('incomeTaxReturn', ['startAnalysis', 'getAnalysisStatus', 'confirmPasswordReset']),
	...startAnalysis.description,
	...getAnalysisStatus.description,
	...getData.description,
	...resetPortalPassword.description,
	...confirmPasswordReset.description,
];
