/**
 * Checks a recorded store history stream by stream (linearizability is local: a history is
 * linearizable iff each object's sub-history is, Herlihy & Wing 1990, Theorem 1) and, for a stream
 * that fails, prints its history in a form a person can follow: ids as e0, e1… in order of first
 * use, each operation with its client, its [call, return] instants, what it asked and what it was
 * answered, and the longest prefix the search could linearize.
 */
import { checkLinearizable, type Model } from './check-linearizable';
import { step, type Answer, type DuplicateIdOutsideItsSlot, type Operation, type StreamState } from './event-store.model';
import type { StoreEntry } from './record-history';

export function eventStoreModel(duplicates: DuplicateIdOutsideItsSlot): Model<StreamState, Operation, Answer> {
  return { init: [], step: (state, operation, answer) => step(state, operation, answer, duplicates), key: (state) => state.join(',') };
}

/** Undefined when every stream's history is linearizable, else a report of the first that is not. */
export function checkStoreHistory(history: StoreEntry[], duplicates: DuplicateIdOutsideItsSlot): string | undefined {
  const streams = [...new Set(history.map((e) => e.stream))];
  for (const stream of streams) {
    const entries = history.filter((e) => e.stream === stream).sort((a, b) => a.call - b.call);
    const verdict = checkLinearizable(entries, eventStoreModel(duplicates));
    if (!verdict.linearizable) return describeFailure(stream, entries, verdict.longest, duplicates);
  }
  return undefined;
}

function describeFailure(stream: string, entries: StoreEntry[], longest: number[], duplicates: DuplicateIdOutsideItsSlot): string {
  const labels = new Map<string, string>();
  const label = (id: string) => labels.get(id) ?? (labels.set(id, `e${labels.size}`), labels.get(id)!);
  for (const entry of entries) if (entry.operation.kind === 'append') entry.operation.ids.forEach(label);
  const asked = (op: Operation) =>
    op.kind === 'read' ? 'read the stream' : `append [${op.ids.map(label).join(' ')}] expecting ${op.expected}`;
  const answered = (answer: Answer) => {
    if (answer.kind === 'read') return `[${answer.ids.map(label).join(' ')}]`;
    if (answer.kind === 'conflict') return `WrongExpectedVersion, actual ${answer.actual}`;
    const at = answer.atPosition ? `revision ${answer.atPosition.revision} holds ${label(answer.atPosition.id)}` : 'no event there';
    return `written, nextRevision ${answer.nextRevision} (its position: ${at})`;
  };
  const model = eventStoreModel(duplicates);
  const state = longest.reduce((s, i) => model.step(s, entries[i].operation, entries[i].answer)!, model.init);
  const lines = entries.map(
    (e, i) =>
      `  #${String(i).padEnd(3)} client ${String(e.client).padEnd(3)} [${String(e.call).padStart(5)} .. ${String(e.ret).padStart(5)}]  ${asked(e.operation).padEnd(44)} → ${answered(e.answer)}`,
  );
  return [
    `stream ${stream}: not linearizable (${entries.length} operations).`,
    `Longest linearizable prefix: ${longest.map((i) => `#${i}`).join(' ')}; the stream then holds [${state.map(label).join(' ')}]`,
    'and no remaining operation can take effect next with the answer it got.',
    ...lines,
  ].join('\n');
}
