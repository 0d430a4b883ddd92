/** Public surface of the contacts (sync) module; `contactsFeature` is what the composition roots plug in. */
export { contactsFeature, type ContactsPorts } from './contacts.feature';
export * from './contact.events';
export { evolveContact, initialContactState, type ContactState } from './contact.state';
export { toContactView, type ContactView } from './contact.view';
export { CONTACT_SOURCES, isKnownSource } from './contact-sources';
export { importContactDecider, judgeContact, type ImportContact, type ContactVerdict } from './import-contact/import-contact.decision';
export { checkRecord, checksumOf, type ContactRecord } from './import-contact/contact-record';
export { importRecords, type RecordResult } from './import-contacts/import-records';
export { MAX_IMPORT_BODY_BYTES } from './import-contacts/import-contacts.controller';
export { CONTACT_SOURCES_PORT, type ContactSource, type ContactSources, type ContactPage } from './contact-source/contact-source.port';
export { contactSourcesAt } from './contact-source/configured-sources';
export { driveRun, loadRun, type RunDriverDeps } from './pull-run/drive-run';
export { resumeRun, startRun, unfinishedRuns } from './pull-run/start-run';
export { resumeUnfinishedRuns, type ResumedRuns } from './pull-run/resume-runs';
export { evolveRunView, toRunView, type RunView } from './import-run.view';
export { evolveImportRun, initialImportRunState, type ImportRunState } from './import-run.state';
export { importFile, contentHash, type FileImportOptions } from './import-file/import-file';
