import type { DataSource } from 'typeorm';
import type { ContactView } from '../../modules/contacts/contact.view';
import { ContactRow } from './contacts.entity';

export type { ContactView };

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
