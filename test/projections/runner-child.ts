/** Spawns test/projections/runner-process.ts as a real child process and follows its reports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type Report = Record<string, unknown> & { event: string };

const ROOT = join(__dirname, '..', '..');
/** TypeScript on require through @swc/core (bench/lib/register.js), so no build step is needed. */
const REGISTER = join(ROOT, 'bench', 'lib', 'register.js');

export class RunnerChild {
  readonly reports: Report[] = [];
  readonly exited: Promise<number | null>;
  private readonly process: ChildProcess;
  private waiters: Array<() => void> = [];

  constructor(databaseUrl: string, env: Record<string, string> = {}) {
    this.process = spawn(process.execPath, ['-r', REGISTER, join(__dirname, 'runner-process.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: this.process.stdout! }).on('line', (line) => {
      try {
        this.reports.push(JSON.parse(line));
      } catch {
        return;
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.exited = new Promise((resolve) => this.process.once('exit', (code) => resolve(code)));
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
      if (crashed) throw new Error(`runner crashed while waiting for ${what}: ${String(crashed.error)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`runner ${this.pid}: no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Started with WAIT_FOR_GO: begin running projections now. */
  go(): void {
    this.process.stdin!.write('go\n');
  }

  /** Projections this process currently runs (last reported state `active`). */
  activeProjections(): Set<string> {
    const state = new Map<string, string>();
    for (const r of this.reports) if (r.event === 'status') state.set(r.projection as string, r.state as string);
    return new Set([...state].filter(([, s]) => s === 'active').map(([name]) => name));
  }

  committedProjections(): Set<string> {
    return new Set(this.reports.filter((r) => r.event === 'committed').map((r) => r.projection as string));
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    this.process.kill(signal);
    await this.exited;
  }
}
