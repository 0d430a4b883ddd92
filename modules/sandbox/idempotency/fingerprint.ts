import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { FormValue } from '../api/form-encoding';

/**
 * What "the same request" means for an idempotency key: same endpoint and same parameters, whatever
 * order the form fields arrived in (safe-stable-stringify sorts every object's keys).
 */
export interface RequestFingerprint {
  endpoint: string;
  parameters: string;
}

const canonicalJson = configure({ deterministic: true });

export function fingerprintOf(method: string, path: string, params: FormValue): RequestFingerprint {
  const parameters = createHash('sha256').update(canonicalJson(params)).digest('hex');
  return { endpoint: `${method} ${path}`, parameters };
}
