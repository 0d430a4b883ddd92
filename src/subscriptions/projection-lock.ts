/**
 * One active runner per projection version: a session-level advisory lock held on a dedicated
 * connection for as long as the runner works. When the holder dies (even SIGKILL) its connection
 * closes, PostgreSQL releases the lock at once and a standby blocked on it takes over.
 *
 * A holder that is alive to the kernel but not running (SIGSTOPped, frozen in a paused container or
 * VM) would keep its session, and the lock, for as long as it is stopped: TCP keepalives are answered
 * by the kernel. Every projection then stood still behind it, the charge reactor's included, while a
 * healthy standby waited. So the holder's session has PostgreSQL's `idle_session_timeout`, and the
 * holder touches it every quarter of that: a holder that stops touching it loses its session, and the
 * lock, within `silentForMs`; once running again it finds its connection gone (`lost`) and stops.
 *
 * The lock is an efficiency measure, not the safety net: a runner that lost its lock without noticing
 * (a network partition, or a woken holder's batch already in flight) still cannot commit, because
 * every batch compare-and-sets the checkpoint.
 */
import { limitSilence } from '../database/idle-session-limit';
import { sessionClient, type SessionConnection } from '../database/session-client';

export interface HeldLock {
  /** Settles when the lock connection fails: the runner must stop, someone else may hold it now. */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

export const lockKey = (name: string, version: number) => `${name}@${version}`;

/** How long a holder may go without touching its lock session before PostgreSQL ends it (and the lock with it). */
export const DEFAULT_LOCK_SILENCE_MS = 20_000;

const NAMESPACE = `hashtext('idem.projection')`;

/**
 * Takes every key, in sorted order so runners asking for overlapping sets cannot deadlock.
 * `wait: false` gives up (returns undefined) if any key is held elsewhere; `wait: true` blocks until
 * all are free, or returns undefined once `signal` aborts.
 */
export async function acquireLocks(
  connection: SessionConnection,
  keys: string[],
  options: { wait: boolean; signal?: AbortSignal; silentForMs?: number },
): Promise<HeldLock | undefined> {
  const silentForMs = options.silentForMs ?? DEFAULT_LOCK_SILENCE_MS;
  const client = sessionClient(connection, 'idem-projection-lock');
  let released = false;
  const lost = new Promise<Error>((resolve) => {
    client.on('error', (error) => resolve(error));
    client.on('end', () => resolve(new Error('projection lock connection closed')));
  });
  const abort = () => void client.end().catch(() => undefined);
  let touchEvery: number | undefined;
  await client.connect();
  options.signal?.addEventListener('abort', abort);
  try {
    // Aborted before the listener was there (before the call, or while connecting): it will not fire,
    // and a wait for a lock held elsewhere would then outlast the stop that aborted it.
    if (options.signal?.aborted) {
      await client.end().catch(() => undefined);
      return undefined;
    }
    // Counts only while the session is idle: a wait for the lock below is a running query, never cut short.
    touchEvery = await limitSilence(client, silentForMs);
    for (const key of [...keys].sort()) {
      if (options.wait) {
        await client.query(`SELECT pg_advisory_lock(${NAMESPACE}, hashtext($1))`, [key]);
      } else {
        const { rows } = await client.query(`SELECT pg_try_advisory_lock(${NAMESPACE}, hashtext($1)) AS ok`, [key]);
        if (!rows[0].ok) {
          await client.end();
          return undefined;
        }
      }
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    if (options.signal?.aborted) return undefined;
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
  if (options.signal?.aborted) {
    await client.end().catch(() => undefined);
    return undefined;
  }
  // A query that fails here fails because the session is gone, which `lost` reports.
  const heartbeat =
    touchEvery === undefined ? undefined : setInterval(() => void client.query('SELECT 1').catch(() => undefined), touchEvery);
  heartbeat?.unref();
  void lost.then(() => clearInterval(heartbeat));
  return {
    lost: lost.then((error) => (released ? new Error('released') : error)),
    release: async () => {
      released = true;
      clearInterval(heartbeat);
      // Ending the session drops every advisory lock it holds.
      await client.end().catch(() => undefined);
    },
  };
}
