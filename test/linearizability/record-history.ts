/**
 * Runs a random concurrent workload against a store and records it as a history: every operation
 * with the instant it was invoked and the instant its answer arrived, on one logical clock (a
 * counter bumped at each call and each answer, so "B was invoked after A's answer arrived" is exact).
 * Clients append single events and pairs with random expectations (no_stream, any, stream_exists,
 * exact revisions around the last one they saw), re-append ids already used on the stream (also
 * while their first append is still in flight: one id under different expectations in one turn),
 * and read whole streams. Clients start in the same turn and go on as soon as their answer comes,
 * so the PostgreSQL store groups many of their appends and reads.
 */
import { randomUUID } from 'node:crypto';
import { WrongExpectedVersion } from '../../src/event-store/errors';
import type { AppendResult, EventStore, ExpectedRevision, RecordedEvent } from '../../src/event-store/event-store.port';
import { testEvent } from '../contracts/test-events';
import type { Entry } from './check-linearizable';
import type { Answer, Operation } from './event-store.model';

export type StoreEntry = Entry<Operation, Answer> & { stream: string };

export interface Workload {
  seed: number;
  streams: string[];
  clients: number;
  operationsPerClient: number;
}

/** mulberry32: a small seeded generator, so a failing seed can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Raw = AppendResult | WrongExpectedVersion | RecordedEvent[];

export async function recordHistory(store: EventStore, workload: Workload): Promise<StoreEntry[]> {
  const next = random(workload.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  /** Per stream: the id groups appended so far (in flight or not) and the last revision any client saw. */
  const used = new Map(workload.streams.map((s) => [s, [] as string[][]]));
  const seen = new Map(workload.streams.map((s) => [s, -1]));
  const raw: Array<Omit<StoreEntry, 'answer'> & { raw: Raw }> = [];
  let clock = 0;

  const operation = (stream: string): Operation => {
    if (next() < 0.2) return { kind: 'read' };
    const earlier = used.get(stream)!;
    let ids: string[];
    if (earlier.length && next() < 0.4) {
      const group = pick(earlier);
      const from = Math.floor(next() * group.length);
      ids = group.slice(from, from + 1 + Math.floor(next() * (group.length - from)));
    } else {
      ids = Array.from({ length: next() < 0.8 ? 1 : 2 }, () => randomUUID());
      earlier.push(ids);
    }
    const roll = next();
    const exact = Math.max(0, seen.get(stream)! + pick([-2, -1, 0, 0, 0, 1]));
    const expected: ExpectedRevision = roll < 0.15 ? 'no_stream' : roll < 0.3 ? 'any' : roll < 0.4 ? 'stream_exists' : exact;
    return { kind: 'append', ids, expected };
  };

  const invoke = async (stream: string, op: Operation): Promise<Raw> => {
    if (op.kind === 'read') return store.readStream(stream);
    try {
      return await store.append(
        stream,
        op.ids.map((id) => ({ ...testEvent('Checked'), id })),
        op.expected,
      );
    } catch (error) {
      if (error instanceof WrongExpectedVersion) return error;
      throw error;
    }
  };

  await Promise.all(
    Array.from({ length: workload.clients }, async (_, client) => {
      for (let i = 0; i < workload.operationsPerClient; i++) {
        const stream = pick(workload.streams);
        const op = operation(stream);
        const call = clock++;
        const answer = await invoke(stream, op);
        raw.push({ client, stream, call, ret: clock++, operation: op, raw: answer });
        const revision = Array.isArray(answer)
          ? answer.length - 1
          : answer instanceof WrongExpectedVersion
            ? Number(answer.actual === 'no_stream' ? -1 : answer.actual)
            : answer.nextRevision;
        seen.set(stream, Math.max(seen.get(stream)!, revision));
      }
    }),
  );

  // Where each answered position is in the stream's final history.
  const at = new Map<string, { revision: number; id: string }>();
  for (const stream of workload.streams)
    for (const event of await store.readStream(stream)) at.set(event.position, { revision: event.revision, id: event.id });
  return raw.map(({ raw: answer, ...entry }) => ({ ...entry, answer: toAnswer(answer, at) }));
}

function toAnswer(raw: Raw, at: Map<string, { revision: number; id: string }>): Answer {
  if (Array.isArray(raw)) return { kind: 'read', ids: raw.map((e) => e.id) };
  if (raw instanceof WrongExpectedVersion)
    return { kind: 'conflict', actual: raw.actual === 'no_stream' ? 'no_stream' : Number(raw.actual) };
  return { kind: 'written', nextRevision: raw.nextRevision, atPosition: at.get(raw.position) };
}
