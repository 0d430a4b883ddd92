/**
 * How the sandbox CRM misbehaves besides faults, set as a whole by `POST /crm/_control/behaviour`
 * (an absent setting is off, so `{}` switches everything off). Our own fake's settings, not a vendor's:
 * - `duplicates`: a page repeats the contact just before it;
 * - `outOfOrder`: a page also carries an older version of the contact just before it;
 * - `outOfOrderPages`: an export started under it hands its pages out in a seeded non-sequential order
 *   (crm-pages.ts);
 * - `mutatePerPage` / `deletesPerPage`: every page served first edits / deletes that many seeded
 *   contacts, as users of a live CRM would between two pages of an export.
 */
export interface CrmBehaviour {
  duplicates: boolean;
  outOfOrder: boolean;
  outOfOrderPages: boolean;
  mutatePerPage: number;
  deletesPerPage: number;
}

/** Edits per page above this would only slow the sandbox down: a CRM of 100,000 is rewritten in a few pages. */
export const MAX_EDITS_PER_PAGE = 10_000;

export const CALM_CRM: CrmBehaviour = { duplicates: false, outOfOrder: false, outOfOrderPages: false, mutatePerPage: 0, deletesPerPage: 0 };

export function parseCrmBehaviour(body: unknown): CrmBehaviour | string {
  const b = (body ?? {}) as Record<string, unknown>;
  const behaviour = { ...CALM_CRM };
  for (const flag of ['duplicates', 'outOfOrder', 'outOfOrderPages'] as const) {
    if (b[flag] === undefined) continue;
    if (typeof b[flag] !== 'boolean') return `${flag} must be a boolean`;
    behaviour[flag] = b[flag];
  }
  for (const count of ['mutatePerPage', 'deletesPerPage'] as const) {
    if (b[count] === undefined) continue;
    const n = b[count];
    if (!(Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_EDITS_PER_PAGE))
      return `${count} must be an integer in 0..${MAX_EDITS_PER_PAGE}`;
    behaviour[count] = n as number;
  }
  return behaviour;
}
