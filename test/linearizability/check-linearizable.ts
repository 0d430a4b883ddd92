/**
 * Is a concurrent history linearizable against a sequential model? The Wing & Gong search with
 * Lowe's memoization, as Porcupine implements it (github.com/anishathalye/porcupine,
 * checker.go `checkSingle`): walk the calls and returns in time order; an operation may take
 * effect (be "linearized") at any point between its call and its return, so at a call we try to
 * apply the operation to the model now; at a return whose operation is not yet applied, the last
 * choice was wrong and we backtrack. A (set of applied operations, model state) pair seen before
 * is not explored twice.
 */

/** One completed operation: `call` and `ret` are instants of one clock (a call at or after a return happened after it). */
export interface Entry<Op, Ans> {
  client: number;
  call: number;
  ret: number;
  operation: Op;
  answer: Ans;
}

export interface Model<S, Op, Ans> {
  init: S;
  /** The state after the operation, or undefined if the model would not answer `answer`. */
  step(state: S, operation: Op, answer: Ans): S | undefined;
  /** Equal keys for equal states. */
  key(state: S): string;
}

export type Verdict =
  /** `order` is a linearization: the entries' indexes in the order they take effect. */
  | { linearizable: true; order: number[] }
  /** `longest` is the longest linearizable prefix the search found, as entry indexes. */
  | { linearizable: false; longest: number[] };

interface Node {
  entry: number;
  isCall: boolean;
  time: number;
  match?: Node;
  prev: Node | null;
  next: Node | null;
}

/** Calls and returns as one doubly linked list in time order; at equal times calls come first (they overlap). */
function timeline<Op, Ans>(history: Array<Entry<Op, Ans>>): Node {
  const nodes: Node[] = [];
  history.forEach((entry, i) => {
    const call: Node = { entry: i, isCall: true, time: entry.call, prev: null, next: null };
    const ret: Node = { entry: i, isCall: false, time: entry.ret, prev: null, next: null };
    call.match = ret;
    nodes.push(call, ret);
  });
  nodes.sort((a, b) => a.time - b.time || Number(b.isCall) - Number(a.isCall));
  const head: Node = { entry: -1, isCall: false, time: -Infinity, prev: null, next: null };
  let last = head;
  for (const node of nodes) {
    last.next = node;
    node.prev = last;
    last = node;
  }
  return head;
}

/** Takes an applied call and its return out of the list. */
function lift(call: Node): void {
  for (const node of [call, call.match!]) {
    node.prev!.next = node.next;
    if (node.next) node.next.prev = node.prev;
  }
}

/** Puts them back, in the reverse order. */
function unlift(call: Node): void {
  for (const node of [call.match!, call]) {
    node.prev!.next = node;
    if (node.next) node.next.prev = node;
  }
}

export function checkLinearizable<S, Op, Ans>(history: Array<Entry<Op, Ans>>, model: Model<S, Op, Ans>, maxSteps = 5_000_000): Verdict {
  const head = timeline(history);
  const applied: Array<{ call: Node; before: S }> = [];
  const seen = new Set<string>();
  let done = 0n;
  let state = model.init;
  let longest: number[] = [];
  let node = head.next;
  for (let steps = 0; node; steps++) {
    if (steps > maxSteps)
      throw new Error(`linearizability search gave up after ${maxSteps} steps (${history.length} operations): make the histories shorter`);
    if (node.isCall) {
      const entry = history[node.entry];
      const after = model.step(state, entry.operation, entry.answer);
      const bits = done | (1n << BigInt(node.entry));
      if (after !== undefined && !seen.has(`${bits.toString(36)}|${model.key(after)}`)) {
        seen.add(`${bits.toString(36)}|${model.key(after)}`);
        applied.push({ call: node, before: state });
        if (applied.length > longest.length) longest = applied.map((a) => a.call.entry);
        state = after;
        done = bits;
        lift(node);
        node = head.next;
      } else {
        node = node.next;
      }
      continue;
    }
    // A return whose operation was never applied: undo the last choice and try the next call after it.
    const last = applied.pop();
    if (!last) return { linearizable: false, longest };
    state = last.before;
    done &= ~(1n << BigInt(last.call.entry));
    unlift(last.call);
    node = last.call.next;
  }
  return { linearizable: true, order: applied.map((a) => a.call.entry) };
}
