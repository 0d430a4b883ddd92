/**
 * Lock sessions that a frozen holder loses: PostgreSQL ends a session idle for longer than
 * `idle_session_timeout`, and every advisory lock it holds goes with it. The projection lock
 * (src/subscriptions/projection-lock.ts) and the pull runs' locks (modules/contacts/pull-run/run-lock.ts)
 * both hold their locks on such a session and touch it while their holder runs.
 */
import type { Client } from 'pg';

/** PostgreSQL's code for a setting it does not know: idle_session_timeout came with PostgreSQL 14. */
const UNDEFINED_OBJECT = '42704';

/**
 * Has PostgreSQL end the session once it has been idle for `silentForMs`; answers how often to touch it
 * so that it never is while its holder runs (undefined: the server has no such setting, before 14, and
 * a frozen holder then keeps its locks until it is killed).
 */
export async function limitSilence(client: Client, silentForMs: number): Promise<number | undefined> {
  try {
    await client.query(`SELECT set_config('idle_session_timeout', $1, false)`, [`${silentForMs}ms`]);
    return Math.max(1, Math.floor(silentForMs / 4));
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_OBJECT) return undefined;
    throw error;
  }
}
