/**
 * Everything audit adds to Idem (see src/features/feature.ts): the audit tables; on each worker, the
 * audit_chain projector (a reactor: never rebuilt) and the task that publishes its seals to `seal-ledger`; the two auditor routes; `idem audit`.
 */
import { migrateAuditChain } from '../../projections/audit-chain/audit-chain.schema';
import { auditChainProjector, DEFAULT_SEAL_EVERY } from '../../projections/audit-chain/audit-chain.projector';
import type { Feature } from '../../src/features/feature';
import { auditCommand } from './audit.command';
import { AuditModule } from './audit.module';
import { PUBLISH_SEALS_TASK } from './publish-seals/publish-seals.payload';
import { publishSealsTask } from './publish-seals/publish-seals';

export interface AuditOptions {
  /** A seal every this many events (default 1,000; at least 2, as each seal is itself an event). */
  sealEvery?: number;
}

export function auditFeature({ sealEvery = DEFAULT_SEAL_EVERY }: AuditOptions = {}): Feature {
  return {
    name: 'audit',
    module: AuditModule,
    tasks: ({ store, pool, workerId }) => ({ [PUBLISH_SEALS_TASK]: publishSealsTask({ store, pool, workerId }) }),
    reactors: [auditChainProjector({ sealEvery })],
    // No lane of its own: the chain reads every event, and riding the default lane's read beside the
    // biggest reader (contacts) is cheaper than a read of its own, which cost ~25 µs CPU per imported record.
    commands: [auditCommand],
    migrate: migrateAuditChain,
  };
}
