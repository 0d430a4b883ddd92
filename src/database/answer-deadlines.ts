/**
 * Deadlines on the connections of Idem's pools, so that a PostgreSQL that stops answering (a paused
 * server, a partition that drops packets) cannot hold a request, a projection or a job forever. Give a
 * pool `Client: clientWithDeadlines(deadlines)`; every connection it opens then has:
 *
 * - TCP keepalive after KEEPALIVE_IDLE_MS of silence, so that a peer that is gone is noticed.
 * - A handshake deadline (`connectMs`: TCP, startup, authentication, up to ReadyForQuery), kept by the
 *   client itself, not by pg-pool's `connectionTimeoutMillis`, which also counts the wait for a free
 *   slot and so fails the callers of a pool that is merely busy.
 * - A statement deadline (`queryMs`) on silence, checked with the server. After `queryMs − checkMs`
 *   without a byte either way, a fresh connection asks pg_stat_activity whether this connection's
 *   backend is running a statement (ask-server.ts). If it is (a long statement, a lock wait), nothing is
 *   cut and the same silence is checked again later. If the server does not answer within `checkMs`,
 *   or its backend is idle (the answer was lost), the connection is destroyed: its statement fails
 *   with PostgresNotAnswering (503 STORE.UNAVAILABLE) by `queryMs`, and the pool, which never hands out
 *   a client that is no longer queryable, discards it instead of lending it out in an unknown state.
 *
 * Why client-side, and why checked rather than a fixed cut: `statement_timeout` is enforced by the
 * server, the very party that stopped or whose answers are lost, and as a session default it would
 * also cut the long work that shares these pools (migrations at start, a rebuild's `SET LOGGED`, the
 * audit export). pg's `query_timeout` rejects the caller but leaves the statement in flight on a
 * connection that goes back to the pool, where the next statements queue behind it. A fixed cut can
 * tell a stalled server from a working one no better, and telling a request's statement from an
 * operator's would need a per-request context (AsyncLocalStorage, which slows every promise on Node
 * 20). Asking the server costs one connection, and only after a silence.
 *
 * Behind a pooler in transaction mode (PgBouncer) the backend id pg holds is not a server process: the
 * check finds no statement running and the deadline is then a fixed one.
 *
 * Once a check or a handshake got no answer, the server counts as not answering for the pools sharing
 * the class: their idle connections are dropped, and new connections fail at once, but for one attempt
 * at a time, a second apart, until a handshake completes again (server-answers.ts). A stalled server
 * then costs each caller a prompt 503, not a deadline: a grouped append that fails is retried append by
 * append, a thousand of them for one contacts import.
 */
import type { Socket } from 'node:net';
import { Client, type ClientConfig } from 'pg';
import { askWhetherWorking } from './ask-server';
import { PostgresNotAnswering } from './not-answering';
import { ServerAnswers } from './server-answers';

export interface AnswerDeadlines {
  /** How long a new connection may take to become ready for statements. */
  connectMs: number;
  /** How long a statement may go unanswered before its connection is dropped, unless the server says it is working on it. */
  queryMs: number;
}

/** For pools opened without the configuration at hand (IDEM_DB_CONNECT_TIMEOUT, IDEM_DB_QUERY_DEADLINE). */
export const DEFAULT_ANSWER_DEADLINES: AnswerDeadlines = { connectMs: 5_000, queryMs: 10_000 };

/** Idle time before the first keepalive probe; interval and count are the operating system's. */
export const KEEPALIVE_IDLE_MS = 30_000;
/** The check's own limit, handshake included: a healthy server forks a backend in milliseconds. */
const MAX_CHECK_MS = 2_000;

/** pg's own fields for the state of a connection (pg/lib/client.js, 8.x). */
interface PgClientState {
  readyForQuery: boolean;
  processID: number | null;
  _ending: boolean;
  _queryable: boolean;
}

type ConnectCallback = ((err: Error) => void) | ((err: null, c: Client) => void);

export function clientWithDeadlines(deadlines: AnswerDeadlines): typeof Client {
  const server = new ServerAnswers();
  const checkMs = Math.max(1, Math.min(MAX_CHECK_MS, Math.floor(deadlines.queryMs / 2)));
  const silenceMs = Math.max(1, deadlines.queryMs - checkMs);

  class DeadlineClient extends Client {
    private readonly settings: ClientConfig;
    private watchdog: NodeJS.Timeout | undefined;
    private trafficAtArm = 0;
    private checking = false;

    constructor(config: string | ClientConfig = {}) {
      const settings = typeof config === 'string' ? { connectionString: config } : config;
      super({ ...settings, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS });
      this.settings = settings;
      // A dropped connection reports itself twice (the error, then its end as another): with no listener
      // left for the second, it would end the process (see lost-connections.ts).
      this.on('error', () => undefined);
    }

    override connect(): Promise<Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<Client> | void {
      if (!callback)
        return new Promise((resolve, reject) => this.connect((error: Error | null) => (error ? reject(error) : resolve(this))));
      const done = callback as (error: Error | null, client?: Client) => void;
      const refusal = server.refusal();
      if (refusal) return process.nextTick(() => done(refusal));
      const attempt = server.attempt();
      const timer = setTimeout(() => {
        const error = this.dropped(`PostgreSQL did not complete a new connection within ${deadlines.connectMs} ms`);
        server.notAnswering(error);
        this.drop(error);
      }, deadlines.connectMs);
      super.connect((error: Error | null) => {
        clearTimeout(timer);
        attempt.finished(!error);
        if (!error) this.watch();
        done(error, this);
      });
    }

    /** Called after each statement is handed to pg, and after each ReadyForQuery: arms the watchdog while an answer is owed. */
    awaitingAnswer(): void {
      if (!this.watchdog || this.owesNothing()) return;
      this.trafficAtArm = this.traffic();
      this.watchdog.refresh();
    }

    private watch(): void {
      this.watchdog = setTimeout(() => void this.silent(), silenceMs);
      this.watchdog.unref();
      // After pg's own listener (attached as it connected): by then it has sent the next statement, if any.
      this.connection.on('readyForQuery', () => this.awaitingAnswer());
      const idle = { dropIfIdle: (error: PostgresNotAnswering) => this.isIdle() && this.drop(error) };
      server.clients.add(idle);
      this.once('end', () => {
        clearTimeout(this.watchdog);
        server.clients.delete(idle);
      });
    }

    private async silent(): Promise<void> {
      if (this.owesNothing() || this.checking) return;
      const traffic = this.traffic();
      if (traffic !== this.trafficAtArm) return this.awaitingAnswer();
      this.checking = true;
      const verdict = await askWhetherWorking(this.settings, this.state().processID, checkMs);
      this.checking = false;
      if (verdict !== 'no-answer') server.answered();
      if (this.owesNothing()) return;
      if (verdict === 'working' || verdict === 'inconclusive' || this.traffic() !== traffic) return this.awaitingAnswer();
      const error = this.dropped(
        verdict === 'no-answer'
          ? `PostgreSQL did not answer a statement within ${deadlines.queryMs} ms, nor a check on a new connection`
          : `PostgreSQL's answer to a statement did not arrive within ${deadlines.queryMs} ms (its backend is no longer running it)`,
      );
      if (verdict === 'no-answer') server.notAnswering(error);
      this.drop(error);
    }

    /**
     * Bytes received, plus bytes handed to the operating system to send: while this grows, answers are
     * arriving or a long statement (a grouped append, a COPY) is still on its way out.
     */
    private traffic(): number {
      const socket = this.connection.stream as Socket;
      return socket.bytesRead + socket.bytesWritten - socket.writableLength;
    }

    private owesNothing(): boolean {
      const state = this.state();
      return state.readyForQuery || state._ending || !state._queryable;
    }

    private isIdle(): boolean {
      const state = this.state();
      return state.readyForQuery && !state._ending && state._queryable;
    }

    private state(): PgClientState {
      return this as unknown as PgClientState;
    }

    private dropped(reason: string): PostgresNotAnswering {
      return new PostgresNotAnswering(`${reason}: connection dropped`);
    }

    /** pg fails the statements in flight with this error, the client stops being queryable, and the pool discards it. */
    private drop(error: PostgresNotAnswering): true {
      this.connection.stream.destroy(error);
      return true;
    }
  }

  // pg's query() has a dozen overloads; whatever it was given, an answer may now be owed. (Looked up on
  // each call, as an override's `super.query` would be: a spy on pg's prototype still sees every statement.)
  DeadlineClient.prototype.query = function (this: DeadlineClient, ...args: unknown[]) {
    const result = (Client.prototype.query as (this: Client, ...args: unknown[]) => unknown).apply(this, args);
    this.awaitingAnswer();
    return result;
  } as Client['query'];
  return DeadlineClient;
}
