/**
 * The job the audit_chain projector queues, in the transaction that records a seal, to publish the
 * seals as `LedgerSealed` events. Imports nothing, so the projector can name it without the worker.
 */
export const PUBLISH_SEALS_TASK = 'publish-ledger-seals';

/**
 * One key for all: a publish already waiting is replaced, not doubled, and each run publishes every
 * seal not yet in the stream. Prefixed with the task, as graphile-worker keys are global across tasks.
 */
export const PUBLISH_SEALS_JOB_KEY = `${PUBLISH_SEALS_TASK}:seal-ledger`;
