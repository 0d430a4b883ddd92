/** State shared by the emulator's RPC handlers; it outlives a `restart()` except where noted. */
import type { CommittedEventIdCache } from './id-cache';
import type { EventLog } from './event-log';
import type { GossipMember } from './gossip.rpc';
import type { NodeState } from './node-state';
import type { PreIndex } from './pre-index';
import type { WriteGate } from './write-gate';

export interface EmulatorSettings {
  /** `MaxAppendSize`: data + metadata + 2 × type length over one append, in bytes. */
  maxAppendSize: number;
  /** `MaxAppendEventSize` (24.10+, default `int.MaxValue`): one event's data + metadata + 2 × type length. */
  maxAppendEventSize: number;
  /** `WriteTimeoutMs`: how long the server lets a write take before answering Timeout. */
  writeTimeoutMs: number;
  /** Advertise and serve BatchAppend (a real 21.10+ server always does); off exercises `Append`. */
  batchAppend: boolean;
  /** The server line to behave as, e.g. '24.10.4' (bogus `End` checkpoint) or '24.10.5' (the default, as docker-compose pins). */
  serverVersion: string;
}

export interface EmulatorStats {
  batchAppendCalls: number;
  batchAppendRequests: number;
  appendCalls: number;
  /** Most appends waiting for an answer on one BatchAppend call at the same time. */
  maxPendingOnOneBatchCall: number;
  subscriptionsOpened: number;
  /** Requests refused because of the node's state (not ready, too busy, not the leader). */
  notHandled: number;
  /** Appends that answered Timeout (whether or not they commit later). */
  timedOut: number;
  /** Append, Delete and Tombstone calls the client cancelled, or let pass their deadline, before the server answered. */
  callsCancelled: number;
}

/** A live call the control surface can end: `ok` (status OK), `unavailable` or `cancelled`. */
export type DropKind = 'ok' | 'unavailable' | 'cancelled';

export interface DroppableCall {
  drop(kind: DropKind): void;
}

/** What a test can learn about a subscription it drops. */
export interface SubscriptionState extends DroppableCall {
  /** False while the server is still catching the subscriber up. */
  readonly caughtUp: boolean;
  /** Events sent so far on this call. */
  readonly sent: number;
}

export interface EmulatorContext {
  log: EventLog;
  /** Emptied by `restart()`: the server keeps it in memory only. */
  cache: CommittedEventIdCache;
  settings: EmulatorSettings;
  stats: EmulatorStats;
  /** Added before every append and read answer; see `setDelay`. */
  delayMs: number;
  /** Added before each event a plain read sends; see `setReadPace`. */
  readPaceMs: number;
  /** The writer's queue: holds appends and deletes after the gRPC checks, before `CheckCommit`, while a test needs them in flight. */
  writes: WriteGate;
  batchCalls: Set<DroppableCall>;
  /** Append, Delete and Tombstone calls not answered yet; `stop()` cuts their connection. */
  writeCalls: Set<DroppableCall>;
  /** See `setNodeState`. */
  nodeState: NodeState;
  /** The members its gossip reports: a cluster's, or the node alone (set once it has its port). */
  gossip?: () => GossipMember[];
  /** Event ids of appends between their arrival and the index (or their refusal); see `writesInFlight`. */
  inFlight: { ids: number };
  /** Writes decided and pre-committed, waiting for the index (pre-index.ts). */
  preIndex: PreIndex;
  subscriptions: Set<SubscriptionState>;
  /** Serves TLS: callers are authenticated (credentials.ts). */
  secure: boolean;
}

export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
