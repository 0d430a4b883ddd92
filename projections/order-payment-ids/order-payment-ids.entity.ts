import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from '../../src/subscriptions/read-models/column-transformers';

/**
 * Every provider payment id (intent `pi_…`, charge `ch_…`) an order's events name, with the order:
 * a second charge the provider holds, a declined earlier request's intent, a payment support recorded
 * when resolving a review. A customer quoting any of them from a bank statement leads to the order.
 * The key starts with the payment id, so its index answers "which orders name this id?".
 */
@Entity({ name: 'order_payment_ids' })
export class OrderPaymentIdRow {
  @PrimaryColumn({ name: 'payment_id', type: 'text' })
  paymentId!: string;

  /** Usually one order; an id another order's charge also names (a mix-up support must see) lists both. */
  @PrimaryColumn({ name: 'order_id', type: 'text' })
  orderId!: string;

  /** Type of the first event that named the id (e.g. `ChargeFailed` for a declined request's intent). */
  @Column({ name: 'named_by', type: 'text' })
  namedBy!: string;

  /** Stream revision of that event. */
  @Column({ name: 'revision', type: 'bigint', transformer: bigintAsNumber })
  revision!: number;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
