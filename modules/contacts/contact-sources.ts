/**
 * The sources Idem imports contacts from. A source name is part of every contact's stream name
 * (`contact-<source>.<sourceId>`), so an unknown one is refused rather than silently starting a new
 * namespace of contacts. `crm` is the default pull source (the sandbox CRM in development); a real
 * CRM is one more name here and one more `contact-source` adapter.
 */
import { AppError, type FieldProblem } from '../../src/errors/app-error';
import type { ContactSources } from './contact-source/contact-source.port';

export const CONTACT_SOURCES: readonly string[] = ['crm'];

// Not a `source is string` guard: a false answer would wrongly narrow a string name to never.
export const isKnownSource = (source: string): boolean => CONTACT_SOURCES.includes(source);

const SOURCE_NAMES = CONTACT_SOURCES.join(', ');

/** The problem of a body's `source` that is no string: a missing one is named with what it must hold. */
export const sourceNotAString = (source: unknown): FieldProblem =>
  source === undefined || source === null
    ? { field: 'source', message: `source is required: the name of a contact source (${SOURCE_NAMES})` }
    : { field: 'source', message: 'source must be a string' };

/** Every import (push, pull, file) refuses an unknown source before it writes anything. */
export function assertKnownSource(source: string): void {
  if (isKnownSource(source)) return;
  // An empty name read "… under the name " (cut short, it seemed).
  const named = source ? `the name ${source}` : 'an empty name';
  const message = `No contact source is configured under ${named} (sources: ${SOURCE_NAMES})`;
  throw new AppError('unprocessable', 'CONTACTS.UNKNOWN_SOURCE', message, { source });
}

/** A pull run also needs the source's address: in production the CRM's is IDEM_CRM_URL, and without it nothing can be pulled. */
export function assertPullableSource(source: string, sources: ContactSources): void {
  assertKnownSource(source);
  if (!sources(source)) {
    throw new AppError(
      'unprocessable',
      'CONTACTS.SOURCE_NOT_CONFIGURED',
      `The contact source ${source} has no address configured here, so nothing can be pulled from it (set IDEM_CRM_URL)`,
      { source },
    );
  }
}
