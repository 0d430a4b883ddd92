import type { ValueTransformer } from 'typeorm';

/** `pg` returns bigint as text; read-model amounts and revisions are safe integers, so read them as numbers. */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
