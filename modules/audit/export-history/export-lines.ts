/**
 * The NDJSON of `idem audit export`: one object per line, in this order — a header, every chained
 * event with its event and chain hash (in the global order), each seal right after the event it
 * seals, and an end line with the count and the running digest. `verify-file` needs nothing else.
 */
export const EXPORT_FORMAT = 'idem-audit-export/1';

export interface HeaderLine {
  kind: 'header';
  format: typeof EXPORT_FORMAT;
  exportedAt: string;
  events: number;
}

export interface EventLine {
  kind: 'event';
  eventNumber: number;
  position: string;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created: string;
  eventHash: string;
  /** Null for an event the chain never recorded that the store holds before the chain's end (a break: `extra`). */
  chainHash: string | null;
}

export interface SealLine {
  kind: 'seal';
  eventsSealed: number;
  position: string;
  digest: string;
}

export interface EndLine {
  kind: 'end';
  events: number;
  digest: string;
}

export type ExportLine = HeaderLine | EventLine | SealLine | EndLine;
