/** Public surface of the contacts (sync) module. */
export { ContactsModule } from './contacts.module';
export * from './contact.events';
export { evolveContact, initialContactState, type ContactState } from './contact.state';
export { toContactView, type ContactView } from './contact.view';
export { CONTACT_SOURCES, isKnownSource } from './contact-sources';
export { importContactDecider, judgeContact, type ImportContact, type ContactVerdict } from './import-contact/import-contact.decision';
export { checkRecord, checksumOf, type ContactRecord } from './import-contact/contact-record';
export { importRecords, type RecordResult } from './import-contacts/import-records';
export { MAX_IMPORT_BODY_BYTES } from './import-contacts/import-contacts.controller';
