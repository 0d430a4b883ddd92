import { createHash } from 'node:crypto';
import type { FormValue } from '../api/form-encoding';

/**
 * What "the same request" means for an idempotency key: same endpoint and same parameters, whatever
 * order the form fields arrived in.
 */
export interface RequestFingerprint {
  endpoint: string;
  parameters: string;
}

export function fingerprintOf(method: string, path: string, params: FormValue): RequestFingerprint {
  const parameters = createHash('sha256').update(canonicalJson(params)).digest('hex');
  return { endpoint: `${method} ${path}`, parameters };
}

function canonicalJson(value: FormValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}
