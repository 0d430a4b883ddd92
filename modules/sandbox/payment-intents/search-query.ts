/**
 * The one Search Query Language form the sandbox understands: `metadata['key']:'value'` (single or
 * double quotes, as Stripe accepts). Anything else is rejected rather than half-understood.
 */
export interface MetadataQuery {
  key: string;
  value: string;
}

const METADATA_EQUALS = /^\s*metadata\[(['"])([^'"]+)\1\]\s*:\s*(['"])([^'"]*)\3\s*$/;

export function parseSearchQuery(query: string): MetadataQuery | undefined {
  const match = METADATA_EQUALS.exec(query);
  return match ? { key: match[2], value: match[4] } : undefined;
}
