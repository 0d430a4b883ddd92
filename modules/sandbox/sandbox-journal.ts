/**
 * What the sandbox provider holds, kept on disk so that a restart forgets nothing a client could ask
 * about again: payment intents, customers and their PaymentMethods, and answered idempotency keys.
 * Stripe never forgets a charge; a provider that did would hide a double charge from DESIGN §9
 * invariant 1, which is counted at the provider: after `npm start` is stopped (or killed) with a charge
 * in flight, Idem's recovery asks the provider what happened, and an empty sandbox would answer
 * "nothing" and be charged again without a trace of the first.
 *
 * An append-only NDJSON journal, one line per change, written synchronously before the change is
 * answered: a killed process loses nothing it answered (the lines are in the kernel's page cache;
 * a machine crash may lose the last ones — this is a development provider, not a bank). At start the
 * journal is replayed into the stores and rewritten as the current state only (temporary file,
 * rename), so it does not grow across restarts. `POST /_sandbox/reset` empties it.
 *
 * Not kept, and said so in modules/sandbox/README.md: faults and held answers (a test's setup), the
 * request log, webhook deliveries still waiting for a retry, and idempotency keys whose request was
 * still running (Stripe stores only results of endpoint execution; a key with none is free again).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { StoredCustomer, StoredPaymentMethod } from './customers/customers.store';
import type { IdempotencyRecord } from './idempotency/idempotency.store';
import type { PaymentIntent } from './payment-intents/payment-intent';
import type { SandboxState } from './sandbox-state';

export type JournalEntry =
  /** A new intent or a new version of one; `at` is when it changed (search sees it `searchLagMs` later). */
  | { kind: 'intent'; at: number; intent: PaymentIntent }
  | { kind: 'customer'; customer: StoredCustomer }
  | { kind: 'payment_method'; method: StoredPaymentMethod }
  | { kind: 'idempotency_key'; key: string; record: IdempotencyRecord };

export const JOURNAL_FILE = 'provider-state.ndjson';
/** Holds the pid of the sandbox that keeps the journal: two sandboxes on one journal would lose each other's lines. */
export const LOCK_FILE = 'provider-state.lock';

export class SandboxJournal {
  private constructor(
    private readonly file: string,
    private readonly lock: string,
    private fd: number,
    /** Where the next line starts: a line that fails half-written is cut back to here. */
    private size: number,
  ) {}

  /**
   * Replays `dir`'s journal into `state` (empty stores), rewrites it as that state, and keeps it open
   * for the stores' changes. A line that does not parse (a write cut short by a crash) ends the replay
   * there: every whole line before it was answered, the torn one was not.
   */
  static open(dir: string, state: SandboxState): SandboxJournal {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, JOURNAL_FILE);
    const lock = takeLock(join(dir, LOCK_FILE));
    let fd: number;
    let size = 0;
    try {
      if (existsSync(file)) replay(readFileSync(file, 'utf8'), state);
      const compacted = `${file}.compacting`;
      fd = openSync(compacted, 'w');
      for (const entry of currentEntries(state)) size = writeLine(fd, size, line(entry));
      fsyncSync(fd);
      renameSync(compacted, file);
    } catch (error) {
      releaseLock(lock);
      throw error;
    }
    const journal = new SandboxJournal(file, lock, fd, size);
    state.intents.onChange = (intent, at) => journal.record({ kind: 'intent', at, intent });
    state.customers.onCustomer = (customer) => journal.record({ kind: 'customer', customer });
    state.customers.onPaymentMethod = (method) => journal.record({ kind: 'payment_method', method });
    state.idempotency.onAnswered = (key, record) => journal.record({ kind: 'idempotency_key', key, record });
    state.journal = journal;
    return journal;
  }

  /** Throws once closed: the change it stands for is then refused rather than written to a reused descriptor. */
  record(entry: JournalEntry): void {
    this.size = writeLine(this.openFd(), this.size, line(entry));
  }

  /**
   * `POST /_sandbox/reset`: the provider forgets everything, on disk too. The next line goes at 0: the
   * descriptor's own offset stays where it was, and a line written there would follow a run of NUL
   * bytes that replay cannot parse, forgetting every change made after the reset.
   */
  clear(): void {
    ftruncateSync(this.openFd(), 0);
    this.size = 0;
  }

  close(): void {
    if (this.fd < 0) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = -1;
    releaseLock(this.lock);
  }

  private openFd(): number {
    if (this.fd < 0) throw new Error(`the sandbox journal ${this.file} is closed`);
    return this.fd;
  }

  get path(): string {
    return this.file;
  }
}

const line = (entry: JournalEntry) => `${JSON.stringify(entry)}\n`;

/**
 * Writes one whole line at `size` and returns the new size. A write may take fewer bytes than asked
 * (a full disk): the rest is written after it, and a line that fails half-way is cut back off, so the
 * next line never joins a torn one — replay stops at the first line that does not parse, and would
 * forget every answered change after it.
 */
function writeLine(fd: number, size: number, text: string): number {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, size + written);
  } catch (error) {
    if (written > 0) ftruncateSync(fd, size);
    throw error;
  }
  return size + bytes.length;
}

/** Locks this process holds: a lock naming our own pid is ours only if it is here (else a container reused the pid). */
const heldHere = new Set<string>();

/** Takes the lock for this process; a lock left by a process that is gone (killed) is taken over. */
function takeLock(lock: string): string {
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      heldHere.add(lock);
      return lock;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lock, 'utf8'));
    const held = holder === process.pid ? heldHere.has(lock) : Number.isInteger(holder) && holder > 0 && isRunning(holder);
    if (held)
      throw new Error(`the sandbox state in ${dirname(lock)} is in use by process ${holder}; stop it or use another data directory`);
    rmSync(lock, { force: true });
  }
}

function releaseLock(lock: string): void {
  heldHere.delete(lock);
  rmSync(lock, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function replay(text: string, state: SandboxState): void {
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    let entry: JournalEntry;
    try {
      entry = JSON.parse(raw) as JournalEntry;
    } catch {
      return;
    }
    switch (entry.kind) {
      case 'intent':
        state.intents.restore(entry.intent, entry.at);
        break;
      case 'customer':
        state.customers.restoreCustomer(entry.customer);
        break;
      case 'payment_method':
        state.customers.restorePaymentMethod(entry.method);
        break;
      case 'idempotency_key':
        state.idempotency.restore(entry.key, entry.record);
        break;
    }
  }
}

/** The state as the fewest entries that replay to it: each object's current version (expired keys dropped). */
function* currentEntries(state: SandboxState): Generator<JournalEntry> {
  for (const { intent, at } of state.intents.versionsForJournal()) yield { kind: 'intent', at, intent };
  for (const customer of state.customers.allCustomers()) yield { kind: 'customer', customer };
  for (const method of state.customers.allPaymentMethods()) yield { kind: 'payment_method', method };
  for (const [key, record] of state.idempotency.answeredKeys()) yield { kind: 'idempotency_key', key, record };
}
