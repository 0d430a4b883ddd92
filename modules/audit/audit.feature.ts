/**
 * Everything audit adds to Idem (see src/features/feature.ts): the audit tables; on each worker, the
 * audit_chain projector (a reactor: never rebuilt; audit.core.ts) and the task that publishes its seals to `seal-ledger`; the two
 * auditor routes. `idem audit` comes through audit.cli.ts.
 */
import type { Feature } from '../../src/features/feature';
import { auditCore, type AuditOptions } from './audit.core';
import { AuditModule } from './audit.module';
import { PUBLISH_SEALS_TASK } from './publish-seals/publish-seals.payload';
import { publishSealsTask } from './publish-seals/publish-seals';

export type { AuditOptions };

export function auditFeature(options: AuditOptions = {}): Feature {
  return {
    // No lane of its own: the chain reads every event, and riding the default lane's read beside the
    // biggest reader (contacts) is cheaper than a read of its own, which cost ~25 µs CPU per imported record.
    ...auditCore(options),
    module: AuditModule,
    tasks: ({ store, pool, workerId }) => ({ [PUBLISH_SEALS_TASK]: publishSealsTask({ store, pool, workerId }) }),
  };
}
