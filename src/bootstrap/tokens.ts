/** Injection tokens for the infrastructure every module shares. */
export const DATABASE_POOL = Symbol('DATABASE_POOL');
export const EVENT_STORE = Symbol('EVENT_STORE');
export const IDEM_CONFIG = Symbol('IDEM_CONFIG');
