/**
 * One checkpoint format for both stores: two unsigned 64-bit integers, `"<major>/<minor>"`.
 * PostgreSQL: transaction id / global sequence; EventStoreDB: commit / prepare position.
 * Callers store and pass it back; only adapters look inside.
 */
export type Checkpoint = string & { readonly __checkpoint: unique symbol };

const SHAPE = /^(0|[1-9][0-9]{0,19})\/(0|[1-9][0-9]{0,19})$/;
/**
 * The largest parts either store can hold: PostgreSQL's transaction id is an unsigned 64-bit `xid8`
 * and its sequence a signed `bigint`; EventStoreDB's commit and prepare positions are signed 64-bit.
 * A larger part is no checkpoint: passed on, it made PostgreSQL fail the read ("out of range", a 500).
 */
const MAX_MAJOR = 2n ** 64n - 1n;
const MAX_MINOR = 2n ** 63n - 1n;

function partsOf(value: string): { major: bigint; minor: bigint } | undefined {
  const match = SHAPE.exec(value);
  if (!match) return undefined;
  const major = BigInt(match[1]);
  const minor = BigInt(match[2]);
  return major <= MAX_MAJOR && minor <= MAX_MINOR ? { major, minor } : undefined;
}

export function encodeCheckpoint(major: bigint | string, minor: bigint | string): Checkpoint {
  return `${major}/${minor}` as Checkpoint;
}

/**
 * A position past every event of `major` and before every later one: on PostgreSQL the settled
 * horizon a filtered read moves on to, past the events it does not want (every transaction up to
 * `major` read).
 */
export function checkpointThrough(major: bigint | string): Checkpoint {
  return encodeCheckpoint(major, MAX_MINOR);
}

/**
 * A checkpoint for people (`idem projections status`): as it is for an event's position, and
 * `up to <major>` for a checkpointThrough, whose minor part (2^63 − 1) means "all of it".
 */
export function describeCheckpoint(checkpoint: Checkpoint): string {
  const { major, minor } = decodeCheckpoint(checkpoint);
  return minor === MAX_MINOR ? `up to ${major}` : checkpoint;
}

export function decodeCheckpoint(checkpoint: string): { major: bigint; minor: bigint } {
  const parts = partsOf(checkpoint);
  if (!parts) throw new InvalidCheckpoint(checkpoint);
  return parts;
}

export function isCheckpoint(value: unknown): value is Checkpoint {
  return typeof value === 'string' && partsOf(value) !== undefined;
}

/** Orders two checkpoints of the same store. */
export function compareCheckpoints(a: Checkpoint, b: Checkpoint): number {
  const x = decodeCheckpoint(a);
  const y = decodeCheckpoint(b);
  if (x.major !== y.major) return x.major < y.major ? -1 : 1;
  if (x.minor !== y.minor) return x.minor < y.minor ? -1 : 1;
  return 0;
}

export class InvalidCheckpoint extends Error {
  constructor(readonly value: string) {
    super(`"${value}" is not a checkpoint (expected "<number>/<number>", each within 64 bits)`);
    this.name = 'InvalidCheckpoint';
  }
}
