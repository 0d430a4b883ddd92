/**
 * A page's records as a batch's items, numbered within the run. A record the adapter could not read as
 * meant (page.unreadable) is `rejected` with its reason, and so is one nested deeper than a push may be
 * (the HTTP edge's limit, which a file import applies to each line): deeper, the record checks after it
 * overflowed the stack, `idem sync run` died with "Maximum call stack size exceeded" and the run stayed
 * `running` with its page unrecorded, for every driver after it to die on too.
 */
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../../src/errors/json-depth';
import type { ContactPage } from '../contact-source/contact-source.port';
import { rejectedKey } from '../import-contact/contact-record';
import { checkItems, type BatchItem } from '../import-contacts/import-request';

export function pageItems(page: ContactPage, firstSeq: number): BatchItem[] {
  return page.records.map((raw, i): BatchItem => {
    const seq = firstSeq + i;
    const unreadable = page.unreadable?.get(i);
    if (unreadable !== undefined) return { seq, ok: false, ...rejectedKey(undefined), problems: [unreadable] };
    if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) {
      const sent = (raw as { sourceId?: unknown }).sourceId;
      return {
        seq,
        ok: false,
        ...rejectedKey(sent),
        problems: [`record ${i + 1} of the page nests JSON deeper than ${MAX_JSON_DEPTH} levels`],
      };
    }
    return checkItems([raw], seq)[0];
  });
}
