/** Spawns test/projections/runner-process.ts as a real child process and follows its reports. */
import { join } from 'node:path';
import { ReportingChild } from '../harness/reporting-child';

export class RunnerChild extends ReportingChild {
  constructor(databaseUrl: string, env: Record<string, string> = {}) {
    super(join(__dirname, 'runner-process.ts'), { DATABASE_URL: databaseUrl, ...env });
  }

  /** Started with WAIT_FOR_GO: begin running projections now. */
  go(): void {
    this.send('go');
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
}
