/** Public surface of the contacts (sync) module; `contactsFeature` is what the composition roots plug in. */
export { contactsFeature, type ContactsPorts } from './contacts.feature';
export type { ImportEvent } from './contact.events';
export { contactSourcesAt } from './contact-source/configured-sources';
export { driveRun, loadRun, type RunDriverDeps } from './pull-run/drive-run';
export { startRun, unfinishedRuns } from './pull-run/start-run';
export { toRunView, type RunView } from './import-run.view';
export { evolveImportRun, initialImportRunState } from './import-run.state';
