import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DATABASE_POOL } from '../../../src/database/database-pool';
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { CONTACT_SOURCES_PORT, type ContactSources } from '../contact-source/contact-source.port';
import { RunDrivers } from '../pull-run/run-drivers';
import { runLocksOn } from '../pull-run/run-lock';

/**
 * The pull runs this api process drives (started over HTTP). They stop at the next page boundary when
 * the application shuts down, before the database pool closes; the runs stay `running`, and a worker
 * picks them up (at its start, or at its next sweep once this process is gone: resume-runs.ts; run-drivers.ts drives them).
 * Each is held by its lock (run-lock.ts) on this process's database while it is driven.
 */
@Injectable()
export class ApiRunDrivers extends RunDrivers implements BeforeApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(CONTACT_SOURCES_PORT) sources: ContactSources,
    @Inject(DATABASE_POOL) pool: Pool,
  ) {
    super({ store, sources, locks: runLocksOn(pool) });
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
