/**
 * One source record as an import hands it over (push body, pull page, file line), and its checks.
 * Pure: the push route, pull runs and file imports all judge records with these same rules, and an
 * invalid record is `rejected` on its own while the rest of its batch goes on.
 */
import { hash } from 'node:crypto';
import { BUSINESS_KEY } from '../../../src/errors/business-key';
import { canonicalJson } from '../../../src/command-handling/hash-link';
import { hasPrototypePoisoningKey } from '../../../src/errors/prototype-poisoning';
import { isIsoDateTime } from './iso-date-time';

export interface ContactRecord {
  sourceId: string;
  version?: number;
  /** ISO-8601. */
  updatedAt?: string;
  /** The source's own content checksum; computed from the fields when absent. */
  checksum?: string;
  /** The source's event id, when it sends one: a re-sent event is a `duplicate`. */
  eventId?: string;
  deleted?: boolean;
  fields?: Record<string, unknown>;
}

/**
 * A rejected record's key: `sourceId` only when valid (the audit trail and its per-contact query key
 * on it), and what was sent as `sentSourceId` when that was a string but no valid key, so the caller
 * is answered with the key it sent (`"a/b"`) instead of null.
 */
export type RejectedKey = { sourceId: string | null; sentSourceId?: string };

export type RecordCheck = { ok: true; record: ContactRecord } | ({ ok: false; problems: string[] } & RejectedKey);

export function rejectedKey(sent: unknown): RejectedKey {
  // An empty key names nothing: answered null, as an absent one.
  if (typeof sent !== 'string' || sent === '') return { sourceId: null };
  return BUSINESS_KEY.test(sent) ? { sourceId: sent } : { sourceId: null, sentSourceId: sent };
}

const ALLOWED = new Set(['sourceId', 'version', 'updatedAt', 'checksum', 'eventId', 'deleted', 'fields']);
const TOKEN = /^[\x21-\x7e]{1,128}$/;

export function checkRecord(raw: unknown): RecordCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, sourceId: null, problems: ['a record must be a JSON object'] };
  const r = raw as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(r)) if (!ALLOWED.has(key)) problems.push(`unknown field ${key}`);
  const key = rejectedKey(r.sourceId);
  if (key.sourceId === null) problems.push('sourceId must be 1–64 characters of A–Z, a–z, 0–9, _ . : -');
  // One rule on the value, whatever the format: JSON's 1.0 is the number 1 (JSON.parse cannot tell them
  // apart, nor should it: they are one number), and a CSV cell is read as the same number (csv-records.ts).
  if (r.version !== undefined && !(Number.isSafeInteger(r.version) && (r.version as number) >= 0))
    problems.push('version must be a non-negative integer');
  if (r.updatedAt !== undefined && !isIsoDateTime(r.updatedAt))
    problems.push('updatedAt must be an ISO-8601 date-time such as 2026-12-01T10:00:00Z');
  if (r.checksum !== undefined && !(typeof r.checksum === 'string' && TOKEN.test(r.checksum)))
    problems.push('checksum must be 1–128 visible ASCII characters');
  if (r.eventId !== undefined && !(typeof r.eventId === 'string' && TOKEN.test(r.eventId)))
    problems.push('eventId must be 1–128 visible ASCII characters');
  if (r.deleted !== undefined && typeof r.deleted !== 'boolean') problems.push('deleted must be true or false');
  const fieldsOk = typeof r.fields === 'object' && r.fields !== null && !Array.isArray(r.fields);
  if (r.deleted !== true && !fieldsOk) problems.push('fields must be an object');
  if (r.deleted === true && r.fields !== undefined && !fieldsOk) problems.push('fields must be an object');
  // A pushed body with such a key never gets here (400 REQUEST.FORBIDDEN_KEY); a file line or a CRM page can.
  if (fieldsOk && hasPrototypePoisoningKey(r.fields))
    problems.push('fields has a __proto__ or constructor.prototype key (prototype poisoning)');
  if (fieldsOk && hasNumberPastDouble(r.fields))
    problems.push('fields has a number past ±1.8e308, which JSON.parse reads as Infinity and would store as null');
  if (problems.length) return { ok: false, ...key, problems };
  return { ok: true, record: r as unknown as ContactRecord };
}

/**
 * JSON.parse reads a number past the double range (1e400) as ±Infinity, and an event's JSON then holds
 * null in its place: imported, the contact would silently keep null for what the source sent.
 */
function hasNumberPastDouble(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === 'number' && !Number.isFinite(node)) return true;
    // One by one: a spread of a field's array of millions of numbers would overflow the call's arguments.
    if (node !== null && typeof node === 'object') for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
  return false;
}

/**
 * Computed checksums, by record: a record is judged (again after each conflict) and then described in
 * the audit trail, and hashing its canonical fields each time was a few per cent of a push's CPU.
 * Checked records are never changed afterwards.
 */
const computedChecksums = new WeakMap<ContactRecord, string>();

/** The record's content checksum: the source's own, else a hash of its canonical fields (key order ignored). */
export function checksumOf(record: ContactRecord): string {
  if (record.checksum !== undefined) return record.checksum;
  let checksum = computedChecksums.get(record);
  if (checksum === undefined) {
    const content = record.deleted ? 'deleted' : canonicalJson(record.fields ?? {});
    checksum = hash('sha256', content, 'hex').slice(0, 32);
    computedChecksums.set(record, checksum);
  }
  return checksum;
}
