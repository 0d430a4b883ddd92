/**
 * One checkpoint format for both stores: two unsigned 64-bit integers, `"<major>/<minor>"`.
 * PostgreSQL: transaction id / global sequence; EventStoreDB: commit / prepare position.
 * Callers store and pass it back; only adapters look inside.
 */
export type Checkpoint = string & { readonly __checkpoint: unique symbol };

const SHAPE = /^(0|[1-9][0-9]{0,19})\/(0|[1-9][0-9]{0,19})$/;

export function encodeCheckpoint(major: bigint | string, minor: bigint | string): Checkpoint {
  return `${major}/${minor}` as Checkpoint;
}

export function decodeCheckpoint(checkpoint: string): { major: bigint; minor: bigint } {
  const match = SHAPE.exec(checkpoint);
  if (!match) throw new InvalidCheckpoint(checkpoint);
  return { major: BigInt(match[1]), minor: BigInt(match[2]) };
}

export function isCheckpoint(value: unknown): value is Checkpoint {
  return typeof value === 'string' && SHAPE.test(value);
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
    super(`"${value}" is not a checkpoint (expected "<number>/<number>")`);
    this.name = 'InvalidCheckpoint';
  }
}
