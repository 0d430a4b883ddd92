/** Nest injection token of the main `pg` pool (api requests, projections, charge steps). */
export const DATABASE_POOL = Symbol('DATABASE_POOL');
