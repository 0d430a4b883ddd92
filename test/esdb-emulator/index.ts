/**
 * An in-process EventStoreDB protocol emulator for tests (DESIGN.md §2: the real server cannot run
 * here). It serves the real `@eventstore/db-client` 6.x over gRPC with the server's behaviour, each rule citing the
 * server source it follows (kurrent-io/KurrentDB, tags v24.10.4/v24.10.5), and gives tests the faults production has: dropped subscriptions, a server that goes
 * away and comes back on the same port, slow answers, writes held in flight.
 *
 *   const esdb = await startEsdbEmulator();
 *   const client = EventStoreDBClient.connectionString(esdb.connectionString);
 */
import { rmSync } from 'node:fs';
import type { DropKind, EmulatorContext, EmulatorSettings, EmulatorStats } from './context';
import { EventLog } from './event-log';
import { CommittedEventIdCache, SERVER_CACHE_BYTES } from './id-cache';
import type { GossipMember } from './gossip.rpc';
import type { GrpcJs } from './proto';
import type { NodeState } from './node-state';
import { PreIndex } from './pre-index';
import { EFFECTIVE_MAX_LOG_RECORD_SIZE } from './proposed-events';
import { bind, createServer, shutdown } from './server';
import { writeStartupEvents } from './system-events';
import { generateTlsMaterial, type TlsMaterial } from './tls';
import { WriteGate } from './write-gate';

export type { DropKind, EmulatorStats } from './context';
export type { NodeState } from './node-state';
export type { TlsMaterial } from './tls';

export interface EsdbEmulatorOptions extends Partial<EmulatorSettings> {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Size of the any/stream_exists dedupe cache; small values let tests evict it. */
  idCacheBytes?: number;
  /**
   * Serve TLS and check credentials as a secure server does (credentials.ts): `true` makes a CA and a
   * node certificate now (tls.ts); a cluster passes the material its nodes share.
   */
  tls?: boolean | TlsMaterial;
  /**
   * Start with the events a new server writes (system-events.ts), as a real server's `$all` holds them
   * (the default). Off (`false`) for tests that count every event in `$all`.
   */
  systemEvents?: boolean;
}

export interface SubscriptionSnapshot {
  /** False when the server was still catching the subscriber up. */
  caughtUp: boolean;
  sent: number;
}

export interface EsdbEmulator {
  /** `esdb://127.0.0.1:port?tls=false`, or with `tlsCAFile` naming the CA when the node serves TLS. */
  readonly connectionString: string;
  readonly port: number;
  /** The certificates a secure node serves and its clients trust; undefined when insecure. */
  readonly tls?: TlsMaterial;
  readonly stats: EmulatorStats;
  /** Ends every subscription call now; returns what each had done, e.g. whether it was still catching up. */
  dropSubscriptions(kind: DropKind): SubscriptionSnapshot[];
  /**
   * Goes away: subscriptions end with UNAVAILABLE, BatchAppend calls with CANCELLED, connections are
   * cut (an Append, delete or tombstone in flight fails UNAVAILABLE), writes held by `holdWrites()` are dropped
   * unwritten and the hold ends, the id cache is lost. Writes already decided (slowed by `setDelay`) are in the log
   * and stay. Returns what the ended subscriptions had done.
   */
  stop(): Promise<SubscriptionSnapshot[]>;
  /** Comes back on the same port with the same data, every write decided before the stop indexed. */
  start(): Promise<void>;
  restart(): Promise<SubscriptionSnapshot[]>;
  /**
   * Adds `ms` before every read answer, and between an append's decision and its indexing (pre-index.ts),
   * in log order. At or above the write budget an append answers Timeout and still commits when the
   * delay is over, as a server's may; a retry of it with the same ids that arrives before then matches
   * the pre-committed events and is dropped, timing out too (`IdempotentNotReady`).
   */
  setDelay(ms: number): void;
  /**
   * Adds `ms` before each event a plain read (`readStream`, `readAll`) sends: a server that answers a long read
   * steadily but slowly (a cold cache, a busy disk), each event its own `ReadResp` as the server sends them.
   */
  setReadPace(ms: number): void;
  /** Not ready, too busy, a follower of `leader`, or the leader again (see node-state.ts). */
  setNodeState(state: NodeState): void;
  /**
   * Holds every append, delete and tombstone in the writer's queue, before its commit check, until `releaseWrites()`;
   * released, they are decided in arrival order. Their `writeTimeoutMs` runs meanwhile (append-to-log.ts). A held
   * write whose call ends meanwhile, or that is held when the node stops, is never written.
   */
  holdWrites(): void;
  releaseWrites(): void;
  /** Event ids of appends on their way to the log, not yet indexed (held, or slowed by `setDelay`). */
  writesInFlight(): number;
  /** Resolves once `count` writes (appends, deletes) are held. */
  writesHeld(count: number): Promise<void>;
  close(): Promise<void>;
}

/** What the nodes of one emulated cluster share: one log, one writer. */
export type SharedLog = Pick<EmulatorContext, 'log' | 'cache' | 'inFlight' | 'preIndex' | 'writes'>;

export function newSharedLog(options: EsdbEmulatorOptions = {}): SharedLog {
  const log = new EventLog();
  if (options.systemEvents ?? true) writeStartupEvents(log, Boolean(options.tls));
  return {
    log,
    cache: new CommittedEventIdCache(options.idCacheBytes ?? SERVER_CACHE_BYTES),
    inFlight: { ids: 0 },
    preIndex: new PreIndex(),
    writes: new WriteGate(),
  };
}

/** One node; `cluster` (see cluster.ts) makes it a member sharing a log and answering gossip. */
export async function startEsdbEmulator(
  options: EsdbEmulatorOptions = {},
  cluster?: { shared: SharedLog; gossip: () => GossipMember[] },
): Promise<EsdbEmulator> {
  // `ClusterVNodeOptionsValidator`: a node does not start with a MaxAppendSize its log records cannot hold.
  if ((options.maxAppendSize ?? 0) > EFFECTIVE_MAX_LOG_RECORD_SIZE)
    throw new RangeError(`MaxAppendSize exceeded ${EFFECTIVE_MAX_LOG_RECORD_SIZE} bytes.`);
  const tls = options.tls === true ? generateTlsMaterial() : options.tls || undefined;
  const ctx: EmulatorContext = {
    ...(cluster?.shared ?? newSharedLog(options)),
    settings: {
      maxAppendSize: options.maxAppendSize ?? 1_048_576,
      maxAppendEventSize: options.maxAppendEventSize ?? 2_147_483_647,
      writeTimeoutMs: options.writeTimeoutMs ?? 2_000,
      batchAppend: options.batchAppend ?? true,
      serverVersion: options.serverVersion ?? '24.10.5',
    },
    stats: {
      batchAppendCalls: 0,
      batchAppendRequests: 0,
      appendCalls: 0,
      maxPendingOnOneBatchCall: 0,
      subscriptionsOpened: 0,
      notHandled: 0,
      timedOut: 0,
      callsCancelled: 0,
    },
    delayMs: 0,
    readPaceMs: 0,
    batchCalls: new Set(),
    writeCalls: new Set(),
    nodeState: { kind: 'leader' },
    gossip: cluster?.gossip,
    subscriptions: new Set(),
    secure: tls !== undefined,
  };
  let server: GrpcJs.Server | undefined = createServer(ctx);
  const port = await bind(server, options.port ?? 0, tls);
  // A single node's gossip names itself, the leader (gossip.rpc.ts).
  ctx.gossip ??= () => [{ port, leader: true }];

  const emulator: EsdbEmulator = {
    connectionString: tls ? `esdb://127.0.0.1:${port}?tlsCAFile=${encodeURIComponent(tls.caFile)}` : `esdb://127.0.0.1:${port}?tls=false`,
    port,
    tls,
    stats: ctx.stats,
    dropSubscriptions(kind) {
      const dropped = [...ctx.subscriptions];
      const states = dropped.map(({ caughtUp, sent }) => ({ caughtUp, sent }));
      for (const subscription of dropped) subscription.drop(kind);
      return states;
    },
    async stop() {
      if (!server) return [];
      const stopping = server;
      server = undefined;
      const dropped = emulator.dropSubscriptions('unavailable');
      // `Streams.BatchAppend.cs` `BatchAppendWorker.Work`: the shutdown cancels `context.CancellationToken`,
      // the worker's task ends cancelled and ASP.NET Core gRPC answers CANCELLED (every 24.10 line; the
      // client suite expects CancelledError from 24.4 on). A unary Append in flight loses its connection
      // when the server goes away: UNAVAILABLE (grpc-js's forceShutdown would send RST_STREAM CANCEL instead).
      for (const call of [...ctx.batchCalls]) call.drop('cancelled');
      for (const call of [...ctx.writeCalls]) call.drop('unavailable');
      // The writer's queue is in memory: what is held there is never written (`VNodeState.ShuttingDown` in
      // `StorageWriterService.Handle(StateChangeMessage)` stops the queue and sets `BlockWriter`; a write whose call
      // was just cut is skipped by its cancellation token anyway, append-to-log.ts). A follower's stop leaves the
      // leader's queue alone.
      if (ctx.nodeState.kind !== 'follower') ctx.writes.drop();
      ctx.cache.clear();
      await shutdown(stopping);
      return dropped;
    },
    async start() {
      if (server) return;
      // A node indexes everything its log holds before it serves: `IndexCommitter.Init` builds the index up to the
      // chaser checkpoint ("ReadIndex building..."), and a `PreLeader` becomes leader only on `ChaserCaughtUp`, once
      // the chaser has read all the writer wrote (`StorageWriterService.Handle(WaitForChaserToCatchUp)`,
      // `ClusterVNodeController.HandleAsPreLeader`, v24.10.5). Writes decided before a stop are there when it is back.
      await ctx.preIndex.drained();
      if (server) return;
      server = createServer(ctx);
      await bind(server, port, tls);
    },
    async restart() {
      const dropped = await emulator.stop();
      await emulator.start();
      return dropped;
    },
    setDelay(ms) {
      ctx.delayMs = ms;
    },
    setReadPace(ms) {
      ctx.readPaceMs = ms;
    },
    setNodeState(state) {
      ctx.nodeState = state;
    },
    writesInFlight: () => ctx.inFlight.ids,
    holdWrites: () => ctx.writes.hold(),
    releaseWrites: () => ctx.writes.release(),
    writesHeld: (count) => ctx.writes.whenWaiting(count),
    async close() {
      await emulator.stop();
      // The key material this node generated for itself is its own to delete (a cluster's shared one is the cluster's).
      if (options.tls === true && tls) rmSync(tls.dir, { recursive: true, force: true });
    },
  };
  return emulator;
}
