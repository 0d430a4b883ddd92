/**
 * Collects the calls made during one turn of the event loop and hands them over together at the
 * turn's check phase (setImmediate), so that N callers cost one statement instead of N.
 *
 * Under load many requests reach the same store call in one turn; each separate statement costs
 * the process a pool checkout, a socket write that wakes a backend, and a result to set up, and the
 * server a protocol round and often a commit. On this project's 2-core machine those per-statement
 * costs, not the statements' own work, dominated (docs/BENCHMARKS.md). A call made alone still
 * goes out at the end of its turn, a few microseconds later.
 */
export class PerTurnBatcher<In, Out> {
  private pending: Array<{ input: In; resolve(out: Out): void; reject(error: unknown): void }> = [];

  /** `run` answers every input of a batch: one promise per input, in the inputs' order. */
  constructor(private readonly run: (inputs: In[]) => Promise<Out>[]) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      if (this.pending.push({ input, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let answers: Promise<Out>[];
    try {
      answers = this.run(batch.map((call) => call.input));
    } catch (error) {
      for (const call of batch) call.reject(error);
      return;
    }
    batch.forEach((call, i) => void answers[i].then(call.resolve, call.reject));
  }
}

/** `items` in consecutive slices of at most `size`. */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
