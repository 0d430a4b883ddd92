/**
 * The checker must be able to say no: hand-made histories, one linearizable and three that are
 * not, including the shape of issue 12's defect 1.
 */
import type { ExpectedRevision } from '../../src/event-store/event-store.port';
import { checkStoreHistory } from './check-store-history';
import type { Answer } from './event-store.model';
import type { StoreEntry } from './record-history';

const append = (client: number, call: number, ret: number, ids: string[], expected: ExpectedRevision, answer: Answer): StoreEntry => ({
  client,
  stream: 's-1',
  call,
  ret,
  operation: { kind: 'append', ids, expected },
  answer,
});
const read = (client: number, call: number, ret: number, ids: string[]): StoreEntry => ({
  client,
  stream: 's-1',
  call,
  ret,
  operation: { kind: 'read' },
  answer: { kind: 'read', ids },
});
const written = (nextRevision: number, revision: number, id: string): Answer => ({
  kind: 'written',
  nextRevision,
  atPosition: { revision, id },
});
const conflict = (actual: number | 'no_stream'): Answer => ({ kind: 'conflict', actual });

describe('checkStoreHistory', () => {
  describe('when two overlapping no_stream appends race', () => {
    it('accepts one written and the other refused', () => {
      const history = [
        append(0, 0, 3, ['a'], 'no_stream', conflict(0)),
        append(1, 1, 2, ['b'], 'no_stream', written(0, 0, 'b')),
        read(2, 4, 5, ['b']),
      ];
      expect(checkStoreHistory(history, 'conflict')).toBeUndefined();
    });
  });

  describe('when a read that starts after a write was acknowledged does not see it', () => {
    it('reports the stream', () => {
      const history = [append(0, 0, 1, ['a'], 'no_stream', written(0, 0, 'a')), read(1, 2, 3, [])];
      expect(checkStoreHistory(history, 'conflict')).toContain('stream s-1: not linearizable');
    });
  });

  describe('when an append is answered written at a revision its expectation cannot reach (issue 12, defect 1)', () => {
    it('reports it, with the history in readable form', () => {
      const history = [
        append(0, 0, 1, ['a', 'b'], 'no_stream', written(1, 1, 'b')),
        append(1, 2, 5, ['e'], 0, written(1, 2, 'e')),
        append(2, 3, 4, ['e'], 1, written(2, 2, 'e')),
      ];
      const report = checkStoreHistory(history, 'conflict');
      expect(report).toContain('append [e2] expecting 0');
      expect(report).toContain('written, nextRevision 1 (its position: revision 2 holds e2)');
    });
  });

  describe('when an id is appended again at the current revision', () => {
    const history = [append(0, 0, 1, ['a'], 'no_stream', written(0, 0, 'a')), append(0, 2, 3, ['a'], 0, written(1, 1, 'a'))];
    it('accepts a second write where the store declares it writes ids again (EventStoreDB)', () => {
      expect(checkStoreHistory(history, 'appended')).toBeUndefined();
    });
    it('refuses it where the store declares it never writes an id twice (PostgreSQL)', () => {
      const report = checkStoreHistory(history, 'conflict');
      // The first append takes effect; the second, answered written for an id the stream holds, cannot.
      expect(report).toContain('stream s-1: not linearizable');
      expect(report).toContain('Longest linearizable prefix: #0; the stream then holds [e0]');
    });
  });
});
