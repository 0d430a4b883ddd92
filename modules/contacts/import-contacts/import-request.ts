/**
 * The body of POST /v1/contacts/import, checked without NestJS: the envelope (source, records, at most
 * MAX_RECORDS) must be right or nothing is written; records are checked one by one, and an invalid
 * record is `rejected` on its own while the rest import. A batch in which no record is valid is bad
 * input as a whole (400, nothing written): there is nothing to import and nothing the caller did right.
 */
import { createHash } from 'node:crypto';
import { AppError, type FieldProblem } from '../../../src/errors/app-error';
import { assertJsonObjectBody } from '../../../src/errors/json-object-body';
import { canonicalJson } from '../../../src/command-handling/hash-link';
import { assertKnownSource, sourceNotAString } from '../contact-sources';
import { checkRecord, type ContactRecord, type RejectedKey } from '../import-contact/contact-record';

export const MAX_RECORDS = 1000;

export type BatchItem = { seq: number; ok: true; record: ContactRecord } | ({ seq: number; ok: false; problems: string[] } & RejectedKey);

export interface ImportRequest {
  source: string;
  items: BatchItem[];
  /** Identifies the body, so a reused Idempotency-Key with another body is refused. */
  fingerprint: string;
  /**
   * The fingerprint pushes were recorded under before key order stopped counting: of the body as
   * spelled. A retry of such a push, made across the upgrade, is still recognised as the same body.
   */
  legacyFingerprint: () => string;
}

export function parseImportRequest(body: unknown): ImportRequest {
  assertJsonObjectBody(body, '{source, records}');
  const { source, records, ...rest } = body;
  const problems: FieldProblem[] = Object.keys(rest).map((field) => ({ field, message: `${field} is not a known field` }));
  if (typeof source !== 'string') problems.push(sourceNotAString(source));
  else assertKnownSource(source);
  if (!Array.isArray(records) || records.length === 0) problems.push({ field: 'records', message: 'records must be a non-empty array' });
  else if (records.length > MAX_RECORDS)
    problems.push({ field: 'records', message: `at most ${MAX_RECORDS} records per request (got ${records.length})` });
  if (problems.length) throw invalid(problems);

  const items = checkItems(records as unknown[]);
  if (!items.some((item) => item.ok)) {
    throw invalid(items.flatMap((item) => (item.ok ? [] : item.problems.map((message) => ({ field: `records[${item.seq}]`, message })))));
  }
  // Of the parsed body, key order ignored: what the request says, not how it was spelled (whitespace
  // never counted either). The records' order counts: the answers are given by position.
  const fingerprint = fingerprintOf(canonicalJson([source, records]));
  return { source: source as string, items, fingerprint, legacyFingerprint: () => fingerprintOf(JSON.stringify([source, records])) };
}

const fingerprintOf = (body: string) => createHash('sha256').update(body).digest('hex').slice(0, 32);

/** Checks raw records one by one; `firstSeq` numbers them within their run. */
export function checkItems(records: unknown[], firstSeq = 0): BatchItem[] {
  return records.map((raw, i): BatchItem => {
    const check = checkRecord(raw);
    const seq = firstSeq + i;
    return check.ok ? { seq, ok: true, record: check.record } : { ...check, seq };
  });
}

const invalid = (errors: FieldProblem[]) => new AppError('validation', 'REQUEST.INVALID', 'The request is invalid', { errors });
