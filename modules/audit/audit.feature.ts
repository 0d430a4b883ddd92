/**
 * Everything audit adds to Idem (see src/features/feature.ts): the audit tables; on each worker, the
 * audit_chain projector and the task that publishes its seals to `seal-ledger`; the two auditor routes;
 * `idem audit`.
 *
 * The projector runs as the feature's own service, outside the features' reactors list: the kernel
 * would rebuild nothing of it anyway, but the projection tests run every listed reactor on databases
 * that hold only the kernel's tables, and the chain needs its own. Its checkpoint is still a row of
 * projection_checkpoints (kind reactor), with the same locking, takeover and exactly-once batches.
 */
import { migrateAuditChain } from '../../projections/audit-chain/audit-chain.schema';
import { auditChainProjector, DEFAULT_SEAL_EVERY } from '../../projections/audit-chain/audit-chain.projector';
import type { Feature } from '../../src/features/feature';
import { startProjections } from '../../src/subscriptions/start-projections';
import { auditCommand } from './audit.command';
import { AuditModule } from './audit.module';
import { PUBLISH_SEALS_TASK } from './publish-seals/publish-seals.payload';
import { publishSealsTask } from './publish-seals/publish-seals';

export interface AuditOptions {
  /** A seal every this many events (default 1,000; at least 2, as each seal is itself an event). */
  sealEvery?: number;
}

export function auditFeature({ sealEvery = DEFAULT_SEAL_EVERY }: AuditOptions = {}): Feature {
  const projector = auditChainProjector({ sealEvery });
  return {
    name: 'audit',
    module: AuditModule,
    tasks: ({ store, pool, workerId }) => ({ [PUBLISH_SEALS_TASK]: publishSealsTask({ store, pool, workerId }) }),
    services: [({ store, pool }) => startProjections({ store, pool, readModels: [], reactors: [projector] })],
    commands: [auditCommand],
    migrate: migrateAuditChain,
  };
}
