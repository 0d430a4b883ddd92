/**
 * One active runner per projection version: a session-level advisory lock held on a dedicated
 * connection for as long as the runner works. When the holder dies (even SIGKILL) its connection
 * closes, PostgreSQL releases the lock at once and a standby blocked on it takes over.
 *
 * The lock is an efficiency measure, not the safety net: a runner that lost its lock without noticing
 * (a network partition) still cannot commit, because every batch compare-and-sets the checkpoint.
 */
import { Client, type ClientConfig } from 'pg';

export interface HeldLock {
  /** Settles when the lock connection fails: the runner must stop, someone else may hold it now. */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

export const lockKey = (name: string, version: number) => `${name}@${version}`;

const NAMESPACE = `hashtext('idem.projection')`;

/**
 * Takes every key, in sorted order so runners asking for overlapping sets cannot deadlock.
 * `wait: false` gives up (returns undefined) if any key is held elsewhere; `wait: true` blocks until
 * all are free, or returns undefined once `signal` aborts.
 */
export async function acquireLocks(
  connection: ClientConfig,
  keys: string[],
  options: { wait: boolean; signal?: AbortSignal },
): Promise<HeldLock | undefined> {
  const client = new Client({ ...connection, keepAlive: true, application_name: 'idem-projection-lock' });
  let released = false;
  const lost = new Promise<Error>((resolve) => {
    client.on('error', (error) => resolve(error));
    client.on('end', () => resolve(new Error('projection lock connection closed')));
  });
  const abort = () => void client.end().catch(() => undefined);
  await client.connect();
  options.signal?.addEventListener('abort', abort);
  try {
    // Aborted before the listener was there (before the call, or while connecting): it will not fire,
    // and a wait for a lock held elsewhere would then outlast the stop that aborted it.
    if (options.signal?.aborted) {
      await client.end().catch(() => undefined);
      return undefined;
    }
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
  return {
    lost: lost.then((error) => (released ? new Error('released') : error)),
    release: async () => {
      released = true;
      // Ending the session drops every advisory lock it holds.
      await client.end().catch(() => undefined);
    },
  };
}
