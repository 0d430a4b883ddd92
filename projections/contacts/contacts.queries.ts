import type { DataSource } from 'typeorm';
import { ContactRow } from './contacts.entity';

/** GET /v1/contacts/{source}/{sourceId}. */
export interface ContactView {
  source: string;
  sourceId: string;
  version?: number;
  updatedAt?: string;
  checksum: string;
  sourceEventId?: string;
  fields: Record<string, unknown>;
  revision: number;
}

export function toContactView(row: ContactRow): ContactView {
  return {
    source: row.source,
    sourceId: row.sourceId,
    ...(row.version !== null ? { version: row.version } : {}),
    ...(row.updatedAt ? { updatedAt: row.updatedAt.toISOString() } : {}),
    checksum: row.checksum,
    ...(row.sourceEventId ? { sourceEventId: row.sourceEventId } : {}),
    fields: row.fields,
    revision: row.revision,
  };
}

export class ContactQueries {
  constructor(private readonly dataSource: DataSource) {}

  async findContact(source: string, sourceId: string): Promise<ContactView | null> {
    const row = await this.dataSource.getRepository(ContactRow).findOneBy({ source, sourceId });
    return row ? toContactView(row) : null;
  }

  countContacts(source?: string): Promise<number> {
    return this.dataSource.getRepository(ContactRow).countBy(source ? { source } : {});
  }
}
