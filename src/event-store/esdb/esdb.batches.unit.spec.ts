import type { ResolvedEvent } from '@eventstore/db-client';
import { BatchAssembler } from './esdb.batches';
import { eventMatcher } from './esdb.filter';
import type { FeedItem } from './esdb.subscription-feed';

const at = (commit: number, stream = 'order-1', type = 'Happened'): FeedItem => ({
  kind: 'event',
  resolved: {
    event: {
      streamId: stream,
      id: `id-${commit}`,
      revision: BigInt(commit),
      type,
      data: {},
      metadata: {},
      isJson: true,
      created: new Date(0),
      position: { commit: BigInt(commit), prepare: BigInt(commit) },
    },
  } as ResolvedEvent,
});
const checkpoint = (commit: number): FeedItem => ({ kind: 'checkpoint', position: { commit: BigInt(commit), prepare: BigInt(commit) } });
const caughtUp: FeedItem = { kind: 'caught-up' };
const ids = (batches: ReturnType<BatchAssembler['assemble']>) => batches.map((b) => [b.events.map((e) => e.id), b.checkpoint, b.caughtUp]);

describe('BatchAssembler', () => {
  const assembler = (maxBatchSize = 10, after?: number) =>
    new BatchAssembler(
      after === undefined ? undefined : { commit: BigInt(after), prepare: BigInt(after) },
      eventMatcher({ streamCategories: ['order'] }),
      maxBatchSize,
    );

  it('ends a batch at caught_up, so the first caught-up batch ends exactly where history ended', () => {
    expect(ids(assembler().assemble([at(10), at(20), caughtUp, at(30)]))).toEqual([
      [['id-10', 'id-20'], '20/20', true],
      [['id-30'], '30/30', true],
    ]);
  });

  it('splits history into batches of at most maxBatchSize events', () => {
    expect(ids(assembler(2).assemble([at(1), at(2), at(3)])).map(([events]) => events)).toEqual([['id-1', 'id-2'], ['id-3']]);
  });

  it('never delivers an event at or before where it already is, e.g. after a resubscription', () => {
    const batches = assembler(10, 20);
    expect(ids(batches.assemble([at(20), at(30)]))).toEqual([[['id-30'], '30/30', false]]);
    expect(ids(batches.assemble([at(30), at(25), at(40)]))).toEqual([[['id-40'], '40/40', false]]);
  });

  it('moves past filtered-out and $ events and server checkpoints, reporting progress once without events', () => {
    const batches = assembler();
    expect(ids(batches.assemble([at(10, 'invoice-1'), at(20, '$$order-1', '$metadata'), checkpoint(50)]))).toEqual([[[], '50/0', false]]);
    expect(batches.assemble([checkpoint(40), checkpoint(50)])).toEqual([]);
  });

  it("resumes after the last event, not after a server checkpoint, and still delivers an event at a checkpoint's position", () => {
    // Some servers checkpoint where the next event will be written (esdb.md §5.4).
    const batches = assembler();
    batches.assemble([at(10), checkpoint(50)]);
    expect(batches.resumeFrom).toEqual({ commit: 10n, prepare: 10n });
    expect(ids(batches.assemble([at(50)]))).toEqual([[['id-50'], '50/50', false]]);
  });

  describe('when a server checkpoint is no place in the log', () => {
    const END = 2n ** 64n - 1n;
    const endCheckpoint: FeedItem = { kind: 'checkpoint', position: { commit: END, prepare: END } };

    it('ignores the End checkpoint of servers 24.10.0–24.10.4 and keeps handing out where it really is', () => {
      const batches = assembler();
      expect(ids(batches.assemble([at(10, 'invoice-1'), endCheckpoint, caughtUp]))).toEqual([[[], '10/10', true]]);
      expect(ids(batches.assemble([at(30)]))).toEqual([[['id-30'], '30/30', true]]);
    });

    it('starts over from the beginning when given an End checkpoint stored before the fix', () => {
      const batches = new BatchAssembler({ commit: END, prepare: END }, eventMatcher({ streamCategories: ['order'] }), 10);
      expect(batches.resumeFrom).toBeUndefined();
      expect(ids(batches.assemble([at(10)]))).toEqual([[['id-10'], '10/10', false]]);
    });
  });

  describe('when a server checkpoint falls on a position no event was delivered at yet', () => {
    it('hands it out as (commit, 0), which still resumes before the event at that commit position', () => {
      const batches = assembler();
      expect(ids(batches.assemble([at(10), checkpoint(50)]))).toEqual([[['id-10'], '50/0', false]]);
      expect(ids(batches.assemble([at(50)]))).toEqual([[['id-50'], '50/50', false]]);
    });
  });
});
