import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { createIndexSql, createTableSql, tableSpecOf } from './table-spec';

@Entity({ name: 'widgets' })
@Index(['ownerId'])
@Index(['sku'], { unique: true, where: 'sku IS NOT NULL' })
class WidgetRow {
  @PrimaryColumn({ name: 'tenant', type: 'text' }) tenant!: string;
  @PrimaryColumn({ name: 'widget_id', type: 'text' }) widgetId!: string;
  @Column({ name: 'owner_id', type: 'text' }) ownerId!: string;
  @Column({ name: 'sku', type: 'text', nullable: true }) sku!: string | null;
  @Column({ name: 'count', type: 'bigint' }) count!: number;
  @Column({ name: 'attributes', type: 'jsonb' }) attributes!: object;
}

@Entity({ name: 'vague' })
class VagueRow {
  @PrimaryColumn({ name: 'id', type: 'text' }) id!: string;
  @Column() guessed!: string;
}

describe('tableSpecOf', () => {
  it('reads columns, the primary key and indexes from the TypeORM entity', () => {
    const spec = tableSpecOf(WidgetRow);
    expect(spec.primary.map((c) => c.column)).toEqual(['tenant', 'widget_id']);
    expect(createTableSql(spec, 'widgets_v3')).toBe(
      'CREATE TABLE widgets_v3 (\n  tenant text NOT NULL,\n  widget_id text NOT NULL,\n  owner_id text NOT NULL,\n  sku text,\n  count bigint NOT NULL,\n  attributes jsonb NOT NULL,\n  PRIMARY KEY (tenant, widget_id)\n)',
    );
    expect(createIndexSql(spec, 'widgets_v3').sort()).toEqual([
      'CREATE INDEX IF NOT EXISTS widgets_v3_owner_id ON widgets_v3 (owner_id)',
      'CREATE UNIQUE INDEX IF NOT EXISTS widgets_v3_sku ON widgets_v3 (sku) WHERE sku IS NOT NULL',
    ]);
  });

  it('refuses a column without an explicit name and type', () => {
    expect(() => tableSpecOf(VagueRow)).toThrow('VagueRow.guessed: give an explicit column type');
  });
});
