import type { INodeProperties } from 'n8n-workflow';

// Placeholder until this resource's operations land (being written now).
export const operations = {} as never;

export const description: INodeProperties[] = [];
