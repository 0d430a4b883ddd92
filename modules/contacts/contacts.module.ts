import { Module } from '@nestjs/common';
import { GetContactController } from './get-contact/get-contact.controller';
import { ImportContactsController } from './import-contacts/import-contacts.controller';
import { SyncRunsController } from './sync-runs/sync-runs.controller';

/**
 * The contacts api: sources push records, sync starts pull runs; sync, support and auditors read a
 * contact, its history and the runs. Needs CONTACT_SOURCES_PORT from the composition root.
 */
@Module({ controllers: [ImportContactsController, GetContactController, SyncRunsController] })
export class ContactsModule {}
