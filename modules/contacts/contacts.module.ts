import { Module } from '@nestjs/common';
import { GetContactController } from './get-contact/get-contact.controller';
import { ImportContactsController } from './import-contacts/import-contacts.controller';

/** The contacts api: sources push records; sync, support and auditors read a contact and its history. */
@Module({ controllers: [ImportContactsController, GetContactController] })
export class ContactsModule {}
