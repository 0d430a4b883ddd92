/**
 * A TypeScript script run as a real child process (so a test can SIGKILL it) that reports on stdout,
 * one JSON object per line; a test waits on those reports instead of sleeping.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type Report = Record<string, unknown> & { event: string };

const ROOT = join(__dirname, '..', '..');
/** TypeScript on require through @swc/core (bench/lib/register.js), so no build step is needed. */
const REGISTER = join(ROOT, 'bench', 'lib', 'register.js');

export class ReportingChild {
  readonly reports: Report[] = [];
  readonly exited: Promise<number | null>;
  protected readonly process: ChildProcess;
  private waiters: Array<() => void> = [];
  /** Set once the child has exited and its stdout is read to the end: no report can follow. */
  private ended: string | undefined;

  constructor(script: string, env: Record<string, string>) {
    this.process = spawn(process.execPath, ['-r', REGISTER, script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: this.process.stdout! }).on('line', (line) => {
      try {
        this.reports.push(JSON.parse(line));
      } catch {
        return;
      }
      this.wakeWaiters();
    });
    this.exited = new Promise((resolve) => this.process.once('exit', (code) => resolve(code)));
    // 'close' comes after the last line: a wait on a child that is gone fails now, instead of keeping
    // its timer (and the jest worker) alive until its timeout, e.g. in a test that already timed out.
    this.process.once('close', (code, signal) => {
      this.ended = `exited (${signal ?? `code ${code}`})`;
      this.wakeWaiters();
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  /** Resolves with the first report (past or future) matching `predicate`. */
  async waitFor(what: string, predicate: (report: Report) => boolean, timeoutMs = 30_000): Promise<Report> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.reports.find(predicate);
      if (found) return found;
      const crashed = this.reports.find((r) => r.event === 'crashed');
      if (crashed) throw new Error(`child ${this.pid} crashed while waiting for ${what}: ${String(crashed.error)}`);
      if (this.ended) throw new Error(`child ${this.pid} ${this.ended} while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`child ${this.pid}: no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wakeWaiters(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** One line on the child's stdin. */
  send(line: string): void {
    this.process.stdin!.write(`${line}\n`);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill(signal);
    await this.exited;
  }
}
