/**
 * Which of graphile-worker's job slots are alive, by PostgreSQL's own account and without a clock.
 * Each slot locks its jobs under its own random id (`locked_by`); before a slot asks for its first job
 * (graphile's `startWorker` hook), its process takes a session-level advisory lock keyed by that id
 * on one connection it holds for as long as its job worker runs. A process that dies, even by SIGKILL,
 * loses that connection and PostgreSQL drops its locks with it: a `locked_by` whose lock nobody holds
 * belongs to a dead slot, and only then may its jobs be taken over (see release-dead-workers-jobs.ts).
 *
 * A heartbeat table would need a staleness threshold, and a live worker stalled past it (a long
 * garbage collection, a blocked event loop, a slow clock) would have its running job taken over and
 * run twice at once. The session cannot be stalled that way: the server's TCP keepalives are answered
 * by the worker's kernel. A worker machine that dies without closing its sockets is noticed within
 * LIVENESS_SESSION_SETTINGS' keepalive time, so its jobs wait minutes, not graphile's 4 hours.
 *
 * The locks are shared: two slot ids whose hashes collide both read as alive while either lives,
 * which only ever delays a takeover, never makes a live slot look dead.
 */
import type { Worker } from 'graphile-worker';
import { sessionClient, type SessionConnection } from '../database/session-client';

/** The advisory-lock namespace (first key) of job-slot liveness; the second key is hashtext(slot id). */
export const LIVENESS_NAMESPACE = `hashtext('idem.job-worker')`;

/**
 * A dead peer (machine gone, cable cut) is noticed after 30 s of silence and three unanswered 10 s
 * probes, or 60 s of unacknowledged data; the session must never end for being idle.
 */
const LIVENESS_SESSION_SETTINGS = `SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3;
  SET tcp_user_timeout = 60000; SET idle_session_timeout = 0; SET statement_timeout = 0`;

export interface JobWorkerLiveness {
  /** Announces a slot; must finish before the slot takes a job. */
  announce(worker: Worker): Promise<void>;
  /**
   * True once the session failed: this process can no longer prove its slots alive, other workers
   * will take their jobs over, so its slots must take no more.
   */
  readonly broken: boolean;
  /** Settles when the session fails (not when it is closed). */
  readonly lost: Promise<Error>;
  /** Ends the session, and with it every announcement: call it once no slot holds a job. */
  close(): Promise<void>;
}

export async function openJobWorkerLiveness(connection: SessionConnection): Promise<JobWorkerLiveness> {
  const client = sessionClient(connection, 'idem-job-liveness');
  let closing = false;
  let broken = false;
  let markLost!: (error: Error) => void;
  const lost = new Promise<Error>((resolve) => {
    markLost = (error) => {
      if (closing || broken) return;
      broken = true;
      resolve(error);
      void client.end().catch(() => undefined);
    };
  });
  client.on('error', markLost);
  client.on('end', () => markLost(new Error('job worker liveness connection closed')));
  await client.connect();
  try {
    await client.query(LIVENESS_SESSION_SETTINGS);
  } catch (error) {
    closing = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  // The slots of one worker start together, but one connection runs one query at a time (pg 8 warns
  // of, and pg 9 refuses, a query sent while another runs): they announce one after another.
  let announcing: Promise<unknown> = Promise.resolve();
  return {
    get broken() {
      return broken;
    },
    lost,
    async announce(worker) {
      const announced = announcing.then(() =>
        client.query(`SELECT pg_advisory_lock_shared(${LIVENESS_NAMESPACE}, hashtext($1))`, [worker.workerId]),
      );
      announcing = announced.catch(() => undefined);
      try {
        await announced;
      } catch (error) {
        // Graphile does not run this hook again: a slot that failed it would take jobs unannounced.
        markLost(error as Error);
        throw error;
      }
    },
    async close() {
      closing = true;
      await client.end().catch(() => undefined);
    },
  };
}
