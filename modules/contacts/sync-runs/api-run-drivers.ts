import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '../../../src/event-store/event-store.port';
import { CONTACT_SOURCES_PORT, type ContactSources } from '../contact-source/contact-source.port';
import { RunDrivers } from '../pull-run/run-drivers';

/**
 * The pull runs this api process drives (started over HTTP). They stop at the next page boundary when
 * the application shuts down, before the database pool closes; the runs stay `running`, and a worker
 * picks them up (at its start, or once they have been silent for a while: resume-runs.ts; run-drivers.ts drives them).
 */
@Injectable()
export class ApiRunDrivers extends RunDrivers implements BeforeApplicationShutdown {
  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(CONTACT_SOURCES_PORT) sources: ContactSources) {
    super({ store, sources });
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }
}
