import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

/** Which of a request's ids a row holds. */
export type OrderRequestKeyKind = 'customer' | 'request';

/**
 * Every customer id and request id an order's charge requests carried, with the order. After a decline
 * the order may be requested again by another customer and in another request; its job then shows only
 * the latest, and the first customer, quoting their own id or their request's, would find nothing. The
 * key starts with the id, so its index answers "which orders did this customer or request ask for?".
 */
@Entity({ name: 'order_request_keys' })
export class OrderRequestKeyRow {
  @PrimaryColumn({ name: 'key', type: 'text' })
  key!: string;

  @PrimaryColumn({ name: 'order_id', type: 'text' })
  orderId!: string;

  @Column({ name: 'kind', type: 'text' })
  kind!: OrderRequestKeyKind;

  /** Stream revision of the first `ChargeRequested` that carried the id. */
  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
