import { type DynamicModule, Module } from '@nestjs/common';
import { IDEM_CONFIG, type IdemConfig } from '../../src/config/config';
import { CONTACT_SOURCES_PORT, type ContactSources } from './contact-source/contact-source.port';
import { GetContactController } from './get-contact/get-contact.controller';
import { ImportContactsController } from './import-contacts/import-contacts.controller';
import { ApiRunDrivers } from './sync-runs/api-run-drivers';
import { SyncRunsController } from './sync-runs/sync-runs.controller';

/**
 * The contacts api: sources push records, sync starts pull runs; sync, support and auditors read a
 * contact, its history and the runs.
 */
@Module({})
export class ContactsModule {
  /** With the sources `sourcesFor` finds in the process's configuration (none: POST /v1/sync/runs answers 422). */
  static withSources(sourcesFor: (config: IdemConfig) => ContactSources): DynamicModule {
    return {
      module: ContactsModule,
      controllers: [ImportContactsController, GetContactController, SyncRunsController],
      providers: [{ provide: CONTACT_SOURCES_PORT, useFactory: sourcesFor, inject: [IDEM_CONFIG] }, ApiRunDrivers],
    };
  }
}
