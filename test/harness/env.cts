/**
 * Must be imported before anything from n8n-core: n8n-core reads N8N_USER_FOLDER lazily and would
 * otherwise write an encryption key under the home folder.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'finverify-engine-'));
process.env.N8N_LOG_LEVEL ??= 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
