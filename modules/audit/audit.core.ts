/**
 * What every process takes of audit (src/features/feature.ts, FeatureCore): the audit_chain projector
 * (a reactor: never rebuilt) and the audit tables. Apart from audit.feature.ts, so that `idem` loads it
 * without the routes and the seal task.
 */
import { auditChainProjector, DEFAULT_SEAL_EVERY } from '../../projections/audit-chain/audit-chain.projector';
import { migrateAuditChain } from '../../projections/audit-chain/audit-chain.schema';
import type { FeatureCore } from '../../src/features/feature';

export interface AuditOptions {
  /** A seal every this many events (default 1,000; at least 2, as each seal is itself an event). */
  sealEvery?: number;
}

export const auditCore = ({ sealEvery = DEFAULT_SEAL_EVERY }: AuditOptions = {}): FeatureCore => ({
  name: 'audit',
  reactors: [auditChainProjector({ sealEvery })],
  migrate: migrateAuditChain,
});
