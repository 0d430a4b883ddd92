/**
 * Faults of the sandbox CRM, armed per page through its control API (our own fake: the kinds are
 * what a pull run must survive, not a vendor's documented failures). A fault strikes the page's
 * next `times` requests (default: until cleared).
 */
export const CRM_FAULT_KINDS = ['latency', 'error_500', 'timeout', 'drop_connection', 'contradictory'] as const;
export type CrmFaultKind = (typeof CRM_FAULT_KINDS)[number];

export interface CrmFault {
  page: number;
  kind: CrmFaultKind;
  /** How many more requests of that page it strikes; undefined: every one until cleared. */
  times?: number;
  /** latency: how long to wait before answering; timeout: how long to hold before closing (default 60 s). */
  ms?: number;
}

export function parseCrmFault(body: unknown): CrmFault | string {
  const b = (body ?? {}) as Record<string, unknown>;
  if (!Number.isInteger(b.page) || (b.page as number) < 1) return 'page must be an integer >= 1';
  if (!CRM_FAULT_KINDS.includes(b.kind as CrmFaultKind)) return `kind must be one of ${CRM_FAULT_KINDS.join(', ')}`;
  if (b.times !== undefined && !(Number.isInteger(b.times) && (b.times as number) >= 1)) return 'times must be an integer >= 1';
  if (b.ms !== undefined && !(Number.isInteger(b.ms) && (b.ms as number) >= 0 && (b.ms as number) <= 120_000))
    return 'ms must be an integer in 0..120000';
  return {
    page: b.page as number,
    kind: b.kind as CrmFaultKind,
    ...(b.times !== undefined ? { times: b.times as number } : {}),
    ...(b.ms !== undefined ? { ms: b.ms as number } : {}),
  };
}

export class CrmFaults {
  private faults: CrmFault[] = [];

  add(fault: CrmFault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  list(): CrmFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The fault that strikes this request of `page`, used up by one. */
  strike(page: number): CrmFault | undefined {
    const fault = this.faults.find((f) => f.page === page);
    if (!fault) return undefined;
    if (fault.times !== undefined && --fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}
