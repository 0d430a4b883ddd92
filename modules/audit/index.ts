/** Public surface of the audit module; `auditFeature` is what the composition roots plug in. */
export { auditFeature, type AuditOptions } from './audit.feature';
export type { ChainBreak, BreakKind, VerifyReport } from './verify-history/chain-break';
