/**
 * One live driver per pull run, across processes and on both event stores: a session-level advisory
 * lock in PostgreSQL (always present: it holds the read models even when events live in EventStoreDB),
 * held on a connection of its own for as long as the driver drives the run. It is the projection lock's
 * rule (src/subscriptions/projection-lock.ts):
 *
 * - a driver that dies (SIGKILL) closes its connection, and PostgreSQL frees the run at once;
 * - a driver that stops running without dying (SIGSTOP, a frozen container or VM) stops touching its
 *   session, which PostgreSQL's `idle_session_timeout` ends after `silentForMs`, and the run with it.
 *
 * The lock is also the driver's fence. A driver woken after losing the run must write nothing, and its
 * writes go to the event store, which knows nothing of the lock: so before every append the driver
 * asks `confirm()`, which answers from the last query its session answered — sent less than half the
 * silence limit ago, it proves the session (and the run) is held until at least the other half has
 * passed; older (a driver that was frozen, or starved), a query is sent now and must be answered within
 * that half. The clock is the process's monotonic one, which runs on while the process is stopped.
 * What no lock can fence is an append already handed to the network when the driver froze (it may land
 * after the takeover), or one made in the moment between the server ending the session for another
 * reason (a restart, pg_terminate_backend) and this process hearing of it: the run stream's expected
 * revision and the freshness rule keep those harmless.
 *
 * The lock's key is 64 bits of the run id's sha256 (runLockKey): it was `hashtext(namespace),
 * hashtext(runId)`, 32 bits of the run id, and two runs whose hashtexts collided shared one lock — the
 * second run's driver was refused (or waited) for as long as the first one's was driven.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { limitSilence } from '../../../src/database/idle-session-limit';
import { sessionClient, type SessionConnection } from '../../../src/database/session-client';

/** How long a driver may go without touching its lock session before PostgreSQL ends it (and frees the run). */
export const DEFAULT_RUN_SILENCE_MS = 20_000;
/** Hashed with the run id into its lock's key, so that no other advisory lock of Idem's shares the key. */
const NAMESPACE = 'idem.pull-run';

/**
 * A run's lock key: the first 8 bytes of sha256(namespace, NUL, run id), as PostgreSQL's bigint (decimal,
 * as pg sends an int8), and as pg_locks shows that key: its high half in `classid`, its low half in
 * `objid`, with `objsubid` 1 (PostgreSQL's documentation of pg_locks, "advisory" locks).
 */
export function runLockKey(runId: string): { key: string; classid: number; objid: number } {
  const digest = createHash('sha256').update(`${NAMESPACE}\0${runId}`).digest();
  return { key: digest.readBigInt64BE(0).toString(), classid: digest.readUInt32BE(0), objid: digest.readUInt32BE(4) };
}

/**
 * The rows of pg_locks (aliased `l`) that are the run's lock, granted or awaited, with `params` as $1
 * and $2. Every look at pg_locks for a run goes through it, so none falls out of step with the key.
 */
export function runLockRows(runId: string): { sql: string; params: number[] } {
  const { classid, objid } = runLockKey(runId);
  return {
    sql: `l.locktype = 'advisory' AND l.objsubid = 1 AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    params: [classid, objid],
  };
}

/**
 * The key of the version before (two int4 keys: hashtext(namespace), hashtext(run id)), taken SHARED
 * beside the new one, for a rolling upgrade: a process of the old version takes it exclusively, so it
 * and a driver of this version still exclude each other on a run, while two drivers of this version
 * never wait for each other on it (shared locks are compatible), whatever their hashtexts. Remove it
 * once no process of the old version can run against the database (the release after this one).
 */
const OLD_KEY = 'hashtext($2), hashtext($3)';

/** Who holds a run, as its lock session tells: the driver's process and when it took the run. */
export interface RunHolder {
  /** `<host> pid <pid>` of the driving process (its lock session's application_name). */
  by: string;
  since: Date;
}

/** Thrown by `confirm()`, and so by the fenced append of a driver that no longer holds its run. */
export class RunNotHeld extends Error {
  constructor(runId: string, why: string) {
    super(`import run ${runId} is no longer held by this driver (${why}): it writes nothing more`);
  }
}

/** Thrown by driveRun when another live process drives the run. */
export class RunDrivenElsewhere extends Error {
  constructor(
    readonly runId: string,
    readonly holder: RunHolder | undefined,
  ) {
    super(`import run ${runId} is being driven ${holder ? `by ${holder.by} since ${holder.since.toISOString()}` : 'by another process'}`);
  }
}

export interface HeldRun {
  /** Resolves while the run is still held by this driver; rejects with RunNotHeld otherwise. */
  confirm(): Promise<void>;
  /** Settles when the lock session is gone: another driver may hold the run now. */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

/** The runs' locks of one PostgreSQL database. */
export interface RunLocks {
  /** Takes the run for this driver, without waiting: undefined when another session holds it. */
  take(runId: string): Promise<HeldRun | undefined>;
  /** Who holds the run now, if anyone does. */
  holder(runId: string): Promise<RunHolder | undefined>;
  /**
   * Takes the run for this driver as soon as the session holding it lets it go (its driver stopped,
   * died or froze past the silence limit): undefined once `signal` aborts first. One connection waits.
   */
  waitFor(runId: string, signal: AbortSignal): Promise<HeldRun | undefined>;
}

/** This process, as a lock session names it (application_name keeps 63 bytes). */
const thisProcess = () => `${hostname().slice(0, 32)} pid ${process.pid}`;

/** The locks of the database `pool` connects to; each held run has a connection of its own. */
export function runLocksOn(pool: Pick<Pool, 'options' | 'query'>, options: { silentForMs?: number } = {}): RunLocks {
  const silentForMs = options.silentForMs ?? DEFAULT_RUN_SILENCE_MS;
  return {
    take: (runId) => takeRun(pool.options, runId, silentForMs),
    waitFor: (runId, signal) =>
      takeRun(pool.options, runId, silentForMs, { signal, cancel: (pid) => pool.query('SELECT pg_cancel_backend($1)', [pid]) }),
    holder: async (runId) => {
      const lock = runLockRows(runId);
      const { rows } = await pool.query<{ by: string; since: Date }>(
        `SELECT a.application_name AS by, a.backend_start AS since
           FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.granted AND ${lock.sql}`,
        lock.params,
      );
      return rows[0];
    },
  };
}

/**
 * A wait for a run's lock, until `signal` aborts it. `cancel` ends the waiting statement from another
 * connection: a server process blocked on a lock does not notice its client leave, and would take the
 * lock when it frees (holding it for a moment, a blocked connection until then).
 */
interface LockWait {
  signal: AbortSignal;
  cancel: (pid: number) => Promise<unknown>;
}

/** `wait`: wait for the lock (until it aborts) instead of giving up when it is held. */
async function takeRun(connection: SessionConnection, runId: string, silentForMs: number, wait?: LockWait): Promise<HeldRun | undefined> {
  const waitUntil = wait?.signal;
  const client = sessionClient(connection, thisProcess());
  let released = false;
  const lost = new Promise<Error>((resolve) => {
    client.on('error', (error) => resolve(error));
    client.on('end', () => resolve(new Error('the run lock connection closed')));
  });
  let touchEvery: number | undefined;
  /** When the last query that the session answered was sent (monotonic ms). */
  let answeredSentAt = performance.now();
  // The waiting statement cancelled, the session ended: the lock is not taken (or freed, if just granted).
  // Listened to once connected: ended while it connects, pg's client never settles its connect.
  let pid: number | undefined;
  const abort = () =>
    void (pid === undefined ? Promise.resolve() : wait!.cancel(pid).catch(() => undefined)).then(() => client.end().catch(() => undefined));
  try {
    await client.connect();
    waitUntil?.addEventListener('abort', abort);
    if (waitUntil?.aborted) {
      await client.end();
      return undefined;
    }
    // Counts only while the session is idle: a wait for the lock below is a running query, never cut.
    touchEvery = await limitSilence(client, silentForMs);
    const keys = [runLockKey(runId).key, NAMESPACE, runId];
    if (waitUntil) pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    // One statement, so that cancelling it (abort) never falls between two. The old version's key comes
    // first, always: drivers waiting for both keys in one order cannot deadlock on them.
    const taken = waitUntil
      ? await client.query(`SELECT pg_advisory_lock_shared(${OLD_KEY}), pg_advisory_lock($1::bigint)`, keys).then(() => true)
      : await client
          .query<{ old: boolean; ok: boolean }>(
            `SELECT pg_try_advisory_lock_shared(${OLD_KEY}) AS old, pg_try_advisory_lock($1::bigint) AS ok`,
            keys,
          )
          .then(({ rows }) => rows[0].old && rows[0].ok);
    if (!taken || waitUntil?.aborted) {
      await client.end();
      return undefined;
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    if (waitUntil?.aborted) return undefined;
    throw error;
  } finally {
    waitUntil?.removeEventListener('abort', abort);
  }
  let gone: Error | undefined;
  void lost.then((error) => (gone = error));
  /**
   * `gone`, read through a call: after an await, `confirm` must see it set by `lost` meanwhile, where a
   * direct read would still be narrowed by TypeScript to the undefined it checked before awaiting.
   */
  const goneNow = (): Error | undefined => gone;
  // One query at a time on the session (pg warns of overlapping ones): a touch waits for the one before.
  let touching: Promise<unknown> = Promise.resolve();
  const touch = (): Promise<void> => {
    const answered = touching
      .catch(() => undefined)
      .then(async () => {
        const sentAt = performance.now();
        await client.query('SELECT 1');
        answeredSentAt = Math.max(answeredSentAt, sentAt);
      });
    touching = answered;
    return answered;
  };
  // A failed touch means the session is gone, which `lost` reports.
  const heartbeat = touchEvery === undefined ? undefined : setInterval(() => void touch().catch(() => undefined), touchEvery);
  heartbeat?.unref();
  void lost.then(() => clearInterval(heartbeat));
  /** Half the silence limit: a session answering a query sent within it is held for at least the other half. */
  const fresh = silentForMs / 2;
  let confirming: Promise<void> | undefined;
  const confirm = async (): Promise<void> => {
    if (released) throw new RunNotHeld(runId, 'released');
    if (gone) throw new RunNotHeld(runId, gone.message);
    if (touchEvery === undefined || performance.now() - answeredSentAt < fresh) return;
    // Calls meanwhile share the query: each judges it by when it was sent, below.
    confirming ??= touch().finally(() => (confirming = undefined));
    await confirming.catch((error: Error) => {
      throw new RunNotHeld(runId, error.message);
    });
    const since = goneNow();
    if (since) throw new RunNotHeld(runId, since.message);
    if (performance.now() - answeredSentAt >= fresh)
      throw new RunNotHeld(runId, `its lock session answered only after ${Math.round(fresh)} ms`);
  };
  return {
    confirm,
    lost: lost.then((error) => (released ? new Error('released') : error)),
    release: async () => {
      released = true;
      clearInterval(heartbeat);
      // Ending the session frees the run.
      await client.end().catch(() => undefined);
    },
  };
}
