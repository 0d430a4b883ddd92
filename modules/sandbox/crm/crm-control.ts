/**
 * The bodies of the sandbox CRM's `mutate` and `reset` control calls, checked as `faults` and
 * `behaviour` are: a body it cannot take as asked is refused (400) and changes nothing. They used to be
 * taken as they came: `{size: "1000"}` emptied the CRM, `{count: 1.5}` edited two contacts, and a
 * count of 10^8 held the sandbox's event loop (the api's, in-process) while it built the answer.
 */

/** Edits of one `mutate` call: the whole default CRM, many times over what a test needs. */
export const MAX_MUTATIONS = 100_000;
/** Contacts a reset may make (they are computed from the seed on demand, never stored). */
export const MAX_CRM_SIZE = 10_000_000;

const inRange = (n: unknown, max: number): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= max;

/** `{count?, deletes?}`: count defaults to 1, deletes to 0. */
export function parseCrmMutation(body: unknown): { count: number; deletes: number } | string {
  const b = (body ?? {}) as Record<string, unknown>;
  const count = b.count ?? 1;
  const deletes = b.deletes ?? 0;
  if (!inRange(count, MAX_MUTATIONS)) return `count must be an integer in 0..${MAX_MUTATIONS}`;
  if (!inRange(deletes, MAX_MUTATIONS)) return `deletes must be an integer in 0..${MAX_MUTATIONS}`;
  return { count, deletes };
}

/** `{seed?, size?}`: each absent one keeps the CRM's. */
export function parseCrmReset(body: unknown, current: { seed: number; size: number }): { seed: number; size: number } | string {
  const b = (body ?? {}) as Record<string, unknown>;
  const seed = b.seed ?? current.seed;
  const size = b.size ?? current.size;
  if (!Number.isSafeInteger(seed)) return 'seed must be an integer';
  if (!inRange(size, MAX_CRM_SIZE)) return `size must be an integer in 0..${MAX_CRM_SIZE}`;
  return { seed: seed as number, size };
}
